import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import vm from 'node:vm';
import type { Configuration, Stats, StatsCompilation, StatsModule } from 'webpack';
import { afterAll, describe, expect, it } from 'vitest';
import { listFiles, pagesIn, readPage, removeDir, scratchDir, writeFiles, type CodeBlock, type PageSource } from '../helpers/content.js';
import { compile, evaluateConfig, validate, webpack } from '../helpers/webpack.js';

/*
 * Tests for the home page, the home-level pages, the stand-alone pages and the
 * contribute section. Every example is read from the pages themselves, so the
 * code a reader sees is the code that runs here.
 */

const PAGES = [
  'index',
  'comparison',
  'branding',
  'glossary',
  'license',
  'vote',
  'organization',
  'starter-kits',
  'development',
  ...pagesIn('contribute'),
];

/**
 * The repository's package.json says "type": "module". A scratch project gets its own package.json
 * without "type", like a reader's project, so Node.js loads the examples as CommonJS and webpack
 * treats .js files as automatically detected modules.
 */
const COMMONJS = { 'package.json': JSON.stringify({ private: true }) };

/** The folder of the installed webpack package. */
const WEBPACK_DIR = dirname(createRequire(import.meta.url).resolve('webpack/package.json'));

const scratch: string[] = [];
afterAll(() => scratch.forEach(removeDir));

/** The code of a block as the reader ends up with it: diff blocks keep added and unchanged lines. */
function finalCode(block: CodeBlock): string {
  if (!/(^|\s)diff(\s|$)/.test(block.meta)) return block.code;
  return block.code
    .split('\n')
    .filter((line) => !line.startsWith('-'))
    .map((line) => (line.startsWith('+ ') ? line.slice(2) : line.startsWith('+') || line.startsWith(' ') ? line.slice(1) : line))
    .join('\n');
}

/** The one block with this title (fails when there is none or more than one). */
function block(page: PageSource, title: string): CodeBlock {
  const found = page.blocks.filter((b) => b.title === title);
  expect(found, `${page.file}: blocks titled ${title}`).toHaveLength(1);
  return found[0]!;
}

/** The files with these titles, as the page shows them, by path. */
function pageFiles(page: PageSource, ...titles: string[]): Record<string, string> {
  const files: Record<string, string> = {};
  for (const title of titles) files[title] = finalCode(block(page, title));
  return files;
}

/** Runs an emitted script with a console that records what it logs. */
function run(code: string, globals: Record<string, unknown> = {}): string[] {
  const logs: string[] = [];
  vm.runInNewContext(code, { console: { log: (...args: unknown[]) => logs.push(args.map(String).join(' ')) }, ...globals });
  return logs;
}

/** All modules of a stats object, including the ones concatenated into others. */
function allModules(json: StatsCompilation): StatsModule[] {
  return (json.modules ?? []).flatMap((m) => [m, ...(m.modules ?? [])]);
}

describe('webpack.config.js examples on the home and contribute pages', () => {
  const configs = PAGES.flatMap((id) => {
    const page = readPage(id);
    return page.blocks.filter((b) => b.title === 'webpack.config.js').map((b) => ({ page, block: b }));
  });

  it('finds the configuration examples', () => {
    expect(configs.length).toBeGreaterThanOrEqual(10);
  });

  it.each(configs.map((c) => [`${c.page.file}:${c.block.line}`, c] as const))('%s is a valid configuration', (_name, { page, block: config }) => {
    const dir = scratchDir('hc-config');
    scratch.push(dir);
    // The other files the page shows (plugins, loaders) must exist for require() to find them.
    const files: Record<string, string> = { ...COMMONJS };
    for (const b of page.blocks) {
      if (b.title && b.title !== 'webpack.config.js' && /^[\w.-]+(\/[\w.-]+)*$/.test(b.title)) files[b.title] = finalCode(b);
    }
    writeFiles(dir, files);
    let exported = evaluateConfig(finalCode(config), dir);
    if (typeof exported === 'function') exported = (exported as (env: unknown, argv: unknown) => unknown)({}, { mode: 'production' });
    expect(exported).toBeTypeOf('object');
    expect(() => validate(exported)).not.toThrow();
  });
});

