import { execFile } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Configuration, Stats } from 'webpack';
import { describe, expect, it } from 'vitest';
import { configBlocks, headingsOf, listFiles, readPage, removeDir, repositoryOf, ROOT, scratchDir, section, subsections, type CodeBlock } from '../helpers/content.js';
import { fakeBrowser, type FakeBrowser, type FakeNode } from '../helpers/guides.js';
import { evaluateConfig, validate, webpack } from '../helpers/webpack.js';

/*
 * The loaders section: content/loaders/index.md and one page per loader.
 *
 * For every loader page:
 * - frontmatter: title (the package name), description, no group, `repo` from the package's package.json;
 * - exactly the h2 headings Install, Usage, Options, Examples, Related, in that order;
 * - one `### <option>` under Options per option of the loader's own options schema (no missing, no
 *   stale ones), each with its type and default; for thread-loader, which has no schema, the options
 *   are the ones its pool code reads (dist/workerPools.js);
 * - every code block titled webpack.config.js is evaluated from the page in a scratch project made from
 *   test/fixtures/loaders/<fixture>/, built with the real loaders, and the bundle is run (in a small
 *   fake browser) to assert the loader's effect;
 * - every other titled file shown on the page is identical to the fixture the examples are built from.
 */

const require = createRequire(import.meta.url);
const FIXTURES = join(ROOT, 'test', 'fixtures', 'loaders');
const NODE_MODULES = join(ROOT, 'node_modules');

const LOADERS = [
  'babel-loader',
  'css-loader',
  'exports-loader',
  'expose-loader',
  'html-loader',
  'imports-loader',
  'less-loader',
  'postcss-loader',
  'sass-loader',
  'source-map-loader',
  'style-loader',
  'thread-loader',
] as const;
type Loader = (typeof LOADERS)[number];

const GROUPS = ['Files', 'JSON and data', 'Transpiling', 'Templating', 'Styling', 'Linting and testing', 'Frameworks'];

/* ------------------------------------------------------------------------ */
/* Option sources                                                           */
/* ------------------------------------------------------------------------ */

interface Schema {
  properties: Record<string, Schema & { anyOf?: Schema[] }>;
}

function readSchema(file: string): Schema {
  return JSON.parse(readFileSync(join(NODE_MODULES, file), 'utf8')) as Schema;
}

const SCHEMAS: Record<Exclude<Loader, 'thread-loader'>, string> = {
  'babel-loader': 'babel-loader/lib/schema.json',
  'css-loader': 'css-loader/dist/options.json',
  'exports-loader': 'exports-loader/dist/options.json',
  'expose-loader': 'expose-loader/dist/options.json',
  'html-loader': 'html-loader/dist/options.json',
  'imports-loader': 'imports-loader/dist/options.json',
  'less-loader': 'less-loader/dist/options.json',
  'postcss-loader': 'postcss-loader/dist/options.json',
  'sass-loader': 'sass-loader/dist/options.json',
  'source-map-loader': 'source-map-loader/dist/options.json',
  'style-loader': 'style-loader/dist/options.json',
};

/** thread-loader has no schema: its options are the `options.<name>` its worker pool reads. */
function threadLoaderOptions(): string[] {
  const source = readFileSync(join(NODE_MODULES, 'thread-loader/dist/workerPools.js'), 'utf8');
  const getPool = source.slice(source.indexOf('function getPool'));
  const names = [...new Set([...getPool.matchAll(/options\.(\w+)/g)].map((m) => m[1]!))];
  expect(names.length).toBeGreaterThan(4);
  expect(existsSync(join(NODE_MODULES, 'thread-loader/dist/options.json'))).toBe(false);
  return names.sort();
}

function optionsOf(name: Loader): string[] {
  if (name === 'thread-loader') return threadLoaderOptions();
  return Object.keys(readSchema(SCHEMAS[name]).properties).sort();
}


/* ------------------------------------------------------------------------ */
/* Page structure                                                           */
/* ------------------------------------------------------------------------ */



async function headingsUnder(id: string, h2: string, depth: number): Promise<string[]> {
  const headings = await headingsOf(id);
  const start = headings.findIndex((h) => h.depth === 2 && h.text === h2);
  if (start < 0) return [];
  const found: string[] = [];
  for (const h of headings.slice(start + 1)) {
    if (h.depth === 2) break;
    if (h.depth === depth) found.push(h.text);
  }
  return found;
}

