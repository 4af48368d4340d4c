import { cpSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Configuration, Stats } from 'webpack';
import { describe, expect, it } from 'vitest';
import { configBlocks, headingsOf, listFiles, readPage, removeDir, repositoryOf, ROOT, scratchDir, section, subsections, type CodeBlock } from '../helpers/content.js';
import { evaluateConfig, validate, webpack } from '../helpers/webpack.js';

/*
 * The pages of the separately published plugins (content/plugins/<package>.md).
 *
 * For every page:
 * - frontmatter: title, description, no group, and `repo` taken from the package's own package.json;
 * - headings: h2 sections in the shared order, and one `### <option>` under "Options" per option of
 *   the package's options schema (no missing, no stale ones), each stating its type and default;
 * - install commands for npm, yarn and pnpm that name the package;
 * - every code block titled webpack.config.js is run from the page, built with the real plugin in a
 *   scratch project made from test/fixtures/plugins-packages/<package>/, and its effect is asserted;
 * - every other titled file the page shows is compared with the fixture the examples are built from.
 */

const FIXTURES = join(ROOT, 'test', 'fixtures', 'plugins-packages');
const NODE_MODULES = join(ROOT, 'node_modules');

const PACKAGES = [
  'compression-webpack-plugin',
  'copy-webpack-plugin',
  'css-minimizer-webpack-plugin',
  'eslint-webpack-plugin',
  'html-minimizer-webpack-plugin',
  'html-webpack-plugin',
  'image-minimizer-webpack-plugin',
  'json-minimizer-webpack-plugin',
  'mini-css-extract-plugin',
  'stylelint-webpack-plugin',
  'terser-webpack-plugin',
] as const;
type Package = (typeof PACKAGES)[number];

const H2_ORDER = ['Install', 'Usage', 'Options', 'Loader options', 'Examples', 'Related'];

/* ------------------------------------------------------------------------ */
/* Option sources                                                           */
/* ------------------------------------------------------------------------ */

function schemaKeys(file: string): string[] {
  const schema = JSON.parse(readFileSync(join(NODE_MODULES, file), 'utf8')) as { properties: Record<string, unknown> };
  return Object.keys(schema.properties).sort();
}

/**
 * html-webpack-plugin has no JSON schema. Its options are the keys of the `Options` interface in
 * typings.d.ts plus the keys of `defaultOptions` in the constructor (index.js), which adds `base`.
 * `compile` is a default that index.js never reads, so it is not an option anyone can use.
 */
function htmlWebpackPluginOptions(): string[] {
  const typings = readFileSync(join(NODE_MODULES, 'html-webpack-plugin/typings.d.ts'), 'utf8');
  const start = typings.indexOf('interface Options {');
  const end = typings.indexOf('\n  }\n', start);
  const fromTypings = [...typings.slice(start, end).matchAll(/^ {4}(\w+)\?:/gm)].map((m) => m[1]!);
  const index = readFileSync(join(NODE_MODULES, 'html-webpack-plugin/index.js'), 'utf8');
  const defaults = index.slice(index.indexOf('const defaultOptions = {'), index.indexOf('};', index.indexOf('const defaultOptions = {')));
  const fromDefaults = [...defaults.matchAll(/^ {6}(\w+):/gm)].map((m) => m[1]!);
  expect(fromTypings.length).toBeGreaterThan(10);
  expect(fromDefaults).toContain('compile');
  expect(index).not.toMatch(/options\.compile\b/);
  return [...new Set([...fromTypings, ...fromDefaults])].filter((k) => k !== 'compile').sort();
}

