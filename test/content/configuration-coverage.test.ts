import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Heading as MdHeading, Root } from 'mdast';
import { toString } from 'mdast-util-to-string';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, test } from 'vitest';
import { CONTENT, headingsOf, pagesIn, splitFrontmatter } from '../helpers/content.ts';

/*
 * Coverage of the configuration reference against the installed webpack.
 *
 * Required: every property of webpack's options schema down to the third
 * level (`output.library.type`), and down to the fourth below the built-in
 * minimizer's options (`optimization.minimizeOptions.css.mergeRules`). Each
 * level is the union of the properties of every object alternative of the
 * option's type ($ref, anyOf, oneOf and allOf are followed).
 *
 * A path counts as documented when
 * - a heading on any page of the site reads exactly like it
 *   (`### output.filename`), or
 * - the page documents that one option object (SUBJECT_PAGES, for example
 *   `optimization.splitChunks` on the SplitChunksPlugin page) and a heading
 *   under its Options section names the rest of the path (`### chunks`), or
 * - it is the same schema object as a documented path under another name, and
 *   the reference says so: resolveLoader.* takes the object of resolve.*,
 *   optimization.minimize.* that of optimization.minimizeOptions.*,
 *   stats.children.* that of stats.*. The section of the option where the two
 *   names part (resolveLoader, optimization.minimize, stats.children) must
 *   link to the heading of the other one.
 *
 * Stale: a heading on a configuration page that starts with a top-level
 * option name and a dot must name a path that exists in the schema, and so
 * must every heading under the Options section of a subject page. devServer.*
 * is checked against the schema of the installed webpack-dev-server, because
 * webpack's own schema accepts any object there.
 */

const require = createRequire(import.meta.url);

interface SchemaNode {
  $ref?: string;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: boolean | SchemaNode;
  definitions?: Record<string, SchemaNode>;
  /** The webpack version that introduced the option (an annotation of this schema). */
  added?: string;
}

function loadSchema(request: string): SchemaNode {
  return JSON.parse(readFileSync(require.resolve(request), 'utf8')) as SchemaNode;
}

const webpackSchema = loadSchema('webpack/schemas/WebpackOptions.json');
const devServerSchema = loadSchema('webpack-dev-server/lib/options.json');

