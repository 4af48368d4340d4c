import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import vm from 'node:vm';
import { afterAll, describe, expect, it } from 'vitest';
import type { Compiler, Configuration, Stats } from 'webpack';
import { CONTENT, ROOT, headingsOf, listFiles, readPage, removeDir, scratchDir, writeFiles } from '../helpers/content.js';
import { evaluateConfig, validate, webpack } from '../helpers/webpack.js';
import { isChromeId } from '../../src/content/slug.js';

/*
 * Tests for the built-in plugin pages (content/plugins/*.md, webpack's own plugins) and the plugins index.
 *
 * - Structure: frontmatter, the h2 order shared by plugin pages, a Related section at the end.
 * - Options: the `### ` headings under `## Options` are compared with the plugin's options, taken from
 *   webpack's JSON schemas (node_modules/webpack/schemas/...) where the plugin has one, and otherwise from
 *   the constructor's parameters in node_modules/webpack/types.d.ts.
 * - Examples: every code block titled webpack.config.js (or webpack.<name>.config.js) is read from the page,
 *   evaluated in a scratch project with the fixture sources from test/fixtures/plugins-builtin/ and compiled
 *   with the real webpack, and the plugin's effect is asserted. A final test checks that no such block was skipped.
 */

const WEBPACK_DIR = join(ROOT, 'node_modules', 'webpack');
const SCHEMAS = join(WEBPACK_DIR, 'schemas');
const TYPES = readFileSync(join(WEBPACK_DIR, 'types.d.ts'), 'utf8');
const FIXTURES = join(ROOT, 'test', 'fixtures', 'plugins-builtin');
const CONFIG_TITLE = /(^|\/)webpack(\.[\w-]+)?\.config\.js$/;

// ---------------------------------------------------------------------------------------------
// Which source defines the options of each built-in plugin page.

type OptionSource =
  /** A JSON schema file below node_modules/webpack/schemas (optionally one of its definitions). */
  | { schema: string; definition?: string }
  /** No JSON schema: the constructor's parameter names in types.d.ts are the options. */
  | { ctor: string }
  /** The constructor takes no argument; the page has no Options section. */
  | { none: string };

const BUILT_IN: Record<string, OptionSource> = {
  'automatic-prefetch-plugin': { none: 'AutomaticPrefetchPlugin' },
  'banner-plugin': { schema: 'plugins/BannerPlugin.json' },
  'clean-plugin': { schema: 'plugins/output/CleanOptions.json' },
  'context-exclusion-plugin': { ctor: 'ContextExclusionPlugin' },
  'context-replacement-plugin': { ctor: 'ContextReplacementPlugin' },
  'copy-plugin': { schema: 'WebpackOptions.json', definition: 'CopyOptions' },
  'define-plugin': { ctor: 'DefinePlugin' },
  'dll-plugin': { schema: 'plugins/dll/DllPlugin.json' }, // and DllReferencePlugin, checked separately
  'dotenv-plugin': { schema: 'plugins/define/DotenvPluginOptions.json' },
  'environment-plugin': { ctor: 'EnvironmentPlugin' },
  'eval-source-map-dev-tool-plugin': { schema: 'plugins/SourceMapDevToolPlugin.json' },
  'hashed-module-ids-plugin': { schema: 'plugins/ids/HashedModuleIdsPlugin.json' },
  'hot-module-replacement-plugin': { none: 'HotModuleReplacementPlugin' },
  'ignore-plugin': { schema: 'plugins/IgnorePlugin.json' },
  'limit-chunk-count-plugin': { schema: 'plugins/optimize/LimitChunkCountPlugin.json' },
  'manifest-plugin': { schema: 'plugins/ManifestPlugin.json' },
  'merge-duplicate-chunks-plugin': { schema: 'plugins/optimize/MergeDuplicateChunksPlugin.json' },
  'min-chunk-size-plugin': { schema: 'plugins/optimize/MinChunkSizePlugin.json' },
  'module-concatenation-plugin': { none: 'ModuleConcatenationPlugin' },
  'module-federation-plugin': { schema: 'plugins/container/ModuleFederationPlugin.json' },
  'no-emit-on-errors-plugin': { none: 'NoEmitOnErrorsPlugin' },
  'normal-module-replacement-plugin': { ctor: 'NormalModuleReplacementPlugin' },
  'prefetch-plugin': { ctor: 'PrefetchPlugin' },
  'profiling-plugin': { schema: 'plugins/debug/ProfilingPlugin.json' },
  'progress-plugin': { schema: 'plugins/ProgressPlugin.json' },
  'provide-plugin': { ctor: 'ProvidePlugin' },
  'source-map-dev-tool-plugin': { schema: 'plugins/SourceMapDevToolPlugin.json' },
  'split-chunks-plugin': { schema: 'WebpackOptions.json', definition: 'OptimizationSplitChunksOptions' },
  'ssr-manifest-plugin': { schema: 'plugins/SSRManifestPlugin.json' },
  'virtual-url-plugin': { schema: 'plugins/schemes/VirtualUrlPlugin.json' },
  'watch-ignore-plugin': { schema: 'plugins/WatchIgnorePlugin.json' },
};

/** Pages of the section that are not about one plugin. */
const OTHER_BUILT_IN = ['internal-plugins'];

// ---------------------------------------------------------------------------------------------
// Schema and types.d.ts helpers.

interface SchemaNode {
  $ref?: string;
  properties?: Record<string, SchemaNode>;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  definitions?: Record<string, SchemaNode>;
}

function loadSchema(file: string): SchemaNode {
  return JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')) as SchemaNode;
}

/** Property names of an options schema: the union over anyOf/oneOf/allOf branches, following $refs (also into other files). */
function schemaProperties(file: string, definition?: string): string[] {
  const names = new Set<string>();
  const visit = (node: SchemaNode, nodeFile: string, doc: SchemaNode, depth: number): void => {
    if (depth > 8) return;
    if (node.$ref) {
      const [refFile, pointer] = node.$ref.split('#') as [string, string | undefined];
      const targetFile = refFile ? join(dirname(nodeFile), refFile) : nodeFile;
      const targetDoc = refFile ? loadSchema(targetFile) : doc;
      const name = (pointer ?? '').replace(/^\/definitions\//, '');
      const target = name ? targetDoc.definitions?.[name] : targetDoc;
      if (!target) throw new Error(`unresolved $ref ${node.$ref} in ${nodeFile}`);
      visit(target, targetFile, targetDoc, depth + 1);
      return;
    }
    for (const key of Object.keys(node.properties ?? {})) names.add(key);
    for (const branch of [...(node.anyOf ?? []), ...(node.oneOf ?? []), ...(node.allOf ?? [])]) visit(branch, nodeFile, doc, depth + 1);
  };
  const doc = loadSchema(file);
  const root = definition ? doc.definitions?.[definition] : doc;
  if (!root) throw new Error(`no definition ${definition} in ${file}`);
  visit(root, file, doc, 0);
  return [...names].sort();
}

/** The declaration of a class in types.d.ts. */
function declaredClass(name: string): string {
  const start = TYPES.indexOf(`declare class ${name} {`);
  if (start < 0) throw new Error(`types.d.ts declares no class ${name}`);
  const end = TYPES.indexOf('\n}\n', start);
  return TYPES.slice(start, end);
}

/** Parameter names of a class constructor in types.d.ts (rest parameters without the dots). */
function constructorParameters(name: string): string[] {
  const decl = declaredClass(name);
  const open = decl.indexOf('constructor(');
  if (open < 0) return [];
  let depth = 0;
  let current = '';
  const params: string[] = [];
  for (let i = open + 'constructor('.length; i < decl.length; i++) {
    const ch = decl[i]!;
    if (depth === 0 && ch === ')') {
      if (current.trim()) params.push(current.trim());
      break;
    }
    if ('([{<'.includes(ch)) depth++;
    if (')]}'.includes(ch) || (ch === '>' && decl[i - 1] !== '=')) depth--;
    if (depth === 0 && ch === ',') {
      params.push(current.trim());
      current = '';
    } else current += ch;
  }
  return params.map((p) => {
    const m = /^(?:\.\.\.)?(\w+)\??\s*:/.exec(p);
    if (!m) throw new Error(`cannot read parameter "${p}" of ${name}`);
    return m[1]!;
  });
}

// ---------------------------------------------------------------------------------------------
// Page helpers.

interface Section {
  depth: number;
  text: string;
  /** Markdown under the heading up to the next heading of the same or a higher level. */
  body: string;
  /** The enclosing h2 (the heading itself for an h2). */
  h2: string;
  /** The enclosing h3, if any. */
  h3: string;
}

const sectionCache = new Map<string, Section[]>();
/** Headings of a page (fenced code skipped), with the Markdown under each. */
function sections(pageId: string): Section[] {
  const cached = sectionCache.get(pageId);
  if (cached) return cached;
  const lines = readPage(pageId).body.split('\n');
  const found: { depth: number; text: string; line: number }[] = [];
  let fence: string | null = null;
  lines.forEach((line, index) => {
    const f = /^\s*(`{3,}|~{3,})/.exec(line);
    if (f) {
      if (fence === null) fence = f[1]!;
      else if (line.trim().startsWith(fence)) fence = null;
      return;
    }
    if (fence !== null) return;
    const h = /^(#{2,6})\s+(.*?)\s*$/.exec(line);
    if (h) found.push({ depth: h[1]!.length, text: h[2]!.replace(/`/g, ''), line: index });
  });
  let h2 = '';
  let h3 = '';
  const result = found.map((heading, i) => {
    if (heading.depth === 2) {
      h2 = heading.text;
      h3 = '';
    }
    if (heading.depth === 3) h3 = heading.text;
    let end = lines.length;
    for (let j = i + 1; j < found.length; j++) {
      if (found[j]!.depth <= heading.depth) {
        end = found[j]!.line;
        break;
      }
    }
    return { depth: heading.depth, text: heading.text, body: lines.slice(heading.line + 1, end).join('\n'), h2, h3 };
  });
  sectionCache.set(pageId, result);
  return result;
}

const h2s = (pageId: string): string[] => sections(pageId).filter((s) => s.depth === 2).map((s) => s.text);
const h3sUnder = (pageId: string, h2: string): string[] =>
  sections(pageId).filter((s) => s.depth === 3 && s.h2 === h2).map((s) => s.text);
const h4sUnder = (pageId: string, h2: string, h3: string): string[] =>
  sections(pageId).filter((s) => s.depth === 4 && s.h2 === h2 && s.h3 === h3).map((s) => s.text);
const section = (pageId: string, text: string, depth = 2): Section => {
  const found = sections(pageId).find((s) => s.depth === depth && s.text === text);
  if (!found) throw new Error(`${pageId} has no h${depth} "${text}"`);
  return found;
};

/** Page-relative config blocks (webpack.config.js, webpack.dll.config.js, …) and the ones tests used. */
const usedConfigs = new Map<string, Set<number>>();
function configBlocks(pageId: string) {
  return readPage(`plugins/${pageId}`).blocks.filter((b) => b.title !== undefined && CONFIG_TITLE.test(b.title));
}
/** The source of the index-th config block of a plugin page; marks it as tested. */
function configOf(pageId: string, index = 0): string {
  const blocks = configBlocks(pageId);
  const block = blocks[index];
  if (!block) throw new Error(`plugins/${pageId} has only ${blocks.length} config blocks, wanted #${index}`);
  if (!usedConfigs.has(pageId)) usedConfigs.set(pageId, new Set());
  usedConfigs.get(pageId)!.add(index);
  return block.code;
}
/** The content of a block with the given title (a source file shown on the page), with a final line break. */
function blockTitled(pageId: string, title: string): string {
  const block = readPage(`plugins/${pageId}`).blocks.find((b) => b.title === title);
  if (!block) throw new Error(`plugins/${pageId} has no block titled ${title}`);
  return `${block.code}\n`;
}

/**
 * Every file of one or more fixture folders (later folders win), as path → content. Fixture packages live in
 * `_node_modules/` (the repository ignores node_modules folders) and are written to `node_modules/`.
 */
function fixture(...names: string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const name of names) {
    const dir = join(FIXTURES, name);
    for (const file of listFiles(dir)) files[file.replace(/(^|\/)_node_modules\//g, '$1node_modules/')] = readFileSync(join(dir, file), 'utf8');
  }
  return files;
}

// ---------------------------------------------------------------------------------------------
// Building examples.

interface Build {
  dir: string;
  /** The configuration as compiled (after the defaults this test adds). */
  config: Configuration;
  outDir: string;
  stats: Stats;
  outputs: Record<string, string>;
  errors: string[];
  warnings: string[];
  cleanup(): void;
}

interface BuildOptions {
  /** Arguments for a config exported as a function. */
  env?: Record<string, unknown>;
  /** Resolve even when the compilation has errors. */
  allowErrors?: boolean;
  /** Runs after the files are written and before the config is evaluated. */
  prepare?: (dir: string) => void;
}

const cleanups: (() => void)[] = [];
afterAll(() => {
  for (const c of cleanups) c();
});

function loadConfig(source: string, dir: string, env: Record<string, unknown> = {}): Configuration {
  const exported = evaluateConfig(source, dir);
  const config = (typeof exported === 'function' ? (exported as (e: unknown, a: unknown) => unknown)(env, {}) : exported) as Configuration;
  return config;
}

function runCompiler(compiler: Compiler): Promise<Stats> {
  return new Promise((resolve, reject) => compiler.run((err, stats) => (err ? reject(err) : resolve(stats!))));
}

function closeCompiler(compiler: Compiler): Promise<void> {
  return new Promise((resolve) => compiler.close(() => resolve()));
}

/** Writes files into a scratch project, evaluates the page's config there and compiles it with the real webpack. */
async function build(
  name: string,
  files: Record<string, string>,
  config: string | ((dir: string) => Configuration),
  options: BuildOptions = {},
): Promise<Build> {
  const dir = scratchDir(`plugins-${name}`);
  const cleanup = () => removeDir(dir);
  cleanups.push(cleanup);
  // A package.json of its own makes .js files in the scratch project CommonJS-or-ESM by content, as in a real project.
  writeFiles(dir, { 'package.json': '{ "private": true }\n', ...files });
  options.prepare?.(dir);
  const resolved = typeof config === 'string' ? loadConfig(config, dir, options.env) : config(dir);
  validate(resolved);
  const final: Configuration = {
    ...resolved,
    context: resolved.context ?? dir,
    // webpack's own default output.path is dist/ below the working directory, which is not the scratch project.
    output: { ...resolved.output, path: resolved.output?.path ?? join(dir, 'dist') },
    infrastructureLogging: resolved.infrastructureLogging ?? { level: 'error' },
  };
  const compiler = webpack(final);
  let stats: Stats;
  try {
    stats = await runCompiler(compiler);
  } finally {
    await closeCompiler(compiler);
  }
  const json = stats.toJson({ all: false, errors: true, warnings: true });
  const errors = (json.errors ?? []).map((e) => e.message);
  const warnings = (json.warnings ?? []).map((w) => w.message);
  if (errors.length > 0 && !options.allowErrors) throw new Error(`webpack reported errors:\n${errors.join('\n')}`);
  const outDir = final.output?.path ?? join(dir, 'dist');
  const outputs: Record<string, string> = {};
  if (existsSync(outDir)) for (const file of listFiles(outDir)) outputs[file] = readFileSync(join(outDir, file), 'utf8');
  return { dir, config: final, outDir, stats, outputs, errors, warnings, cleanup };
}

/** Runs a file with Node.js and returns its standard output lines. */
function runNode(file: string, env: Record<string, string> = {}): string[] {
  const result = spawnSync(process.execPath, [file], { encoding: 'utf8', env: { ...process.env, ...env }, cwd: dirname(file) });
  if (result.status !== 0) throw new Error(`node ${file} failed:\n${result.stderr}`);
  return result.stdout.split('\n').filter(Boolean);
}

/** Writes a CommonJS script into `dir`, runs it with Node.js and returns its output lines. */
function runScript(dir: string, code: string, env: Record<string, string> = {}): string[] {
  writeFiles(dir, { 'check.cjs': code });
  return runNode(join(dir, 'check.cjs'), env);
}

/** Runs browser bundles one after another in one fresh context and returns what they logged. */
function runInBrowserLikeContext(sources: string[], globals: Record<string, unknown> = {}): string[] {
  const logs: string[] = [];
  const context: Record<string, unknown> = {
    console: { log: (...args: unknown[]) => logs.push(args.map(String).join(' ')) },
    ...globals,
  };
  context.self = context;
  context.window = context;
  vm.createContext(context);
  for (const source of sources) vm.runInContext(source, context);
  return logs;
}

/**
 * Runs browser bundles in a fresh context with just enough of `document` for webpack's runtime to load chunks
 * on demand (script elements whose src is read from disk). `origins` maps URL prefixes to output folders.
 */
async function runWebApp(origins: Record<string, string>, scripts: string[], globals: Record<string, unknown> = {}): Promise<string[]> {
  const logs: string[] = [];
  const context: Record<string, unknown> = {
    console: { log: (...args: unknown[]) => logs.push(args.map(String).join(' ')), error: (...args: unknown[]) => logs.push(`error: ${args.map(String).join(' ')}`) },
    setTimeout,
    clearTimeout,
    ...globals,
  };
  const load = (url: string) => {
    const origin = Object.keys(origins).find((o) => url.startsWith(o));
    if (!origin) throw new Error(`no origin for ${url}`);
    const file = join(origins[origin]!, url.slice(origin.length).replace(/\?.*$/, ''));
    // like a browser, document.currentScript is the script being run (webpack's publicPath: 'auto' reads it)
    (context.document as Record<string, unknown>).currentScript = { tagName: 'SCRIPT', src: url };
    vm.runInContext(readFileSync(file, 'utf8'), context, { filename: file });
  };
  const element = (tag: string) => {
    const attributes: Record<string, string> = {};
    return {
      tagName: tag.toUpperCase(),
      setAttribute: (name: string, value: string) => (attributes[name] = value),
      getAttribute: (name: string) => attributes[name],
      parentNode: { removeChild: () => undefined },
    } as Record<string, unknown>;
  };
  context.self = context;
  context.window = context;
  context.document = {
    ...(globals.document as object | undefined),
    currentScript: null,
    baseURI: Object.keys(origins)[0],
    getElementsByTagName: () => [],
    createElement: element,
    head: {
      appendChild: (el: Record<string, unknown>) =>
        setTimeout(() => {
          const done = (type: string) => (el[type === 'load' ? 'onload' : 'onerror'] as ((e: unknown) => void) | undefined)?.({ type, target: el });
          try {
            load(String(el.src));
            done('load');
          } catch {
            done('error');
          }
        }, 0),
    },
  };
  vm.createContext(context);
  for (const script of scripts) load(`${Object.keys(origins)[0]}${script}`);
  // let chunks that load on demand arrive (each hop is one timer)
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setTimeout(resolve, 5));
  return logs;
}