const OPTION_SOURCES: Record<Package, { options: () => string[]; loaderOptions?: () => string[] }> = {
  'compression-webpack-plugin': { options: () => schemaKeys('compression-webpack-plugin/dist/options.json') },
  'copy-webpack-plugin': { options: () => schemaKeys('copy-webpack-plugin/dist/options.json') },
  'css-minimizer-webpack-plugin': { options: () => schemaKeys('css-minimizer-webpack-plugin/dist/options.json') },
  'eslint-webpack-plugin': { options: () => schemaKeys('eslint-webpack-plugin/dist/options.json') },
  'html-minimizer-webpack-plugin': { options: () => schemaKeys('html-minimizer-webpack-plugin/dist/options.json') },
  'html-webpack-plugin': { options: htmlWebpackPluginOptions },
  'image-minimizer-webpack-plugin': {
    options: () => schemaKeys('image-minimizer-webpack-plugin/dist/plugin-options.json'),
    loaderOptions: () => schemaKeys('image-minimizer-webpack-plugin/dist/loader-options.json'),
  },
  'json-minimizer-webpack-plugin': { options: () => schemaKeys('json-minimizer-webpack-plugin/dist/options.json') },
  'mini-css-extract-plugin': {
    options: () => schemaKeys('mini-css-extract-plugin/dist/plugin-options.json'),
    loaderOptions: () => schemaKeys('mini-css-extract-plugin/dist/loader-options.json'),
  },
  'stylelint-webpack-plugin': { options: () => schemaKeys('stylelint-webpack-plugin/dist/options.json') },
  'terser-webpack-plugin': { options: () => schemaKeys('terser-webpack-plugin/dist/options.json') },
};


/* ------------------------------------------------------------------------ */
/* Page structure                                                           */
/* ------------------------------------------------------------------------ */



async function h3Under(id: string, h2: string): Promise<string[]> {
  const headings = await headingsOf(id);
  const start = headings.findIndex((h) => h.depth === 2 && h.text === h2);
  if (start < 0) return [];
  const found: string[] = [];
  for (const h of headings.slice(start + 1)) {
    if (h.depth === 2) break;
    if (h.depth === 3) found.push(h.text);
  }
  return found.sort();
}

/* ------------------------------------------------------------------------ */
/* Building the examples                                                    */
/* ------------------------------------------------------------------------ */

interface Build {
  dir: string;
  out: string;
  stats: Stats | undefined;
  /** An error passed to webpack's callback (a failed build, not a compilation error). */
  fatal: Error | undefined;
  errors: string[];
  warnings: string[];
  has(file: string): boolean;
  text(file: string): string;
  buffer(file: string): Buffer;
  files(): string[];
}

interface Example {
  /** What the example promises, as the test name. */
  what: string;
  /** Fixture folder under test/fixtures/plugins-packages (default: the package name). */
  fixture?: string;
  /** The build is expected to fail (compilation errors or a failed build). */
  expectErrors?: boolean;
  check(build: Build): void | Promise<void>;
}


/**
 * Copies the fixture into a scratch project, writes the page's webpack.config.js there, evaluates
 * it in that folder (also the working directory, where ESLint, Stylelint and babel look for their
 * configuration and caches) and builds it with the real webpack.
 */
async function buildExample(fixture: string, block: CodeBlock, expectErrors: boolean, files: Record<string, string> = {}): Promise<Build> {
  const dir = scratchDir(`pp-${fixture}`);
  cpSync(join(FIXTURES, fixture), dir, { recursive: true });
  for (const [file, content] of Object.entries(files)) writeFileSync(join(dir, file), content);
  if (!existsSync(join(dir, 'package.json'))) writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
  writeFileSync(join(dir, 'webpack.config.js'), block.code);
  const previous = process.cwd();
  process.chdir(dir);
  let out = join(dir, 'dist');
  try {
    const config = evaluateConfig(block.code, dir) as Configuration;
    validate(config);
    out = config.output?.path ?? out;
    const final: Configuration = {
      ...config,
      mode: config.mode ?? 'production',
      context: config.context ?? dir,
      output: { ...config.output, path: out },
      infrastructureLogging: { level: 'error' },
    };
    const compiler = webpack(final);
    const { err, stats } = await new Promise<{ err: Error | undefined; stats: Stats | undefined }>((resolve) => {
      compiler.run((e, s) => resolve({ err: e ?? undefined, stats: s ?? undefined }));
    });
    await new Promise<void>((resolve) => compiler.close(() => resolve()));
    const json = stats?.toJson({ all: false, errors: true, warnings: true });
    const errors = (json?.errors ?? []).map((e) => e.message);
    const warnings = (json?.warnings ?? []).map((e) => e.message);
    const failed = Boolean(err) || errors.length > 0;
    if (failed !== expectErrors) {
      removeDir(dir);
      throw new Error(
        expectErrors
          ? `expected the build to fail, but it succeeded (line ${block.line})`
          : `build failed (line ${block.line}):\n${err ? String(err) : errors.join('\n')}`,
      );
    }
    const path = (file: string) => join(out, file);
    return {
      dir,
      out,
      stats,
      fatal: err,
      errors,
      warnings,
      has: (file) => existsSync(path(file)),
      text: (file) => readFileSync(path(file), 'utf8'),
      buffer: (file) => readFileSync(path(file)),
      files: () => (existsSync(out) ? listFiles(out) : []),
    };
  } catch (e) {
    removeDir(dir);
    throw e;
  } finally {
    process.chdir(previous);
  }
}