function deref(root: SchemaNode, node: SchemaNode | undefined): SchemaNode | undefined {
  let current = node;
  const seen = new Set<string>();
  while (current?.$ref) {
    const ref = current.$ref;
    if (seen.has(ref)) return undefined;
    seen.add(ref);
    const name = ref.replace(/^#\/definitions\//, '');
    current = root.definitions?.[name];
  }
  return current;
}

/** The object alternatives reachable from a schema node. */
function objectAlternatives(root: SchemaNode, node: SchemaNode | undefined, seen = new Set<SchemaNode>()): SchemaNode[] {
  const resolved = deref(root, node);
  if (!resolved || seen.has(resolved)) return [];
  seen.add(resolved);
  const result: SchemaNode[] = [];
  if (resolved.properties || resolved.additionalProperties !== undefined) result.push(resolved);
  for (const list of [resolved.anyOf, resolved.oneOf, resolved.allOf]) {
    for (const item of list ?? []) result.push(...objectAlternatives(root, item, seen));
  }
  return result;
}

/** Union of the property schemas of every object alternative. */
function propertiesOf(root: SchemaNode, node: SchemaNode | undefined): Map<string, SchemaNode[]> {
  const map = new Map<string, SchemaNode[]>();
  for (const alternative of objectAlternatives(root, node)) {
    for (const [name, child] of Object.entries(alternative.properties ?? {})) {
      map.set(name, [...(map.get(name) ?? []), child]);
    }
  }
  return map;
}

const topLevel = webpackSchema.properties ?? {};
const topNames = Object.keys(topLevel);

/** How deep the reference must go: three levels, four below the built-in minimizer's options. */
const DEPTH = 3;
const DEEPER: Record<string, number> = { 'optimization.minimize': 4, 'optimization.minimizeOptions': 4 };

/** The schema nodes of every path down to the required depth (a path may have several, one per alternative). */
function schemaPaths(): Map<string, SchemaNode[]> {
  const result = new Map<string, SchemaNode[]>();
  const walk = (path: string, nodes: SchemaNode[], depth: number, limit: number): void => {
    result.set(path, nodes);
    if (depth >= limit) return;
    const children = new Map<string, SchemaNode[]>();
    for (const node of nodes) {
      for (const [name, list] of propertiesOf(webpackSchema, node)) children.set(name, [...(children.get(name) ?? []), ...list]);
    }
    for (const [name, list] of children) {
      const child = `${path}.${name}`;
      walk(child, list, depth + 1, Math.max(limit, DEEPER[child] ?? 0));
    }
  };
  for (const name of topNames) walk(name, [topLevel[name]!], 1, DEEPER[name] ?? DEPTH);
  return result;
}

const paths = schemaPaths();

const objectsCache = new Map<string, Set<SchemaNode>>();
/** The object alternatives of a path: the schema objects whose properties are its children. */
function objectsOf(path: string): Set<SchemaNode> {
  let objects = objectsCache.get(path);
  if (!objects) {
    objects = new Set((paths.get(path) ?? []).flatMap((node) => objectAlternatives(webpackSchema, node)));
    objectsCache.set(path, objects);
  }
  return objects;
}

/** Whether a dotted path exists in a schema, starting from `node`. */
function existsIn(root: SchemaNode, node: SchemaNode | undefined, segments: string[]): boolean {
  if (segments.length === 0) return true;
  const [head, ...rest] = segments as [string, ...string[]];
  const alternatives = objectAlternatives(root, node);
  const children: SchemaNode[] = [];
  for (const alternative of alternatives) {
    const declared = alternative.properties?.[head];
    if (declared) children.push(declared);
  }
  if (children.length === 0) {
    // A map-like object (no declared properties, only additionalProperties)
    // accepts any key, e.g. resolve.alias.<name>.
    for (const alternative of alternatives) {
      const extra = alternative.additionalProperties;
      if (!alternative.properties || Object.keys(alternative.properties).length === 0) {
        if (extra === true) return rest.length === 0;
        if (extra && typeof extra === 'object') children.push(extra);
      }
    }
  }
  return children.some((child) => existsIn(root, child, rest));
}

function pathExists(path: string): boolean {
  const [top, ...rest] = path.split('.') as [string, ...string[]];
  if (!(top in topLevel)) return false;
  if (top === 'devServer' && rest.length > 0) return existsIn(devServerSchema, devServerSchema, rest);
  return existsIn(webpackSchema, topLevel[top], rest);
}

const OPTION_PATH = new RegExp(`^(?:${topNames.join('|')})\\.`);

/**
 * Pages that document the options of one schema object with bare names: a
 * heading under their `## Options` section names a property of `subject`.
 */
const SUBJECT_PAGES: Record<string, string> = {
  'plugins/split-chunks-plugin': 'optimization.splitChunks',
};

interface PageHeadings {
  id: string;
  source: string;
  headings: Array<{ depth: number; text: string; start: number; end: number }>;
}

/** Every Markdown file of the site: page id (`plugins/split-chunks-plugin`) → file under content/. */
function allPages(): Map<string, string> {
  const files = (readdirSync(CONTENT, { recursive: true }) as string[]).filter((file) => file.endsWith('.md')).sort();
  return new Map(files.map((file) => [file.slice(0, -3).split('\\').join('/').replace(/\/index$/, ''), file]));
}

const parser = unified().use(remarkParse).use(remarkGfm).use(remarkDirective);

/** The headings of a page from its Markdown, with the range of its section (up to the next heading of the same or a higher level). */
function markdownHeadings(id: string, file: string): PageHeadings {
  const source = splitFrontmatter(readFileSync(join(CONTENT, file), 'utf8'), `content/${file}`).body;
  const tree = parser.parse(source) as Root;
  const found = tree.children
    .filter((node): node is MdHeading => node.type === 'heading')
    .map((node) => ({ depth: node.depth, text: toString(node).trim(), start: node.position!.start.offset! }));
  const headings = found.map((heading, index) => {
    const next = found.slice(index + 1).find((other) => other.depth <= heading.depth);
    return { ...heading, end: next ? next.start : source.length };
  });
  return { id, source, headings };
}

interface Gathered {
  /** heading text → pages it appears on, for every page of the site */
  headings: Map<string, string[]>;
  /** the same texts without code marks */
  plainHeadings: Set<string>;
  /** option paths documented by a subject page → that page */
  subjectPaths: Map<string, string>;
  /** headings under the Options section of each subject page that name no property of its subject */
  subjectStale: string[];
  /** configuration headings by text: the site's id and the Markdown of the section */
  sections: Map<string, { page: string; id: string; body: string }>;
}

let pending: Promise<Gathered> | undefined;
/** Reading every page is the slow part: the tests share one pass. */
function gather(): Promise<Gathered> {
  pending ??= gatherOnce();
  return pending;
}

async function gatherOnce(): Promise<Gathered> {
  const headings = new Map<string, string[]>();
  const subjectPaths = new Map<string, string>();
  const subjectStale: string[] = [];
  const parsed = new Map<string, PageHeadings>();
  for (const [id, file] of allPages()) {
    const page = markdownHeadings(id, file);
    parsed.set(id, page);
    for (const heading of page.headings) headings.set(heading.text, [...(headings.get(heading.text) ?? []), id]);
    const subject = SUBJECT_PAGES[id];
    if (!subject) continue;
    const options = page.headings.find((h) => h.depth === 2 && h.text === 'Options');
    if (!options) throw new Error(`${id} has no "## Options" section`);
    for (const heading of page.headings) {
      if (heading.depth !== 3 || heading.start < options.start || heading.start >= options.end) continue;
      const path = `${subject}.${heading.text}`;
      if (pathExists(path)) subjectPaths.set(path, id);
      else subjectStale.push(`${heading.text} (on ${id}, read as ${path})`);
    }
  }
  // Ids as the build gives them, for the configuration pages whose sections link to each other.
  const sections = new Map<string, { page: string; id: string; body: string }>();
  for (const id of pagesIn('configuration')) {
    const rendered = await headingsOf(id);
    const page = parsed.get(id)!;
    if (rendered.length !== page.headings.length) throw new Error(`${id}: ${rendered.length} rendered headings, ${page.headings.length} in the Markdown`);
    page.headings.forEach((heading, index) => {
      const text = heading.text.replace(/`/g, '');
      if (rendered[index]!.text.replace(/`/g, '').trim() !== text) throw new Error(`${id}: heading ${index} reads "${rendered[index]!.text}" rendered, "${text}" in the Markdown`);
      sections.set(text, { page: id, id: rendered[index]!.id, body: page.source.slice(heading.start, heading.end) });
    });
  }
  const plainHeadings = new Set([...headings.keys()].map(plain));
  return { headings, plainHeadings, subjectPaths, subjectStale, sections };
}

