import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Configuration, Stats } from 'webpack';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headingsOf, pagesIn, readPage, removeDir, scratchDir, writeFiles, type CodeBlock } from '../helpers/content.js';
import { compile, evaluateConfig, validate, webpack } from '../helpers/webpack.js';

/*
 * Checks for the second half of the configuration reference: every webpack.config.js
 * example evaluates and passes webpack's validation, each page documents the options
 * it owns, the devtool/target/stats tables match what the installed webpack accepts,
 * and the main example of each page does what the page says when compiled.
 */

const require = createRequire(import.meta.url);

interface SchemaNode {
  $ref?: string;
  properties?: Record<string, SchemaNode>;
  anyOf?: SchemaNode[];
  oneOf?: SchemaNode[];
  allOf?: SchemaNode[];
  enum?: unknown[];
  pattern?: string;
}
interface Schema {
  properties: Record<string, SchemaNode>;
  definitions: Record<string, SchemaNode>;
}
const schema = require('webpack/schemas/WebpackOptions.json') as Schema;

function deref(node: SchemaNode): SchemaNode {
  if (!node.$ref) return node;
  const name = node.$ref.replace('#/definitions/', '');
  const target = schema.definitions[name];
  if (!target) throw new Error(`schema has no definition ${name}`);
  return deref(target);
}

/** Property names of every object alternative of a schema node. */
function objectProperties(node: SchemaNode): Set<string> {
  const resolved = deref(node);
  const names = new Set<string>(Object.keys(resolved.properties ?? {}));
  for (const list of [resolved.anyOf, resolved.oneOf, resolved.allOf]) {
    for (const alternative of list ?? []) for (const name of objectProperties(alternative)) names.add(name);
  }
  return names;
}

/** The top-level options each page of this half documents. */
const OWNED: Record<string, string[]> = {
  'configuration/optimization': ['optimization'],
  'configuration/cache': ['cache'],
  'configuration/devtool': ['devtool'],
  'configuration/target': ['target'],
  'configuration/watch': ['watch', 'watchOptions'],
  'configuration/externals': ['externals', 'externalsType', 'externalsPresets'],
  'configuration/performance': ['performance'],
  'configuration/node': ['node'],
  'configuration/stats': ['stats'],
  'configuration/experiments': ['experiments'],
  'configuration/other-options': [
    'amd', 'bail', 'dependencies', 'dotenv', 'extends', 'ignoreWarnings', 'infrastructureLogging', 'loader', 'name',
    'parallelism', 'profile', 'recordsInputPath', 'recordsOutputPath', 'recordsPath', 'snapshot', 'validate',
  ],
};
const PAGES = Object.keys(OWNED);

function block(page: string, predicate: (b: CodeBlock) => boolean, what: string): CodeBlock {
  const found = readPage(page).blocks.find(predicate);
  if (!found) throw new Error(`${page}: no code block ${what}`);
  return found;
}
const configBlocks = (page: string): CodeBlock[] =>
  readPage(page).blocks.filter((b) => b.title === 'webpack.config.js');
/** The first webpack.config.js block of a page: its main example. */
const mainConfig = (page: string): CodeBlock => block(page, (b) => b.title === 'webpack.config.js', 'titled webpack.config.js');

/** The rows of the first Markdown table after the `## heading` line, as trimmed cells (header and separator dropped). */
function tableAfter(page: string, heading: string): string[][] {
  const lines = readPage(page).body.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (start < 0) throw new Error(`${page}: no "## ${heading}" heading`);
  const rows: string[][] = [];
  let i = start + 1;
  while (i < lines.length && !lines[i]!.startsWith('|')) i++;
  for (; i < lines.length && lines[i]!.startsWith('|'); i++) {
    rows.push(lines[i]!.split(/(?<!\\)\|/).slice(1, -1).map((c) => c.trim()));
  }
  return rows.slice(2);
}
/** Scratch projects live inside the repository, whose package.json says "type": "module"; fixtures that need CommonJS semantics bring their own. */
const PACKAGE_JSON = '{ "name": "fixture", "version": "1.0.0", "private": true }\n';
const codeSpans = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

let scratch: string;
beforeAll(() => {
  scratch = scratchDir('configuration-b');
});
afterAll(() => removeDir(scratch));

/** Evaluates a page's config source the way webpack-cli would load it from the scratch project. */
function loadConfig(source: string, dir = scratch): Configuration {
  return evaluateConfig(source, dir) as Configuration;
}