/** The one output file whose name matches. */
function only(build: Build, pattern: RegExp): string {
  const found = build.files().filter((f) => pattern.test(f));
  expect(found, `one file matching ${pattern} in ${build.files().join(', ')}`).toHaveLength(1);
  return found[0]!;
}

/** A titled block of a page (exactly one). */
function shown(id: string, title: string): string {
  const blocks = readPage(id).blocks.filter((b) => b.title === title);
  expect(blocks, `${id}: one block titled ${title}`).toHaveLength(1);
  return blocks[0]!.code;
}

/* ------------------------------------------------------------------------ */
/* What each example must do                                                */
/* ------------------------------------------------------------------------ */

const EXAMPLES: Record<Package, Example[]> = {
  'compression-webpack-plugin': [
    {
      what: 'gzips main.js; the .gz file decompresses to the original',
      check(b) {
        expect(b.files()).toEqual(['main.js', 'main.js.gz']);
        expect(gunzipSync(b.buffer('main.js.gz')).toString()).toBe(b.text('main.js'));
        expect(b.buffer('main.js.gz').length).toBeLessThan(b.buffer('main.js').length * 0.8);
      },
    },
    {
      what: 'writes gzip and Brotli copies side by side, and nothing compresses the other copy',
      check(b) {
        expect(b.files()).toEqual(['main.js', 'main.js.br', 'main.js.gz']);
        expect(gunzipSync(b.buffer('main.js.gz')).toString()).toBe(b.text('main.js'));
        expect(brotliDecompressSync(b.buffer('main.js.br')).toString()).toBe(b.text('main.js'));
      },
    },
    {
      what: 'leaves only app.js.gz, which is the gzipped bundle',
      check(b) {
        expect(b.files()).toEqual(['app.js.gz']);
        expect(gunzipSync(b.buffer('app.js.gz')).toString()).toContain('Open the invoice page');
      },
    },
  ],
  'copy-webpack-plugin': [
    {
      what: 'copies the contents of public/ to the output root and renames the robots file',
      check(b) {
        expect(b.files()).toEqual(
          expect.arrayContaining(['main.js', 'favicon.svg', 'icons/app-192.svg', 'manifest.json', 'robots.txt']),
        );
        expect(b.files().some((f) => f.startsWith('public/'))).toBe(false);
        expect(b.text('robots.txt')).toBe(readFileSync(join(FIXTURES, 'copy-webpack-plugin/config/robots.production.txt'), 'utf8'));
      },
    },
    {
      what: 'adds an 8-character content hash and leaves out the Markdown file',
      check(b) {
        const icons = b.files().filter((f) => f.startsWith('icons/'));
        expect(icons).toHaveLength(1);
        expect(icons[0]).toMatch(/^icons\/app-192\.[0-9a-f]{8}\.svg$/);
      },
    },
    {
      what: 'fills in the version while copying manifest.json',
      check(b) {
        const manifest = JSON.parse(b.text('manifest.json')) as { version: string; name: string };
        expect(manifest.version).toBe('2.4.0');
        expect(manifest.name).toBe('Copied assets demo');
      },
    },
    {
      what: 'merges all locale files into locales.json keyed by language',
      check(b) {
        expect(b.files().filter((f) => f.endsWith('.json'))).toEqual(['locales.json']);
        expect(JSON.parse(b.text('locales.json'))).toEqual({
          de: { greeting: 'Hallo', farewell: 'Tschüss' },
          en: { greeting: 'Hello', farewell: 'Goodbye' },
        });
      },
    },
  ],
  'css-minimizer-webpack-plugin': [
    {
      what: 'minimizes the extracted CSS, keeps /*! comments and still minimizes JavaScript',
      check(b) {
        const css = b.text('main.css');
        expect(css).toContain('.page{color:red;margin:0}');
        expect(css).not.toContain('Page layout');
        expect(css).toContain('/*! tiny-reset');
        expect(css).not.toMatch(/\n\s/);
        expect(b.text('main.js')).not.toContain('\n  ');
      },
    },
    {
      what: 'removes /*! comments too',
      check(b) {
        const css = b.text('main.css');
        expect(css).toContain('.page{color:red;margin:0}');
        expect(css).not.toContain('tiny-reset');
      },
    },
    {
      what: 'minimizes with clean-css',
      check(b) {
        const css = b.text('main.css');
        expect(css).not.toContain('Page layout');
        expect(css).toMatch(/\.page\{color:red;margin:0\}/);
      },
    },
  ],
  'eslint-webpack-plugin': [
    {
      what: 'reports the unused variable as a warning and still writes the bundle',
      check(b) {
        expect(b.errors).toEqual([]);
        const warning = b.warnings.join('\n');
        expect(warning).toContain("'greeting' is assigned a value but never used");
        expect(warning).toContain('no-unused-vars');
        expect(b.has('main.js')).toBe(true);
        const shownLines = section('plugins/eslint-webpack-plugin', 'Usage');
        const positions = warning.split('\n').filter((l) => /^\s+\d+:\d+/.test(l));
        expect(positions).toHaveLength(1);
        expect(shownLines).toContain(positions[0]!.trim());
        expect(warning).toContain(`${b.dir}/src/index.js`);
      },
    },
    {
      what: 'fails on the warning and still writes the JSON report',
      expectErrors: true,
      check(b) {
        expect(String(b.fatal)).toContain('[eslint]');
        expect(String(b.fatal)).toContain('no-unused-vars');
        expect(b.has('main.js')).toBe(false);
        const report = JSON.parse(b.text('reports/eslint.json')) as Array<{ messages: Array<{ ruleId: string }> }>;
        expect(report.flatMap((r) => r.messages.map((m) => m.ruleId))).toEqual(['no-unused-vars']);
      },
    },
  ],
  'html-minimizer-webpack-plugin': [
    {
      what: 'writes the copied page exactly as the page shows',
      check(b) {
        expect(b.text('about.html').trim()).toBe(shown('plugins/html-minimizer-webpack-plugin', 'dist/about.html').trim());
      },
    },
    {
      what: 'minimizes the generated page aggressively',
      check(b) {
        const html = b.text('index.html');
        expect(html.startsWith('<!DOCTYPE html><html lang=en><title>About us</title>')).toBe(true);
        expect(html).toContain('<p class=intro>We build things.');
        expect(html).not.toContain('<!--');
        expect(html).toMatch(/<script defer(=defer)? src=main\.js><\/script>/);
      },
    },
  ],
  'html-webpack-plugin': [
    {
      what: 'generates index.html with the title and a deferred script in the head',
      check(b) {
        const html = b.text('index.html');
        expect(html).toContain('<title>Dashboard</title>');
        const head = html.slice(0, html.indexOf('</head>'));
        expect(head).toMatch(/<script defer(=defer)? src="?main\.js"?><\/script>/);
      },
    },
    {
      what: 'fills in the template with the hashed script name and the extra parameter',
      check(b) {
        const script = only(b, /^main\.[0-9a-f]+\.js$/);
        const html = b.text('index.html');
        expect(html).toContain('<title>Dashboard</title>');
        expect(html).toMatch(/data-build="?2025-01-31"?/);
        expect(html).toMatch(/<meta name="?description"? content="Team dashboard">/);
        expect(html).toContain(`src=${script}`);
        expect(html).not.toContain('<%');
      },
    },
    {
      what: 'writes one page per instance, each loading only its own entry',
      check(b) {
        const index = b.text('index.html');
        const admin = b.text('admin/index.html');
        expect(index).toContain('<title>Shop</title>');
        expect(index).toMatch(/src="?app\.js"?/);
        expect(index).not.toContain('admin.js');
        expect(admin).toContain('<title>Shop administration</title>');
        expect(admin).toMatch(/src="?\.\.\/admin\.js"?/);
        expect(admin).not.toContain('app.js');
      },
    },
  ],
  'image-minimizer-webpack-plugin': [
    {
      what: 'emits the imported SVG optimized by svgo',
      check(b) {
        const file = only(b, /\.svg$/);
        const svg = b.text(file);
        const original = readFileSync(join(FIXTURES, 'image-minimizer-webpack-plugin/src/logo.svg'), 'utf8');
        expect(svg.length).toBeLessThan(original.length / 2);
        expect(svg).not.toContain('<!--');
        expect(svg).not.toContain('<?xml');
        expect(svg).not.toContain('metadata');
        expect(svg).toContain('<path');
        expect(b.text('main.js')).toContain(file);
      },
    },
    {
      what: 'removes width and height but keeps the viewBox',
      check(b) {
        const svg = b.text(only(b, /\.svg$/));
        expect(svg).toContain('viewBox="0 0 64 64"');
        expect(svg).not.toMatch(/\swidth=|\sheight=/);
      },
    },
    {
      what: 'optimizes an SVG copied from public/',
      fixture: 'image-minimizer-webpack-plugin-copy',
      check(b) {
        const svg = b.text('icons/menu.svg');
        expect(svg).not.toContain('<!--');
        expect(svg).not.toContain('layer-1');
        const original = readFileSync(join(FIXTURES, 'image-minimizer-webpack-plugin-copy/public/icons/menu.svg'), 'utf8');
        expect(svg.length).toBeLessThan(original.length / 2);
      },
    },
  ],
  'json-minimizer-webpack-plugin': [
    {
      what: 'writes the copied JSON on one line, exactly as the page shows',
      check(b) {
        expect(b.text('data/countries.json')).toBe(shown('plugins/json-minimizer-webpack-plugin', 'dist/data/countries.json').trim());
      },
    },
    {
      what: 'drops the comment key',
      check(b) {
        expect(b.text('data/countries.json')).toBe('{"countries":[{"code":"DE","name":"Germany"},{"code":"FR","name":"France"}]}');
        expect(section('plugins/json-minimizer-webpack-plugin', 'Examples')).toContain(b.text('data/countries.json'));
      },
    },
  ],
  'mini-css-extract-plugin': [
    {
      what: 'extracts main.css and a stylesheet for the lazy chunk; the CSS is not in main.js',
      check(b) {
        expect(b.text('main.css')).toContain('font-family: system-ui');
        expect(b.text('main.js')).not.toContain('system-ui');
        const chunkCss = b.files().filter((f) => f.endsWith('.css') && f !== 'main.css');
        expect(chunkCss).toHaveLength(1);
        expect(b.text(chunkCss[0]!)).toContain('.chart');
      },
    },
    {
      what: 'hashes both stylesheets and loads the chunk stylesheet at run time',
      check(b) {
        const mainCss = only(b, /^main\.[0-9a-f]+\.css$/);
        const chunkCss = only(b, /^(?!main)[^/]+\.[0-9a-f]+\.css$/);
        expect(b.text(mainCss)).toContain('system-ui');
        expect(b.text(chunkCss)).toContain('.chart');
        const mainJs = b.text(only(b, /^main\.[0-9a-f]+\.js$/));
        expect(mainJs).toContain(chunkCss.split('.')[1]!);
        expect(mainJs).toContain('stylesheet');
      },
    },
    {
      what: 'links main.css from the generated page',
      check(b) {
        const html = b.text('index.html');
        const head = html.slice(0, html.indexOf('</head>'));
        expect(head).toMatch(/<link href="?main\.css"? rel="?stylesheet"?>/);
        expect(head).toMatch(/src="?main\.js"?/);
      },
    },
  ],
  'stylelint-webpack-plugin': [
    {
      what: 'reports the duplicate as a warning and the invalid colour as an error, as shown',
      expectErrors: true,
      check(b) {
        expect(b.warnings.join('\n')).toContain('declaration-block-no-duplicate-properties');
        expect(b.errors.join('\n')).toContain('color-no-invalid-hex');
        expect(b.has('main.js')).toBe(true);
        const output = section('plugins/stylelint-webpack-plugin', 'Usage');
        // Stylelint colours its report when it thinks a terminal or CI wants colours; the page shows plain text.
        const plain = [...b.warnings, ...b.errors].join('\n').replace(/\u001b\[[0-9;]*m/g, '');
        for (const line of plain.split('\n').filter((l) => /\d+:\d+/.test(l))) {
          expect(output).toContain(line.trim());
        }
      },
    },
    {
      what: 'fails on both problems and writes a JSON report',
      expectErrors: true,
      check(b) {
        const errors = b.errors.join('\n');
        expect(errors).toContain('declaration-block-no-duplicate-properties');
        expect(errors).toContain('color-no-invalid-hex');
        expect(b.warnings).toEqual([]);
        const report = JSON.parse(b.text('reports/stylelint.json')) as Array<{ warnings: Array<{ rule: string }> }>;
        expect(report.flatMap((r) => r.warnings.map((w) => w.rule)).sort()).toEqual([
          'color-no-invalid-hex',
          'declaration-block-no-duplicate-properties',
        ]);
      },
    },
  ],
  'terser-webpack-plugin': [
    {
      what: 'minimizes main.js as shown and moves the licence comment to main.js.LICENSE.txt',
      check(b) {
        expect(b.files()).toEqual(['main.js', 'main.js.LICENSE.txt']);
        expect(b.text('main.js').trim()).toBe(shown('plugins/terser-webpack-plugin', 'dist/main.js').trim());
        expect(b.text('main.js.LICENSE.txt')).toContain('/*! greeting-lib v1.0.0 | MIT licence */');
      },
    },
    {
      what: 'removes console calls and keeps the licence inline',
      check(b) {
        expect(b.files()).toEqual(['main.js']);
        const js = b.text('main.js');
        expect(js).not.toContain('console');
        expect(js).toBe('/*! greeting-lib v1.0.0 | MIT licence */\ndocument.title="Hello, world";');
        expect(section('plugins/terser-webpack-plugin', 'Examples')).toContain('`document.title="Hello, world";`');
      },
    },
    {
      what: 'minimizes with esbuild and moves the licence comment to the end',
      check(b) {
        expect(b.files()).toEqual(['main.js']);
        const js = b.text('main.js').trim();
        expect(js).not.toContain('message');
        expect(js).toContain('console.log');
        expect(js.endsWith('*/')).toBe(true);
        expect(js).toContain('greeting-lib');
        expect(js.indexOf('greeting-lib')).toBeGreaterThan(js.indexOf('console.log'));
      },
    },
  ],
};

/* ------------------------------------------------------------------------ */
/* Tests                                                                    */
/* ------------------------------------------------------------------------ */

describe.each(PACKAGES)('%s', (name) => {
  const id = `plugins/${name}`;

  it('has a title, a description, no group and the package repository', () => {
    const { frontmatter } = readPage(id);
    expect(frontmatter.title).toMatch(/Plugin$/);
    expect((frontmatter.description ?? '').length).toBeGreaterThan(60);
    expect(frontmatter.group ?? '-').toBe('-');
    expect(frontmatter.repo).toBe(repositoryOf(name));
    expect(readFileSync(join(ROOT, 'content', `${id}.md`), 'utf8')).not.toMatch(/^contributors:/m);
  });

  it('uses the shared h2 headings in order and ends with Related', async () => {
    const h2 = (await headingsOf(id)).filter((h) => h.depth === 2).map((h) => h.text);
    expect(h2.slice(0, 2)).toEqual(['Install', 'Usage']);
    expect(h2.at(-1)).toBe('Related');
    const positions = h2.map((t) => H2_ORDER.indexOf(t));
    expect(positions.every((p) => p >= 0), `unexpected h2 in ${h2.join(', ')}`).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(h2).toContain('Options');
    expect(h2).toContain('Examples');
    expect(h2.includes('Loader options')).toBe(OPTION_SOURCES[name].loaderOptions !== undefined);
  });

  it('documents every option of the plugin, with type and default', async () => {
    expect(await h3Under(id, 'Options')).toEqual(OPTION_SOURCES[name].options());
    for (const [option, text] of subsections(section(id, 'Options'))) {
      expect(text, `${option}: type`).toMatch(/^- Type: /m);
      expect(text, `${option}: default`).toMatch(/^- Default: /m);
      expect(text.replace(/^- (Type|Default): .*$/gm, '').trim().length, `${option}: explanation`).toBeGreaterThan(40);
    }
  });

  const loaderOptions = OPTION_SOURCES[name].loaderOptions;
  if (loaderOptions) it('documents every option of its loader', async () => {
    const expected = loaderOptions();
    const h3 = await h3Under(id, 'Loader options');
    if (h3.length > 0) {
      expect(h3).toEqual(expected);
    } else {
      const rows = [...section(id, 'Loader options').matchAll(/^\| `(\w+)` \|/gm)].map((m) => m[1]!).sort();
      expect(rows).toEqual(expected);
    }
  });

  it('shows install commands for npm, yarn and pnpm', () => {
    const install = section(id, 'Install');
    expect(install).toMatch(new RegExp(`npm install --save-dev ${name}\\b`));
    expect(install).toMatch(new RegExp(`yarn add --dev ${name}\\b`));
    expect(install).toMatch(new RegExp(`pnpm add --save-dev ${name}\\b`));
  });

  it('links onward from Related', () => {
    const links = [...section(id, 'Related').matchAll(/\]\((\/[^)]*)\)/g)];
    expect(links.length).toBeGreaterThanOrEqual(3);
  });

  it('shows the same files as the fixture the examples are built from', () => {
    for (const block of readPage(id).blocks) {
      if (!block.title || block.title === 'webpack.config.js' || block.title.startsWith('dist/')) continue;
      const file = join(FIXTURES, name, block.title);
      expect(existsSync(file), `${id}:${block.line}: fixture for ${block.title}`).toBe(true);
      expect(readFileSync(file, 'utf8').trim(), `${id}:${block.line}: ${block.title}`).toBe(block.code.trim());
    }
  });

  const blocks = configBlocks(id);
  const examples = EXAMPLES[name];

  it('has one checked example per webpack.config.js block', () => {
    expect(blocks.length).toBeGreaterThan(0);
    expect(examples.map((e) => e.what)).toHaveLength(blocks.length);
  });

  blocks.forEach((block, i) => {
    const example = examples[i];
    if (!example) return;
    it(`example at line ${block.line}: ${example.what}`, async () => {
      const build = await buildExample(example.fixture ?? name, block, example.expectErrors ?? false);
      try {
        await example.check(build);
      } finally {
        removeDir(build.dir);
      }
    });
  });
});

