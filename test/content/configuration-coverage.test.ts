import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, test } from 'vitest';
import { headingsOf, pagesIn, readPage, type Heading } from '../helpers/content.ts';

/*
 * Coverage of the configuration reference against the installed webpack.
 *
 * Required: every top-level property of webpack's options schema, and every
 * property one level below it, where that level is the union of the properties
 * of every object alternative of the option's type ($ref, anyOf, oneOf and
 * allOf are followed). A path counts as documented when a heading on a page
 * under content/configuration/ reads exactly like it (`### output.filename`).
 * resolveLoader.<name> also counts when the resolve page links to the
 * matching #resolve<name> anchor, which must exist.
 *
 * Stale: a heading that starts with a top-level option name and a dot must
 * name a path that exists in the schema (deeper paths too, such as
 * module.parser.javascript). devServer.* is checked against the schema of the
 * installed webpack-dev-server, because webpack's own schema accepts any
 * object there.
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

/** Every path the reference must document, computed from the installed schema. */
function requiredPaths(): string[] {
  const paths: string[] = [];
  for (const name of topNames) {
    paths.push(name);
    for (const child of propertiesOf(webpackSchema, topLevel[name]).keys()) paths.push(`${name}.${child}`);
  }
  return paths;
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

function headingText(heading: Heading): string {
  return heading.text.replace(/`/g, '').trim();
}

interface Gathered {
  /** heading text → pages it appears on */
  headings: Map<string, string[]>;
  /** ids of the headings of the resolve page */
  resolveIds: Set<string>;
  /** #anchors the resolve page links to on itself */
  resolveLinks: Set<string>;
}

let pending: Promise<Gathered> | undefined;
/** Rendering every page is the slow part: both tests share one pass. */
function gather(): Promise<Gathered> {
  pending ??= gatherOnce();
  return pending;
}

async function gatherOnce(): Promise<Gathered> {
  const headings = new Map<string, string[]>();
  let resolveIds = new Set<string>();
  for (const id of pagesIn('configuration')) {
    const list = await headingsOf(id);
    for (const heading of list) {
      const text = headingText(heading);
      headings.set(text, [...(headings.get(text) ?? []), id]);
    }
    if (id === 'configuration/resolve') resolveIds = new Set(list.map((h) => h.id));
  }
  const resolveLinks = new Set<string>();
  if (pagesIn('configuration').includes('configuration/resolve')) {
    const body = readPage('configuration/resolve').body;
    for (const match of body.matchAll(/\]\((?:\/configuration\/resolve\/)?#([^)\s]+)\)/g)) resolveLinks.add(match[1]!);
  }
  return { headings, resolveIds, resolveLinks };
}

function isDocumented(path: string, gathered: Gathered): boolean {
  if (gathered.headings.has(path)) return true;
  const loader = /^resolveLoader\.(.+)$/.exec(path);
  if (loader) {
    const anchor = `resolve${loader[1]!.toLowerCase()}`;
    return gathered.resolveLinks.has(anchor) && gathered.resolveIds.has(anchor);
  }
  return false;
}

describe('configuration reference coverage', () => {
  const required = requiredPaths();

  test('the schema yields the expected shape of option paths', () => {
    // Guards the path computation itself: a few paths that must be there,
    // and a few that must not (deeper levels are not required).
    expect(required).toContain('output');
    expect(required).toContain('output.filename');
    expect(required).toContain('cache.cacheDirectory');
    expect(required).toContain('cache.maxGenerations');
    expect(required).toContain('resolveLoader.alias');
    expect(required).not.toContain('output.library.type');
    expect(required).not.toContain('devServer.port');
    expect(pathExists('output.library.type')).toBe(true);
    expect(pathExists('module.parser.javascript')).toBe(true);
    expect(pathExists('module.parser.javascript.exportsPresence')).toBe(true);
    expect(pathExists('devServer.port')).toBe(true);
    expect(pathExists('output.filname')).toBe(false);
    expect(pathExists('devServer.prot')).toBe(false);
  });

  test('every option path of the installed schema is documented', async () => {
    const gathered = await gather();
    const missing = required.filter((path) => !isDocumented(path, gathered));
    const documented = required.length - missing.length;
    const percent = ((documented / required.length) * 100).toFixed(1);
    console.log(`configuration coverage: ${documented}/${required.length} option paths (${percent}%)`);
    expect(missing, `undocumented option paths (${missing.length}):\n${missing.join('\n')}`).toEqual([]);
  });

  test('no heading documents an option path that does not exist', async () => {
    const gathered = await gather();
    const stale: string[] = [];
    for (const [text, pages] of gathered.headings) {
      if (OPTION_PATH.test(text) && !pathExists(text)) stale.push(`${text} (on ${pages.join(', ')})`);
    }
    expect(stale, `headings naming option paths that are not in the schema (${stale.length}):\n${stale.join('\n')}`).toEqual([]);
  });
});