const jsFiles = (outputs: Record<string, string>) => Object.keys(outputs).filter((f) => f.endsWith('.js')).sort();
const moduleNames = (stats: Stats) =>
  (stats.toJson({ all: false, modules: true, orphanModules: true }).modules ?? []).map((m) => m.name ?? '').filter(Boolean);

// ---------------------------------------------------------------------------------------------
// Structure of every built-in plugin page.

describe('built-in plugin pages: structure', () => {
  const pages = Object.keys(BUILT_IN);
  const sectionPages = (readFileSync(join(ROOT, 'site.config.yaml'), 'utf8').match(/^\s+- plugins\/[\w-]+$/gm) ?? []).map((l) =>
    l.trim().slice('- plugins/'.length),
  );

  it('every built-in page in this test is listed in the Plugins section of site.config.yaml, and exists', () => {
    for (const page of [...pages, ...OTHER_BUILT_IN]) {
      expect(sectionPages, page).toContain(page);
      expect(existsSync(join(CONTENT, 'plugins', `${page}.md`)), page).toBe(true);
    }
  });

  it.each(pages)('%s: frontmatter has a title, a description and no group, repo or contributors', (page) => {
    const { frontmatter } = readPage(`plugins/${page}`);
    expect(frontmatter.title).toBeTruthy();
    expect(String(frontmatter.description ?? '').length).toBeGreaterThan(40);
    // the parsed frontmatter has defaults for every key, so look at the keys written in the file
    const raw = /^---\n([\s\S]*?)\n---\n/.exec(readFileSync(join(CONTENT, 'plugins', `${page}.md`), 'utf8'))![1]!;
    const keys = raw.split('\n').filter((l) => /^\w/.test(l)).map((l) => l.slice(0, l.indexOf(':')));
    expect(keys).toEqual(['title', 'description']);
  });

  it.each(pages)('%s: the title names a plugin webpack exports', (page) => {
    const title = String(readPage(`plugins/${page}`).frontmatter.title);
    const objects = (o: object) => Object.values(o).filter((v) => v && typeof v === 'object') as object[];
    // webpack.experiments.schemes.VirtualUrlPlugin sits one level deeper than the other namespaces
    const namespaces = [webpack, ...objects(webpack), ...objects(webpack.experiments)] as Record<string, unknown>[];
    const exported = namespaces.some((ns) => typeof ns[title] === 'function');
    expect(exported, `${title} is not exported by webpack`).toBe(true);
  });

  it.each(pages)('%s: h2 headings are Usage, Options (when it takes options), Examples, Related, in that order', (page) => {
    const source = BUILT_IN[page]!;
    const expected = ['Usage', ...('none' in source ? [] : ['Options']), 'Examples', 'Related'];
    expect(h2s(`plugins/${page}`)).toEqual(expected);
  });

  it.each(pages)('%s: Related links onward to other pages of the site', (page) => {
    const related = section(`plugins/${page}`, 'Related').body;
    const links = related.match(/\]\(\/[\w/#.-]*\)/g) ?? [];
    expect(links.length).toBeGreaterThanOrEqual(2);
  });

  it.each(pages)('%s: has a webpack.config.js example in Usage', (page) => {
    expect(section(`plugins/${page}`, 'Usage').body).toMatch(/```js title="([\w-]+\/)?webpack(\.[\w-]+)?\.config\.js"/);
  });

  it.each(pages)('%s: has no placeholder text', (page) => {
    expect(readPage(`plugins/${page}`).body).not.toMatch(/\b(TODO|TBD|coming soon|lorem ipsum)\b/i);
  });
});

// ---------------------------------------------------------------------------------------------
// Options: the ### headings under ## Options against the plugin's own definition.

describe('built-in plugin pages: every option documented, no stale ones', () => {
  const withOptions = Object.entries(BUILT_IN).filter(([page]) => page !== 'dll-plugin');

  it.each(withOptions)('%s', (page, source) => {
    const documented = h3sUnder(`plugins/${page}`, 'Options').sort();
    if ('none' in source) {
      expect(constructorParameters(source.none)).toEqual([]);
      expect(h2s(`plugins/${page}`)).not.toContain('Options');
      return;
    }
    const expected = 'ctor' in source ? constructorParameters(source.ctor).sort() : schemaProperties(source.schema, source.definition);
    expect(expected.length).toBeGreaterThan(0);
    expect(documented).toEqual(expected);
  });

  it('each option heading states a type', () => {
    for (const [page, source] of withOptions) {
      if ('none' in source) continue;
      for (const s of sections(`plugins/${page}`).filter((x) => x.depth === 3 && x.h2 === 'Options')) {
        expect(s.body, `${page} ${s.text}`).toMatch(/\*\*Type:\*\*/);
      }
    }
  });

  it('the anchors of option headings are the lowercased option names (with -1 where the page chrome holds the id)', async () => {
    for (const page of ['banner-plugin', 'split-chunks-plugin', 'source-map-dev-tool-plugin']) {
      const ids = (await headingsOf(`plugins/${page}`)).filter((h) => h.depth === 3).map((h) => h.id);
      for (const name of h3sUnder(`plugins/${page}`, 'Options')) {
        const id = name.toLowerCase();
        expect(ids).toContain(isChromeId(id) ? `${id}-1` : id);
      }
    }
    // BannerPlugin's `banner` option is the one that meets an id of the chrome, so no link may use #banner for it
    expect(isChromeId('banner')).toBe(true);
    expect(listFiles(CONTENT).filter((f) => f.endsWith('.md')).filter((f) => readFileSync(join(CONTENT, f), 'utf8').includes('banner-plugin/#banner)'))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// Examples, page by page.

describe('BannerPlugin examples', () => {
  it('Usage: the string banner is wrapped in a /*! comment at the top of main.js', async () => {
    const b = await build('banner-usage', fixture('app'), configOf('banner-plugin', 0));
    expect(b.outputs['main.js']!.startsWith('/*! Acme Storefront - (c) Acme Ltd. All rights reserved. */\n')).toBe(true);
  });

  it('production without a stage: Terser moves the banner to a LICENSE.txt file (the warning on the page)', async () => {
    const b = await build('banner-terser', fixture('app'), (dir) => ({
      ...loadConfig(configOf('banner-plugin', 0), dir),
      mode: 'production',
    }));
    expect(b.outputs['main.js']).toMatch(/^\/\*! For license information please see main\.js\.LICENSE\.txt \*\//);
    expect(b.outputs['main.js.LICENSE.txt']).toContain('Acme Storefront - (c) Acme Ltd.');
  });

  it('stage after minification keeps the banner, with [name] and [fullhash] replaced, and no LICENSE file', async () => {
    const b = await build('banner-stage', fixture('app'), configOf('banner-plugin', 1));
    const [main] = jsFiles(b.outputs);
    expect(main).toMatch(/^main\.[0-9a-f]{20}\.js$/);
    const hash = b.stats.hash!;
    expect(b.outputs[main!]!.split('\n')[0]).toBe(`/*! Acme Storefront | chunk: main | build: ${hash} */`);
    expect(Object.keys(b.outputs).some((f) => f.endsWith('.LICENSE.txt'))).toBe(false);
  });

  it('the raw hashbang is the first line of the CLI bundle, which runs with Node.js', async () => {
    const b = await build('banner-cli', fixture('banner-cli'), configOf('banner-plugin', 2));
    expect(b.outputs['cli.js']!.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(runNode(join(b.outDir, 'cli.js'))).toEqual(['acme-cli']);
  });

  it('the footer function appends a comment naming the file and the chunk', async () => {
    const b = await build('banner-footer', fixture('app'), configOf('banner-plugin', 3));
    expect(b.outputs['main.js']!.trimEnd().endsWith('/*! end of main.js (chunk main) */')).toBe(true);
  });
});

describe('CleanPlugin examples', () => {
  it('Usage: stale files in dist/ are deleted, the new bundle stays', async () => {
    const b = await build('clean-usage', fixture('app'), configOf('clean-plugin', 0), {
      prepare: (dir) => writeFiles(dir, { 'dist/main.0123456789abcdef0123.js': 'old', 'dist/old/chunk.js': 'old' }),
    });
    expect(Object.keys(b.outputs)).toEqual([jsFiles(b.outputs)[0]]);
    expect(jsFiles(b.outputs)[0]).toMatch(/^main\.[0-9a-f]{20}\.js$/);
  });

  it('keep: uploads/ and robots.txt survive, other stale files go', async () => {
    const b = await build('clean-keep', fixture('app'), configOf('clean-plugin', 1), {
      prepare: (dir) =>
        writeFiles(dir, { 'dist/uploads/2024/photo.jpg': 'x', 'dist/robots.txt': 'x', 'dist/stale.js': 'x', 'dist/robots.txt.bak': 'x' }),
    });
    expect(Object.keys(b.outputs).sort()).toEqual(['main.js', 'robots.txt', 'uploads/2024/photo.jpg']);
  });

  it('dry: nothing is deleted and the stats log says what would be', async () => {
    const b = await build('clean-dry', fixture('app'), configOf('clean-plugin', 2), {
      prepare: (dir) => writeFiles(dir, { 'dist/old.8d1f0c.js': 'x', 'dist/uploads/2024/a.png': 'x' }),
    });
    expect(Object.keys(b.outputs).sort()).toEqual(['main.js', 'old.8d1f0c.js', 'uploads/2024/a.png']);
    const text = b.stats.toString();
    expect(text).toContain('LOG from webpack.CleanPlugin');
    expect(text).toContain('<i> old.8d1f0c.js will be removed');
    expect(text).toContain('<i> uploads/2024 will be kept');
  });
});

describe('CopyPlugin examples', () => {
  it('Usage: the contents of public/ and robots.txt are copied next to main.js, dot files included', async () => {
    const b = await build('copy-usage', fixture('app', 'copy'), configOf('copy-plugin', 0));
    expect(Object.keys(b.outputs).sort()).toEqual(
      ['.env.local', 'downloads/price-list.pdf', 'favicon.ico', 'main.js', 'robots.txt'].sort(),
    );
    expect(b.outputs['robots.txt']).toBe(readFileSync(join(FIXTURES, 'copy', 'robots.txt'), 'utf8'));
    const info = b.stats.toJson({ all: false, assets: true }).assets!.find((a) => a.name === 'robots.txt')!.info;
    expect(info).toMatchObject({ copied: true, sourceFilename: 'robots.txt' });
  });

  it('a pattern that matches nothing gives an EmptyCopyPatternWarning', async () => {
    const b = await build('copy-empty', fixture('app'), configOf('copy-plugin', 0));
    expect(b.warnings.some((w) => w.includes("The 'public' pattern of 'output.copy' copied no file."))).toBe(true);
  });

  it('transform: the JSON is rewritten, hashed by its new content and placed in config/', async () => {
    const b = await build('copy-transform', fixture('app', 'copy'), configOf('copy-plugin', 1));
    const copied = Object.keys(b.outputs).filter((f) => f.startsWith('config/'));
    expect(copied).toHaveLength(1);
    const content = b.outputs[copied[0]!]!;
    expect(JSON.parse(content)).toEqual({ apiUrl: 'https://api.example.com', debug: false });
    const hash = (webpack.util.createHash('md4').update(content).digest('hex') as string).slice(0, 8);
    expect(copied[0]).toBe(`config/app.${hash}.json`);
  });

  it('ignore and info: dot files and maps are skipped, the vendor file is not minimized', async () => {
    const b = await build('copy-ignore', fixture('app', 'copy'), configOf('copy-plugin', 2));
    expect(Object.keys(b.outputs).sort()).toEqual(['main.js', 'site.webmanifest', 'vendor/chart.min.js']);
    expect(b.outputs['vendor/chart.min.js']).toBe(readFileSync(join(FIXTURES, 'copy', 'vendor', 'chart.min.js'), 'utf8'));
  });

  it('the to function sorts files into img/ and files/', async () => {
    const b = await build('copy-to', fixture('app', 'copy'), configOf('copy-plugin', 3));
    expect(Object.keys(b.outputs).sort()).toEqual(['files/2024.pdf', 'img/alice.jpg', 'main.js']);
  });

  it('two files mapped to one name stop the build with the error the page quotes', async () => {
    const b = await build('copy-collision', { ...fixture('app', 'copy'), 'media/press/alice.jpg': 'OTHER' }, configOf('copy-plugin', 3), {
      allowErrors: true,
    });
    expect(b.errors.some((e) => /Multiple files of the 'media' pattern of 'output\.copy' are copied to 'img\/alice\.jpg'/.test(e))).toBe(true);
  });
});

describe('ContextExclusionPlugin examples', () => {
  const routerFiles = () => ({ ...fixture('ctx-router'), 'src/router.js': blockTitled('context-exclusion-plugin', 'src/router.js') });

  it('without the plugin, the README in src/pages/ fails the build with the error the page quotes', async () => {
    const b = await build('ctxex-without', routerFiles(), (dir) => {
      const config = loadConfig(configOf('context-exclusion-plugin', 0), dir);
      return { ...config, plugins: [] };
    }, { allowErrors: true });
    expect(b.errors.some((e) => e.startsWith("Module parse failed: Unexpected character ' ' (1:1)\nFile was parsed as module type 'javascript/auto'."))).toBe(true);
  });

  it('Usage: with /\\.md$/ excluded the build succeeds with one chunk per page and no README module', async () => {
    const b = await build('ctxex-usage', routerFiles(), configOf('context-exclusion-plugin', 0));
    const modules = moduleNames(b.stats);
    expect(modules).toContain('./src/pages/home.js');
    expect(modules).toContain('./src/pages/about.js');
    expect(modules.some((m) => m.includes('README'))).toBe(false);
    expect(jsFiles(b.outputs)).toHaveLength(3);
  });

  it('drafts and __tests__ are left out of require.context', async () => {
    const files = { ...fixture('ctx-locales'), 'src/i18n.js': blockTitled('context-exclusion-plugin', 'src/i18n.js') };
    const b = await build('ctxex-locales', files, configOf('context-exclusion-plugin', 1));
    const [keys] = runScript(b.dir, "console.log(JSON.stringify(require('./dist/main.js').availableLocales));");
    expect(JSON.parse(keys!)).toEqual(['./de.js', './en.js']);
    expect(b.outputs['main.js']).not.toContain('Servus');
    const without = await build('ctxex-locales-without', files, (dir) => ({ ...loadConfig(configOf('context-exclusion-plugin', 1), dir), plugins: [] }));
    const [all] = runScript(without.dir, "console.log(JSON.stringify(require('./dist/main.js').availableLocales));");
    expect(JSON.parse(all!)).toEqual(['./__tests__/en.test.js', './de.draft.js', './de.js', './en.js']);
  });
});

describe('ContextReplacementPlugin examples', () => {
  it('Usage: only the en-gb and de locales are bundled, and both are found at run time', async () => {
    const b = await build('ctxrep-usage', fixture('moment'), configOf('context-replacement-plugin', 0));
    const locales = moduleNames(b.stats).filter((m) => m.startsWith('./node_modules/moment/locale/') && m.endsWith('.js'));
    expect(locales.sort()).toEqual(['./node_modules/moment/locale/de.js', './node_modules/moment/locale/en-gb.js']);
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['greeting in en-gb | greeting in de | no locale fr']);
  });

  it('the warning: a filter with extensions bundles the files but the lookup by name fails', async () => {
    const b = await build('ctxrep-ext', fixture('moment'), (dir) => ({
      ...loadConfig(configOf('context-replacement-plugin', 0), dir),
      plugins: [new webpack.ContextReplacementPlugin(/moment[\\/]locale$/, /(en-gb|de)\.js$/)],
    }));
    expect(moduleNames(b.stats)).toContain('./node_modules/moment/locale/de.js');
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['no locale en-gb | no locale de | no locale fr']);
  });

  it('a matched context no longer warns about a critical dependency', async () => {
    const files = { 'src/index.js': "const name = globalThis.NAME || './greet.js';\nconsole.log(require(name));\n", 'src/greet.js': 'module.exports = 1;\n' };
    const config = (plugins: Configuration['plugins']) => () => ({ mode: 'production' as const, entry: './src/index.js', plugins });
    const plain = await build('ctxrep-critical', files, config([]));
    expect(plain.warnings).toContain('Critical dependency: the request of a dependency is an expression');
    const replaced = await build('ctxrep-critical2', files, config([new webpack.ContextReplacementPlugin(/^\.$/, /greet\.js$/)]));
    expect(replaced.warnings).toEqual([]);
  });

  it('another folder: themes-next, flat, light and dark only', async () => {
    const b = await build('ctxrep-folder', fixture('themes'), configOf('context-replacement-plugin', 1));
    const main = join(b.outDir, 'main.js');
    expect(runNode(main, { THEME: 'dark' })).toEqual(['dark theme']);
    expect(runNode(main, { THEME: 'light' })).toEqual(['light theme']);
    expect(runNode(main, { THEME: 'neon' })).toEqual(["Cannot find module './neon'"]);
  });

  it('an explicit map: keys are the requests, values files in the new folder', async () => {
    const b = await build('ctxrep-map', fixture('themes'), configOf('context-replacement-plugin', 2));
    const main = join(b.outDir, 'main.js');
    expect(runNode(main, { THEME: 'dark' })).toEqual(['dark theme (mapped)']);
    expect(runNode(main, { THEME: 'neon' })).toEqual(["Cannot find module './neon'"]);
  });

  it('the callback narrows the moment locales after resolution', async () => {
    const b = await build('ctxrep-callback', fixture('moment'), configOf('context-replacement-plugin', 3));
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['greeting in en-gb | greeting in de | no locale fr']);
  });

  it('the positional forms from the table work as described', async () => {
    const modulesWith = async (name: string, plugin: InstanceType<typeof webpack.ContextReplacementPlugin>) => {
      const b = await build(name, fixture('moment'), () => ({ mode: 'production', entry: './src/index.js', plugins: [plugin] }));
      return moduleNames(b.stats).filter((m) => m.startsWith('./node_modules/moment/locale/') && m.endsWith('.js'));
    };
    expect(await modulesWith('ctxrep-form2', new webpack.ContextReplacementPlugin(/moment[\\/]locale$/, false, /^\.\/fr$/))).toEqual([
      './node_modules/moment/locale/fr.js',
    ]);
    // A RegExp after a directory is read as a (empty) map.
    const asMap = await modulesWith(
      'ctxrep-form3',
      new webpack.ContextReplacementPlugin(/moment[\\/]locale$/, '.', /^\.\/fr$/ as unknown as boolean),
    );
    expect(asMap).toEqual([]);
  });
});

describe('DefinePlugin examples', () => {
  const files = () => ({ ...fixture('define'), 'src/index.js': blockTitled('define-plugin', 'src/index.js') });

  it('Usage: version and URL become literals, the disabled checkout branch is removed', async () => {
    const b = await build('define-usage', files(), configOf('define-plugin', 0));
    const main = b.outputs['main.js']!;
    expect(main).toContain('2.4.0');
    expect(main).not.toContain('Using the new checkout');
    expect(runInBrowserLikeContext([main])).toEqual([
      'Acme Storefront 2.4.0, talking to https://api.example.com',
      'Using the classic checkout',
    ]);
  });

  it('the warning: an unquoted URL breaks the production build in the minimizer', async () => {
    const b = await build('define-unquoted', files(), (dir) => ({
      ...loadConfig(configOf('define-plugin', 0), dir),
      plugins: [new webpack.DefinePlugin({ __APP_VERSION__: '"1"', API_URL: 'https://api.example.com', FEATURES: {} })],
    }), { allowErrors: true });
    expect(b.errors.some((e) => /^main\.js from .*\nUnexpected token/.test(e))).toBe(true);
  });

  it('a second definition of process.env.NODE_ENV warns about conflicting values', async () => {
    const b = await build('define-conflict', fixture('app'), () => ({
      mode: 'production',
      entry: './src/index.js',
      plugins: [new webpack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify('staging') })],
    }));
    expect(b.warnings.some((w) => w.startsWith("DefinePlugin\nConflicting values for 'process.env.NODE_ENV'"))).toBe(true);
  });

  it('the same value as the one mode gives process.env.NODE_ENV does not warn', async () => {
    const b = await build('define-same', fixture('app'), () => ({
      mode: 'production',
      entry: './src/index.js',
      plugins: [new webpack.DefinePlugin({ 'process.env.NODE_ENV': JSON.stringify('production') })],
    }));
    expect(b.warnings.filter((w) => w.includes('Conflicting values'))).toEqual([]);
    expect(readPage('plugins/define-plugin').body).toContain('with a different value produces the `Conflicting values` warning');
  });

  it('the intro: webpack itself empties the dead branch, in development mode too', async () => {
    const b = await build('define-dev', files(), (dir) => ({ ...loadConfig(configOf('define-plugin', 0), dir), mode: 'development', devtool: false }));
    const main = b.outputs['main.js']!;
    expect(main).not.toContain('Using the new checkout');
    expect(main).toContain('Using the classic checkout');
    expect(main).toMatch(/if \(false\)/);
  });

  it('optimization.nodeEnv sets process.env.NODE_ENV and import.meta.env.MODE without a warning', async () => {
    const b = await build('define-nodeenv', { 'src/index.js': 'console.log(process.env.NODE_ENV, import.meta.env.MODE, import.meta.env.PROD);\n' }, configOf('define-plugin', 1));
    expect(b.warnings).toEqual([]);
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['staging staging true']);
  });

  it('typeof window: the browser-only branch is removed from the server bundle', async () => {
    const b = await build('define-typeof', files(), configOf('define-plugin', 2));
    expect(b.outputs['server.js']).not.toContain('addEventListener');
    expect(runNode(join(b.outDir, 'server.js'))).toEqual(['<p>Rendered on the server</p>']);
  });

  it('the runtime value reads release.txt and registers it as a file dependency', async () => {
    const b = await build('define-runtime', files(), configOf('define-plugin', 3));
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual([
      'Acme Storefront spring-release-7, talking to http://localhost:3000',
      'Using the new checkout',
    ]);
    expect([...b.stats.compilation.fileDependencies]).toContain(join(b.dir, 'release.txt'));
  });

  it('the value table: regular expressions, functions, null and bigint are written as literals', async () => {
    const b = await build('define-table', { 'src/index.js': 'console.log(String(PATTERN.test("123")), CHECK(2), String(NOTHING), typeof BIG);\n' }, () => ({
      mode: 'production',
      entry: './src/index.js',
      plugins: [new webpack.DefinePlugin({ PATTERN: /^\d+$/, CHECK: (n: number) => n * 2, NOTHING: null, BIG: BigInt(10) })],
    }));
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['true 4 null bigint']);
  });
});

describe('DllPlugin examples', () => {
  it('the page shows the DLL and application configurations in pairs', () => {
    expect(configBlocks('dll-plugin').map((b) => b.title)).toEqual([
      'webpack.dll.config.js',
      'webpack.config.js',
      'webpack.dll.config.js',
      'webpack.config.js',
    ]);
  });

  it('Usage: the DLL declares vendor_dll, the app uses it without bundling lodash and runs after it', async () => {
    const files = { 'src/index.js': blockTitled('dll-plugin', 'src/index.js') };
    const dll = await build('dll-usage', files, configOf('dll-plugin', 0));
    const dllDir = join(dll.dir, 'dll');
    expect(listFiles(dllDir)).toEqual(['vendor.dll.js', 'vendor.manifest.json']);
    const manifest = JSON.parse(readFileSync(join(dllDir, 'vendor.manifest.json'), 'utf8')) as { name: string; content: Record<string, unknown> };
    expect(manifest.name).toBe('vendor_dll');
    expect(Object.keys(manifest.content).map((k) => k.replace(/^.*node_modules\//, '')).sort()).toEqual(['lodash/chunk.js', 'lodash/join.js']);
    const vendor = readFileSync(join(dllDir, 'vendor.dll.js'), 'utf8');
    expect(vendor).toMatch(/^var vendor_dll;/m);

    // The application is compiled in the same project, where dll/ now exists.
    const appConfig = loadConfig(configOf('dll-plugin', 1), dll.dir);
    const compiler = webpack({ ...appConfig, context: dll.dir, infrastructureLogging: { level: 'error' } });
    const stats = await runCompiler(compiler);
    await closeCompiler(compiler);
    expect(stats.hasErrors()).toBe(false);
    const main = readFileSync(join(dll.dir, 'dist', 'main.js'), 'utf8');
    expect(main).toContain('vendor_dll');
    expect(main).not.toContain('function baseSlice');
    expect(runInBrowserLikeContext([vendor, main])).toEqual(['a+b, c+d']);
    expect(() => runInBrowserLikeContext([main])).toThrow('vendor_dll is not defined');
  });

  it('two DLLs: two bundles and formatted manifests, both referenced by the application', async () => {
    const files = { 'src/index.js': blockTitled('dll-plugin', 'src/index.js') };
    const dll = await build('dll-two', files, configOf('dll-plugin', 2));
    const dllDir = join(dll.dir, 'dll');
    expect(listFiles(dllDir)).toEqual(['arrays.dll.js', 'arrays.manifest.json', 'strings.dll.js', 'strings.manifest.json']);
    expect(readFileSync(join(dllDir, 'strings.manifest.json'), 'utf8')).toContain('\n  "name": "strings_dll"');
    const appConfig = loadConfig(configOf('dll-plugin', 3), dll.dir);
    const compiler = webpack({ ...appConfig, context: dll.dir, infrastructureLogging: { level: 'error' } });
    const stats = await runCompiler(compiler);
    await closeCompiler(compiler);
    expect(stats.hasErrors()).toBe(false);
    const main = readFileSync(join(dll.dir, 'dist', 'main.js'), 'utf8');
    const bundles = ['arrays', 'strings'].map((n) => readFileSync(join(dllDir, `${n}.dll.js`), 'utf8'));
    expect(runInBrowserLikeContext([...bundles, main])).toEqual(['a+b, c+d']);
  });

  it('DllReferencePlugin options documented on the page match its schema', () => {
    expect(h4sUnder('plugins/dll-plugin', 'Options', 'DllReferencePlugin').sort()).toEqual(schemaProperties('plugins/dll/DllReferencePlugin.json'));
    expect(h4sUnder('plugins/dll-plugin', 'Options', 'DllPlugin').sort()).toEqual(schemaProperties('plugins/dll/DllPlugin.json'));
    expect(h3sUnder('plugins/dll-plugin', 'Options')).toEqual(['DllPlugin', 'DllReferencePlugin']);
  });
});

describe('DotenvPlugin examples', () => {
  const page = 'dotenv-plugin';
  const usageFiles = () => ({
    '.env': blockTitled(page, '.env'),
    '.env.production': blockTitled(page, '.env.production'),
    'src/index.js': blockTitled(page, 'src/index.js'),
  });

  it('Usage: the production file wins, unprefixed variables stay out of the bundle', async () => {
    const b = await build('dotenv-usage', usageFiles(), configOf(page, 0));
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['API: https://api.example.com', 'Support: help@example.com']);
    expect(b.outputs['main.js']).not.toContain('correct-horse');
  });

  it('a real environment variable with the prefix wins over the files', async () => {
    process.env.WEBPACK_API_URL = 'https://staging.example.com';
    try {
      const b = await build('dotenv-env', usageFiles(), configOf(page, 0));
      expect(runInBrowserLikeContext([b.outputs['main.js']!])[0]).toBe('API: https://staging.example.com');
    } finally {
      delete process.env.WEBPACK_API_URL;
    }
  });

  it('without a mode, .env.development is loaded (the warning on the page)', async () => {
    const files = { ...usageFiles(), '.env.development': 'WEBPACK_API_URL=http://dev.example.com\n' };
    const b = await build('dotenv-nomode', files, (dir) => {
      const config = loadConfig(configOf(page, 0), dir);
      delete config.mode;
      return config;
    });
    expect(b.warnings.some((w) => w.includes("The 'mode' option has not been set"))).toBe(true);
    expect(runInBrowserLikeContext([b.outputs['main.js']!])[0]).toBe('API: http://dev.example.com');
  });

  it('custom folder and prefix, with expansion and a default', async () => {
    const files = { 'config/env/.env': blockTitled(page, 'config/env/.env'), 'src/app.js': blockTitled(page, 'src/app.js') };
    const b = await build('dotenv-custom', files, configOf(page, 1));
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['https://cdn.example.com/img/logo.svg', 'eu-west']);
    expect(b.outputs['main.js']).not.toContain('DEPLOY_REGION');
    process.env.DEPLOY_REGION = 'us-east';
    try {
      const again = await build('dotenv-custom-env', files, configOf(page, 1));
      expect(runInBrowserLikeContext([again.outputs['main.js']!])).toEqual(['https://cdn.example.com/img/logo.svg', 'us-east']);
    } finally {
      delete process.env.DEPLOY_REGION;
    }
  });

  it('the .env files are build dependencies, missing ones are watched for creation', async () => {
    const b = await build('dotenv-deps', usageFiles(), configOf(page, 0));
    expect([...b.stats.compilation.fileDependencies]).toEqual(expect.arrayContaining([join(b.dir, '.env'), join(b.dir, '.env.production')]));
    expect([...b.stats.compilation.missingDependencies]).toEqual(expect.arrayContaining([join(b.dir, '.env.local')]));
  });
});

describe('EnvironmentPlugin examples', () => {
  const files = () => ({ 'src/index.js': blockTitled('environment-plugin', 'src/index.js') });
  const withEnv = async <T>(env: Record<string, string>, fn: () => Promise<T>): Promise<T> => {
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    try {
      return await fn();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  };

  it('Usage: the values from the environment are joined into one literal', async () => {
    const b = await withEnv({ API_URL: 'https://api.example.com', RELEASE: '2024.05.1' }, () =>
      build('env-usage', files(), configOf('environment-plugin', 0)),
    );
    expect(b.outputs['main.js']).toContain('"Release 2024.05.1 using https://api.example.com"');
  });

  it('a missing variable is an error with the quoted message', async () => {
    const b = await withEnv({ API_URL: 'https://api.example.com' }, () =>
      build('env-missing', files(), configOf('environment-plugin', 0), { allowErrors: true }),
    );
    expect(b.errors[0]).toBe(
      'EnvironmentPlugin - RELEASE environment variable is undefined.\n\nYou can pass an object with default values to suppress this warning.\nSee https://webpack.js.org/plugins/environment-plugin for example.',
    );
    expect(b.stats.toString({ colors: false })).toContain('ERROR in EnvironmentPlugin - RELEASE environment variable is undefined.');
  });

  it('defaults apply when nothing is set, and SENTRY_DSN is null', async () => {
    const b = await build('env-defaults', { 'src/index.js': `${blockTitled('environment-plugin', 'src/index.js')}console.log(String(process.env.SENTRY_DSN));\n` }, configOf('environment-plugin', 1));
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['Release local using http://localhost:3000', 'null']);
  });

  it('an environment value is a string even where the default is a boolean', async () => {
    const config = () => () => ({ mode: 'production' as const, entry: './src/index.js', plugins: [new webpack.EnvironmentPlugin({ DEBUG: false })] });
    const src = { 'src/index.js': 'console.log(typeof process.env.DEBUG, process.env.DEBUG ? "on" : "off");\n' };
    const byDefault = await build('env-bool', src, config());
    expect(runInBrowserLikeContext([byDefault.outputs['main.js']!])).toEqual(['boolean off']);
    const fromEnv = await withEnv({ DEBUG: 'false' }, () => build('env-bool2', src, config()));
    expect(runInBrowserLikeContext([fromEnv.outputs['main.js']!])).toEqual(['string on']);
  });
});

interface RawSourceMap {
  sources: string[];
  sourcesContent?: string[];
  ignoreList?: number[];
  debugId?: string;
  mappings: string;
}

/** The inline maps of an eval-source-map bundle, decoded. */
function inlineMaps(code: string): RawSourceMap[] {
  return [...code.matchAll(/sourceMappingURL=data:application\/json;charset=utf-8;base64,([A-Za-z0-9+/=]+)/g)].map(
    (m) => JSON.parse(Buffer.from(m[1]!, 'base64').toString('utf8')) as RawSourceMap,
  );
}

describe('SourceMapDevToolPlugin examples', () => {
  it('Usage: maps/ holds the map of the app bundle, the vendor bundle has none', async () => {
    const b = await build('smdt-usage', fixture('sourcemaps'), configOf('source-map-dev-tool-plugin', 0));
    const files = Object.keys(b.outputs).sort();
    const app = files.find((f) => /^app\.[0-9a-f]{8}\.js$/.test(f))!;
    const vendor = files.find((f) => /^vendor\.[0-9a-f]{8}\.js$/.test(f))!;
    expect(files).toEqual([app, vendor, `maps/${app}.map`].sort());
    expect(b.outputs[app]!.endsWith(`\n//# sourceMappingURL=maps/${app}.map`)).toBe(true);
    expect(b.outputs[vendor]).not.toContain('sourceMappingURL');
    const map = JSON.parse(b.outputs[`maps/${app}.map`]!) as RawSourceMap;
    expect(map.sources).toContain('webpack:///./src/format.js');
    const info = b.stats.toJson({ all: false, assets: true }).assets!.find((a) => a.name === app)!.info;
    expect(info.related).toEqual({ sourceMap: `maps/${app}.map` });
  });

  it('the devtool table: source-map gives the same files as the plugin with [file].map[query]', async () => {
    const viaDevtool = await build('smdt-devtool', fixture('sourcemaps'), () => ({ mode: 'production', devtool: 'source-map', entry: './src/app.js' }));
    const viaPlugin = await build('smdt-plugin', fixture('sourcemaps'), () => ({
      mode: 'production',
      devtool: false,
      entry: './src/app.js',
      plugins: [new webpack.SourceMapDevToolPlugin({ filename: '[file].map[query]' })],
    }));
    expect(Object.keys(viaPlugin.outputs).sort()).toEqual(Object.keys(viaDevtool.outputs).sort());
    expect(viaPlugin.outputs['main.js']).toBe(viaDevtool.outputs['main.js']);
  });

  it('hidden maps with debug ids and no sources', async () => {
    const b = await build('smdt-hidden', fixture('sourcemaps'), configOf('source-map-dev-tool-plugin', 1));
    expect(Object.keys(b.outputs).sort()).toEqual(['main.js', 'main.js.map']);
    const main = b.outputs['main.js']!;
    expect(main).not.toContain('sourceMappingURL');
    const debugId = /\/\/# debugId=([0-9a-f-]+)\s*$/.exec(main)?.[1];
    expect(debugId).toBeTruthy();
    const map = JSON.parse(b.outputs['main.js.map']!) as RawSourceMap;
    expect(map.debugId).toBe(debugId);
    expect(map.sourcesContent).toBeUndefined();
    expect(map.mappings.length).toBeGreaterThan(0);
  });

  it('private server: absolute URL in the comment, custom source names, node_modules in ignoreList', async () => {
    const b = await build('smdt-private', fixture('sourcemaps'), configOf('source-map-dev-tool-plugin', 2));
    expect(b.outputs['main.js']!.endsWith('\n//# sourceMappingURL=https://maps.example.com/storefront/maps/main.js.map')).toBe(true);
    const map = JSON.parse(b.outputs['maps/main.js.map']!) as RawSourceMap;
    expect(map.sources.every((source) => source.startsWith('storefront:///'))).toBe(true);
    const ignored = (map.ignoreList ?? []).map((i) => map.sources[i]);
    expect(ignored.length).toBeGreaterThan(0);
    expect(ignored.every((source) => source!.includes('node_modules'))).toBe(true);
    expect(map.sources).toContain('storefront:///./src/format.js');
  });
});

describe('EvalSourceMapDevToolPlugin examples', () => {
  it('Usage: own modules are wrapped in eval with a map named storefront:///, node_modules are not', async () => {
    const b = await build('esm-usage', fixture('sourcemaps'), configOf('eval-source-map-dev-tool-plugin', 0));
    const main = b.outputs['main.js']!;
    expect(main).toContain('ATTENTION: An "eval-source-map" devtool has been used.');
    const sources = inlineMaps(main).flatMap((m) => m.sources);
    expect(sources.sort()).toEqual(['storefront:///./src/app.js', 'storefront:///./src/format.js']);
    expect(main).toMatch(/function join\(array, separator\)/); // lodash/join as plain code
    expect(runInBrowserLikeContext([main])).toEqual(['Total: $19.99']);
  });

  it('the devtool table: eval-source-map and the plugin without options give the same bundle', async () => {
    const viaDevtool = await build('esm-devtool', fixture('sourcemaps'), () => ({ mode: 'development', devtool: 'eval-source-map', entry: './src/app.js' }));
    const viaPlugin = await build('esm-plugin', fixture('sourcemaps'), () => ({
      mode: 'development',
      devtool: false,
      entry: './src/app.js',
      plugins: [new webpack.EvalSourceMapDevToolPlugin({})],
    }));
    expect(viaPlugin.outputs['main.js']).toBe(viaDevtool.outputs['main.js']);
  });

  it('ignoreList marks third-party sources in every module map', async () => {
    const b = await build('esm-ignore', fixture('sourcemaps'), configOf('eval-source-map-dev-tool-plugin', 1));
    const maps = inlineMaps(b.outputs['main.js']!);
    const lodash = maps.filter((m) => m.sources[0]!.includes('node_modules'));
    const own = maps.filter((m) => !m.sources[0]!.includes('node_modules'));
    expect(lodash.length).toBeGreaterThan(0);
    expect(lodash.every((m) => JSON.stringify(m.ignoreList) === '[0]')).toBe(true);
    expect(own.every((m) => m.ignoreList === undefined)).toBe(true);
  });
});

describe('HashedModuleIdsPlugin examples', () => {
  const ids = (stats: Stats) =>
    Object.fromEntries(
      (stats.toJson({ all: false, modules: true, ids: true }).modules ?? []).filter((m) => m.name).map((m) => [m.name!, String(m.id)]),
    );

  it('Usage: each id is the first 8 hex digits of the SHA-256 of the module path', async () => {
    const b = await build('hashed-usage', fixture('app'), configOf('hashed-module-ids-plugin', 0));
    const found = ids(b.stats);
    expect(Object.keys(found).sort()).toEqual(['./src/greet.js', './src/index.js']);
    for (const [name, id] of Object.entries(found)) {
      expect(id).toBe((webpack.util.createHash('sha256').update(name).digest('hex') as string).slice(0, 8));
    }
    expect(found['./src/index.js']).toBe('31778454');
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['Hello, webpack!']);
  });

  it('the defaults give four-character base64 ids, tjUo for ./src/index.js', async () => {
    const b = await build('hashed-defaults', fixture('app'), configOf('hashed-module-ids-plugin', 1));
    expect(ids(b.stats)['./src/index.js']).toBe('tjUo');
    expect(Object.values(ids(b.stats)).every((id) => /^[A-Za-z0-9+/]{4}$/.test(id))).toBe(true);
  });

  it("the note: moduleIds: 'hashed' is deprecated with the quoted warning", async () => {
    const b = await build('hashed-deprecated', fixture('app'), () => ({ mode: 'production', entry: './src/index.js', optimization: { moduleIds: 'hashed' } }));
    expect(b.warnings.some((w) => w.includes("The value 'hashed' for option 'optimization.moduleIds' is deprecated. Use 'deterministic' instead."))).toBe(true);
  });
});

describe('HotModuleReplacementPlugin examples', () => {
  const files = () => ({
    'src/index.js': blockTitled('hot-module-replacement-plugin', 'src/index.js'),
    'src/clock.js': "export const renderClock = () => 'clock v1';\n",
  });

  it('Usage: the runtime is in main.js, and a change in watch mode emits the two update files', async () => {
    const dir = scratchDir('plugins-hmr-watch');
    cleanups.push(() => removeDir(dir));
    writeFiles(dir, { 'package.json': '{ "private": true }\n', ...files() });
    const config = loadConfig(configOf('hot-module-replacement-plugin', 0), dir);
    const compiler = webpack({ ...config, context: dir, infrastructureLogging: { level: 'error' } });
    const builds: Stats[] = [];
    await new Promise<void>((resolve, reject) => {
      const watching = compiler.watch({ aggregateTimeout: 20 }, (err, stats) => {
        if (err) return reject(err);
        builds.push(stats!);
        if (builds.length === 1) {
          setTimeout(() => writeFiles(dir, { 'src/clock.js': "export const renderClock = () => 'clock v2';\n" }), 50);
        } else if (readFileSync(join(dir, 'src/clock.js'), 'utf8').includes('v2') && stats!.compilation.assets[`main.${builds[0]!.hash}.hot-update.json`]) {
          watching!.close(() => resolve());
        }
        // Any other rebuild (a watcher noticing the first build's own files) waits for the edit's build.
      });
    });
    const dist = join(dir, 'dist');
    const main = readFileSync(join(dist, 'main.js'), 'utf8');
    expect(main).toContain('hot-update.json');
    expect(main).toContain('module.hot.accept');
    const hash = builds[0]!.hash!;
    builds.splice(1, builds.length - 2); // keep the first build and the edit's build
    expect(listFiles(dist).sort()).toEqual([`main.${hash}.hot-update.js`, `main.${hash}.hot-update.json`, 'main.js']);
    expect(JSON.parse(readFileSync(join(dist, `main.${hash}.hot-update.json`), 'utf8'))).toMatchObject({ c: ['main'], r: [] });
    expect(readFileSync(join(dist, `main.${hash}.hot-update.js`), 'utf8')).toContain('clock v2');
    expect(builds[1]!.compilation.outputOptions.strictModuleErrorHandling).toBe(true);
  });

  it('without the plugin, production removes the whole if block', async () => {
    const b = await build('hmr-without', files(), () => ({ mode: 'production', entry: './src/index.js' }));
    expect(b.outputs['main.js']).not.toContain('accept');
    expect(b.outputs['main.js']).toContain('clock v1');
  });

  it('a module that accepts updates is not concatenated, with the reason Hot Module Replacement', async () => {
    const b = await build('hmr-concat', files(), (dir) => ({
      ...loadConfig(configOf('hot-module-replacement-plugin', 0), dir),
      optimization: { concatenateModules: true, usedExports: true },
    }));
    const reasons = (b.stats.toJson({ all: false, modules: true, optimizationBailout: true }).modules ?? []).flatMap((m) => m.optimizationBailout ?? []);
    expect(reasons.some((r) => r.includes('Hot Module Replacement'))).toBe(true);
  });
});

describe('IgnorePlugin examples', () => {
  it('Usage: no locale of the moment stand-in is bundled except the one imported directly', async () => {
    const files = { ...fixture('moment'), 'src/index.js': `${blockTitled('ignore-plugin', 'src/dates.js')}console.log(moment.locale(), moment.greeting('fr'));\n` };
    const b = await build('ignore-usage', files, configOf('ignore-plugin', 0));
    const locales = moduleNames(b.stats).filter((m) => m.includes('/locale/'));
    expect(locales).toEqual(['./node_modules/moment/locale/de.js']);
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['de no locale fr']);
  });

  it('optional add-ons: the quoted warnings without the plugin, none with it, and the fallback still works', async () => {
    const without = await build('ignore-ws-without', fixture('ws'), (dir) => ({ ...loadConfig(configOf('ignore-plugin', 1), dir), plugins: [] }));
    expect(without.warnings.map((w) => w.replace(without.dir, '/app'))).toEqual([
      "Module not found: Error: Can't resolve 'bufferutil' in '/app/node_modules/ws'",
      "Module not found: Error: Can't resolve 'utf-8-validate' in '/app/node_modules/ws'",
    ]);
    const b = await build('ignore-ws', fixture('ws'), configOf('ignore-plugin', 1));
    expect(b.warnings).toEqual([]);
    expect(runNode(join(b.outDir, 'main.js'))).toEqual(['native add-ons: false']);
  });

  it('an ignored request throws MODULE_NOT_FOUND at run time', async () => {
    const files = { 'src/index.js': "try { require('./debug-panel.js'); } catch (e) { console.log(e.code, e.message); }\n", 'src/debug-panel.js': 'module.exports = 1;\n' };
    const b = await build('ignore-runtime', files, () => ({ mode: 'production', entry: './src/index.js', plugins: [new webpack.IgnorePlugin({ resourceRegExp: /debug-panel/ })] }));
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(["MODULE_NOT_FOUND Cannot find module './debug-panel.js'"]);
  });
});

describe('IgnorePlugin and stylesheets', () => {
  it('an ignored @import is dropped without a message, an ignored url() becomes url(data:,), an ignored stylesheet imported from JavaScript throws at run time', async () => {
    const fonts = ".fonts { font-family: Inter; }\n";
    const files = {
      'src/index.js': "import './app.css';\nconsole.log('app');\n",
      'src/app.css': blockTitled('ignore-plugin', 'src/app.css'),
      'src/fonts.css': fonts,
    };
    const b = await build('ignore-css-import', files, configOf('ignore-plugin', 2));
    expect(b.errors).toEqual([]);
    expect(b.warnings).toEqual([]);
    expect(b.outputs['main.css']).toMatch(/font-family:\s*Inter,\s*sans-serif/);
    expect(b.outputs['main.css']).not.toContain('.fonts');
    expect(b.outputs['main.css']).not.toContain('@import');
    expect(moduleNames(b.stats).filter((m) => m.includes('fonts'))).toEqual([]);

    const config = (dir: string) => ({ ...loadConfig(configOf('ignore-plugin', 2), dir), plugins: [new webpack.IgnorePlugin({ resourceRegExp: /^\.\/(fonts\.css|bg\.png)$/ })] });
    const url = await build('ignore-css-url', { ...files, 'src/app.css': ".app { background: url('./bg.png'); }\n", 'src/bg.png': 'png' }, config);
    expect(url.outputs['main.css']).toMatch(/background:\s*url\(data:,\)/);
    expect(Object.keys(url.outputs).filter((f) => f.endsWith('.png'))).toEqual([]);

    const fromJs = await build('ignore-css-js', { 'src/index.js': "import './fonts.css';\nconsole.log('after');\n", 'src/fonts.css': fonts }, config);
    expect(fromJs.errors).toEqual([]);
    expect(() => runInBrowserLikeContext([fromJs.outputs['main.js']!])).toThrow("Cannot find module './fonts.css'");
  });
});

describe('SSRManifestPlugin examples', () => {
  const files = () => ({
    'src/index.js': blockTitled('ssr-manifest-plugin', 'src/index.js'),
    'src/layout.css': 'body { margin: 0; }\n',
    'src/pages/cart.js': blockTitled('ssr-manifest-plugin', 'src/pages/cart.js'),
    'src/pages/money.js': blockTitled('ssr-manifest-plugin', 'src/pages/money.js'),
    'src/pages/cart.css': '.cart { color: teal; }\n',
  });
  /** A manifest with the hashes of file names taken out. */
  const unhashed = (manifest: Record<string, string[]>) =>
    Object.fromEntries(Object.entries(manifest).map(([key, urls]) => [key, urls.map((u) => u.replace(/\.[0-9a-f]{4,}\.(js|css)$/, '.$1'))]));

  it('Usage: one key per source module (the concatenated one too), the chunk files with the stylesheet last, as the page shows; the server snippet writes the tags', async () => {
    const b = await build('ssr-usage', files(), configOf('ssr-manifest-plugin', 0));
    expect(b.warnings).toEqual([]);
    const manifest = JSON.parse(b.outputs['ssr-manifest.json']!) as Record<string, string[]>;
    const shown = JSON.parse(readPage('plugins/ssr-manifest-plugin').blocks.find((x) => x.lang === 'json')!.code) as Record<string, string[]>;
    expect(unhashed(manifest)).toEqual(unhashed(shown));
    expect(Object.keys(manifest)).toEqual([...Object.keys(manifest)].sort());
    for (const urls of Object.values(manifest)) for (const url of urls) expect(existsSync(join(b.outDir, url.slice('/assets/'.length))), url).toBe(true);
    // A module concatenated into cart.js has its own key.
    expect(moduleNames(b.stats).some((m) => m.startsWith('./src/pages/cart.js + '))).toBe(true);

    writeFiles(b.dir, { 'server/preload.js': blockTitled('ssr-manifest-plugin', 'server/preload.js') });
    const out = runScript(b.dir, "const { tagsFor } = require('./server/preload.js');\nconsole.log(tagsFor(['./src/pages/cart.js']));\n");
    expect(out).toEqual([`<link rel="modulepreload" href="${manifest['./src/pages/cart.js']![0]}">`, `<link rel="stylesheet" href="${manifest['./src/pages/cart.js']![1]}">`]);
  });

  it('publicPath auto: the quoted warning, and URLs from /', async () => {
    const b = await build('ssr-auto', files(), (dir) => {
      const config = loadConfig(configOf('ssr-manifest-plugin', 0), dir);
      return { ...config, output: { ...config.output, publicPath: 'auto' } };
    });
    expect(b.warnings.join('\n')).toContain(`SSRManifestPlugin cannot resolve 'output.publicPath: "auto"'`);
    const manifest = JSON.parse(b.outputs['ssr-manifest.json']!) as Record<string, string[]>;
    expect(manifest['./src/pages/cart.js']!.every((u) => /^\/cart\./.test(u))).toBe(true);
  });

  it('Examples: context and filename give keys from src/ and a manifest in server/, with CDN URLs', async () => {
    const b = await build('ssr-options', files(), configOf('ssr-manifest-plugin', 1));
    expect(b.outputs['ssr-manifest.json']).toBeUndefined();
    const manifest = JSON.parse(b.outputs['server/ssr-manifest.json']!) as Record<string, string[]>;
    expect(Object.keys(manifest)).toEqual(['./index.js', './layout.css', './pages/cart.css', './pages/cart.js', './pages/money.js']);
    expect(manifest['./index.js']).toContain('https://cdn.example.com/shop/main.js');
  });

  it('a module in a layer has the layer in front of its key', async () => {
    const b = await build('ssr-layer', files(), (dir) => {
      const config = loadConfig(configOf('ssr-manifest-plugin', 0), dir);
      return { ...config, entry: { main: { import: './src/index.js', layer: 'server' } }, experiments: { layers: true } };
    });
    const manifest = JSON.parse(b.outputs['ssr-manifest.json']!) as Record<string, string[]>;
    expect(Object.keys(manifest)).toContain('(server)./src/index.js');
  });
});

describe('LimitChunkCountPlugin examples', () => {
  const expected = ['30 navigation entries', 'home page', 'search page', 'cart page', 'account page with 40 fields'];

  it('Usage: one server.js with all routes inside, which runs with Node.js', async () => {
    const b = await build('limit-usage', fixture('routes'), configOf('limit-chunk-count-plugin', 0));
    expect(Object.keys(b.outputs)).toEqual(['server.js']);
    expect(runNode(join(b.outDir, 'server.js'))).toEqual(expected);
    const without = await build('limit-without', fixture('routes'), (dir) => ({ ...loadConfig(configOf('limit-chunk-count-plugin', 0), dir), plugins: [] }));
    expect(jsFiles(without.outputs)).toHaveLength(5);
  });

  it('two entries stay two files with maxChunks: 1, plus a lazy chunk both of them load', async () => {
    const files = { ...fixture('routes'), 'src/admin.js': "import('./routes/cart.js').then((m) => console.log(m.render()));\n" };
    const b = await build('limit-two-entries', files, (dir) => ({
      ...loadConfig(configOf('limit-chunk-count-plugin', 0), dir),
      entry: { server: './src/index.js', admin: './src/admin.js' },
      output: { path: join(dir, 'dist'), filename: '[name].js' },
    }));
    // cart.js is loaded by both entries, so its chunk cannot move into either of them
    expect(Object.keys(b.outputs).sort()).toEqual([expect.stringMatching(/^\d+\.js$/), 'admin.js', 'server.js']);
    const shared = b.stats.toJson({ all: false, chunks: true, chunkModules: true }).chunks!.find((c) => !c.initial)!;
    expect(shared.modules!.map((m) => m.name)).toContain('./src/routes/cart.js');
  });

  it('three requests at most: main.js and two merged chunks, and the app still runs', async () => {
    const b = await build('limit-three', fixture('routes'), configOf('limit-chunk-count-plugin', 1));
    expect(jsFiles(b.outputs)).toHaveLength(3);
    expect(await runWebApp({ 'http://localhost/': b.outDir }, ['main.js'])).toEqual(expected);
  });

  it('without options the plugin limits to one chunk', () => {
    expect(new webpack.optimize.LimitChunkCountPlugin().options).toEqual({ maxChunks: 1 });
  });
});

describe('MinChunkSizePlugin examples', () => {
  const expected = ['30 navigation entries', 'home page', 'search page', 'cart page', 'account page with 40 fields'];

  it('Usage: all route chunks are below 10,000 characters and end up in main.js', async () => {
    const b = await build('minchunk-usage', fixture('routes'), configOf('min-chunk-size-plugin', 0));
    expect(jsFiles(b.outputs)).toEqual(['main.js']);
    expect(await runWebApp({ 'http://localhost/': b.outDir }, ['main.js'])).toEqual(expected);
  });

  it('a limit of 1,500 leaves main.js alone and merges all routes into one lazy chunk', async () => {
    const b = await build('minchunk-1500', fixture('routes'), configOf('min-chunk-size-plugin', 1));
    const chunks = b.stats.toJson({ all: false, chunks: true, chunkModules: true }).chunks!;
    expect(chunks).toHaveLength(2);
    const lazy = chunks.find((c) => !c.initial)!;
    expect(lazy.modules!.map((m) => m.name).sort()).toEqual(['./src/routes/account.js', './src/routes/cart.js', './src/routes/home.js', './src/routes/search.js']);
    const main = chunks.find((c) => c.initial)!;
    expect(main.modules!.some((m) => m.name?.includes('routes/'))).toBe(false);
    expect(await runWebApp({ 'http://localhost/': b.outDir }, ['main.js'])).toEqual(expected);
  });
});

describe('ManifestPlugin examples', () => {
  const files = () => ({ ...fixture('manifest'), 'src/index.js': blockTitled('manifest-plugin', 'src/index.js') });
  const hashed = (name: string) => new RegExp(`^${name.replace('.', '\\.[0-9a-f]{8}\\.')}$`);

  it('Usage: the manifest has the shape shown on the page, with the real file names', async () => {
    const b = await build('manifest-usage', files(), configOf('manifest-plugin', 0));
    const manifest = JSON.parse(b.outputs['manifest.json']!) as { entrypoints: Record<string, { imports: string[] }>; assets: Record<string, { file: string; src?: string }> };
    expect(manifest.entrypoints).toEqual({ app: { imports: ['app.js', 'app.css'] } });
    expect(Object.keys(manifest.assets).sort()).toEqual(['app.css', 'app.js', 'checkout.js', 'src/logo.png']);
    expect(manifest.assets['src/logo.png']!.src).toBe('src/logo.png');
    for (const [key, { file }] of Object.entries(manifest.assets)) {
      expect(file.startsWith('/static/')).toBe(true);
      expect(Object.keys(b.outputs)).toContain(file.slice('/static/'.length));
      if (key !== 'src/logo.png') expect(file.slice('/static/'.length)).toMatch(hashed(key));
    }
    expect(manifest.assets['src/logo.png']!.file).toMatch(/^\/static\/assets\/logo\.[0-9a-f]{8}\.png$/);
  });

  it('the server helper from the page renders the tags of the entry', async () => {
    const b = await build('manifest-server', files(), configOf('manifest-plugin', 0));
    writeFiles(b.dir, { 'server/assets.js': blockTitled('manifest-plugin', 'server/assets.js') });
    const lines = runScript(b.dir, "console.log(require('./server/assets.js').tagsFor('app'));");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^<script defer src="\/static\/app\.[0-9a-f]{8}\.js"><\/script>$/);
    expect(lines[1]).toMatch(/^<link rel="stylesheet" href="\/static\/app\.[0-9a-f]{8}\.css">$/);
  });

  it('an entry with dependOn lists its parents', async () => {
    const b = await build('manifest-parents', files(), () => ({
      mode: 'production',
      entry: { shared: './src/checkout.js', app: { import: './src/index.js', dependOn: 'shared' } },
      plugins: [new webpack.ManifestPlugin()],
    }));
    const manifest = JSON.parse(b.outputs['manifest.json']!) as { entrypoints: Record<string, { parents?: string[] }> };
    expect(manifest.entrypoints.app!.parents).toEqual(['shared']);
  });

  it('CDN prefix and filter: only scripts and styles, absolute URLs, no entrypoints', async () => {
    const b = await build('manifest-cdn', files(), configOf('manifest-plugin', 1));
    const manifest = JSON.parse(b.outputs['manifest.json']!) as Record<string, Record<string, { file: string }>>;
    expect(Object.keys(manifest)).toEqual(['assets']);
    expect(Object.keys(manifest.assets!).sort()).toEqual(['app.css', 'app.js', 'checkout.js']);
    expect(manifest.assets!['app.js']!.file).toMatch(/^https:\/\/cdn\.example\.com\/shop\/app\.[0-9a-f]{8}\.js$/);
  });

  it('generate and serialize: a flat, compact asset-map.json', async () => {
    const b = await build('manifest-flat', files(), configOf('manifest-plugin', 2));
    expect(b.outputs['manifest.json']).toBeUndefined();
    const text = b.outputs['asset-map.json']!;
    expect(text.includes('\n')).toBe(false);
    const map = JSON.parse(text) as Record<string, string>;
    expect(map['src/logo.png']).toMatch(/^\/static\/[0-9a-f]{20}\.png$/);
    expect(map['app.js']).toMatch(/^\/static\/app\.[0-9a-f]{8}\.js$/);
  });
});