describe('css-minimizer-webpack-plugin', () => {
  it('parallel: the page names which built-in minify functions run in worker threads and which in child processes', async () => {
    const { default: plugin } = (await import('css-minimizer-webpack-plugin')) as unknown as {
      default: Record<string, unknown> & { isSupportsWorkerThreads(implementation: unknown): boolean };
    };
    const minifiers = Object.keys(plugin).filter((k) => k.endsWith('Minify')).sort();
    expect(minifiers.length).toBe(7);
    const threads = minifiers.filter((k) => plugin.isSupportsWorkerThreads(plugin[k]));
    const processes = minifiers.filter((k) => !threads.includes(k));
    const text = subsections(section('plugins/css-minimizer-webpack-plugin', 'Options')).get('parallel')!;
    const list = (names: string[]) => names.map((n) => `\`${n}\``).join(', ').replace(/, ([^,]+)$/, ' and $1');
    expect(text).toContain(`${list(threads)} run in worker threads`);
    expect(text).toContain(`${list(processes)} run in child processes`);
    expect(threads).toEqual(['cleanCssMinify', 'cssnanoMinify', 'cssoMinify']);
    // a function of its own, without supportsWorkerThreads, runs in threads
    expect(plugin.isSupportsWorkerThreads(() => undefined)).toBe(true);
  });
});