/* ------------------------------------------------------------------------ */
/* Building and running the examples                                        */
/* ------------------------------------------------------------------------ */

interface Build {
  dir: string;
  out: string;
  stats: Stats | undefined;
  errors: string[];
  warnings: string[];
  has(file: string): boolean;
  text(file: string): string;
  files(): string[];
  /** Runs main.js (or `file`) in a fresh fake browser and returns it. */
  run(file?: string): Promise<FakeBrowser>;
}

interface Example {
  what: string;
  /** Fixture folder under test/fixtures/loaders (default: the loader's name). */
  fixture?: string;
  /** Built by a dedicated test further down instead of the generic one. */
  separate?: boolean;
  check(build: Build): void | Promise<void>;
}


/** A fake browser with the few DOM APIs the examples use on top of the shared helper. */
function browserFor(out: string): FakeBrowser {
  const browser = fakeBrowser(out);
  const document = browser.document as unknown as Record<string, unknown>;
  document.querySelectorAll = (tag: string) => browser.document.getElementsByTagName(tag);
  return browser;
}

function stylesIn(browser: FakeBrowser): FakeNode[] {
  return browser.document.getElementsByTagName('style');
}

function cssOf(browser: FakeBrowser): string {
  return stylesIn(browser)
    .map((s) => s.textContent)
    .join('\n');
}

/**
 * Copies the fixture into a scratch project, writes the page's webpack.config.js there, evaluates it
 * in that folder (also the working directory, where Babel looks for its cache folder) and builds it
 * with the real webpack. Compilation errors fail the test; warnings are returned for checks.
 */
async function buildExample(fixture: string, code: string, line: number, files: Record<string, string> = {}): Promise<Build> {
  const dir = scratchDir(`ld-${fixture}`);
  cpSync(join(FIXTURES, fixture), dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), content);
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  writeFileSync(join(dir, 'webpack.config.js'), code);
  const previous = process.cwd();
  process.chdir(dir);
  try {
    const config = evaluateConfig(code, dir) as Configuration;
    validate(config);
    const out = config.output?.path ?? join(dir, 'dist');
    const compiler = webpack({
      ...config,
      mode: config.mode ?? 'production',
      context: config.context ?? dir,
      output: { ...config.output, path: out },
      infrastructureLogging: { level: 'error' },
    });
    const { err, stats } = await new Promise<{ err: Error | undefined; stats: Stats | undefined }>((resolve) => {
      compiler.run((e, s) => resolve({ err: e ?? undefined, stats: s ?? undefined }));
    });
    await new Promise<void>((resolve) => compiler.close(() => resolve()));
    const json = stats?.toJson({ all: false, errors: true, warnings: true });
    const errors = (json?.errors ?? []).map((e) => e.message);
    if (err || errors.length > 0) throw new Error(`build failed (line ${line}):\n${err ? String(err) : errors.join('\n')}`);
    return {
      dir,
      out,
      stats,
      errors,
      warnings: (json?.warnings ?? []).map((w) => w.message),
      has: (file) => existsSync(join(out, file)),
      text: (file) => readFileSync(join(out, file), 'utf8'),
      files: () => listFiles(out),
      async run(file = 'main.js') {
        const browser = browserFor(out);
        browser.runScript(file);
        await browser.settle();
        return browser;
      },
    };
  } catch (e) {
    removeDir(dir);
    throw e;
  } finally {
    process.chdir(previous);
  }
}

async function withBuild(
  fixture: string,
  code: string,
  line: number,
  check: (b: Build) => void | Promise<void>,
  files: Record<string, string> = {},
): Promise<void> {
  const build = await buildExample(fixture, code, line, files);
  try {
    await check(build);
  } finally {
    removeDir(build.dir);
  }
}

/** A variant of a page's example: the same code with one exact replacement (which must apply). */
function variant(block: CodeBlock, from: string | RegExp, to: string): string {
  const code = block.code.replace(from, to);
  expect(code, `variant of the block at line ${block.line}`).not.toBe(block.code);
  return code;
}

function logsOf(browser: FakeBrowser): string[] {
  return browser.logs;
}