/** Heading text without the code marks. */
function plain(text: string): string {
  return text.replace(/`/g, '').trim();
}

/** A heading that names the path, or a subject page's heading for it. */
function documentedDirectly(path: string, gathered: Gathered): boolean {
  return gathered.plainHeadings.has(path) || gathered.subjectPaths.has(path);
}

/** The same schema object under another name, with the section where the names part linking to the other one. */
function documentedAsSameObject(path: string, gathered: Gathered): string | undefined {
  const segments = path.split('.');
  for (let cut = segments.length - 1; cut >= 1; cut--) {
    const own = segments.slice(0, cut).join('.');
    const rest = segments.slice(cut).join('.');
    const objects = objectsOf(own);
    if (objects.size === 0) continue;
    const section = gathered.sections.get(own);
    if (!section) continue;
    for (const other of paths.keys()) {
      if (other === own || other.startsWith(`${own}.`)) continue;
      if (![...objectsOf(other)].some((object) => objects.has(object))) continue;
      if (!documentedDirectly(`${other}.${rest}`, gathered)) continue;
      const target = gathered.sections.get(other);
      if (!target) continue;
      const anchor = target.page === section.page ? `(#${target.id})` : `(/${target.page}/#${target.id})`;
      if (section.body.includes(`]${anchor}`)) return `${other}.${rest}`;
    }
  }
  return undefined;
}