describe('AutomaticPrefetchPlugin examples', () => {
  it('Usage: a module removed between two runs is built again in the second one, but not emitted', async () => {
    const dir = scratchDir('plugins-autoprefetch');
    cleanups.push(() => removeDir(dir));
    writeFiles(dir, { 'package.json': '{ "private": true }\n', ...fixture('app') });
    const compiler = webpack({ ...loadConfig(configOf('automatic-prefetch-plugin', 0), dir), context: dir, infrastructureLogging: { level: 'error' } });
    const first = await runCompiler(compiler);
    const built = (stats: Stats) =>
      [...stats.compilation.modules].flatMap((m) => (m.nameForCondition() ? [relative(dir, m.nameForCondition()!)] : [])).sort();
    expect(built(first)).toEqual(['src/greet.js', 'src/index.js']);
    writeFiles(dir, { 'src/index.js': "console.log('no greeting');\n" });
    (compiler.inputFileSystem as unknown as { purge(): void }).purge();
    const second = await runCompiler(compiler);
    await closeCompiler(compiler);
    expect(built(second)).toEqual(['src/greet.js', 'src/index.js']);
    expect(readFileSync(join(dir, 'dist', 'main.js'), 'utf8')).not.toContain('Hello');
    // without the plugin, the second run builds only what is imported
    const plain = webpack({ mode: 'development', context: dir, entry: './src/index.js', output: { path: join(dir, 'dist2') }, infrastructureLogging: { level: 'error' } });
    const only = await runCompiler(plain);
    await closeCompiler(plain);
    expect(built(only)).toEqual(['src/index.js']);
  });

  it('the build.js script from the page runs the compiler twice', async () => {
    const dir = scratchDir('plugins-autoprefetch-script');
    cleanups.push(() => removeDir(dir));
    writeFiles(dir, {
      'package.json': '{ "private": true }\n',
      ...fixture('app'),
      'webpack.config.js': configOf('automatic-prefetch-plugin', 0),
      'build.js': blockTitled('automatic-prefetch-plugin', 'build.js'),
    });
    // webpack is resolved from the repository's node_modules, two levels up from test/.tmp
    const [first, second] = runNode(join(dir, 'build.js'));
    expect(first).toMatch(/^first build: \d+ modules$/);
    expect(second).toBe(first!.replace('first', 'second'));
  });
});