describe('home page: the first bundle', () => {
  const page = readPage('index');

  it('compiles the example and emits the dist/main.js the page shows', async () => {
    const files = { ...COMMONJS, ...pageFiles(page, 'src/greet.js', 'src/index.js') };
    const config = block(page, 'webpack.config.js').code;
    const result = await compile('hc-home', files, (dir) => evaluateConfig(config, dir) as Configuration);
    try {
      expect(Object.keys(result.outputs)).toEqual(['main.js']);
      const main = result.outputs['main.js']!;
      expect(main.trim()).toBe(block(page, 'dist/main.js').code.trim());
      expect(main).toContain('Hello, webpack!');
      expect(main).not.toContain('Goodbye');

      const body: { children: Array<{ textContent: string }>; append(el: { textContent: string }): void } = {
        children: [],
        append(el) {
          this.children.push(el);
        },
      };
      const document = { body, createElement: () => ({ textContent: '' }) };
      run(main, { document });
      expect(body.children.map((c) => c.textContent)).toEqual(['Hello, webpack!']);
    } finally {
      result.cleanup();
    }
  });

  it('fails as the page says when npm init left "type": "commonjs" in package.json', async () => {
    // npm 11's `npm init -y` writes this line; the page tells the reader to delete it.
    expect(page.body).toContain('`npm pkg delete type`');
    const quoted = "'import' and 'export' may appear only with 'sourceType: module'";
    expect(page.body).toContain(quoted);
    expect(page.body).toContain("File was parsed as module type 'javascript/dynamic'");
    const files = {
      'package.json': JSON.stringify({ name: 'first-bundle', version: '1.0.0', type: 'commonjs' }),
      ...pageFiles(page, 'src/greet.js', 'src/index.js'),
    };
    const dir = scratchDir('hc-home-commonjs');
    scratch.push(dir);
    writeFiles(dir, files);
    const config = evaluateConfig(block(page, 'webpack.config.js').code, dir) as Configuration;
    const stats = await new Promise<Stats>((resolve, reject) =>
      webpack({ ...config, context: dir, infrastructureLogging: { level: 'error' } }, (err, result) =>
        err ? reject(err) : resolve(result!),
      ),
    );
    const errors = (stats.toJson({ all: false, errors: true }).errors ?? []).map((e) => e.message);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain(quoted);
    expect(errors[0]).toContain("File was parsed as module type 'javascript/dynamic'");
  });

  it('shows the output of the installed webpack version', () => {
    const session = page.blocks.find((b) => b.lang === 'shellsession');
    expect(session?.code).toContain('$ npx webpack');
    expect(session?.code).toContain('asset main.js');
    expect(session?.code).toContain(`webpack ${webpack.version} compiled successfully`);
  });
});