function isDocumented(path: string, gathered: Gathered): boolean {
  return documentedDirectly(path, gathered) || documentedAsSameObject(path, gathered) !== undefined;
}

/** The schema nodes of a dotted path of webpack's options, at any depth. */
function nodesAt(path: string): SchemaNode[] {
  const [top, ...rest] = path.split('.') as [string, ...string[]];
  let current: SchemaNode[] = topLevel[top] ? [topLevel[top]] : [];
  for (const segment of rest) {
    current = current.flatMap((node) => objectAlternatives(webpackSchema, node).flatMap((object) => (object.properties?.[segment] ? [object.properties[segment]] : [])));
  }
  return current;
}

/** The `added` annotations of a path: on the option itself or its type, else on the object that declares it. */
/**
 * Paths whose first release (checked against the schemas of the published releases) differs from the
 * annotation this test finds for them.
 * - `optimization.minimizeOptions`: the schema of webpack 5.110.0 has no such property (its settings object
 *   was reachable only as the value of `optimization.minimize`); 5.111.0 is the first release that has it.
 *   The annotation sits on the shared definition and gives that definition's 5.110.0.
 * - `output.resourceHints.dedupe`: the property has no annotation of its own, so the one of the
 *   `resourceHints` object (5.109.0) is found; the 5.109.2 schema has no `dedupe`, 5.110.0 has it.
 */
const WRONG_ANNOTATIONS: Record<string, string> = {
  'optimization.minimizeOptions': '5.111.0',
  'output.resourceHints.dedupe': '5.110.0',
};

function addedVersions(path: string): Set<string> {
  const own = (nodes: SchemaNode[]) => {
    const versions = new Set<string>();
    for (const node of nodes) {
      for (const candidate of [node, deref(webpackSchema, node), ...objectAlternatives(webpackSchema, node)]) if (candidate?.added) versions.add(candidate.added);
    }
    return versions;
  };
  const versions = own(nodesAt(path));
  if (versions.size > 0 || !path.includes('.')) return versions;
  const parent = path.slice(0, path.lastIndexOf('.'));
  const name = path.slice(path.lastIndexOf('.') + 1);
  const declaring = nodesAt(parent).flatMap((node) => objectAlternatives(webpackSchema, node).filter((object) => object.properties?.[name]));
  return new Set(declaring.flatMap((object) => (object.added ? [object.added] : [])));
}