describe('ModuleConcatenationPlugin examples', () => {
  const files = { ...fixture('app'), 'src/index.js': blockTitled('module-concatenation-plugin', 'src/index.js'), 'src/legacy.cjs': "module.exports = { name: 'legacy' };\n" };

  it('Usage: the stats show the concatenated module and the quoted bailouts', async () => {
    const b = await build('concat-usage', files, configOf('module-concatenation-plugin', 0));
    const text = b.stats.toString({ ...(b.config.stats as object), colors: false });
    const quoted = readPage('plugins/module-concatenation-plugin').blocks.find((b) => b.lang === 'text' && b.code.includes('+ 1 modules'))!.code;
    expect(text).toContain(quoted);
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['Hello, legacy!']);
  });

  it('through optimization.concatenateModules, a CommonJS module is rejected for strict mode instead', async () => {
    const b = await build('concat-cjs', files, () => ({ mode: 'development', devtool: false, entry: './src/index.js', optimization: { concatenateModules: true } }));
    expect(b.stats.toString({ optimizationBailout: true, colors: false })).toContain('ModuleConcatenation bailout: Module is not in strict mode');
  });

  it('eval() and disabled providedExports give the quoted reasons', async () => {
    const evalFiles = { ...files, 'src/greet.js': "export function greet(name) { return eval('`Hello, ${name}!`'); }\n" };
    const b = await build('concat-eval', evalFiles, configOf('module-concatenation-plugin', 0));
    expect(b.stats.toString({ ...(b.config.stats as object), colors: false })).toContain('ModuleConcatenation bailout: Module uses eval()');
    const c = await build('concat-noexports', files, (dir) => ({ ...loadConfig(configOf('module-concatenation-plugin', 0), dir), optimization: { providedExports: false } }));
    expect(c.stats.toString({ ...(c.config.stats as object), colors: false })).toContain('Module has no provided exports info');
  });

  it('the comparison example builds a production bundle without concatenation, larger than with it', async () => {
    const esmFiles = { ...fixture('app') };
    const off = await build('concat-off', esmFiles, configOf('module-concatenation-plugin', 1));
    const on = await build('concat-on', esmFiles, (dir) => {
      const config = loadConfig(configOf('module-concatenation-plugin', 1), dir);
      delete config.optimization;
      return config;
    });
    expect(moduleNames(on.stats)).toContain('./src/index.js + 1 modules');
    expect(moduleNames(off.stats)).not.toContain('./src/index.js + 1 modules');
    expect(off.outputs['main.js']!.length).toBeGreaterThan(on.outputs['main.js']!.length);
  });
});