describe('compression-webpack-plugin', () => {
  it('fails as the page warns when a compressed file keeps a .js extension', async () => {
    const example = configBlocks('plugins/compression-webpack-plugin').at(-1)!;
    const renamed = {
      ...example,
      code: example.code.replace('deleteOriginalAssets: true,', "filename: '[path][name].gz[ext]',\n      deleteOriginalAssets: true,"),
    };
    expect(renamed.code).toContain('[path][name].gz[ext]');
    const build = await buildExample('compression-webpack-plugin', renamed, true);
    try {
      expect(build.errors.join('\n')).toContain('Unexpected character');
      expect(readPage('plugins/compression-webpack-plugin').body).toContain('`Unexpected character`');
    } finally {
      removeDir(build.dir);
    }
  });
});

describe('html-webpack-plugin', () => {
  it('produces the development output the page shows', async () => {
    const usage = configBlocks('plugins/html-webpack-plugin')[0]!;
    const development = { ...usage, code: usage.code.replace("mode: 'production'", "mode: 'development'") };
    expect(development.code).not.toBe(usage.code);
    const build = await buildExample('html-webpack-plugin', development, false);
    try {
      expect(build.text('index.html').trim()).toBe(shown('plugins/html-webpack-plugin', 'dist/index.html').trim());
    } finally {
      removeDir(build.dir);
    }
  });

  it('meta: the viewport entry comes whenever no template is set, also with an automatically found src/index.ejs', async () => {
    const usage = configBlocks('plugins/html-webpack-plugin')[0]!;
    const development = { ...usage, code: usage.code.replace("mode: 'production'", "mode: 'development'") };
    const ejs = { 'src/index.ejs': '<!DOCTYPE html>\n<html><head><title>From the ejs file</title></head><body></body></html>\n' };
    const viewport = '<meta name="viewport" content="width=device-width, initial-scale=1">';
    const cases: [string, CodeBlock, boolean][] = [
      ['found src/index.ejs', development, true],
      ['template set', { ...development, code: development.code.replace("title: 'Dashboard'", "template: './src/index.ejs'") }, false],
      ['meta.viewport false', { ...development, code: development.code.replace("title: 'Dashboard'", "meta: { viewport: false }") }, false],
    ];
    for (const [what, block, expected] of cases) {
      expect(block.code === development.code, what).toBe(what === 'found src/index.ejs');
      const build = await buildExample('html-webpack-plugin', block, false, ejs);
      try {
        const html = build.text('index.html');
        expect(html, what).toContain('<title>From the ejs file</title>');
        expect(html.includes(viewport), what).toBe(expected);
      } finally {
        removeDir(build.dir);
      }
    }
    const meta = subsections(section('plugins/html-webpack-plugin', 'Options')).get('meta')!;
    expect(meta).toContain('when you set neither `template` nor `templateContent`, which includes the case where the plugin picks up your `src/index.ejs`');
  });
});