describe('configuration reference coverage', () => {
  const required = [...paths.keys()];

  test('the schema yields the expected shape of option paths', () => {
    // Guards the path computation itself: paths that must be there, and paths
    // that must not (deeper levels are only required below the minimizer's options).
    expect(required).toContain('output');
    expect(required).toContain('output.filename');
    expect(required).toContain('output.library.type');
    expect(required).toContain('cache.cacheDirectory');
    expect(required).toContain('resolveLoader.alias');
    expect(required).toContain('optimization.splitChunks.chunks');
    expect(required).toContain('optimization.minimizeOptions.css.mergeRules');
    expect(required).toContain('optimization.minimize.html.collapseWhitespace');
    expect(required).toContain('optimization.minimizeOptions.xml.sortAttributes');
    expect(required).not.toContain('module.parser.javascript.exportsPresence');
    expect(required).not.toContain('optimization.splitChunks.cacheGroups.test');
    expect(required).not.toContain('devServer.port');
    expect(pathExists('module.parser.javascript.exportsPresence')).toBe(true);
    expect(pathExists('devServer.port')).toBe(true);
    expect(pathExists('output.filname')).toBe(false);
    expect(pathExists('devServer.prot')).toBe(false);
    // Where two names reach one schema object: the rule that lets one document the other.
    expect([...objectsOf('resolveLoader')].some((o) => objectsOf('resolve').has(o))).toBe(true);
    expect([...objectsOf('optimization.minimize')].some((o) => objectsOf('optimization.minimizeOptions').has(o))).toBe(true);
    expect([...objectsOf('output.environment')].some((o) => objectsOf('output.html').has(o))).toBe(false);
  });

  test('every option path of the installed schema is documented', async () => {
    const gathered = await gather();
    const missing = required.filter((path) => !isDocumented(path, gathered));
    const documented = required.length - missing.length;
    const percent = ((documented / required.length) * 100).toFixed(1);
    console.log(`configuration coverage: ${documented}/${required.length} option paths (${percent}%)`);
    expect(missing, `undocumented option paths (${missing.length}):\n${missing.join('\n')}`).toEqual([]);
    // Reading and rendering every page takes most of a minute on a slow machine.
  }, 180_000);

  test('a path documented under another name is only counted through a link', async () => {
    const gathered = await gather();
    // resolveLoader takes resolve's object, and its section links to #resolve.
    expect(documentedDirectly('resolveLoader.alias', gathered)).toBe(false);
    expect(documentedAsSameObject('resolveLoader.alias', gathered)).toBe('resolve.alias');
    // The built-in minimizer's switches are documented once, under minimizeOptions.
    expect(documentedAsSameObject('optimization.minimize.css.mergeRules', gathered)).toBe('optimization.minimizeOptions.css.mergeRules');
    // A section without the link counts for nothing.
    const unlinked: Gathered = { ...gathered, sections: new Map(gathered.sections) };
    const section = unlinked.sections.get('resolveLoader')!;
    unlinked.sections.set('resolveLoader', { ...section, body: section.body.replaceAll('](#resolve)', ']') });
    expect(documentedAsSameObject('resolveLoader.alias', unlinked)).toBeUndefined();
  }, 180_000);

  test('every "Added in" line under an option heading matches the schema\'s annotation', async () => {
    const gathered = await gather();
    const mismatches: string[] = [];
    let compared = 0;
    for (const [text, section] of gathered.sections) {
      if (!OPTION_PATH.test(`${text}.`) || text.startsWith('devServer') || !pathExists(text)) continue;
      const ownPart = section.body.split(/\n#{2,6} /)[0]!;
      const stated = /^- Added in(?: webpack)?:? (\d+\.\d+\.\d+)/m.exec(ownPart)?.[1];
      if (!stated) continue;
      const annotated = addedVersions(text);
      if (annotated.size === 0) continue;
      const corrected = WRONG_ANNOTATIONS[text];
      if (corrected) {
        compared++;
        if (stated !== corrected) mismatches.push(`${text}: page ${stated}, first release that accepts it ${corrected}`);
        continue;
      }
      compared++;
      if (!annotated.has(stated)) mismatches.push(`${text}: page ${stated}, schema ${[...annotated].join(' or ')}`);
    }
    expect(compared).toBeGreaterThan(100);
    expect(mismatches).toEqual([]);
  }, 180_000);

  test('no heading documents an option path that does not exist', async () => {
    const gathered = await gather();
    const stale: string[] = [...gathered.subjectStale];
    for (const [text, pages] of gathered.headings) {
      const configurationPages = pages.filter((page) => page.startsWith('configuration'));
      const path = plain(text);
      if (configurationPages.length > 0 && OPTION_PATH.test(path) && !pathExists(path)) stale.push(`${path} (on ${configurationPages.join(', ')})`);
    }
    expect(stale, `headings naming option paths that are not in the schema (${stale.length}):\n${stale.join('\n')}`).toEqual([]);
  }, 180_000);
});