describe('NoEmitOnErrorsPlugin examples', () => {
  it('Usage: a missing import leaves dist/ untouched and reports the quoted error', async () => {
    const b = await build('noemit-usage', { ...fixture('broken'), 'src/index.js': blockTitled('no-emit-on-errors-plugin', 'src/index.js') }, configOf('no-emit-on-errors-plugin', 0), {
      allowErrors: true,
      prepare: (dir) => writeFiles(dir, { 'dist/main.js': '// the last good build\n' }),
    });
    expect(b.outputs).toEqual({ 'main.js': '// the last good build\n' });
    const text = b.stats.toString({ colors: false }).replace(b.dir, '/app');
    const quoted = readPage('plugins/no-emit-on-errors-plugin').blocks.find((block) => block.lang === 'text')!.code;
    expect(text).toContain(quoted);
    const plain = await build('noemit-plain', fixture('broken'), (dir) => ({ ...loadConfig(configOf('no-emit-on-errors-plugin', 0), dir), plugins: [] }), { allowErrors: true });
    expect(plain.outputs['main.js']).toContain('Cannot find module');
  });

  it('emitOnErrors: false behaves the same, and warnings alone do not stop the output', async () => {
    const b = await build('noemit-option', fixture('broken'), configOf('no-emit-on-errors-plugin', 1), { allowErrors: true });
    expect(b.outputs).toEqual({});
    const warned = await build('noemit-warning', { 'src/index.js': "const name = globalThis.n || './x';\nrequire(name);\n" }, configOf('no-emit-on-errors-plugin', 0));
    expect(warned.warnings.length).toBeGreaterThan(0);
    expect(Object.keys(warned.outputs)).toEqual(['main.js']);
  });
});