function onlySvg(build: Build): string {
  const svgs = build.files().filter((f) => f.endsWith('.svg'));
  expect(svgs).toHaveLength(1);
  return svgs[0]!;
}

/* ------------------------------------------------------------------------ */
/* What each example must do                                                */
/* ------------------------------------------------------------------------ */

const EXAMPLES: Record<Loader, Example[]> = {
  'babel-loader': [
    {
      what: 'transpiles class fields, ?? and ?. for the browserslist targets and keeps the class',
      async check(b) {
        const js = b.text('main.js');
        expect(js).not.toContain('??');
        expect(js).not.toContain('?.');
        expect(js).not.toMatch(/count\s*=\s*0\s*;?\s*increment/);
        expect(js).toMatch(/\bclass\s*\{/);
        expect(logsOf(await b.run())).toEqual(['Clicks: 3']);
      },
    },
    {
      what: 'reads babel.config.json and writes compressed cache entries',
      fixture: 'babel-loader-config',
      async check(b) {
        expect(b.text('main.js')).not.toContain('??');
        expect(logsOf(await b.run())).toEqual(['Clicks: 3']);
        const cache = join(b.dir, 'node_modules', '.cache', 'babel-loader');
        const entries = readdirSync(cache);
        expect(entries.length).toBeGreaterThan(0);
        expect(entries.every((e) => e.endsWith('.json.gz'))).toBe(true);
      },
    },
  ],
  'css-loader': [
    {
      what: 'bundles @import, emits the url() image and injects the CSS',
      async check(b) {
        const svg = onlySvg(b);
        const browser = await b.run();
        const css = cssOf(browser);
        expect(css).toContain('font-family: system-ui');
        expect(css).toContain('.page');
        // the @import is a module of its own: style-loader adds one <style> per list entry, base.css first
        const styles = stylesIn(browser).map((s) => s.textContent);
        expect(styles).toHaveLength(2);
        expect(styles[0]).toContain('font-family: system-ui');
        expect(styles[0]).not.toContain('.page');
        expect(styles[1]).toContain('.page');
        expect(css).toContain(svg);
        expect(css).not.toContain('@import');
        expect(css).not.toContain('./images/dot.svg');
      },
    },
    {
      what: 'generates readable CSS Modules names and uses them in the CSS',
      async check(b) {
        const browser = await b.run();
        const [line] = logsOf(browser);
        expect(line).toMatch(/^card-module__title--[\w-]{5} card-module__card-body--[\w-]{5}$/);
        const [title] = line!.split(' ');
        expect(cssOf(browser)).toContain(`.${title}`);
        expect(section('loaders/css-loader', 'Examples')).toContain('`card-module__title--');
      },
    },
    {
      what: 'exports the CSS as a string with imports and urls resolved',
      async check(b) {
        const svg = onlySvg(b);
        const browser = await b.run();
        expect(stylesIn(browser)).toHaveLength(0);
        const [css] = logsOf(browser);
        expect(css).toContain('.widget');
        expect(css).toContain('font-family');
        expect(css).toContain(svg);
      },
    },
  ],
  'exports-loader': [
    { what: 'default export of a global variable', async check(b) { expect(logsOf(await b.run())).toEqual(['42']); } },
    { what: 'named exports with an alias', async check(b) { expect(logsOf(await b.run())).toEqual(['#8']); } },
    { what: 'CommonJS exports', async check(b) { expect(logsOf(await b.run())).toEqual(['#1.2.0']); } },
  ],
  'expose-loader': [
    {
      what: 'exposes the module as window.Analytics',
      async check(b) {
        const browser = await b.run();
        expect(logsOf(browser)).toEqual(['tracked page-view']);
        const analytics = browser.window.Analytics as { track(e: string): string; version: string };
        expect(analytics.track('signup')).toBe('tracked signup');
        expect(analytics.version).toBe('3.1.0');
      },
    },
    {
      what: 'exposes single exports under a nested namespace',
      async check(b) {
        const browser = await b.run();
        const app = browser.window.MyApp as { analytics: { track(e: string): string; version: string } };
        expect(app.analytics.track('signup')).toBe('tracked signup');
        expect(app.analytics.version).toBe('3.1.0');
        expect(Object.keys(app.analytics).sort()).toEqual(['track', 'version']);
      },
    },
  ],
  'html-loader': [
    {
      what: 'imports minimized HTML with the image URL replaced, leaving data-src and the placeholder',
      async check(b) {
        const svg = onlySvg(b);
        const [html] = logsOf(await b.run());
        expect(html).toContain(`src="http://localhost/${svg}"`);
        expect(html).not.toContain('<!--');
        expect(html).not.toContain('\n');
        expect(html).toContain('data-src="./images/photo.svg"');
        expect(html).toContain('Version %APP_VERSION%');
      },
    },
    {
      what: 'also resolves data-src',
      async check(b) {
        const svgs = b.files().filter((f) => f.endsWith('.svg'));
        expect(svgs).toHaveLength(2);
        const [html] = logsOf(await b.run());
        for (const svg of svgs) expect(html).toContain(`"http://localhost/${svg}"`);
        expect(html).toMatch(/data-src="http:\/\/localhost\/[0-9a-f]+\.svg"/);
      },
    },
    {
      what: 'fills in the version before processing',
      async check(b) {
        const [html] = logsOf(await b.run());
        expect(html).toContain('<footer>Version 2.4.0</footer>');
      },
    },
  ],
  'imports-loader': [
    { what: 'gives the plugin its $', async check(b) { expect(logsOf(await b.run())).toEqual(['function']); } },
    { what: 'sets this to window', async check(b) { expect(logsOf(await b.run())).toEqual(['legacy widget']); } },
    {
      what: 'takes the CommonJS branch of the UMD file',
      async check(b) {
        expect(logsOf(await b.run())).toEqual(['commonjs']);
      },
    },
  ],
  'less-loader': [
    {
      what: 'compiles variables, mixins and nesting and injects the CSS',
      async check(b) {
        const css = cssOf(await b.run());
        expect(css).toMatch(/\.button \{[^}]*border-radius: 4px;[^}]*background: #1c78c0;/);
        const hover = /\.button:hover \{\s*background: (#[0-9a-f]{6});/.exec(css);
        expect(hover?.[1]).toBeDefined();
        expect(hover![1]).not.toBe('#1c78c0');
        expect(css).not.toContain('@brand-color');
      },
    },
    {
      what: 'modifyVars changes the brand colour and the derived hover colour',
      async check(b) {
        const css = cssOf(await b.run());
        expect(css).toContain('background: #0a7d4f;');
        expect(css).not.toContain('#1c78c0');
      },
    },
  ],
  'postcss-loader': [
    {
      what: 'the inline plugin prefixes user-select in the file and in the @imported file',
      async check(b) {
        const css = cssOf(await b.run());
        expect(css).toMatch(/\.toolbar \{\s*-webkit-user-select: none;\s*user-select: none;/);
        expect(css).toMatch(/\.label \{\s*-webkit-user-select: none;\s*user-select: none;/);
      },
    },
    {
      what: 'the plugin from postcss.config.js does the same',
      fixture: 'postcss-loader-config',
      async check(b) {
        const css = cssOf(await b.run());
        expect(css).toMatch(/\.toolbar \{\s*-webkit-user-select: none;/);
        expect(css).toMatch(/\.label \{\s*-webkit-user-select: none;/);
      },
    },
  ],
  'sass-loader': [
    {
      what: 'compiles @use and nesting',
      async check(b) {
        const css = cssOf(await b.run());
        expect(css).toMatch(/\.nav \{\s*border-bottom: 2px solid #0a7d4f;/);
        expect(css).toMatch(/\.nav__link \{\s*color: #0a7d4f;\s*\}/);
        expect(css).not.toContain('text-decoration');
      },
    },
    {
      what: 'additionalData switches $env to production',
      async check(b) {
        expect(cssOf(await b.run())).toMatch(/\.nav__link \{\s*color: #0a7d4f;\s*text-decoration: none;\s*\}/);
      },
    },
    {
      what: 'extracts compressed CSS to main.css',
      check(b) {
        expect(b.text('main.css').startsWith('.nav{border-bottom:2px solid #0a7d4f}')).toBe(true);
      },
    },
  ],
  'source-map-loader': [
    {
      what: 'puts the original TypeScript into the source map and warns about the missing map',
      check(b) {
        const map = JSON.parse(b.text('main.js.map')) as { sources: string[]; sourcesContent: string[] };
        const ts = map.sources.findIndex((s) => s.endsWith('greeter.ts'));
        expect(ts).toBeGreaterThanOrEqual(0);
        expect(map.sourcesContent[ts]).toContain('export interface Greeting');
        expect(map.sources.some((s) => s.endsWith('greeter.js'))).toBe(false);
        const warning = b.warnings.join('\n');
        expect(warning).toContain('Failed to parse source map from');
        expect(warning).toContain('chart.js.map');
        expect(warning).toContain('ENOENT');
      },
    },
    {
      what: 'removes the broken reference without warnings and keeps the TypeScript source',
      check(b) {
        expect(b.warnings).toEqual([]);
        const map = JSON.parse(b.text('main.js.map')) as { sources: string[] };
        expect(map.sources.some((s) => s.endsWith('greeter.ts'))).toBe(true);
        expect(map.sources.some((s) => s.endsWith('chart.js'))).toBe(true);
        expect(b.text('main.js')).not.toContain('chart.js.map');
      },
    },
  ],
  'style-loader': [
    {
      what: 'adds one style element per file to the head, in import order',
      async check(b) {
        const browser = await b.run();
        const styles = browser.document.head.getElementsByTagName('style');
        expect(styles).toHaveLength(2);
        expect(styles[0]!.textContent).toContain('color: #222222');
        expect(styles[1]!.textContent).toContain('display: grid');
      },
    },
    {
      what: 'lazy styles appear with use() and disappear with unuse()',
      async check(b) {
        const browser = await b.run();
        expect(logsOf(browser)).toEqual(['styles before use(): 1', 'styles after use(): 2', 'styles after unuse(): 1']);
      },
    },
    {
      what: 'one labelled element in the body holds both files',
      async check(b) {
        const browser = await b.run();
        expect(browser.document.head.getElementsByTagName('style')).toHaveLength(0);
        const styles = browser.document.body.getElementsByTagName('style');
        expect(styles).toHaveLength(1);
        expect(styles[0]!.getAttribute('data-source')).toBe('app');
        expect(styles[0]!.textContent).toContain('color: #222222');
        expect(styles[0]!.textContent).toContain('display: grid');
      },
    },
  ],
  'thread-loader': [
    {
      what: 'runs babel-loader in the pool with the same result',
      async check(b) {
        const js = b.text('main.js');
        expect(js).not.toContain('??');
        expect(js).not.toContain('?.');
        expect(logsOf(await b.run())).toEqual(['Clicks: 3']);
      },
    },
    {
      what: 'warms up the pool and builds (in a child process, which ends the workers)',
      separate: true,
      check() {
        throw new Error('built by the dedicated thread-loader test, in a child process');
      },
    },
  ],
};

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */
/* ------------------------------------------------------------------------ */

describe('loaders index', () => {
  it('explains loaders and what asset modules replaced', () => {
    const page = readPage('loaders');
    expect((page.frontmatter.description ?? '').length).toBeGreaterThan(60);
    for (const [loader, type] of [
      ['file-loader', 'asset/resource'],
      ['url-loader', 'asset/inline'],
      ['raw-loader', 'asset/source'],
    ] as const) {
      const row = page.body.split('\n').find((l) => l.includes(`\`${type}\``) && l.includes(`\`${loader}\``));
      expect(row, `${loader} → ${type}`).toBeDefined();
    }
    expect(page.body).toContain('](/guides/asset-modules/)');
    expect(page.body).toContain('](/concepts/loaders/)');
  });

  it('has an h2 per group, in order, each with a table of linked loaders', async () => {
    const h2 = (await headingsOf('loaders')).filter((h) => h.depth === 2).map((h) => h.text);
    const groups = h2.filter((t) => GROUPS.includes(t));
    expect(groups).toEqual(GROUPS);
    expect(h2.indexOf('Files')).toBe(h2.length - GROUPS.length);
    const linked = new Set<string>();
    for (const group of GROUPS) {
      const rows = section('loaders', group)
        .split('\n')
        .filter((l) => l.startsWith('| ') && !l.startsWith('| Loader') && !l.startsWith('| ---'));
      expect(rows.length, group).toBeGreaterThan(0);
      for (const row of rows) {
        const cells = row.split(' | ');
        expect(cells.length, row).toBeGreaterThanOrEqual(2);
        expect(cells[1]!.trim().length, row).toBeGreaterThan(15);
        if (row.startsWith('| (built in)')) continue;
        const links = [...cells[0]!.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]!);
        expect(links.length, row).toBeGreaterThan(0);
        for (const link of links) {
          expect(link, row).toMatch(/^(\/loaders\/[a-z-]+\/|https:\/\/github\.com\/[\w.-]+\/[\w.-]+)$/);
          const local = /^\/loaders\/([a-z-]+)\/$/.exec(link);
          if (local) linked.add(local[1]!);
        }
      }
    }
    expect([...linked].sort()).toEqual([...LOADERS].sort());
  });

  it('builds its webpack.config.js example: Sass compiled and injected', async () => {
    const blocks = configBlocks('loaders');
    expect(blocks).toHaveLength(1);
    await withBuild('index', blocks[0]!.code, blocks[0]!.line, async (b) => {
      const css = cssOf(await b.run());
      expect(css).toMatch(/\.app h1\s*\{\s*color:\s*#c0392b/);
    });
  });
});

describe.each(LOADERS)('%s', (name) => {
  const id = `loaders/${name}`;

  it('has the package name as title, a description, no group and the package repository', () => {
    const { frontmatter } = readPage(id);
    expect(frontmatter.title).toBe(name);
    expect((frontmatter.description ?? '').length).toBeGreaterThan(60);
    expect(frontmatter.group ?? '-').toBe('-');
    expect(frontmatter.repo).toBe(repositoryOf(name));
    expect(readFileSync(join(ROOT, 'content', `${id}.md`), 'utf8')).not.toMatch(/^contributors:/m);
  });

  it('has exactly the h2 headings Install, Usage, Options, Examples, Related', async () => {
    const h2 = (await headingsOf(id)).filter((h) => h.depth === 2).map((h) => h.text);
    expect(h2).toEqual(['Install', 'Usage', 'Options', 'Examples', 'Related']);
  });

  it('documents every option of the loader, with type and default', async () => {
    expect((await headingsUnder(id, 'Options', 3)).sort()).toEqual(optionsOf(name));
    for (const [option, text] of subsections(section(id, 'Options'))) {
      expect(text, `${option}: type`).toMatch(/^- Type: /m);
      expect(text, `${option}: default`).toMatch(/^- Default: /m);
      expect(text.replace(/^- (Type|Default): .*$/gm, '').trim().length, `${option}: explanation`).toBeGreaterThan(40);
    }
  });

  it('shows install commands for npm, yarn and pnpm', () => {
    const install = section(id, 'Install');
    expect(install).toMatch(new RegExp(`npm install --save-dev ${name}\\b`));
    expect(install).toMatch(new RegExp(`yarn add --dev ${name}\\b`));
    expect(install).toMatch(new RegExp(`pnpm add --save-dev ${name}\\b`));
  });

  it('links onward from Related', () => {
    expect([...section(id, 'Related').matchAll(/\]\((\/[^)]*)\)/g)].length).toBeGreaterThanOrEqual(3);
  });

  const blocks = configBlocks(id);
  const examples = EXAMPLES[name];
  const fixtures = [...new Set([name, ...examples.map((e) => e.fixture).filter((f): f is string => Boolean(f))])].filter((f) =>
    existsSync(join(FIXTURES, f)),
  );

  it('shows the same files as the fixtures the examples are built from', () => {
    for (const block of readPage(id).blocks) {
      if (!block.title || block.title === 'webpack.config.js' || block.title.startsWith('dist/')) continue;
      const sources = fixtures.map((f) => join(FIXTURES, f, block.title!)).filter((f) => existsSync(f));
      expect(sources.length, `${id}:${block.line}: fixture for ${block.title}`).toBeGreaterThan(0);
      for (const file of sources) {
        expect(readFileSync(file, 'utf8').trim(), `${id}:${block.line}: ${file}`).toBe(block.code.trim());
      }
    }
  });

  it('has one checked example per webpack.config.js block', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(examples).toHaveLength(blocks.length);
  });

  blocks.forEach((block, i) => {
    const example = examples[i];
    if (!example || example.separate) return;
    it(`example at line ${block.line}: ${example.what}`, async () => {
      await withBuild(example.fixture ?? name, block.code, block.line, example.check);
    });
  });
});

describe('css-loader', () => {
  /** The modules example with a second entry file that imports an ordinary global stylesheet too. */
  const withGlobal = (code: string) => code.replace("entry: './src/card.js'", "entry: './src/page.js'");
  const globalFiles = {
    'src/global.css': '.title {\n  color: navy;\n}\n',
    'src/page.js': "import './global.css';\nimport './card.js';\n",
  };

  it('modules example: auto: true keeps a plain .css file global; without auto every matched file is a CSS Module', async () => {
    const block = configBlocks('loaders/css-loader')[1]!;
    expect(block.code).toContain("modules: { auto: true, localIdentName: '[name]__[local]--[hash:base64:5]' }");
    const code = withGlobal(block.code);
    expect(code).not.toBe(block.code);
    await withBuild(
      'css-loader',
      code,
      block.line,
      async (b) => {
        const browser = await b.run();
        expect(logsOf(browser)[0]).toMatch(/^card-module__title--[\w-]{5} /);
        expect(cssOf(browser)).toMatch(/^\.title \{/m);
      },
      globalFiles,
    );
    await withBuild(
      'css-loader',
      variant({ ...block, code }, 'auto: true, ', ''),
      block.line,
      async (b) => {
        const css = cssOf(await b.run());
        expect(css).not.toMatch(/^\.title \{/m);
        expect(css).toMatch(/^\.global__title--[\w-]{5} \{/m);
      },
      globalFiles,
    );
  });

  it('modules.auto: false turns CSS Modules off, even for *.module.css files', async () => {
    const block = configBlocks('loaders/css-loader')[1]!;
    await withBuild('css-loader', variant(block, 'auto: true', 'auto: false'), block.line, async (b) => {
      const browser = await b.run();
      // neither name is exported (the fake console prints undefined as an empty string)
      expect(logsOf(browser)).toHaveLength(1);
      expect(logsOf(browser)[0]).not.toMatch(/\w/);
      expect(cssOf(browser)).toMatch(/^\.title \{/m);
      expect(b.warnings.join('\n')).toMatch(/export 'title' \(imported as 'styles'\) was not found/);
    });
    const auto = subsections(section('loaders/css-loader', 'Options'), '####').get('modules.auto')!;
    expect(auto).toContain('`false` turns CSS Modules off for every file');
    expect(auto).toMatch(/- Default: `true` when `modules` is not set; not set \(`undefined`\) when `modules` is `true`, a string or an object/);
  });

  it('documents every property of the modules option', async () => {
    const modules = readSchema(SCHEMAS['css-loader']).properties.modules!;
    const object = modules.anyOf!.find((s) => s.properties)!;
    const expected = Object.keys(object.properties).map((k) => `modules.${k}`).sort();
    const h4 = (await headingsUnder('loaders/css-loader', 'Options', 4)).sort();
    expect(h4).toEqual(expected);
    for (const [property, text] of subsections(section('loaders/css-loader', 'Options'), '####')) {
      expect(text, property).toMatch(/^- Type: /m);
      expect(text, property).toMatch(/^- Default: /m);
    }
  });
});

describe('style-loader', () => {
  it('copies __webpack_nonce__ into the elements, but not once attributes are set', async () => {
    const [usage, , singleton] = configBlocks('loaders/style-loader');
    const csp = (block: CodeBlock) => variant(block, /entry: '\.\/src\/[a-z]+\.js'/, "entry: './src/csp.js'");
    await withBuild('style-loader', csp(usage!), usage!.line, async (b) => {
      const styles = stylesIn(await b.run());
      expect(styles).toHaveLength(1);
      expect(styles[0]!.getAttribute('nonce')).toBe('r4nd0m');
    });
    await withBuild('style-loader', csp(singleton!), singleton!.line, async (b) => {
      const styles = stylesIn(await b.run());
      expect(styles).toHaveLength(1);
      expect(styles[0]!.getAttribute('nonce')).toBeNull();
    });
  });
});

describe('imports-loader', () => {
  it('without the rule the UMD file takes the AMD branch, and parser.amd: false also avoids it', async () => {
    const umd = configBlocks('loaders/imports-loader')[2]!;
    const withoutRule = variant(umd, /rules: \[[\s\S]*\],\n {2}\},/, 'rules: [],\n  },');
    await withBuild('imports-loader', withoutRule, umd.line, async (b) => {
      expect(logsOf(await b.run())).toEqual(['amd']);
    });
    const parserOption = variant(
      umd,
      /loader: 'imports-loader',\n\s*options: \{[\s\S]*?\n\s*\},/,
      'parser: { amd: false },',
    );
    await withBuild('imports-loader', parserOption, umd.line, async (b) => {
      expect(logsOf(await b.run())).toEqual(['commonjs']);
    });
  });

  it('without the wrapper, this is not window', async () => {
    const widget = configBlocks('loaders/imports-loader')[1]!;
    const withoutRule = variant(widget, /rules: \[[\s\S]*\],\n {2}\},/, 'rules: [],\n  },');
    await withBuild('imports-loader', withoutRule, widget.line, async (b) => {
      await expect(b.run()).rejects.toThrow(/render/);
    });
  });

  it('the inline form shown on the page works', async () => {
    const inline = readPage('loaders/imports-loader').blocks.find((b) => b.code.startsWith("import 'imports-loader?"))!;
    const entry = `import $ from '../vendor/tiny-query.js';\n${inline.code}\n\nconsole.log(typeof $.highlight);\n`;
    const code = "module.exports = { mode: 'production', entry: './src/inline.js' };\n";
    await withBuild('imports-loader', code, inline.line, async (b) => expect(logsOf(await b.run())).toEqual(['function']), {
      'src/inline.js': entry,
    });
  });
});

describe('source-map-loader', () => {
  it('without the loader, the map only knows the compiled greeter.js', async () => {
    const usage = configBlocks('loaders/source-map-loader')[0]!;
    const withoutLoader = variant(usage, /rules: \[[\s\S]*\],\n {2}\},/, 'rules: [],\n  },');
    await withBuild('source-map-loader', withoutLoader, usage.line, (b) => {
      const map = JSON.parse(b.text('main.js.map')) as { sources: string[] };
      expect(map.sources.some((s) => s.endsWith('greeter.js'))).toBe(true);
      expect(map.sources.some((s) => s.endsWith('greeter.ts'))).toBe(false);
    });
  });
});

describe('thread-loader', () => {
  it('warmup example: builds in a child process with a warm pool', async () => {
    const block = configBlocks('loaders/thread-loader')[1]!;
    expect(block.code).toContain('threadLoader.warmup(');
    const dir = scratchDir('ld-thread-warmup');
    try {
      cpSync(join(FIXTURES, 'thread-loader'), dir, { recursive: true });
      writeFileSync(join(dir, 'webpack.config.js'), block.code);
      const runner = [
        "const webpack = require('webpack');",
        "const config = require('./webpack.config.js');",
        "webpack({ ...config, devtool: false, context: __dirname, infrastructureLogging: { level: 'error' } }, (err, stats) => {",
        '  const json = stats && stats.toJson({ all: false, errors: true });',
        "  const out = require('fs').readFileSync(require('path').join(__dirname, 'dist/main.js'), 'utf8');",
        '  console.log(JSON.stringify({ err: err && String(err), errors: json ? json.errors.map((e) => e.message) : [], out }));',
        '  process.exit(0);',
        '});',
      ].join('\n');
      writeFileSync(join(dir, 'run.cjs'), runner);
      const stdout = await new Promise<string>((resolve, reject) => {
        execFile(process.execPath, ['run.cjs'], { cwd: dir, timeout: 60_000 }, (err, out, errOut) =>
          err ? reject(new Error(`${String(err)}\n${errOut}`)) : resolve(out),
        );
      });
      const result = JSON.parse(stdout.trim().split('\n').at(-1)!) as { err: string | null; errors: string[]; out: string };
      expect(result.err).toBeNull();
      expect(result.errors).toEqual([]);
      expect(result.out).toContain('Clicks');
      expect(result.out).not.toContain('??');
    } finally {
      removeDir(dir);
    }
  });
});