describe('writing a loader', () => {
  const page = readPage('contribute/writing-a-loader');
  const configs = page.blocks.filter((b) => b.title === 'webpack.config.js');
  const csvConfig = configs.find((b) => b.code.includes('csv-loader.js'))!;

  it('runs the CSV loader in a real compile and emits the module the page shows', async () => {
    expect(csvConfig).toBeDefined();
    const files = {
      ...COMMONJS,
      ...pageFiles(page, 'loaders/csv-loader.js', 'src/prices.csv', 'src/index.js', 'test/csv-loader.test.js'),
      'webpack.config.js': csvConfig.code,
    };
    const result = await compile('hc-loader', files, (dir) => evaluateConfig(csvConfig.code, dir) as Configuration);
    try {
      const json = result.stats.toJson({ modules: true, source: true, warnings: true });
      const csv = allModules(json).find((m) => m.name?.endsWith('prices.csv'));
      const shown = page.blocks.find((b) => b.lang === 'js' && !b.title && b.code.startsWith('export default ['));
      expect(shown).toBeDefined();
      expect(String(csv?.source).trim()).toBe(shown!.code.trim());

      // The warning the page prints.
      const warnings = json.warnings ?? [];
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.message).toContain('row 4 has 2 fields, expected 3; it was skipped');
      expect(page.body).toContain('row 4 has 2 fields, expected 3; it was skipped');

      // The bundle works.
      expect(run(result.outputs['main.js']!)).toEqual(['Tea: 3.50 EUR', 'Coffee: 4.20 EUR']);

      // The test script on the page passes against the same project.
      const out = execFileSync(process.execPath, ['test/csv-loader.test.js'], { cwd: result.dir, encoding: 'utf8' });
      expect(out).toContain('csv-loader: all checks passed');
    } finally {
      result.cleanup();
    }
  });

  it('rejects invalid options with the message the page quotes', async () => {
    const files = { ...COMMONJS, ...pageFiles(page, 'loaders/csv-loader.js', 'src/prices.csv', 'src/index.js') };
    const broken = csvConfig.code.replace("delimiter: ';'", "delimiter: ';;'");
    expect(broken).not.toBe(csvConfig.code);
    const quoted = 'options.delimiter should be shorter than 2 characters';
    expect(page.body).toContain(quoted);
    // compile() leaves its scratch folder behind when it rejects, so this build runs in a folder of our own.
    const dir = scratchDir('hc-loader-invalid');
    scratch.push(dir);
    writeFiles(dir, files);
    const options: Configuration = { ...(evaluateConfig(broken, dir) as Configuration), context: dir, infrastructureLogging: { level: 'error' } };
    const stats = await new Promise<Stats>((resolve, reject) =>
      webpack(options, (err, result) => (err ? reject(err) : resolve(result!))),
    );
    const errors = (stats.toJson({ all: false, errors: true }).errors ?? []).map((e) => e.message);
    expect(errors).toHaveLength(1);
    const headline = 'Invalid options object. CSV Loader has been initialized using an options object that does not match the API schema';
    expect(page.body).toContain(headline);
    expect(errors[0]).toContain(headline);
    expect(errors[0]).toContain(quoted);
  });

  it('runs the async, raw and pitching loaders', async () => {
    // The rule the page shows for the lazy loader, evaluated as it stands on the page.
    const ruleBlock = page.blocks.find((b) => b.lang === 'js' && !b.title && b.code.includes('lazy-loader.js'));
    expect(ruleBlock).toBeDefined();
    const csvRule = new Function(`return (${ruleBlock!.code});`)() as NonNullable<NonNullable<Configuration['module']>['rules']>[number];
    const files = {
      ...COMMONJS,
      ...pageFiles(
        page,
        'loaders/sql-loader.js',
        'loaders/byte-size-loader.js',
        'loaders/lazy-loader.js',
        'loaders/csv-loader.js',
        'src/queries/user-columns.sql',
        'src/queries/active-users.sql',
      ),
      'src/pixel.png': '\u0000\u0001\u0002\u0003\u0004',
      'src/prices.csv': 'name,price\nTea,3.50\nCoffee,4.20\n',
      'src/index.js': [
        "import activeUsers from './queries/active-users.sql';",
        "import size from './pixel.png';",
        "import loadPrices from './prices.csv?lazy';",
        'console.log(activeUsers);',
        'console.log(size, typeof loadPrices);',
      ].join('\n'),
    };
    const result = await compile('hc-loader-extras', files, (dir) => ({
      mode: 'development',
      devtool: false,
      entry: './src/index.js',
      // A fixed public path, so that the bundle runs without a document to find its script in.
      output: { publicPath: '' },
      module: {
        rules: [
          { test: /\.png$/, type: 'javascript/auto', use: join(dir, 'loaders/byte-size-loader.js') },
          { test: /\.sql$/, use: join(dir, 'loaders/sql-loader.js') },
          csvRule,
        ],
      },
    }));
    try {
      const main = result.outputs['main.js']!;
      // The include line is replaced by the fragment, and the fragment is a dependency of the query.
      const [query, sizes] = run(main, { self: {} });
      expect(query).toBe('SELECT\nid, name, email\nFROM users\nWHERE active = 1;');
      expect(sizes).toBe('5 function');
      const deps = result.stats.compilation.fileDependencies;
      expect(deps.has(join(result.dir, 'src/queries/user-columns.sql'))).toBe(true);
      // The pitch moved the CSV data into a chunk of its own that loads on demand.
      expect(main).not.toContain('Coffee');
      const chunks = result.stats.toJson({ all: false, chunks: true, chunkModules: true }).chunks ?? [];
      const csvChunk = chunks.find((c) => (c.modules ?? []).some((m) => m.name?.includes('csv-loader.js!./src/prices.csv')));
      expect(csvChunk?.initial).toBe(false);
      const csvFile = csvChunk!.files![0]!;
      expect(result.outputs[csvFile]).toContain('Coffee');
    } finally {
      result.cleanup();
    }
  });
});