describe('NormalModuleReplacementPlugin examples', () => {
  const files = () => ({ ...fixture('nmr'), 'src/index.js': blockTitled('normal-module-replacement-plugin', 'src/index.js'), 'src/theme.js': blockTitled('normal-module-replacement-plugin', 'src/theme.js') });

  it('Usage: the mock client replaces the real one, which is not bundled', async () => {
    const b = await build('nmr-usage', files(), configOf('normal-module-replacement-plugin', 0));
    expect(b.outputs['main.js']).not.toContain('api.example.com');
    expect(await runWebApp({ 'http://localhost/': b.outDir }, ['main.js'])).toEqual(['Espresso cup, Milk jug']);
  });

  it('a relative replacement that matches the request is resolved from the importing folder (the quoted error)', async () => {
    const b = await build('nmr-relative', files(), () => ({
      mode: 'production',
      entry: './src/index.js',
      plugins: [new webpack.NormalModuleReplacementPlugin(/[\\/]api[\\/]client\.js$/, './client.mock.js')],
    }), { allowErrors: true });
    expect(b.errors.map((e) => e.replace(b.dir, '/app'))).toContain("Module not found: Error: Can't resolve './client.mock.js' in '/app/src'");
  });

  it('brands: --env brand=globex uses the globex colours and writes to dist/globex', async () => {
    const globex = await build('nmr-globex', files(), configOf('normal-module-replacement-plugin', 1), { env: { brand: 'globex' } });
    expect(globex.outDir).toBe(join(globex.dir, 'dist', 'globex'));
    expect(runInBrowserLikeContext([globex.outputs['main.js']!])).toEqual(['primary colour: #00798c']);
    const acme = await build('nmr-acme', files(), configOf('normal-module-replacement-plugin', 1));
    expect(acme.outDir).toBe(join(acme.dir, 'dist', 'acme'));
    expect(moduleNames(acme.stats)).toContain('./src/brand/acme.js');
    expect(moduleNames(acme.stats)).not.toContain('./src/brand/default.js');
  });
});

describe('PrefetchPlugin examples', () => {
  const reasonsOf = (stats: Stats, name: string) =>
    (stats.toJson({ all: false, modules: true, reasons: true, orphanModules: true }).modules ?? []).find((m) => m.name === name)?.reasons?.map((r) => r.type);

  it('Usage: the chart module is built with the reason prefetch and still emitted in the lazy chunk', async () => {
    const b = await build('prefetch-usage', fixture('prefetch'), configOf('prefetch-plugin', 0));
    expect(reasonsOf(b.stats, './src/reports/chart.js')).toContain('prefetch');
    expect(Object.values(b.outputs).some((code) => code.includes("'#'.repeat") || code.includes('"#".repeat'))).toBe(true);
  });

  it('a prefetched module that nothing imports is built but not emitted', async () => {
    const files = { ...fixture('prefetch'), 'src/reports/page.js': "export function showReports() { console.log('no chart'); }\n" };
    const b = await build('prefetch-orphan', files, configOf('prefetch-plugin', 0));
    expect(moduleNames(b.stats)).toContain('./src/reports/chart.js');
    expect(Object.values(b.outputs).some((code) => code.includes('repeat'))).toBe(false);
  });

  it('with a context, the package is resolved from the sub-folder', async () => {
    const b = await build('prefetch-context', fixture('prefetch'), configOf('prefetch-plugin', 1));
    expect(reasonsOf(b.stats, './src/reports/node_modules/chart-kit/index.js')).toContain('prefetch');
  });
});

describe('ProfilingPlugin examples', () => {
  it('Usage: profiling/events.json is a trace with one event per plugin call and a CPU profile', async () => {
    const b = await build('profiling-usage', fixture('app'), configOf('profiling-plugin', 0));
    const events = JSON.parse(readFileSync(join(b.dir, 'profiling', 'events.json'), 'utf8')) as { name: string; ph: string }[];
    const names = new Set(events.map((e) => e.name));
    for (const name of ['TracingStartedInBrowser', 'SplitChunksPlugin', 'MinimizerPlugin', 'CpuProfile']) expect(names).toContain(name);
    expect(events.some((e) => e.name === 'MinimizerPlugin' && e.ph === 'B')).toBe(true);
  });

  it('on demand: nothing is profiled without WEBPACK_PROFILE, a timestamped file with it', async () => {
    const off = await build('profiling-off', fixture('app'), configOf('profiling-plugin', 1));
    expect(existsSync(join(off.dir, 'profiling'))).toBe(false);
    process.env.WEBPACK_PROFILE = '1';
    try {
      const on = await build('profiling-on', fixture('app'), configOf('profiling-plugin', 1));
      expect(readdirSync(join(on.dir, 'profiling'))).toEqual([expect.stringMatching(/^build-\d+\.json$/)]);
    } finally {
      delete process.env.WEBPACK_PROFILE;
    }
  });
});

describe('ProgressPlugin examples', () => {
  /** Runs a page config with the infrastructure log captured. */
  async function withLog(name: string, index: number) {
    const { PassThrough } = await import('node:stream');
    const stream = new PassThrough();
    let log = '';
    stream.on('data', (chunk: Buffer) => (log += chunk.toString()));
    const b = await build(name, fixture('app'), (dir) => ({
      ...loadConfig(configOf('progress-plugin', index), dir),
      infrastructureLogging: { level: 'info', stream: stream as unknown as NodeJS.WritableStream, colors: false, appendOnly: true },
    }));
    return { b, lines: log.split('\n') };
  }

  it('Usage: the quoted status lines appear in the infrastructure log', async () => {
    const { lines } = await withLog('progress-usage', 0);
    const quoted = readPage('plugins/progress-plugin').blocks.find((b) => b.lang === 'text' && b.code.includes('[webpack.Progress]'))!.code.split('\n');
    for (const line of quoted) expect(lines.map((l) => l.trimEnd())).toContain(line);
  });

  it('CI log: one line per ten percent, from 0% to 100%', async () => {
    const logged: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => void logged.push(args.map(String).join(' '));
    try {
      await build('progress-ci', fixture('app'), configOf('progress-plugin', 1));
    } finally {
      console.log = original;
    }
    expect(logged[0]).toBe('build 0%');
    expect(logged.at(-1)).toBe('build 100%');
    const percents = logged.map((l) => Number(/^build (\d+)%/.exec(l)![1]));
    expect(percents).toEqual([...percents].sort((x, y) => x - y));
    expect(new Set(percents).size).toBe(percents.length);
    expect(logged.some((l) => /^build \d+% building$/.test(l))).toBe(true);
  });

  it('bar with timings: in a log that is not a terminal, percentage lines, ETA and the phase breakdown', async () => {
    const { lines } = await withLog('progress-bar', 2);
    expect(lines.some((l) => /\[webpack\.Progress\] \d+% .*ETA: /.test(l))).toBe(true);
    expect(lines).toContain('<i> [webpack.Progress] Phase breakdown:');
    expect(lines.some((l) => /^<i> \[webpack\.Progress\]   sealing: \d+m?s \(\d+%\)$/.test(l))).toBe(true);
  });
});

describe('ProvidePlugin examples', () => {
  const files = () => ({ ...fixture('provide'), 'src/index.js': blockTitled('provide-plugin', 'src/index.js'), 'src/labels.js': blockTitled('provide-plugin', 'src/labels.js') });

  it('Usage: join and formatPrice are provided without imports', async () => {
    const b = await build('provide-usage', files(), configOf('provide-plugin', 0));
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['$19.99 + $4.50']);
    expect(moduleNames(b.stats).some((m) => m.includes('node_modules/lodash/join.js'))).toBe(true);
  });

  it('a module that declares its own join keeps it', async () => {
    const b = await build('provide-shadow', files(), (dir) => ({ ...loadConfig(configOf('provide-plugin', 0), dir), entry: './src/shadow.js' }));
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['$19.99 + $4.50', 'own join of 2 parts']);
  });

  it('a relative request only resolves from the folder it is relative to', async () => {
    const nested = { ...files(), 'src/pages/cart.js': "console.log(formatPrice(100));\n", 'src/entry.js': "import './index.js';\nimport './pages/cart.js';\n" };
    const b = await build('provide-relative', nested, () => ({
      mode: 'production',
      entry: './src/entry.js',
      plugins: [new webpack.ProvidePlugin({ join: 'lodash/join', formatPrice: ['./utils/format.js', 'formatPrice'] })],
    }), { allowErrors: true });
    // (webpack 5.112 also reports a follow-up "Cannot read properties of undefined" error for the unresolved module)
    expect(b.errors.map((e) => e.replace(b.dir, '/app'))).toContain("Module not found: Error: Can't resolve './utils/format.js' in '/app/src/pages'");
  });

  it('the default export of an ECMAScript module is provided with the array form', async () => {
    const b = await build('provide-default', files(), configOf('provide-plugin', 1));
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['Proceed to checkout']);
    const namespace = await build('provide-namespace', files(), (dir) => ({
      ...loadConfig(configOf('provide-plugin', 1), dir),
      plugins: [new webpack.ProvidePlugin({ i18n: join(dir, 'src/i18n.js') })],
    }));
    expect(() => runInBrowserLikeContext([namespace.outputs['main.js']!])).toThrow(/is not a function/);
  });
});