describe('configuration reference, part B: pages', () => {
  it.each(PAGES)('%s has the Options group, a description and no contributors', (page) => {
    const { frontmatter } = readPage(page);
    expect(frontmatter.group).toBe('Options');
    expect(frontmatter.description?.length ?? 0).toBeGreaterThan(40);
    expect(frontmatter.contributors).toEqual([]);
  });

  it.each(PAGES)('%s has a heading for every option path it owns', async (page) => {
    const texts = new Set((await headingsOf(page)).map((h) => h.text));
    const missing: string[] = [];
    for (const top of OWNED[page]!) {
      if (!texts.has(top)) missing.push(top);
      for (const name of objectProperties(schema.properties[top]!)) {
        if (!texts.has(`${top}.${name}`)) missing.push(`${top}.${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it.each(PAGES)('%s: every webpack.config.js example evaluates and validates', (page) => {
    const blocks = configBlocks(page);
    expect(blocks.length).toBeGreaterThan(0);
    for (const b of blocks) {
      const config = evaluateConfig(b.code, scratch);
      expect(() => validate(config), `${page}.md:${b.line}`).not.toThrow();
    }
  });

  it.each(PAGES)('%s: every untitled module.exports fragment is a valid configuration', (page) => {
    for (const b of readPage(page).blocks) {
      if (b.title || b.lang !== 'js' || !b.code.includes('module.exports =')) continue;
      const config = evaluateConfig(b.code, scratch);
      expect(() => validate(config), `${page}.md:${b.line}`).not.toThrow();
    }
  });
});

/** Every string a regular expression made of literals, groups, `|` and `?` can match. */
function expandPattern(source: string): string[] {
  let pos = 0;
  const text = source.replace(/^\^/, '').replace(/\$$/, '');
  const alternatives = (): string[] => {
    const out = [...sequence()];
    while (text[pos] === '|') {
      pos++;
      out.push(...sequence());
    }
    return out;
  };
  const sequence = (): string[] => {
    let results = [''];
    while (pos < text.length && text[pos] !== '|' && text[pos] !== ')') {
      let atom: string[];
      const ch = text[pos]!;
      if (ch === '(') {
        pos++;
        atom = alternatives();
        if (text[pos] !== ')') throw new Error(`unbalanced group in ${source}`);
        pos++;
      } else if (ch === '\\') {
        atom = [text[pos + 1]!];
        pos += 2;
      } else if ('[]{}*+.'.includes(ch)) {
        throw new Error(`unsupported pattern syntax "${ch}" in ${source}`);
      } else {
        atom = [ch];
        pos++;
      }
      if (text[pos] === '?') {
        atom = ['', ...atom];
        pos++;
      }
      results = results.flatMap((prefix) => atom.map((a) => prefix + a));
    }
    return results;
  };
  const all = alternatives();
  if (pos !== text.length) throw new Error(`could not read ${source}`);
  return all;
}

describe('devtool', () => {
  const rawDevTool = deref(schema.definitions.RawDevTool!);
  const schemaValues = new Set<string>();
  for (const alternative of rawDevTool.anyOf ?? []) {
    for (const value of alternative.enum ?? []) schemaValues.add(String(value));
    if (alternative.pattern) for (const value of expandPattern(alternative.pattern)) schemaValues.add(value);
  }
  const rows = tableAfter('configuration/devtool', 'Every value');
  const tableValues = rows.map((r) => codeSpans(r[0]!)[0] ?? r[0]!);

  it('the schema allows 98 values, and the table lists exactly those, once each', () => {
    expect(schemaValues.size).toBe(98);
    expect(new Set(tableValues).size).toBe(tableValues.length);
    expect([...tableValues].sort()).toEqual([...schemaValues].sort());
  });

  it('every table row rates build, rebuild, production and quality', () => {
    const speeds = ['fastest', 'fast', 'medium', 'slow', 'slowest'];
    for (const [value, build, rebuild, production, quality] of rows) {
      expect(speeds, value).toContain(build);
      expect(speeds, value).toContain(rebuild);
      expect(['yes', 'no'], value).toContain(production);
      expect(quality, value).not.toBe('');
    }
  });

  it('a typo in a devtool value fails validation', () => {
    expect(() => validate({ devtool: 'cheap-eval-source-map' })).toThrow();
    expect(() => validate({ devtool: 'source-maps' })).toThrow();
  });

  it('each value produces the kind of map the table and the part descriptions promise', async () => {
    const dir = join(scratch, 'devtool-matrix');
    writeFiles(dir, { 'src/index.js': 'import { add } from "./math.js";\nconsole.log(add(1, 2));\n', 'src/math.js': 'export const add = (a, b) => a + b;\n' });
    const byValue = new Map(rows.map((r) => [codeSpans(r[0]!)[0] ?? r[0]!, r]));
    await Promise.all(
      [...schemaValues].map(async (value) => {
        const out = join(dir, 'dist', value);
        const stats = await new Promise<Stats>((resolve, reject) => {
          webpack(
            {
              mode: 'development',
              context: dir,
              devtool: value === 'false' ? false : (value as Configuration['devtool']),
              output: { path: out },
              infrastructureLogging: { level: 'error' },
            },
            (err, result) => (err ? reject(err) : resolve(result!)),
          );
        });
        expect(stats.hasErrors(), value).toBe(false);
        const files = readdirSync(out);
        const js = readFileSync(join(out, 'main.js'), 'utf8');
        const separate = !/^(eval|inline-)/.test(value) && value !== 'false';
        expect(files.includes('main.js.map'), `${value}: separate .map file`).toBe(separate);
        if (value.startsWith('hidden-')) expect(js, value).not.toContain('sourceMappingURL');
        else if (separate) expect(js, value).toContain('//# sourceMappingURL=main.js.map');
        if (value.startsWith('inline-') || value.startsWith('eval-')) expect(js, value).toContain('sourceMappingURL=data:application/json');
        if (value.startsWith('eval')) expect(js, value).toContain('eval(');
        else expect(js, value).not.toContain('eval(');
        if (separate) {
          const map = JSON.parse(readFileSync(join(out, 'main.js.map'), 'utf8')) as { sourcesContent?: unknown[]; debugId?: string };
          expect(Boolean(map.sourcesContent), `${value}: sourcesContent`).toBe(!value.includes('nosources-'));
          expect(Boolean(map.debugId), `${value}: debugId`).toBe(value.includes('-debugids'));
        }
        const row = byValue.get(value)!;
        expect(row[3], `${value}: production column`).toBe(/^(eval|inline-)|cheap-/.test(value) ? 'no' : 'yes');
      }),
    );
  });

  it('the main example writes a .map file next to the bundle', async () => {
    const source = mainConfig('configuration/devtool').code;
    const result = await compile('devtool-main', { 'src/index.js': 'console.log("hello");\n' }, (dir) => loadConfig(source, dir));
    try {
      expect(Object.keys(result.outputs).sort()).toEqual(['main.js', 'main.js.map']);
      expect(result.outputs['main.js']).toContain('//# sourceMappingURL=main.js.map');
    } finally {
      result.cleanup();
    }
  });
});

describe('target', () => {
  const targets = require('webpack/lib/config/target.js') as {
    getTargetProperties(target: string, context: string): Record<string, unknown>;
  };
  const rows = tableAfter('configuration/target', 'Every target value');

  /** The target forms webpack lists in its error message for an unknown target. */
  function webpackForms(): string[] {
    try {
      targets.getTargetProperties('not-a-target', scratch);
    } catch (err) {
      return (err as Error).message
        .split('\n')
        .filter((l) => l.startsWith('* '))
        .flatMap((l) => l.slice(2, l.indexOf(': ')).split(' / '));
    }
    throw new Error('an unknown target was accepted');
  }

  /** A project whose browserslist configuration has a default and a "modern" section. */
  function browserslistProject(): string {
    const dir = join(scratch, 'browserslist-project');
    writeFiles(dir, {
      'package.json': '{ "name": "targets-fixture", "private": true }\n',
      '.browserslistrc': 'last 2 Chrome versions\n\n[modern]\nlast 1 Chrome version\n',
    });
    return dir;
  }

  it('the table has one row per target form webpack knows, plus false and arrays', () => {
    const forms = rows.map((r) => codeSpans(r[0]!)[0]).filter((f): f is string => Boolean(f));
    expect(forms.length).toBeGreaterThan(10);
    expect(new Set(forms).size).toBe(forms.length);
    expect(forms.sort()).toEqual([...webpackForms(), 'false'].sort());
    expect(rows.some((r) => /^Array\b/.test(r[0]!))).toBe(true);
  });

  it('every example value is accepted by the schema and by webpack', () => {
    const context = browserslistProject();
    const examples = rows.flatMap((r) => codeSpans(r[1] ?? ''));
    expect(examples.length).toBeGreaterThan(30);
    for (const example of examples) {
      const value = example.startsWith('[') ? (JSON.parse(example.replace(/'/g, '"')) as string[]) : example === 'false' ? false : example;
      expect(() => validate({ target: value }), example).not.toThrow();
      if (value === false) continue;
      for (const target of Array.isArray(value) ? value : [value]) {
        expect(() => targets.getTargetProperties(target, context), example).not.toThrow();
      }
    }
  });

  it('misspelled targets are rejected', () => {
    for (const typo of ['nod18', 'electron-mian', 'webb', 'browserlist', 'es', 'node18.x']) {
      expect(() => targets.getTargetProperties(typo, scratch), typo).toThrow(/Unknown target/);
    }
  });

  it('the main example (node20) loads built-in modules with require()', async () => {
    const source = mainConfig('configuration/target').code;
    const result = await compile(
      'target-main',
      { 'src/server.js': 'import { join } from "path";\nconsole.log(join("a", "b"));\n' },
      (dir) => ({ ...loadConfig(source, dir), optimization: { minimize: false } }),
    );
    try {
      expect(result.outputs['main.js']).toMatch(/require\("path"\)/);
      expect(result.outputs['main.js']).not.toContain('webpackChunk');
    } finally {
      result.cleanup();
    }
  });
});

describe('stats', () => {
  it('the presets table lists exactly the presets of the schema', () => {
    const statsValue = deref(schema.definitions.StatsValue!);
    const presets = (statsValue.anyOf ?? []).flatMap((a) => (a.enum ?? []).map(String));
    const table = tableAfter('configuration/stats', 'Presets').map((r) => codeSpans(r[0]!)[0]);
    expect(presets.length).toBe(8);
    expect([...table].sort()).toEqual([...presets].sort());
  });

  it('the main example prints assets and timing but no module list', async () => {
    const source = mainConfig('configuration/stats').code;
    const result = await compile(
      'stats-main',
      { 'src/index.js': 'import { greet } from "./greet.js";\ngreet();\n', 'src/greet.js': 'export const greet = () => console.log("hi");\n' },
      (dir) => loadConfig(source, dir),
    );
    try {
      const config = loadConfig(source, result.dir);
      const text = result.stats.toString(config.stats);
      expect(text).toMatch(/^asset main\.js .*\(name: main\)$/m);
      expect(text).toMatch(/compiled successfully in \d+ ms/);
      expect(text).not.toContain('./src/');
      expect(text.split('\n')).toHaveLength(2);
      const normal = result.stats.toString('normal');
      expect(normal).toContain('./src/index.js');
    } finally {
      result.cleanup();
    }
  });
});

describe('main examples compiled', () => {
  it('optimization: node_modules code goes to vendors.js and the runtime to runtime.js', async () => {
    const source = mainConfig('configuration/optimization').code;
    // About 30 kB, over the 20 kB production minSize, so the split is worth a request.
    const words = Array.from({ length: 3000 }, (_, i) => `word${i}`);
    const result = await compile(
      'optimization-main',
      {
        'node_modules/big-lib/package.json': '{ "name": "big-lib", "version": "1.0.0", "main": "index.js" }\n',
        'node_modules/big-lib/index.js': `const WORDS = ${JSON.stringify(words)};\nmodule.exports = (i) => "BIG_LIB:" + WORDS[i];\n`,
        'src/app.js': 'import word from "big-lib";\nconsole.log("app", word(1));\n',
        'src/admin.js': 'import word from "big-lib";\nconsole.log("admin", word(2));\n',
      },
      (dir) => loadConfig(source, dir),
    );
    try {
      expect(Object.keys(result.outputs).sort()).toEqual(['admin.js', 'app.js', 'runtime.js', 'vendors.js']);
      expect(result.outputs['vendors.js']).toContain('BIG_LIB:');
      expect(result.outputs['app.js']).not.toContain('BIG_LIB:');
      expect(result.outputs['admin.js']).not.toContain('BIG_LIB:');
    } finally {
      result.cleanup();
    }
  });

  it('cache: the filesystem cache is written to .cache/webpack inside the project', async () => {
    const source = mainConfig('configuration/cache').code;
    const result = await compile(
      'cache-main',
      { 'webpack.config.js': source, 'src/index.js': 'console.log("cached");\n' },
      (dir) => loadConfig(source, dir),
    );
    try {
      const cacheDir = join(result.dir, '.cache', 'webpack');
      expect(readdirSync(cacheDir)).toEqual(['default-development']);
      expect(existsSync(join(cacheDir, 'default-development', 'index.pack'))).toBe(true);
    } finally {
      result.cleanup();
    }
  });

  it('externals: jquery is read from the jQuery global instead of being bundled', async () => {
    const source = mainConfig('configuration/externals').code;
    const result = await compile(
      'externals-main',
      {
        'node_modules/jquery/package.json': '{ "name": "jquery", "version": "3.7.1", "main": "index.js" }\n',
        'node_modules/jquery/index.js': 'module.exports = function () { return "JQUERY_SOURCE_WAS_BUNDLED"; };\n',
        'src/index.js': block('configuration/externals', (b) => !b.title && b.code.startsWith("import $ from 'jquery'"), 'importing jquery').code,
      },
      (dir) => ({ ...loadConfig(source, dir), optimization: { minimize: false } }),
    );
    try {
      expect(result.outputs['main.js']).not.toContain('JQUERY_SOURCE_WAS_BUNDLED');
      expect(result.outputs['main.js']).toMatch(/=\s*jQuery\b/);
    } finally {
      result.cleanup();
    }
  });

  it('performance: a bundle over maxAssetSize produces the warning shown on the page', async () => {
    const source = mainConfig('configuration/performance').code;
    const sample = block('configuration/performance', (b) => b.lang === 'text', 'with the sample warning').code;
    // About 200 KiB of text that the minimizer cannot shrink.
    const big = Array.from({ length: 4000 }, (_, i) => `${i.toString(36)}-${'x'.repeat(45)}`).join(' ');
    const result = await compile('performance-main', { 'src/index.js': `console.log(${JSON.stringify(big)});\n` }, (dir) =>
      loadConfig(source, dir),
    );
    try {
      const warnings = result.stats.toJson({ all: false, warnings: true }).warnings ?? [];
      const messages = warnings.map((w) => w.message);
      expect(messages.some((m) => m.includes('asset size limit'))).toBe(true);
      expect(messages.some((m) => m.includes('entrypoint size limit'))).toBe(false);
      const text = result.stats.toString('errors-warnings');
      const [firstLine, secondLine] = sample.split('\n');
      expect(text).toContain(firstLine);
      expect(text).toContain(secondLine);
    } finally {
      result.cleanup();
    }
  });

  it('experiments: the former outputModule experiment is now output.module, and emits an ES module', async () => {
    const esm = block('configuration/experiments', (b) => b.title === 'webpack.config.js' && b.code.includes('module: true'), 'with output.module').code;
    const result = await compile('experiments-esm', { 'src/index.js': 'export const answer = 42;\n' }, (dir) => loadConfig(esm, dir));
    try {
      expect(Object.keys(result.outputs)).toEqual(['main.mjs']);
      expect(result.outputs['main.mjs']).toMatch(/export\s*\{/);
      expect(result.outputs['main.mjs']).not.toMatch(/\bvar \w+\s*=\s*__webpack_exports__/);
    } finally {
      result.cleanup();
    }
  });

  it('experiments: the main example handles a CSS import without loaders', async () => {
    const source = mainConfig('configuration/experiments').code;
    const result = await compile(
      'experiments-css',
      { 'src/index.js': 'import "./style.css";\nconsole.log("styled");\n', 'src/style.css': '.title { color: rebeccapurple; }\n' },
      (dir) => loadConfig(source, dir),
    );
    try {
      expect(result.outputs['main.css']).toContain('rebeccapurple');
    } finally {
      result.cleanup();
    }
  });

  it('node: __filename: true bakes in the path relative to the context', async () => {
    const source = mainConfig('configuration/node').code;
    const result = await compile(
      'node-main',
      // A CommonJS project: in strict ES modules __filename does not exist and is left alone.
      { 'package.json': PACKAGE_JSON, 'src/index.js': 'console.log(__filename, __dirname, typeof global);\n' },
      (dir) => ({ ...loadConfig(source, dir), optimization: { minimize: false } }),
    );
    try {
      const js = result.outputs['main.js']!;
      expect(js).toContain('"src/index.js"');
      expect(js).toContain('"src"');
      expect(js).not.toMatch(/typeof global\b/);
      const warnings = result.stats.toJson({ all: false, warnings: true }).warnings ?? [];
      expect(warnings.some((w) => w.message.includes('global'))).toBe(true);
    } finally {
      result.cleanup();
    }
  });

  it('other options: dotenv exposes only WEBPACK_ variables from the .env file shown on the page', async () => {
    const source = mainConfig('configuration/other-options').code;
    const env = block('configuration/other-options', (b) => b.title === '.env', 'titled .env').code;
    const result = await compile(
      'other-options-main',
      {
        '.env': env,
        'src/index.js': 'console.log(process.env.WEBPACK_API_URL, process.env.DATABASE_PASSWORD);\n',
      },
      (dir) => ({ ...loadConfig(source, dir), optimization: { minimize: false } }),
    );
    try {
      const js = result.outputs['main.js']!;
      expect(js).toContain('https://api.example.com');
      expect(js).not.toContain('not-exposed-because-of-the-prefix');
      expect(js).toContain('process.env.DATABASE_PASSWORD');
    } finally {
      result.cleanup();
    }
  });
});

/** The options webpack resolves for a configuration, defaults applied. */
function resolvedOptions(config: Configuration): ReturnType<typeof webpack.config.getNormalizedWebpackOptions> {
  const options = webpack.config.getNormalizedWebpackOptions({ context: scratch, ...config });
  webpack.config.applyWebpackOptionsDefaults(options);
  return options;
}

/** Every heading of the configuration pages (code marks removed) → the Markdown of its section, up to the next heading of the same or a higher level. */
let sectionsCache: Map<string, string> | undefined;
function configurationSections(): Map<string, string> {
  if (sectionsCache) return sectionsCache;
  const sections = new Map<string, string>();
  sectionsCache = sections;
  for (const id of pagesIn('configuration')) {
    const lines = readPage(id).body.split('\n');
    let fence = false;
    const headings: Array<{ line: number; depth: number; text: string }> = [];
    lines.forEach((line, index) => {
      if (line.startsWith('```')) fence = !fence;
      const match = fence ? null : /^(#{2,6}) (.*)$/.exec(line);
      if (match) headings.push({ line: index, depth: match[1]!.length, text: match[2]!.replace(/`/g, '').trim() });
    });
    headings.forEach((heading, index) => {
      const next = headings.slice(index + 1).find((other) => other.depth <= heading.depth);
      sections.set(heading.text, lines.slice(heading.line, next ? next.line : lines.length).join('\n'));
    });
  }
  return sections;
}

/** Paths (`output.hashDigestLength`) whose resolved value differs when experiments.futureDefaults is on. */
function futureDefaultsChanges(base: Configuration): string[] {
  const changed: string[] = [];
  const text = (value: unknown) =>
    typeof value === 'function' ? String(value) : JSON.stringify(value, (_key, v: unknown) => (v instanceof RegExp ? String(v) : v));
  const walk = (a: unknown, b: unknown, path: string) => {
    const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof RegExp);
    if (isObject(a) && isObject(b)) {
      for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) walk(a[key], b[key], path ? `${path}.${key}` : key);
    } else if (text(a) !== text(b)) {
      changed.push(path);
    }
  };
  walk(resolvedOptions(base), resolvedOptions({ ...base, experiments: { ...base.experiments, futureDefaults: true } }), '');
  return changed;
}

describe('configuration reference, part B: facts checked against the installed webpack', () => {
  it('cache: a cacheUnaffected or memoryCacheUnaffected value you set is dropped; the default decides', () => {
    const memory = (config: Configuration) => (resolvedOptions(config).cache as { cacheUnaffected?: boolean }).cacheUnaffected;
    const filesystem = (config: Configuration) => (resolvedOptions(config).cache as { memoryCacheUnaffected?: boolean }).memoryCacheUnaffected;
    expect(memory({ mode: 'development', cache: { type: 'memory', cacheUnaffected: true } })).toBe(false);
    expect(memory({ mode: 'production', experiments: { cacheUnaffected: true }, cache: { type: 'memory', cacheUnaffected: true } })).toBe(false);
    expect(memory({ mode: 'development', experiments: { cacheUnaffected: true }, cache: { type: 'memory', cacheUnaffected: false } })).toBe(true);
    expect(filesystem({ mode: 'development', cache: { type: 'filesystem', memoryCacheUnaffected: true } })).toBe(false);
    expect(filesystem({ mode: 'development', experiments: { cacheUnaffected: true }, cache: { type: 'filesystem' } })).toBe(true);
    // The examples on the page turn it on the way that works.
    const sections = configurationSections();
    for (const [heading, key] of [['cache.cacheUnaffected', 'cacheUnaffected'], ['cache.memoryCacheUnaffected', 'memoryCacheUnaffected']] as const) {
      const code = /```js\n([\s\S]*?)```/.exec(sections.get(heading)!)![1]!;
      const options = resolvedOptions(loadConfig(code)).cache as unknown as Record<string, unknown>;
      expect(options[key], `${heading} example`).toBe(true);
      expect(sections.get(heading)).not.toContain('is an error');
    }
  });

  it('cache: webpack-cli adds the configuration file it loaded to cache.buildDependencies', () => {
    const dir = join(scratch, 'cli-build-dependencies');
    writeFiles(dir, {
      'package.json': PACKAGE_JSON,
      'src/index.js': 'console.log("cli");\n',
      'webpack.config.js': [
        "module.exports = {",
        "  mode: 'development',",
        "  cache: { type: 'filesystem', cacheDirectory: require('path').join(__dirname, '.cache') },",
        "  plugins: [{ apply(compiler) { compiler.hooks.environment.tap('Print', () => console.log('DEPS ' + JSON.stringify(compiler.options.cache.buildDependencies))); } }],",
        "};",
        '',
      ].join('\n'),
    });
    const cli = require.resolve('webpack-cli/bin/cli.js');
    const printed = execFileSync(process.execPath, [cli, '--no-stats'], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' } });
    const deps = JSON.parse(/^DEPS (.*)$/m.exec(printed)![1]!) as { defaultConfig: Array<string | { dependency: string }> };
    const listed = deps.defaultConfig.map((entry) => (typeof entry === 'string' ? entry : entry.dependency));
    expect(listed).toEqual([join(dir, 'webpack.config.js')]);
    expect(configurationSections().get('cache.buildDependencies')).toContain('webpack-cli already lists the file it loaded under `defaultConfig`');
  });

  it('experiments: typescript "auto" depends only on the rules since 5.113; the page dates the old Node.js condition', () => {
    expect(resolvedOptions({}).experiments.typescript).toBe(true);
    expect(resolvedOptions({ module: { rules: [{ test: /\.ts$/, loader: 'ts-loader' }] } }).experiments.typescript).toBe(false);
    const section = configurationSections().get('experiments.typescript')!;
    expect(section).toContain('on every Node.js version webpack runs on');
    expect(section).toContain('Before webpack 5.113.0');
    expect(section).toContain('`module.stripTypeScriptTypes()`');
    expect(section).toContain('Node.js 23.2.0 and 22.13.0');
  });

  it('experiments: every default that futureDefaults changes is named with it in that option\'s section', () => {
    const sections = configurationSections();
    // The CSS module generator options are described once, under css/auto, for css/module and css/global too.
    const documentedAt = (path: string) =>
      path.replace(/^resolve\.byDependency\.[^.]+\./, 'resolve.').replace(/^module\.generator\.css\/(module|global)\./, 'module.generator.css/auto.');
    const paths = new Set<string>();
    const bases: Configuration[] = [
      { mode: 'production' },
      { mode: 'development' },
      { mode: 'production', cache: { type: 'filesystem' } },
      { mode: 'development', cache: { type: 'filesystem' } },
      { mode: 'production', target: 'node' },
      { mode: 'development', output: { library: { type: 'umd', name: 'Lib' } } },
    ];
    for (const base of bases) for (const path of futureDefaultsChanges(base)) paths.add(path);
    expect(paths.size).toBeGreaterThan(30);
    const missing: string[] = [];
    for (const path of paths) {
      const target = documentedAt(path);
      const segments = target.split('.');
      let found = false;
      for (let cut = segments.length; cut >= 1 && !found; cut--) {
        const heading = segments.slice(0, cut).join('.');
        const section = sections.get(heading);
        if (!section) continue;
        if (cut === segments.length) found = section.includes('futureDefaults');
        else {
          const key = segments[segments.length - 1]!;
          found = section.split('\n').some((line) => line.includes('futureDefaults') && line.includes(key));
        }
      }
      if (!found) missing.push(path);
    }
    expect(missing, `defaults changed by futureDefaults without a word about it:\n${missing.join('\n')}`).toEqual([]);
  });

  it('externals: the universal target turns on the electron and nwjs presets', () => {
    const presets = resolvedOptions({ target: 'universal' }).externalsPresets;
    expect(presets.electron).toBe(true);
    expect(presets.nwjs).toBe(true);
    expect(resolvedOptions({ target: 'web' }).externalsPresets.electron).toBe(false);
    const sections = configurationSections();
    expect(sections.get('externalsPresets.electron')).toContain('and for the `universal` target');
    expect(sections.get('externalsPresets.nwjs')).toContain('and for the `universal` target');
  });

  it('optimization: the built-in CSS and HTML minimizers behave as their switches are documented', async () => {
    const files = {
      'src/index.html': '<!doctype html>\n<html lang="en"><head><title>Demo</title><link rel="stylesheet" href="./style.css"></head>\n<body>\n  <p class="b a b">Hello    <b>world</b></p>\n  <input type="TEXT" checked="checked" tabindex="+01" class="">\n  <ul><li>one</li><li>two</li></ul>\n</body></html>\n',
      'src/style.css': '.a { color: #ffffff; margin-top: 1px; margin-right: 2px; margin-bottom: 1px; margin-left: 2px; width: 16px; --x: #ffffff; }\n.b { color: red; }\n.c { color: red; }\nli:nth-child(2n+1) { font-weight: normal; }\n',
    };
    const build = async (minimizeOptions: Record<string, unknown>) => {
      const result = await compile(`minimizer-${Object.keys(minimizeOptions).join('-') || 'defaults'}`, files, {
        entry: './src/index.html',
        optimization: { minimizeOptions } as Configuration['optimization'],
      });
      result.cleanup();
      return { html: result.outputs['index.html']!, css: result.outputs[Object.keys(result.outputs).find((f) => f.endsWith('.css'))!]! };
    };
    const defaults = await build({});
    // CSS: shortenColors, mergeLonghands, mergeRules, shortenSelectors and shortenValues on; convertLengthUnits and rewriteCustomProperties off.
    expect(defaults.css).toContain('color:#fff');
    expect(defaults.css).toContain('margin:1px 2px');
    expect(defaults.css).toContain('.b,.c{color:red}');
    expect(defaults.css).toContain('li:nth-child(odd){font-weight:400}');
    expect(defaults.css).toContain('width:16px');
    expect(defaults.css).toContain('--x:#ffffff');
    // HTML: whitespace kept, boolean, enumerated, numeric and list attributes normalized, optional tags left out, empty attributes kept.
    expect(defaults.html).toContain('Hello    <b>world</b>');
    expect(defaults.html).toContain('<input type=text checked tabindex=1 class>');
    expect(defaults.html).toContain('class="b a"');
    expect(defaults.html).toContain('<li>one<li>two</ul>');
    const switched = await build({
      css: { convertLengthUnits: true, rewriteCustomProperties: true, mergeRules: false },
      html: { collapseWhitespace: true, removeEmptyAttributes: true, sortTokenLists: true },
    });
    expect(switched.css).toContain('width:1pc');
    expect(switched.css).toContain('--x:#fff;');
    expect(switched.css).toContain('.b{color:red}.c{color:red}');
    expect(switched.html).toContain('Hello <b>world</b>');
    expect(switched.html).toContain('<input type=text checked tabindex=1>');
    expect(switched.html).toContain('class="a b"');
    // The defaults stated on the page for the switches exercised above.
    const sections = configurationSections();
    const defaultOf = (path: string) => /- Default: (.*)/.exec(sections.get(`optimization.minimizeOptions.${path}`)!)![1];
    for (const path of ['css.shortenColors', 'css.mergeLonghands', 'css.mergeRules', 'css.shortenSelectors', 'css.shortenValues', 'html.collapseBooleanAttributes', 'html.normalizeEnumeratedAttributes', 'html.normalizeNumericAttributes', 'html.normalizeListAttributes', 'html.removeOptionalTags']) {
      expect(defaultOf(path), path).toBe('`true`');
    }
    for (const path of ['css.convertLengthUnits', 'css.rewriteCustomProperties', 'html.removeEmptyAttributes', 'html.sortTokenLists']) {
      expect(defaultOf(path), path).toBe('`false`');
    }
    expect(defaultOf('html.collapseWhitespace')).toBe('off');
  });

  it('optimization: every switch of the built-in minimizer in the schema has a heading with a type and a default', () => {
    const sections = configurationSections();
    const definitions = schema.definitions as Record<string, SchemaNode & { properties?: Record<string, SchemaNode> }>;
    for (const [key, definition] of [['css', 'OptimizationMinimizeCss'], ['html', 'OptimizationMinimizeHtml'], ['xml', 'OptimizationMinimizeXml']] as const) {
      const names = Object.keys(definitions[definition]!.properties!);
      expect(names.length).toBeGreaterThan(0);
      for (const name of names) {
        const section = sections.get(`optimization.minimizeOptions.${key}.${name}`);
        expect(section, `optimization.minimizeOptions.${key}.${name}`).toBeDefined();
        expect(section).toMatch(/^- Type: `.+`$/m);
        expect(section).toMatch(/^- Default: .+$/m);
      }
    }
  });
});