describe('writing a plugin', () => {
  const page = readPage('contribute/writing-a-plugin');

  it('the output guard fails the build on the leftover URL, not on the removed console.log', async () => {
    const config = block(page, 'webpack.config.js').code;
    const files = { ...COMMONJS, ...pageFiles(page, 'plugins/output-guard-plugin.js', 'src/index.js', 'src/api.js') };
    // compile() rejects on errors, so this build runs in a folder of our own.
    const dir = scratchDir('hc-plugin-guard');
    scratch.push(dir);
    writeFiles(dir, files);
    const build = async () => {
      const options: Configuration = { ...(evaluateConfig(config, dir) as Configuration), context: dir, infrastructureLogging: { level: 'error' } };
      return new Promise<Stats>((resolve, reject) => webpack(options, (err, result) => (err ? reject(err) : resolve(result!))));
    };

    const failed = await build();
    const json = failed.toJson({ all: false, errors: true });
    const errors = json.errors ?? [];
    expect(errors.map((e) => e.message)).toEqual(['OutputGuardPlugin: found "localhost" in the output']);
    expect(errors[0]!.file).toMatch(/^main\.[0-9a-f]{8}\.js$/);
    // The source map still holds the console.log call that the minimizer removed from the bundle.
    const assets = failed.compilation.getAssets();
    const map = assets.find((a) => a.name.endsWith('.js.map'));
    expect(map?.info.development).toBe(true);
    expect(map?.source.source().toString()).toContain('console.log');
    const bundle = assets.find((a) => /^main\.[0-9a-f]{8}\.js$/.test(a.name));
    expect(bundle?.source.source().toString()).not.toContain('console.log');
    // Nothing was written while the error stands.
    expect(existsSync(join(dir, 'dist'))).toBe(false);

    // The error as the page prints it, with the file name's hash left open.
    const printed = failed.toString({ all: false, errors: true }).replace(/\u001b\[[0-9;]*m/g, '');
    const shown = page.blocks.find((b) => b.lang === 'text' && b.code.includes('OutputGuardPlugin'));
    const pattern = (text: string) => text.trim().replace(/main\.[0-9a-f]{8}\.js/, 'main.HASH.js');
    expect(pattern(printed)).toContain(pattern(shown!.code));

    // With the URL replaced as the page suggests, the build succeeds and writes the bundle and its map.
    writeFiles(dir, { 'src/api.js': readFileSync(join(dir, 'src/api.js'), 'utf8').replace("'http://localhost:3000'", "'/api'") });
    const fixed = await build();
    expect(fixed.hasErrors()).toBe(false);
    expect(listFiles(join(dir, 'dist')).sort()).toEqual(
      expect.arrayContaining([expect.stringMatching(/^main\.[0-9a-f]{8}\.js$/), expect.stringMatching(/^main\.[0-9a-f]{8}\.js\.map$/)]),
    );
  });

  it('lists the processAssets stages with webpack’s own values', () => {
    const rows = [...page.body.matchAll(/^\| `(PROCESS_ASSETS_STAGE_[A-Z_]+)` \| (-?\d+) \|/gm)];
    const Compilation = webpack.Compilation as unknown as Record<string, number>;
    const actual = Object.keys(Compilation).filter((k) => k.startsWith('PROCESS_ASSETS_STAGE_'));
    expect(rows.map((r) => r[1]).sort()).toEqual(actual.sort());
    for (const [, name, value] of rows) expect(Compilation[name!]).toBe(Number(value));
  });
});

describe('plugin patterns', () => {
  const page = readPage('contribute/plugin-patterns');

  it('each pattern plugin has its effect in a real build', async () => {
    const config = block(page, 'webpack.config.js').code;
    const files = {
      ...COMMONJS,
      ...pageFiles(
        page,
        'plugins/forbidden-modules-plugin.js',
        'plugins/module-locator-plugin.js',
        'plugins/watch-extra-files-plugin.js',
        'plugins/written-files-plugin.js',
      ),
      'templates/page.html': '<p>page</p>\n',
      'src/legacy/format.js': 'export const formatDate = (d) => d.toISOString().slice(0, 10);\n',
      'src/chart.js': "export function draw() { return 'chart'; }\n",
      'src/index.js': [
        "import { formatDate } from './legacy/format.js';",
        '',
        'console.log(formatDate(new Date(0)));',
        "import('./chart.js').then(({ draw }) => draw());",
      ].join('\n'),
    };
    const dir = scratchDir('hc-patterns');
    scratch.push(dir);
    writeFiles(dir, files);
    const options = { ...(evaluateConfig(config, dir) as Configuration), context: dir, infrastructureLogging: { level: 'error' as const } };
    const compiler = webpack(options);
    const runOnce = () =>
      new Promise<Stats>((resolve, reject) => compiler.run((err, stats) => (err ? reject(err) : resolve(stats!))));
    try {
      const first = await runOnce();
      expect(first.hasErrors()).toBe(false);
      const json = first.toJson({ all: false, logging: 'info', warnings: true });
      const located = (json.logging?.['ModuleLocatorPlugin']?.entries ?? []).map((e) => e.message ?? '').sort();
      expect(located).toEqual([
        './src/chart.js is in src_chart_js (src_chart_js.js)',
        './src/index.js is in main (main.js)',
        './src/legacy/format.js is in main (main.js)',
      ]);

      expect(first.compilation.fileDependencies.has(join(dir, 'templates/page.html'))).toBe(true);

      const warnings = (json.warnings ?? []).map((w) => w.message);
      expect(warnings).toEqual(['ForbiddenModulesPlugin: this module must not be bundled any more']);
      expect(page.body).toContain('ForbiddenModulesPlugin: this module must not be bundled any more');

      const written = (stats: Stats) =>
        (stats.toJson({ all: false, logging: 'info' }).logging?.['WrittenFilesPlugin']?.entries ?? []).map((e) => e.message ?? '');
      expect(written(first)).toEqual(['written: main.js, src_chart_js.js']);

      // An edit to the lazily loaded module rewrites its chunk's file only.
      writeFiles(dir, { 'src/chart.js': "export function draw() { return 'bar chart'; }\n" });
      expect(written(await runOnce())).toEqual(['written: src_chart_js.js']);
      // Saving a file without changing it writes nothing.
      writeFiles(dir, { 'src/chart.js': "export function draw() { return 'bar chart'; }\n" });
      expect(written(await runOnce())).toEqual(['nothing written']);
      // A new compiler over the same, unchanged output folder writes nothing either.
      const fresh = webpack(options);
      const freshStats = await new Promise<Stats>((resolve, reject) => fresh.run((err, stats) => (err ? reject(err) : resolve(stats!))));
      await new Promise<void>((resolve) => fresh.close(() => resolve()));
      expect(written(freshStats)).toEqual(['nothing written']);
    } finally {
      await new Promise<void>((resolve) => compiler.close(() => resolve()));
    }
  });
});

describe('debugging page', () => {
  const page = readPage('contribute/debugging');

  it('lists exactly the stats presets webpack accepts', () => {
    const schema = JSON.parse(readFileSync(join(WEBPACK_DIR, 'schemas/WebpackOptions.json'), 'utf8')) as {
      definitions: { StatsValue: { anyOf: Array<{ enum?: unknown[] }> } };
    };
    const presets = schema.definitions.StatsValue.anyOf.flatMap((a) => a.enum ?? []).filter((v): v is string => typeof v === 'string');
    const listed = [...page.body.matchAll(/^\| `([a-z-]+)` \|/gm)].map((m) => m[1]);
    expect(listed).toEqual(presets);
  });
});

describe('organization page', () => {
  const body = readPage('organization').body;
  const readme = readFileSync(join(WEBPACK_DIR, 'README.md'), 'utf8');

  it('describes the governance bodies that webpack’s own README names', () => {
    // The installed README lists the TSC and says the repository is maintained by the Core Working Group.
    expect(readme).toContain('TSC (Technical Steering Committee)');
    expect(readme).toContain('Core Working Group');
    expect(body).toContain('Technical Steering Committee (TSC)');
    expect(body).toContain('Core Working Group');
    expect(body).toMatch(/voting members?/);
    expect(body).toContain('](https://github.com/webpack/governance)');
    expect(body).not.toMatch(/no separate membership or voting body/i);
  });

  it('claims nothing that webpack/governance does not contain', () => {
    // The governance repository holds AI_POLICY, CHARTER, MEMBER_EXPECTATIONS, MODERATION_POLICY, README and
    // WORKING_GROUPS: no funding policy, and no CPC representative elected by the project.
    expect(body).not.toMatch(/funding polic(y|ies) in the governance repository/i);
    expect(body).not.toMatch(/representative on the OpenJS Foundation/i);
    // README: "Each year, the TSC elects a chair to run the meetings."
    expect(body).toContain('Once a year the TSC chooses a chair to run its meetings.');
    // CHARTER §3: new voting members by meeting consensus with five members present; regular ↔ voting by a vote.
    expect(body).not.toMatch(/standard TSC motion adds voting members/);
    expect(body).toMatch(/at least five members attend/);
  });
});

describe('facts the home-level pages state', () => {
  const webpackPackage = JSON.parse(readFileSync(join(WEBPACK_DIR, 'package.json'), 'utf8')) as { scripts: Record<string, string> };

  it('development: the test:unit folder and the husky hook match webpack’s own scripts', () => {
    const body = readPage('development').body;
    const unit = webpackPackage.scripts['test:unit'];
    // The page names the folder the installed package's script matches.
    expect(unit).toContain('<rootDir>/test/unitCases/');
    expect(body).toMatch(/`yarn test:unit` \| [^|\n]*`test\/unitCases\/`/);
    // Husky is switched on by the prepare script, which yarn install runs, not by yarn setup.
    expect(webpackPackage.scripts['prepare']).toBe('husky');
    expect(webpackPackage.scripts['setup']).not.toContain('husky');
    expect(body).toMatch(/`prepare` script runs `husky`/);
  });

  it('branding: a capital W is allowed at the start of a sentence, and no naming rule is made up', () => {
    const body = readPage('branding').body;
    expect(body).toMatch(/capital W/);
    expect(body).not.toMatch(/written in lowercase, always/);
    expect(body).not.toMatch(/unless it is maintained by the webpack project/);
    // The example the page gives: webpack-merge starts with "webpack", lives outside the webpack organisations,
    // and webpack-cli depends on it.
    const cli = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('webpack-cli/package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(cli.dependencies)).toContain('webpack-merge');
    const merge = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('webpack-merge/package.json'), 'utf8')) as {
      repository: { url: string };
    };
    expect(merge.repository.url).not.toMatch(/github\.com\/webpack(-contrib)?\//);
    expect(body).toContain('`webpack-merge`');
  });

  it('comparison: html-webpack-plugin is named as maintained outside the webpack organisations', () => {
    const body = readPage('comparison').body;
    const plugin = JSON.parse(readFileSync(createRequire(import.meta.url).resolve('html-webpack-plugin/package.json'), 'utf8')) as {
      repository: string;
      peerDependenciesMeta: Record<string, { optional?: boolean }>;
    };
    expect(plugin.repository).toContain('jantimon/html-webpack-plugin');
    expect(plugin.peerDependenciesMeta['@rspack/core']?.optional).toBe(true);
    expect(body).toMatch(/html-webpack-plugin 5, which its author maintains outside the webpack organisations/);
    expect(body).not.toMatch(/for example css-loader 7 and html-webpack-plugin 5/);
  });

  it('glossary: a chunk split off an entry by SplitChunksPlugin is initial, an import() chunk is not', async () => {
    const body = readPage('glossary').body;
    expect(body).toMatch(/stay initial when they were split off initial chunks/);
    const files = {
      ...COMMONJS,
      'node_modules/tiny-lib/package.json': JSON.stringify({ name: 'tiny-lib', main: 'index.js' }),
      'node_modules/tiny-lib/index.js': 'module.exports = (s) => s.toUpperCase();\n',
      'src/lazy.js': 'export const later = 1;\n',
      'src/index.js': "import up from 'tiny-lib';\nconsole.log(up('a'));\nimport('./lazy.js');\n",
    };
    const result = await compile('hc-glossary-chunks', files, () => ({
      mode: 'production',
      entry: './src/index.js',
      optimization: { splitChunks: { chunks: 'all', minSize: 0 } },
    }));
    try {
      const chunks = result.stats.toJson({ all: false, chunks: true, chunkModules: true }).chunks ?? [];
      const vendor = chunks.find((c) => (c.modules ?? []).some((m) => m.name?.includes('tiny-lib')));
      const lazy = chunks.find((c) => (c.modules ?? []).some((m) => m.name?.includes('lazy.js')));
      expect(vendor?.names).not.toContain('main');
      expect(vendor?.initial).toBe(true);
      expect(lazy?.initial).toBe(false);
    } finally {
      result.cleanup();
    }
  });

  it('no page gives 22.6 as the Node.js version for webpack’s built-in TypeScript support', () => {
    // webpack 5.113 strips types in its own parser; up to 5.112 "auto" looked for module.stripTypeScriptTypes
    // (Node.js 22.13 and 23.2), never for the --experimental-strip-types flag of 22.6.
    const defaults = readFileSync(join(WEBPACK_DIR, 'lib/config/defaults.js'), 'utf8');
    expect(defaults).not.toMatch(/stripTypeScriptTypes/);
    expect(readFileSync(join(WEBPACK_DIR, 'lib/javascript/JavascriptParser.js'), 'utf8')).toMatch(/blankTypeScript\(source, typeRanges\)/);
    const offenders: string[] = [];
    const contentDir = join(process.cwd(), 'content');
    const markdown = listFiles(contentDir).filter((f) => f.endsWith('.md'));
    expect(markdown.length).toBeGreaterThan(100);
    for (const file of markdown) {
      readFileSync(join(contentDir, file), 'utf8')
        .split('\n')
        .forEach((line, i) => {
          if (/22\.6 or later|from Node\.js 22\.6|Node\.js 22\.6\)|\(22\.6 and newer\)/.test(line)) offenders.push(`${file}:${i + 1}`);
        });
    }
    expect(offenders).toEqual([]);
  });
});