describe('SplitChunksPlugin examples', () => {
  /** A package large enough (> 20,000 bytes) for the default minSize. */
  const chartKit = () => {
    const palette = Array.from({ length: 2000 }, (_, i) => `  '#${(i * 2654435761 % 0xffffff).toString(16).padStart(6, '0')}',`).join('\n');
    return {
      'node_modules/chart-kit/package.json': '{ "name": "chart-kit", "version": "1.0.0", "main": "index.js", "sideEffects": false }\n',
      'node_modules/chart-kit/index.js': `const palette = [\n${palette}\n];\n\nexport function renderChart(values) {\n  return values.map((v, i) => palette[i % palette.length] + ':' + v).join(' ');\n}\n`,
    };
  };
  const files = () => ({ ...fixture('split'), ...chartKit() });
  const entryFiles = (stats: Stats, name: string) => (stats.toJson({ all: false, entrypoints: true }).entrypoints![name]!.assets ?? []).map((a) => a.name);
  const run = (b: Build, entry: string) => runWebApp({ 'http://localhost/': b.outDir }, entryFiles(b.stats, entry));

  it('Usage: chunks: all moves the shared package into a chunk both entries load', async () => {
    const b = await build('split-usage', files(), configOf('split-chunks-plugin', 0));
    const js = jsFiles(b.outputs);
    expect(js).toHaveLength(3);
    const vendor = js.find((f) => f !== 'home.js' && f !== 'product.js')!;
    expect(b.outputs[vendor]).toContain('#');
    expect(entryFiles(b.stats, 'home')).toEqual([vendor, 'home.js']);
    expect(entryFiles(b.stats, 'product')).toEqual([vendor, 'product.js']);
    expect((await run(b, 'home'))[0]).toMatch(/^home: #[0-9a-f]{6}:3 .* from \$19\.99$/);
    expect((await run(b, 'product'))[0]).toMatch(/^product: .* for \$4\.50$/);
    // the default, chunks: 'async', leaves the entries alone
    const plain = await build('split-async', files(), (dir) => {
      const config = loadConfig(configOf('split-chunks-plugin', 0), dir);
      delete config.optimization;
      return config;
    });
    expect(jsFiles(plain.outputs)).toEqual(['home.js', 'product.js']);
  });

  it('the small shared module alone is not split with the default minSize', async () => {
    const b = await build('split-small', fixture('split'), (dir) => ({ ...loadConfig(configOf('split-chunks-plugin', 0), dir), externals: { 'chart-kit': 'globalThis.chartKit' } }));
    expect(jsFiles(b.outputs)).toEqual(['home.js', 'product.js']);
  });

  it('named vendors and shared chunks plus a runtime chunk', async () => {
    const b = await build('split-named', files(), configOf('split-chunks-plugin', 1));
    const names = jsFiles(b.outputs).map((f) => f.replace(/\.[0-9a-f]{8}\.js$/, ''));
    expect(names.sort()).toEqual(['home', 'product', 'runtime', 'shared', 'vendors']);
    const home = entryFiles(b.stats, 'home').map((f) => f.replace(/\.[0-9a-f]{8}\.js$/, ''));
    expect(home).toEqual(['runtime', 'vendors', 'shared', 'home']);
    expect((await run(b, 'home'))[0]).toMatch(/^home: .* from \$19\.99$/);
  });

  it('the class with explicit options emits vendors.js; without maxInitialRequests nothing is split', async () => {
    const b = await build('split-class', files(), configOf('split-chunks-plugin', 2));
    expect(jsFiles(b.outputs)).toEqual(['home.js', 'product.js', 'vendors.js']);
    expect((await run(b, 'product'))[0]).toMatch(/^product: .* for \$4\.50$/);
    const strict = await build('split-class-strict', files(), (dir) => {
      const config = loadConfig(configOf('split-chunks-plugin', 2), dir);
      return {
        ...config,
        plugins: [new webpack.optimize.SplitChunksPlugin({ chunks: 'all', minSize: 20000, maxAsyncRequests: 30, cacheGroups: { vendors: { test: /[\\/]node_modules[\\/]/, name: 'vendors' } } })],
      };
    });
    expect(jsFiles(strict.outputs)).toEqual(['home.js', 'product.js']);
  });

  it('automaticNameDelimiter names the parts maxSize cuts a named chunk into, and leaves named chunk ids alone', async () => {
    const page = readPage('plugins/split-chunks-plugin').body;
    expect(page).toContain('`app-src_a_js-6e1c5d41.js`');
    expect(page).toContain('`app~src_a_js_6e1c5d41.js`');
    // an entry `app` of four modules, each larger than minSize, so that maxSize cuts it along module boundaries
    const parts: Record<string, string> = {
      'src/index.js': "import { a } from './a.js';\nimport { b } from './b.js';\nimport { c } from './c.js';\n\nconsole.log(a.length + b.length + c.length);\n",
    };
    for (const m of ['a', 'b', 'c']) parts[`src/${m}.js`] = `export const ${m} = '${m.repeat(400)}';\n`;
    const partsBuild = (name: string, delimiter?: string) =>
      build(name, parts, () => ({
        mode: 'development',
        entry: { app: './src/index.js' },
        optimization: { splitChunks: { chunks: 'all', minSize: 100, maxSize: 500, ...(delimiter ? { automaticNameDelimiter: delimiter } : {}) } },
      }));
    expect(jsFiles((await partsBuild('split-delim-dash')).outputs)).toEqual([
      'app-src_a_js-6e1c5d41.js',
      'app-src_b_js-2f014d08.js',
      'app-src_c_js-a674cacb.js',
      'app-src_index_js-b63528e4.js',
    ]);
    expect(jsFiles((await partsBuild('split-delim-tilde', '~')).outputs)).toContain('app~src_a_js_6e1c5d41.js');
    // without a size limit, the id that chunkIds: 'named' gives the vendors chunk keeps its '-'
    const vendors = await build('split-delim-vendors', files(), (dir) => ({
      ...loadConfig(configOf('split-chunks-plugin', 0), dir),
      mode: 'development',
      optimization: { splitChunks: { chunks: 'all', automaticNameDelimiter: '~' } },
    }));
    expect(jsFiles(vendors.outputs)).toEqual(['home.js', 'product.js', 'vendors-node_modules_chart-kit_index_js.js']);
    expect(page).toContain('`vendors-node_modules_chart-kit_index_js`');
  });

  it('fallbackCacheGroup: the page lists every key of the schema; minSizeReduction is accepted but not read', () => {
    const schema = loadSchema('WebpackOptions.json') as SchemaNode & { definitions: Record<string, SchemaNode> };
    const keys = Object.keys(schema.definitions.OptimizationSplitChunksOptions!.properties!.fallbackCacheGroup!.properties!);
    const body = sections('plugins/split-chunks-plugin').find((s) => s.text === 'fallbackCacheGroup')!.body;
    for (const key of keys) expect(body, key).toContain(`\`${key}\``);
    expect(body).toMatch(/`minSizeReduction` passes validation but has no effect/);
    const plugin = new webpack.optimize.SplitChunksPlugin({ fallbackCacheGroup: { minSizeReduction: 1000, automaticNameDelimiter: '+' } });
    const fallback = (plugin.options as unknown as { fallbackCacheGroup: Record<string, unknown> }).fallbackCacheGroup;
    expect(fallback.automaticNameDelimiter).toBe('+');
    expect(Object.keys(fallback).sort()).toEqual(['automaticNameDelimiter', 'chunksFilter', 'maxAsyncSize', 'maxInitialSize', 'minSize']);
    expect(new webpack.optimize.SplitChunksPlugin({}).options.fallbackCacheGroup.automaticNameDelimiter).toBe('~');
  });

  it('a plugin created without options has the restrictive defaults the page lists', () => {
    const plugin = new webpack.optimize.SplitChunksPlugin();
    const options = plugin.options as unknown as Record<string, unknown>;
    expect(options.maxInitialRequests).toBe(1);
    expect(options.maxAsyncRequests).toBe(1);
    expect(options.minSize).toEqual({});
    expect(options.defaultSizeTypes).toEqual(['javascript', 'unknown']);
    expect(options.automaticNameDelimiter).toBe('-');
    expect(options.hidePathInfo).toBe(false);
    expect(options.usedExports).toBe(false);
  });

  it('optimization.splitChunks gets the production defaults the page lists', () => {
    const options = webpack.config.getNormalizedWebpackOptions({ mode: 'production' });
    webpack.config.applyWebpackOptionsDefaults(options);
    const splitChunks = options.optimization.splitChunks as Record<string, unknown>;
    expect(splitChunks).toMatchObject({
      chunks: 'async',
      minSize: 20000,
      enforceSizeThreshold: 50000,
      maxAsyncRequests: 30,
      maxInitialRequests: 30,
      hidePathInfo: true,
      dedupDepth: 0,
      automaticNameDelimiter: '-',
      defaultSizeTypes: ['javascript', 'css', 'unknown'],
    });
    expect(splitChunks.cacheGroups).toMatchObject({
      default: { minChunks: 2, priority: -20, reuseExistingChunk: true, idHint: '' },
      defaultVendors: { priority: -10, reuseExistingChunk: true, idHint: 'vendors' },
    });
  });
});

describe('MergeDuplicateChunksPlugin examples', () => {
  const chunksOf = (b: Build) => jsFiles(b.outputs).filter((f) => !['admin.js', 'shop.js'].includes(f));

  it('Usage: both entries load chart.js from one chunk, and both still run', async () => {
    const b = await build('merge-dup-usage', fixture('merge-duplicates'), configOf('merge-duplicate-chunks-plugin', 0));
    expect(chunksOf(b)).toHaveLength(1);
    expect(b.outputs[chunksOf(b)[0]!]).toContain('chart of');
    expect(await runWebApp({ 'http://localhost/': b.outDir }, ['admin.js'])).toEqual(['admin: chart of sales']);
    expect(await runWebApp({ 'http://localhost/': b.outDir }, ['shop.js'])).toEqual(['shop: chart of orders']);
  });

  it('without the option, two chunks hold the same code', async () => {
    const b = await build('merge-dup-off', fixture('merge-duplicates'), configOf('merge-duplicate-chunks-plugin', 1));
    const chunks = chunksOf(b);
    expect(chunks).toHaveLength(2);
    expect(b.outputs[chunks[0]!]!.replace(/\d+/g, '')).toBe(b.outputs[chunks[1]!]!.replace(/\d+/g, ''));
  });

  it('the default stage is -10; an options object without stage leaves it undefined (stage 0)', () => {
    const { MergeDuplicateChunksPlugin } = webpack.optimize;
    expect((new MergeDuplicateChunksPlugin() as unknown as { options: { stage?: number } }).options.stage).toBe(-10);
    expect((new MergeDuplicateChunksPlugin({}) as unknown as { options: { stage?: number } }).options.stage).toBeUndefined();
  });
});

describe('VirtualUrlPlugin examples', () => {
  it('Usage: a string module and one whose relative import resolves from src/lib/', async () => {
    const files = { ...fixture('virtual-url'), 'src/index.js': blockTitled('virtual-url-plugin', 'src/index.js') };
    const b = await build('virtual-usage', files, configOf('virtual-url-plugin', 0));
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['storefront, built 2026-01-15: €12.60']);
  });

  it('an unknown id fails with the message the page quotes', async () => {
    const files = { ...fixture('virtual-url'), 'src/index.js': "import x from 'virtual:missing';\nconsole.log(x);\n" };
    const b = await build('virtual-missing', files, configOf('virtual-url-plugin', 0), { allowErrors: true });
    expect(b.errors.join('\n')).toContain("Can't resolve virtual module virtual:missing");
  });

  it('two instances on one scheme: the first answers every request of it and fails for the ids of the second', async () => {
    const files = { ...fixture('virtual-url'), 'src/index.js': "import a from 'virtual:a';\nimport b from 'virtual:b';\nconsole.log(a, b);\n" };
    const { VirtualUrlPlugin } = webpack.experiments.schemes;
    const b = await build('virtual-two', files, () => ({ mode: 'production', entry: './src/index.js', plugins: [new VirtualUrlPlugin({ a: 'export default 1;' }), new VirtualUrlPlugin({ b: 'export default 2;' })] }), { allowErrors: true });
    expect(b.errors.join('\n')).toContain("Can't resolve virtual module virtual:b");
  });

  it('generated routes, JSON settings and the app scheme', async () => {
    const files = { ...fixture('virtual-url'), 'src/app.js': blockTitled('virtual-url-plugin', 'src/app.js') };
    const b = await build('virtual-routes', files, configOf('virtual-url-plugin', 1));
    expect(runInBrowserLikeContext([b.outputs['main.js']!])).toEqual(['cart, home EUR 20']);
    const modules = moduleNames(b.stats).join('\n');
    expect(modules).toContain('app:settings');
  });

  it('with the memory cache, the route list follows a new page (context dependency); a version makes a file-less module follow its value', async () => {
    const files = { ...fixture('virtual-url'), 'src/app.js': blockTitled('virtual-url-plugin', 'src/app.js') };
    const dir = scratchDir('plugins-virtual-version');
    cleanups.push(() => removeDir(dir));
    writeFiles(dir, { 'package.json': '{ "private": true }\n', ...files, 'src/stamp.js': "import a from 'stamp:a';\nimport b from 'stamp:b';\nconsole.log(a, b);\n" });
    const config = loadConfig(configOf('virtual-url-plugin', 1), dir);
    let value = 'one';
    const { VirtualUrlPlugin } = webpack.experiments.schemes;
    const compiler = webpack({
      ...config,
      mode: 'development',
      devtool: false,
      cache: { type: 'memory' },
      entry: { main: './src/app.js', stamp: './src/stamp.js' },
      context: dir,
      output: { path: join(dir, 'dist') },
      infrastructureLogging: { level: 'error' },
      plugins: [
        ...config.plugins!,
        new VirtualUrlPlugin({ a: () => `export default ${JSON.stringify(value)};`, b: { source: () => `export default ${JSON.stringify(value)};`, version: () => value } }, 'stamp'),
      ],
    });
    try {
      await runCompiler(compiler);
      writeFiles(dir, { 'src/pages/about.js': "export const title = 'About';\n" });
      value = 'two';
      await new Promise((resolve) => setTimeout(resolve, 1100));
      const second = await runCompiler(compiler);
      expect(second.toJson({ all: false, errors: true }).errors).toEqual([]);
    } finally {
      await closeCompiler(compiler);
    }
    const read = (file: string) => readFileSync(join(dir, 'dist', file), 'utf8');
    expect(runInBrowserLikeContext([read('main.js')])).toEqual(['about, cart, home EUR 20']);
    expect(runInBrowserLikeContext([read('stamp.js')])).toEqual(['one two']);
  });
});

describe('WatchIgnorePlugin examples', () => {
  /** Starts watching with the page's config and returns the files handed to the real watcher. */
  async function watchedFiles(name: string, config: (dir: string) => Configuration): Promise<string[]> {
    const dir = scratchDir(`plugins-${name}`);
    cleanups.push(() => removeDir(dir));
    writeFiles(dir, { 'package.json': '{ "private": true }\n', ...fixture('watch') });
    const compiler = webpack({ ...config(dir), context: dir, infrastructureLogging: { level: 'error' } });
    const ignoring = compiler.watchFileSystem as unknown as { wfs: unknown; constructor: { name: string } };
    expect(ignoring.constructor.name).toBe('IgnoringWatchFileSystem');
    let seen: string[] = [];
    ignoring.wfs = {
      watch(files: Iterable<string>) {
        seen = [...files];
        return { close() {}, pause() {}, getFileTimeInfoEntries: () => new Map(), getContextTimeInfoEntries: () => new Map() };
      },
    };
    await new Promise<void>((resolve, reject) => {
      // the watcher is started right after the handler returns, so close a moment later
      const watching = compiler.watch({}, (err) => (err ? reject(err) : setTimeout(() => watching!.close(() => resolve()), 20)));
    });
    await closeCompiler(compiler);
    return seen
      .filter((p) => p.startsWith(join(dir, 'src') + '/') && p.endsWith('.js'))
      .map((p) => relative(dir, p).split('\\').join('/'))
      .sort();
  }

  it('Usage: nothing in src/generated/ is handed to the watcher, the rest is', async () => {
    const files = await watchedFiles('watchignore-usage', (dir) => loadConfig(configOf('watch-ignore-plugin', 0), dir));
    expect(files).toEqual(['src/__snapshots__/expected.js', 'src/index.js', 'src/labels.generated.js']);
  });

  it('regular expressions leave out generated files and snapshot folders', async () => {
    const files = await watchedFiles('watchignore-patterns', (dir) => loadConfig(configOf('watch-ignore-plugin', 1), dir));
    expect(files).toEqual(['src/generated/build-info.js', 'src/index.js']);
  });

  it('a relative glob never matches below a folder whose name starts with a dot (the caveat on the page)', async () => {
    // scratch projects live in test/.tmp/, so the glob cannot match here
    const files = await watchedFiles('watchignore-glob', (dir) => ({
      ...loadConfig(configOf('watch-ignore-plugin', 1), dir),
      plugins: [new webpack.WatchIgnorePlugin({ paths: ['*.generated.js'] })],
    }));
    expect(files).toContain('src/labels.generated.js');
  });

  it('a normal build still bundles the ignored folder', async () => {
    const b = await build('watchignore-build', fixture('watch'), configOf('watch-ignore-plugin', 0));
    expect(b.outputs['main.js']).toContain('abc1234');
  });
});