describe('page hygiene', () => {
  it.each(PAGES)('%s has a description, no placeholders and ends by linking onward', (id) => {
    const page = readPage(id);
    expect(page.frontmatter.description?.length ?? 0).toBeGreaterThan(40);
    expect(page.frontmatter.contributors).toEqual([]);
    expect(page.body).not.toMatch(/\b(TODO|TBD|lorem ipsum|coming soon)\b/i);
    const lastSection = page.body.slice(page.body.lastIndexOf('\n## '));
    expect(lastSection).toMatch(/\]\(\/[^)]*\)/);
  });

  it('the glossary has one h2 per letter, in order, and every term links somewhere', () => {
    const page = readPage('glossary');
    const letters = [...page.body.matchAll(/^## (.+)$/gm)].map((m) => m[1]!).filter((t) => t !== 'Next steps');
    expect(letters.every((l) => /^[A-Z]$/.test(l))).toBe(true);
    expect(letters).toEqual([...letters].sort());
    const terms = page.body.split(/^### /m).slice(1);
    expect(terms.length).toBeGreaterThan(40);
    for (const term of terms) expect(term, term.split('\n')[0]).toMatch(/\]\(\/[^)]+\)/);
  });

  it('the branding page states the brand colours', () => {
    const body = readPage('branding').body;
    for (const hex of ['#8DD6F9', '#1D78C1', '#2B3A42']) expect(body).toContain(hex);
  });

  it('the licence page matches webpack’s licence file', () => {
    const license = readFileSync(join(WEBPACK_DIR, 'LICENSE'), 'utf8');
    expect(license).toContain('Permission is hereby granted, free of charge');
    const body = readPage('license').body;
    expect(body).toContain('JS Foundation and other contributors');
    expect(license).toContain('JS Foundation and other contributors');
    expect(body).toContain('CC BY 4.0');
  });

  it('the comparison page names the installed webpack version and its date', () => {
    const body = readPage('comparison').body;
    expect(body).toContain('November 2026');
    expect(body).toContain(`| webpack | ${webpack.version} |`);
  });
});