describe('ModuleFederationPlugin examples', () => {
  const page = 'module-federation-plugin';

  it('Usage: the shop emits remoteEntry.js, the storefront loads the button from it at run time', async () => {
    const shop = await build('mf-shop', { ...fixture('federation/shop'), 'src/Button.js': blockTitled(page, 'shop/src/Button.js') }, configOf(page, 0));
    expect(shop.outputs['remoteEntry.js']).toMatch(/^var shop;/);
    expect(Object.keys(shop.outputs)).toContain('main.js');
    const storefront = await build(
      'mf-storefront',
      { 'src/index.js': blockTitled(page, 'storefront/src/index.js'), 'src/bootstrap.js': blockTitled(page, 'storefront/src/bootstrap.js') },
      configOf(page, 1),
    );
    const all = Object.values(storefront.outputs).join('\n');
    expect(all).toContain('http://localhost:3001/remoteEntry.js');
    expect(all).not.toContain('shop-button');

    const buy: Record<string, string> = {};
    await runWebApp({ 'http://localhost/': storefront.outDir, 'http://localhost:3001/': shop.outDir }, ['main.js'], {
      document: { querySelector: (selector: string) => (selector === '#buy' ? buy : null) },
    });
    expect(buy.innerHTML).toBe('<button class="shop-button">Buy now</button>');
  });

  it('without the asynchronous boundary, a shared module fails with the quoted error', async () => {
    const files = { 'src/index.js': "import React from 'react';\nconsole.log(typeof React.createElement);\n" };
    const b = await build('mf-eager', files, configOf(page, 2));
    const failure = await runWebApp({ 'http://localhost/': b.outDir }, ['main.js']).then(
      (logs) => logs.join('\n'),
      (error: Error) => error.message,
    );
    expect(failure).toContain('Shared module is not available for eager consumption');
  });

  it('shared React: a separate chunk, no warning with requiredVersion, the quoted warning without', async () => {
    const files = { 'src/index.js': "import('./bootstrap.js');\n", 'src/bootstrap.js': "import React from 'react';\nconsole.log(typeof React.createElement);\n" };
    const b = await build('mf-shared', files, configOf(page, 2));
    expect(b.warnings).toEqual([]);
    const reactChunks = Object.entries(b.outputs).filter(([, code]) => code.includes('react.transitional.element'));
    expect(reactChunks.map(([file]) => file)).not.toContain('main.js');
    expect(reactChunks).toHaveLength(1);
    expect(await runWebApp({ 'http://localhost/': b.outDir }, ['main.js'])).toEqual(['function']);
    // react is listed in this repository's package.json, so the warning is shown with a package no package.json lists
    const unlisted = {
      'src/index.js': "import('./bootstrap.js');\n",
      'src/bootstrap.js': "import { label } from 'price-tags';\nconsole.log(label);\n",
      'node_modules/price-tags/package.json': '{ "name": "price-tags", "version": "1.2.0", "main": "index.js" }\n',
      'node_modules/price-tags/index.js': "exports.label = 'price tag';\n",
    };
    const loose = await build('mf-shared-loose', unlisted, (dir) => ({
      ...loadConfig(configOf(page, 2), dir),
      plugins: [new webpack.container.ModuleFederationPlugin({ name: 'storefront', shared: { 'price-tags': { singleton: true } } })],
    }));
    expect(loose.warnings.some((w) => w.startsWith('No required version specified and unable to automatically determine one.'))).toBe(true);
  });

  it('shared: a singleton takes the highest registered version whatever the ranges, and only warns; without singleton each side keeps to its range', async () => {
    const priceTags = (version: string) => ({
      'node_modules/price-tags/package.json': `{ "name": "price-tags", "version": "${version}", "main": "index.js" }\n`,
      'node_modules/price-tags/index.js': `exports.label = 'price-tags ${version}';\n`,
    });
    type Shared = Record<string, { singleton?: boolean; strictVersion?: boolean; requiredVersion: string }>;
    /** The shop provides price-tags 1.5.0, the storefront 2.0.0; both log the copy they got. */
    const run = async (name: string, shopShared: Shared, storefrontShared: Shared) => {
      const shop = await build(`mf-${name}-shop`, { ...priceTags('1.5.0'), 'src/index.js': '', 'src/label.js': "export { label } from 'price-tags';\n" }, () => ({
        mode: 'production',
        entry: './src/index.js',
        plugins: [new webpack.container.ModuleFederationPlugin({ name: 'shop', filename: 'remoteEntry.js', exposes: { './label': './src/label.js' }, shared: shopShared })],
      }));
      const storefront = await build(
        `mf-${name}-storefront`,
        {
          ...priceTags('2.0.0'),
          'src/index.js': "import('./bootstrap.js').catch((error) => console.log('failed:', error.message));\n",
          'src/bootstrap.js': "import { label } from 'price-tags';\n\nimport('shop/label').then((shop) => console.log(label, '|', shop.label), (error) => console.log('failed:', error.message));\n",
        },
        () => ({
          mode: 'production',
          entry: './src/index.js',
          output: { uniqueName: 'storefront' },
          plugins: [new webpack.container.ModuleFederationPlugin({ name: 'storefront', remotes: { shop: 'shop@http://localhost:3001/remoteEntry.js' }, shared: storefrontShared })],
        }),
      );
      const logs: string[] = [];
      const console = {
        log: (...args: unknown[]) => logs.push(args.map(String).join(' ')),
        warn: (...args: unknown[]) => logs.push(`warn: ${args.map(String).join(' ')}`),
        error: (...args: unknown[]) => logs.push(`error: ${args.map(String).join(' ')}`),
      };
      await runWebApp({ 'http://localhost/': storefront.outDir, 'http://localhost:3001/': shop.outDir }, ['main.js'], { console });
      return logs;
    };
    const unsatisfied = /^warn: Unsatisfied version 2\.0\.0 from storefront of shared singleton module price-tags \(required \^1\.0\.0\)/;

    // 1.5.0 would satisfy both ranges; the singleton still takes 2.0.0 for both sides and only warns
    const singleton = { 'price-tags': { singleton: true, requiredVersion: '^1.0.0' } };
    const loose = await run('singleton', singleton, singleton);
    expect(loose).toContain('price-tags 2.0.0 | price-tags 2.0.0');
    expect(loose.some((l) => unsatisfied.test(l))).toBe(true);

    // strictVersion: true turns the warning into a failed import
    const strict = { 'price-tags': { singleton: true, strictVersion: true, requiredVersion: '^1.0.0' } };
    const failed = await run('singleton-strict', strict, strict);
    expect(failed.some((l) => l.startsWith('failed: Unsatisfied version 2.0.0 from storefront of shared singleton module price-tags'))).toBe(true);
    expect(failed.some((l) => l.includes(' | '))).toBe(false);

    // without singleton, each side takes the highest version in its own range: two copies
    const two = await run('ranges', { 'price-tags': { requiredVersion: '^1.0.0' } }, { 'price-tags': { requiredVersion: '^2.0.0' } });
    expect(two).toContain('price-tags 2.0.0 | price-tags 1.5.0');

    const body = readPage('plugins/module-federation-plugin').body;
    expect(body).not.toContain('highest registered version that satisfies every `requiredVersion`');
    expect(body).toContain('picked without looking at any range');
    expect(body).toContain('with `strictVersion: true` the import fails instead');
  });
});

describe('BannerPlugin: the alternative with a minimizer that keeps comments', () => {
  it("TerserPlugin({ extractComments: false }) in optimization.minimizer keeps the banner in main.js", async () => {
    const TerserPlugin = (await import('terser-webpack-plugin')).default;
    const b = await build('banner-terser-keep', fixture('app'), (dir) => ({
      ...loadConfig(configOf('banner-plugin', 0), dir),
      mode: 'production',
      optimization: { minimizer: [new TerserPlugin({ extractComments: false })] },
    }));
    expect(b.outputs['main.js']!.startsWith('/*! Acme Storefront - (c) Acme Ltd. All rights reserved. */')).toBe(true);
    expect(Object.keys(b.outputs)).toEqual(['main.js']);
  });
});

// ---------------------------------------------------------------------------------------------
// The internal plugins page, checked against webpack's own sources.

describe('internal plugins page', () => {
  const page = readPage('plugins/internal-plugins');
  const body = page.body;
  const mentioned = new Set([...body.matchAll(/`(?:webpack\.(?:[a-z]+\.)*)?([A-Z]\w*(?:Plugin|Strategy))`/g)].map((m) => m[1]!));
  const libFiles = new Set(
    (readdirSync(join(WEBPACK_DIR, 'lib'), { recursive: true }) as string[]).filter((f) => f.endsWith('.js')).map((f) => f.replace(/^.*[\\/]/, '').slice(0, -3)),
  );

  it('has a description, no group, and h2 headings per category ending with Related', () => {
    expect(String(page.frontmatter.description).length).toBeGreaterThan(40);
    expect(page.frontmatter.group ?? '-').toBe('-');
    const headings = h2s('plugins/internal-plugins');
    expect(headings.length).toBeGreaterThanOrEqual(10);
    expect(headings.at(-1)).toBe('Related');
    for (const category of ['Environment and entry', 'Source maps', 'Module types', 'Dependencies and parsing', 'Optimization', 'IDs', 'Runtime']) {
      expect(headings).toContain(category);
    }
  });

  it('mentions every plugin that WebpackOptionsApply.js and webpack.js apply', () => {
    const sources = ['config/WebpackOptionsApply.js', 'webpack.js'].map((f) => readFileSync(join(WEBPACK_DIR, 'lib', f), 'utf8')).join('\n');
    const applied = new Set([...sources.matchAll(/require\("[^"]*\/([A-Z]\w*(?:Plugin|Strategy))"\)/g)].map((m) => m[1]!));
    expect(applied.size).toBeGreaterThan(100);
    const missing = [...applied].filter((name) => !mentioned.has(name));
    expect(missing).toEqual([]);
  });

  it('mentions the plugins that the Enable* plugins and ModuleFederationPlugin apply', () => {
    const files = ['javascript/EnableChunkLoadingPlugin.js', 'wasm/EnableWasmLoadingPlugin.js', 'library/EnableLibraryPlugin.js', 'container/ModuleFederationPlugin.js', 'dll/DllPlugin.js'];
    const source = files.map((f) => readFileSync(join(WEBPACK_DIR, 'lib', f), 'utf8')).join('\n');
    const applied = new Set([...source.matchAll(/require\("[^"]*\/([A-Z]\w*Plugin)"\)/g)].map((m) => m[1]!));
    expect([...applied].filter((name) => !mentioned.has(name))).toEqual([]);
  });

  it('every exported path on the page exists, and every plain name is a class in webpack/lib', () => {
    const problems: string[] = [];
    for (const m of body.matchAll(/`(webpack(?:\.[A-Za-z]+)+)`/g)) {
      const path = m[1]!.split('.').slice(1);
      if (!/^[A-Z]/.test(path.at(-1)!)) continue;
      let value: unknown = webpack;
      for (const key of path) value = (value as Record<string, unknown> | undefined)?.[key];
      if (typeof value !== 'function') problems.push(m[1]!);
    }
    for (const m of body.matchAll(/`([A-Z]\w*(?:Plugin|Strategy))`/g)) {
      // the default minimizer comes from the minimizer-webpack-plugin package, which the page names
      if (m[1] === 'MinimizerPlugin' && existsSync(join(ROOT, 'node_modules', 'minimizer-webpack-plugin', 'package.json'))) continue;
      if (!libFiles.has(m[1]!)) problems.push(m[1]!);
    }
    expect(problems).toEqual([]);
  });

  it('every plugin class webpack exports has a page of its own or is mentioned here', () => {
    const ownPages = new Set(Object.keys(BUILT_IN).map((p) => String(readPage(`plugins/${p}`).frontmatter.title)));
    ownPages.add('DllReferencePlugin');
    const exported = new Set<string>();
    const visit = (ns: Record<string, unknown>, depth: number) => {
      for (const key of Object.keys(ns)) {
        if (/Plugin$/.test(key)) exported.add(key);
        else if (depth < 2 && /^[a-z]/.test(key) && key !== 'util' && key !== 'sources') {
          const child = ns[key];
          if (child && typeof child === 'object') visit(child as Record<string, unknown>, depth + 1);
        }
      }
    };
    visit(webpack as unknown as Record<string, unknown>, 0);
    expect(exported.size).toBeGreaterThan(60);
    expect([...exported].filter((name) => !ownPages.has(name) && !mentioned.has(name)).sort()).toEqual([]);
  });

  it('names plain (unexported) classes only when webpack really does not export them', () => {
    const exportedNames = new Set<string>();
    const collect = (ns: Record<string, unknown>, depth: number) => {
      for (const key of Object.keys(ns)) {
        if (/^[A-Z]/.test(key)) exportedNames.add(key);
        else if (depth < 2 && key !== 'util' && key !== 'sources' && ns[key] && typeof ns[key] === 'object') collect(ns[key] as Record<string, unknown>, depth + 1);
      }
    };
    collect(webpack as unknown as Record<string, unknown>, 0);
    // In the tables, an exported class is written with its export path.
    const cells = body.split('\n').filter((line) => line.startsWith('| `'));
    const plain = cells.flatMap((line) => [...line.split(' | ')[0]!.matchAll(/`([A-Z]\w*Plugin)`/g)].map((m) => m[1]!));
    expect(plain.filter((name) => exportedNames.has(name))).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The plugins index.

describe('plugins index', () => {
  const page = readPage('plugins');
  const sectionPages = (readFileSync(join(ROOT, 'site.config.yaml'), 'utf8').match(/^\s+- plugins\/[\w-]+$/gm) ?? []).map((l) =>
    l.trim().slice('- plugins/'.length),
  );
  const tableLinks = (h2: string) =>
    [...section('plugins', h2).body.matchAll(/^\| \[[^\]]+\]\(\/plugins\/([\w-]+)\/\) \| (.+) \|$/gm)].map((m) => ({ slug: m[1]!, text: m[2]! }));

  it('has a title, a description and the two h2 headings', () => {
    expect(page.frontmatter.title).toBe('Plugins');
    expect(String(page.frontmatter.description).length).toBeGreaterThan(40);
    expect(h2s('plugins')).toEqual(['Built in', 'Separate packages']);
  });

  it('Built in lists exactly the built-in pages, Separate packages every other plugin page, in sidebar order', () => {
    const builtIn = tableLinks('Built in').map((l) => l.slug);
    const packages = tableLinks('Separate packages').map((l) => l.slug);
    expect(builtIn).toEqual(sectionPages.filter((p) => p in BUILT_IN || OTHER_BUILT_IN.includes(p)));
    expect(packages).toEqual(sectionPages.filter((p) => !(p in BUILT_IN) && !OTHER_BUILT_IN.includes(p)));
    expect(packages.every((p) => existsSync(join(ROOT, 'node_modules', p, 'package.json')))).toBe(true);
  });

  it('gives each plugin one line of description', () => {
    for (const { slug, text } of [...tableLinks('Built in'), ...tableLinks('Separate packages')]) {
      expect(text.length, slug).toBeGreaterThan(30);
      expect(text.endsWith('.'), slug).toBe(true);
    }
  });

  it('names the one separate package that the webpack organisations do not maintain, from its package.json', () => {
    const repositoryOf = (name: string) => {
      const { repository } = JSON.parse(readFileSync(join(ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { repository: string | { url: string } };
      return typeof repository === 'string' ? repository : repository.url;
    };
    const packages = tableLinks('Separate packages').map((l) => l.slug);
    const outside = packages.filter((p) => !/^(https:\/\/github\.com\/|github:)?webpack(-contrib)?\//.test(repositoryOf(p)));
    expect(outside).toEqual(['html-webpack-plugin']);
    const body = section('plugins', 'Separate packages').body;
    expect(body).toContain('All of them but one are maintained by the webpack team. The exception is html-webpack-plugin');
    expect(body).not.toMatch(/These plugins are maintained by the webpack team/);
    expect(readPage('plugins/html-webpack-plugin').body).toContain('maintains it in the `jantimon/html-webpack-plugin` repository');
  });

  it('the example configuration builds with the banner and an HTML page', async () => {
    const block = page.blocks.find((b) => b.title === 'webpack.config.js')!;
    const b = await build('index-example', fixture('app'), block.code);
    expect(b.outputs['main.js']!.startsWith('/*! For license information please see main.js.LICENSE.txt */')).toBe(true);
    expect(b.outputs['main.js.LICENSE.txt']).toContain('Acme Storefront');
    expect(b.outputs['index.html']).toContain('<title>Acme Storefront</title>');
    expect(b.outputs['index.html']).toContain('main.js');
  });
});

// ---------------------------------------------------------------------------------------------
// Every config block of every built-in page was compiled by a test above.

describe('coverage of examples', () => {
  it('every webpack.config.js block on the built-in plugin pages was compiled by a test', () => {
    const missing: string[] = [];
    for (const page of Object.keys(BUILT_IN)) {
      if (!existsSync(join(CONTENT, 'plugins', `${page}.md`))) continue;
      configBlocks(page).forEach((block, index) => {
        if (!usedConfigs.get(page)?.has(index)) missing.push(`plugins/${page}.md:${block.line} (${block.title})`);
      });
    }
    expect(missing).toEqual([]);
  });
});
