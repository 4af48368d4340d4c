import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import type { Compiler, Configuration, MultiStats, Stats } from 'webpack';
import { describe, expect, it } from 'vitest';
import {
  headingsOf,
  listFiles,
  pagesIn,
  readPage,
  removeDir,
  scratchDir,
  writeFiles,
  type CodeBlock,
  type PageSource,
} from '../helpers/content.js';
import { compile, evaluateConfig, validate, webpack } from '../helpers/webpack.js';

/*
 * Tests for the Concepts section. Every code block titled webpack.config.js
 * (or .mjs) is evaluated and validated with the installed webpack, and each
 * concept page's main example is compiled from the page's own code blocks.
 */

const CONCEPT_PAGES = [
  'concepts/entry-points',
  'concepts/output',
  'concepts/loaders',
  'concepts/plugins',
  'concepts/configuration',
  'concepts/modules',
  'concepts/module-resolution',
  'concepts/dependency-graph',
  'concepts/targets',
  'concepts/manifest',
  'concepts/hot-module-replacement',
  'concepts/module-federation',
  'concepts/under-the-hood',
  'concepts/why-webpack',
];
const ALL_PAGES = ['concepts', ...CONCEPT_PAGES];

/** The repository's package.json says "type": "module"; scratch projects are CommonJS like a typical app. */
const PACKAGE_JSON = { 'package.json': `${JSON.stringify({ name: 'concepts-example', private: true }, null, 2)}\n` };

const CONFIG_TITLES = new Set(['webpack.config.js', 'webpack.config.mjs']);

type Match = string | ((code: string) => boolean);

/** The single code block on `page` with this title (and matching `match`, when given). */
function pick(page: PageSource, title: string, match?: Match): CodeBlock {
  const test = (code: string) => match === undefined || (typeof match === 'string' ? code.includes(match) : match(code));
  const found = page.blocks.filter((b) => b.title === title && test(b.code));
  if (found.length !== 1) {
    throw new Error(`${page.file}: expected exactly one block titled "${title}"${match ? ` matching ${String(match)}` : ''}, found ${found.length}`);
  }
  return found[0]!;
}

/** Source files for a compile, each taken from the block with that title on the page. */
function sources(page: PageSource, titles: string[]): Record<string, string> {
  const files: Record<string, string> = { ...PACKAGE_JSON };
  for (const title of titles) files[title] = `${pick(page, title).code}\n`;
  return files;
}

/** A config factory for compile(): evaluates the page's webpack.config.js block in the scratch project. */
function configFrom(block: CodeBlock): (dir: string) => Configuration {
  return (dir) => {
    const exported = evaluateConfig(block.code, dir);
    if (typeof exported !== 'object' || exported === null || Array.isArray(exported)) {
      throw new Error(`block at line ${block.line} does not export a single configuration object`);
    }
    return exported as Configuration;
  };
}

function outputMatching(outputs: Record<string, string>, pattern: RegExp): string[] {
  return Object.keys(outputs).filter((file) => pattern.test(file));
}

async function runMulti(configs: Configuration[]): Promise<MultiStats> {
  return new Promise((resolve, reject) => {
    webpack(configs, (err, stats) => {
      if (err) return reject(err);
      if (!stats) return reject(new Error('no stats'));
      if (stats.hasErrors()) return reject(new Error(stats.toString({ all: false, errors: true })));
      resolve(stats);
    });
  });
}

/** Resolves what a configuration file exports the way webpack-cli does: awaits promises, calls functions. */
async function resolveExport(exported: unknown, argv: { mode?: string }): Promise<unknown> {
  let value = await exported;
  if (typeof value === 'function') value = await (value as (env: object, argv: object) => unknown)({ WEBPACK_BUILD: true }, argv);
  if (Array.isArray(value)) {
    return Promise.all(
      value.map(async (item: unknown) => {
        const resolved = await item;
        return typeof resolved === 'function' ? (resolved as (env: object, argv: object) => unknown)({ WEBPACK_BUILD: true }, argv) : resolved;
      }),
    );
  }
  return value;
}

describe('concepts pages', () => {
  it('has exactly the planned pages', () => {
    expect(pagesIn('concepts')).toEqual([...ALL_PAGES].sort());
  });

  it.each(ALL_PAGES)('%s has a description, at least three h2 sections and links onward', async (id) => {
    const page = readPage(id);
    expect(page.frontmatter.description?.trim().length ?? 0).toBeGreaterThan(40);
    const h2 = (await headingsOf(id)).filter((h) => h.depth === 2);
    expect(h2.length).toBeGreaterThanOrEqual(3);
    const lastSection = page.body.slice(page.body.lastIndexOf('\n## '));
    expect(lastSection).toMatch(/\]\(\/[a-z-]+\//);
  });
});

describe('every webpack configuration shown on the concepts pages is valid', () => {
  const cases = ALL_PAGES.flatMap((id) => {
    const page = readPage(id);
    return page.blocks.filter((b) => b.title && CONFIG_TITLES.has(b.title)).map((block) => ({ name: `${page.file}:${block.line}`, id, block }));
  });

  it('finds configuration blocks on every page', () => {
    for (const id of ALL_PAGES) expect(cases.some((c) => c.id === id), id).toBe(true);
  });

  it.each(cases)('$name', async ({ id, block }) => {
    const page = readPage(id);
    const dir = scratchDir(`concepts-validate-${id.replace('/', '-')}`);
    try {
      // Files the configuration may require (a local plugin, a loader) come from the page too.
      const files: Record<string, string> = { ...PACKAGE_JSON };
      for (const b of page.blocks) {
        if (b.title && !CONFIG_TITLES.has(b.title) && !b.title.startsWith('/')) files[b.title] = `${b.code}\n`;
      }
      writeFiles(dir, files);
      let exported: unknown;
      if (block.title === 'webpack.config.mjs') {
        const file = join(dir, 'webpack.config.mjs');
        writeFileSync(file, block.code);
        exported = ((await import(pathToFileURL(file).href)) as { default: unknown }).default;
      } else {
        exported = evaluateConfig(block.code, dir);
      }
      for (const mode of ['production', 'development']) {
        const config = await resolveExport(exported, { mode });
        expect(typeof config === 'object' && config !== null, 'exports a configuration').toBe(true);
        validate(config);
      }
    } finally {
      removeDir(dir);
    }
  });
});

describe('entry points', () => {
  const page = readPage('concepts/entry-points');
  const files = sources(page, ['src/app.js', 'src/admin.js', 'src/format.js']);

  it('two named entries give two self-contained bundles', async () => {
    const result = await compile('concepts-entry-named', files, configFrom(pick(page, 'webpack.config.js', "admin: './src/admin.js'")));
    try {
      expect(Object.keys(result.outputs).sort()).toEqual(['admin.js', 'app.js']);
      expect(result.outputs['app.js']).toContain('toFixed(2)');
      expect(result.outputs['admin.js']).toContain('toFixed(2)');
      expect(result.outputs['admin.js']).toContain('Revenue today');
    } finally {
      result.cleanup();
    }
  });

  it('dependOn keeps the shared module out of the dependent bundles', async () => {
    const result = await compile('concepts-entry-dependon', files, configFrom(pick(page, 'webpack.config.js', "dependOn: 'shared'")));
    try {
      expect(Object.keys(result.outputs).sort()).toEqual(['admin.js', 'app.js', 'shared.js']);
      expect(result.outputs['shared.js']).toContain('toFixed(2)');
      expect(result.outputs['app.js']).not.toContain('toFixed(2)');
      expect(result.outputs['admin.js']).not.toContain('toFixed(2)');
    } finally {
      result.cleanup();
    }
  });
});

describe('output', () => {
  const page = readPage('concepts/output');

  it('names the bundle with [name].[contenthash].js', async () => {
    const result = await compile(
      'concepts-output-hash',
      sources(page, ['src/index.js']),
      configFrom(pick(page, 'webpack.config.js', "filename: '[name].[contenthash].js'")),
    );
    try {
      const bundles = outputMatching(result.outputs, /^main\.[0-9a-f]{20}\.js$/);
      expect(bundles).toHaveLength(1);
      expect(Object.keys(result.outputs)).toHaveLength(1);
      expect(result.outputs[bundles[0]!]).toContain('Hello from webpack');
    } finally {
      result.cleanup();
    }
  });

  it('builds a UMD library that works with CommonJS', async () => {
    const result = await compile('concepts-output-umd', sources(page, ['src/calc.js']), configFrom(pick(page, 'webpack.config.js', "type: 'umd'")));
    try {
      const code = result.outputs['calc.js'];
      expect(code).toBeDefined();
      const module = { exports: {} as Record<string, unknown> };
      new Function('module', 'exports', code!)(module, module.exports);
      const lib = module.exports as { add(a: number, b: number): number; multiply(a: number, b: number): number };
      expect(lib.add(2, 3)).toBe(5);
      expect(lib.multiply(4, 5)).toBe(20);
    } finally {
      result.cleanup();
    }
  });
});

describe('loaders', () => {
  const page = readPage('concepts/loaders');
  const cssConfig = pick(page, 'webpack.config.js', "use: ['style-loader', 'css-loader']");
  /** Whether any module of the build went through (or came from) style-loader. */
  const usesStyleLoader = (stats: Stats) => [...stats.compilation.modules].some((m) => m.identifier().includes('style-loader'));

  it('style-loader and css-loader put the stylesheet into the JavaScript bundle', async () => {
    const result = await compile('concepts-loaders-css', sources(page, ['src/index.js', 'src/style.css']), configFrom(cssConfig));
    try {
      expect(Object.keys(result.outputs)).toEqual(['main.js']);
      expect(result.outputs['main.js']).toContain('rebeccapurple');
      expect(usesStyleLoader(result.stats)).toBe(true);
    } finally {
      result.cleanup();
    }
  });

  it('a local loader with options transforms a text file', async () => {
    const result = await compile(
      'concepts-loaders-local',
      sources(page, ['loaders/shout-loader.js', 'src/greeting.txt', 'src/welcome.js']),
      configFrom(pick(page, 'webpack.config.js', 'shout-loader')),
    );
    try {
      expect(result.outputs['welcome.js']).toContain('HELLO FROM A TEXT FILE!');
    } finally {
      result.cleanup();
    }
  });

  it('an inline request with !! bypasses the configured rules', async () => {
    const inline = page.blocks.find((b) => b.lang === 'js' && !b.title && b.code.includes('!!css-loader'));
    expect(inline).toBeDefined();
    const files = {
      ...PACKAGE_JSON,
      'src/index.js': `${inline!.code}\nconsole.log(printStyles);\n`,
      'src/print.css': '@media print { nav { display: none; } }\n',
    };
    const result = await compile('concepts-loaders-inline', files, configFrom(cssConfig));
    try {
      expect(result.outputs['main.js']).toContain('display: none');
      expect(usesStyleLoader(result.stats)).toBe(false);
    } finally {
      result.cleanup();
    }
  });
});

describe('plugins', () => {
  const page = readPage('concepts/plugins');

  it('HtmlWebpackPlugin writes the page and DefinePlugin replaces the constant', async () => {
    const config = pick(page, 'webpack.config.js', (code) => code.includes('HtmlWebpackPlugin') && !code.includes('RebuildReportPlugin'));
    const result = await compile('concepts-plugins-main', sources(page, ['src/index.js']), configFrom(config));
    try {
      const [bundle] = outputMatching(result.outputs, /^main\.[0-9a-f]{20}\.js$/);
      expect(bundle).toBeDefined();
      expect(result.outputs[bundle!]).toContain('1.4.0');
      expect(result.outputs[bundle!]).not.toContain('__APP_VERSION__');
      const html = result.outputs['index.html'] ?? '';
      expect(html).toContain('<title>Release notes</title>');
      expect(html).toContain(bundle!);
    } finally {
      result.cleanup();
    }
  });

  it('the custom RebuildReportPlugin counts built and cached modules in a real rebuild', async () => {
    const config = pick(page, 'webpack.config.js', 'RebuildReportPlugin');
    const dir = scratchDir('concepts-plugins-custom');
    // The application the page describes: the footer text in src/label.js, imported by src/index.js.
    writeFiles(dir, {
      ...sources(page, ['plugins/rebuild-report-plugin.js']),
      'src/label.js': 'export const label = (version) => `Version ${version}`;\n',
      'src/index.js': [
        "import { label } from './label.js';",
        '',
        "const footer = document.createElement('footer');",
        'footer.textContent = label(__APP_VERSION__);',
        'document.body.append(footer);',
        '',
      ].join('\n'),
    });
    const lines: string[] = [];
    const record = (...args: unknown[]) => lines.push(args.map(String).join(' '));
    const logConsole = { ...console, info: record, log: record, warn: record, error: record, debug: () => {}, status: () => {} };
    const options: Configuration = {
      ...configFrom(config)(dir),
      context: dir,
      infrastructureLogging: { level: 'info', console: logConsole as unknown as Console },
    };
    const compiler = webpack(options);
    const runOnce = () =>
      new Promise<Stats>((resolve, reject) => compiler.run((err, stats) => (err || !stats ? reject(err ?? new Error('no stats')) : resolve(stats))));
    try {
      expect((await runOnce()).hasErrors()).toBe(false);
      writeFiles(dir, { 'src/label.js': 'export const label = (version) => `v${version}`;\n' });
      expect((await runOnce()).hasErrors()).toBe(false);
      const reports = lines.filter((l) => l.includes('[RebuildReportPlugin]')).map((l) => l.replace(/\(\d+ ms\)/, '(N ms)'));
      expect(reports).toEqual(['[RebuildReportPlugin] built: 2, from cache: 0 (N ms)', '[RebuildReportPlugin] built: 1, from cache: 1 (N ms)']);
      // The page shows the same two lines, with its own timings.
      const shown = page.blocks.find((b) => b.lang === 'text' && b.code.includes('[RebuildReportPlugin]'));
      expect(shown?.code.split('\n').map((l) => l.replace(/^<i> /, '').replace(/\(\d+ ms\)/, '(N ms)'))).toEqual(reports);
    } finally {
      await new Promise<void>((resolve) => compiler.close(() => resolve()));
      removeDir(dir);
    }
  });
});

describe('configuration', () => {
  const page = readPage('concepts/configuration');
  const files = sources(page, ['src/index.js']);
  const fnBlock = pick(page, 'webpack.config.js', '(env, argv)');

  function fromFunction(argv: { mode?: string }): (dir: string) => Configuration {
    return (dir) => {
      const exported = evaluateConfig(fnBlock.code, dir);
      expect(typeof exported).toBe('function');
      return (exported as (env: object, argv: object) => Configuration)({ WEBPACK_BUILD: true }, argv);
    };
  }

  it('the function configuration builds for production with --mode production', async () => {
    const result = await compile('concepts-config-prod', files, fromFunction({ mode: 'production' }));
    try {
      const bundles = outputMatching(result.outputs, /^main\.[0-9a-f]{20}\.js$/);
      expect(bundles).toHaveLength(1);
      expect(result.outputs[`${bundles[0]}.map`]).toBeDefined();
    } finally {
      result.cleanup();
    }
  });

  it('the function configuration falls back to development without --mode', async () => {
    const result = await compile('concepts-config-dev', files, fromFunction({}));
    try {
      expect(Object.keys(result.outputs)).toEqual(['main.js']);
      expect(result.outputs['main.js']).toContain('Built with a function configuration');
    } finally {
      result.cleanup();
    }
  });

  it('an array of configurations runs both builds', async () => {
    const dir = scratchDir('concepts-config-multi');
    try {
      writeFiles(dir, files);
      const exported = evaluateConfig(pick(page, 'webpack.config.js', "name: 'legacy'").code, dir);
      expect(Array.isArray(exported)).toBe(true);
      const configs = (exported as Configuration[]).map((c) => ({ ...c, context: dir, infrastructureLogging: { level: 'error' as const } }));
      const stats = await runMulti(configs);
      expect(stats.stats.map((s) => s.compilation.name)).toEqual(['modern', 'legacy']);
      expect(listFiles(join(dir, 'dist'))).toEqual(['app.legacy.js', 'app.modern.js']);
    } finally {
      removeDir(dir);
    }
  });
});

describe('modules', () => {
  const page = readPage('concepts/modules');

  it('bundles ESM, CommonJS and JSON and emits the SVG as an asset', async () => {
    const result = await compile(
      'concepts-modules',
      sources(page, ['src/index.js', 'src/text.js', 'src/math.js', 'src/settings.json', 'src/logo.svg']),
      configFrom(pick(page, 'webpack.config.js', 'asset/resource')),
    );
    try {
      const [svg] = outputMatching(result.outputs, /^images\/logo\.[0-9a-f]{8}\.svg$/);
      expect(svg).toBeDefined();
      expect(result.outputs[svg!]).toContain('<circle');
      const main = result.outputs['main.js'] ?? '';
      expect(main).toContain(svg!);
      expect(main).toContain('Module gallery');
      expect(main).not.toContain('help@example.com');
    } finally {
      result.cleanup();
    }
  });
});

describe('module resolution', () => {
  const page = readPage('concepts/module-resolution');
  const titles = [
    'src/index.js',
    'src/utils/format.js',
    'node_modules/tiny-greeting/package.json',
    'node_modules/tiny-greeting/lib/index.mjs',
    'node_modules/tiny-greeting/lib/index.cjs',
  ];
  const config = configFrom(pick(page, 'webpack.config.js', "'@utils'"));

  it('resolves the alias and picks the import condition from the exports field', async () => {
    const result = await compile('concepts-resolution', sources(page, titles), config);
    try {
      const main = result.outputs['main.js'] ?? '';
      expect(main).toContain('ES module build');
      expect(main).not.toContain('CommonJS build');
      expect(main).toContain('toFixed(2)');
    } finally {
      result.cleanup();
    }
  });

  it('refuses a deep import the exports field does not list', async () => {
    // compile() rejects before it can hand back cleanup(), so this one runs webpack directly.
    const dir = scratchDir('concepts-resolution-deep');
    try {
      writeFiles(dir, { ...sources(page, titles), 'src/index.js': "import 'tiny-greeting/lib/index.mjs';\n" });
      const stats = await new Promise<Stats>((resolve, reject) =>
        webpack({ ...config(dir), context: dir, infrastructureLogging: { level: 'error' } }, (err, result) =>
          err || !result ? reject(err ?? new Error('no stats')) : resolve(result),
        ),
      );
      const errors = stats.toJson({ all: false, errors: true }).errors ?? [];
      expect(errors.map((e) => e.message).join('\n')).toMatch(/is not exported under the conditions/);
    } finally {
      removeDir(dir);
    }
  });
});

describe('dependency graph', () => {
  const page = readPage('concepts/dependency-graph');

  it('a dynamic import becomes a separate chunk without duplicating shared modules', async () => {
    const result = await compile(
      'concepts-graph',
      sources(page, ['src/index.js', 'src/math.js', 'src/chart.js']),
      configFrom(pick(page, 'webpack.config.js')),
    );
    try {
      expect(Object.keys(result.outputs).sort()).toEqual(['chart.js', 'main.js']);
      expect(result.outputs['main.js']).toContain('.reduce(');
      expect(result.outputs['chart.js']).not.toContain('.reduce(');
      const chunks = result.stats.toJson({ all: false, chunks: true }).chunks ?? [];
      expect(chunks.map((c) => [c.names?.[0], c.initial]).sort()).toEqual([
        ['chart', false],
        ['main', true],
      ]);
      // The page's diagram of the graph draws the imports webpack found: static ones solid (-->), import() dashed (-.->).
      const diagram = page.blocks.find((b) => b.lang === 'mermaid')!.code;
      const labels = new Map([...diagram.matchAll(/(\w+)\[([^\]]+)\]/g)].map((m) => [m[1]!, m[2]!]));
      const drawn = [...diagram.matchAll(/^\s*(\w+)(?:\[[^\]]*\])?\s*(-->|-\.->)\|[^|]*\|\s*(\w+)/gm)].map((m) => `${labels.get(m[1]!)} ${m[2] === '-->' ? 'import' : 'import()'} ${labels.get(m[3]!)}`);
      const modules = result.stats.toJson({ all: false, modules: true, nestedModules: true, reasons: true }).modules ?? [];
      const found = new Set<string>();
      for (const module of modules.flatMap((m) => [m, ...(m.modules ?? [])])) {
        for (const reason of module.reasons ?? []) {
          if (!reason.moduleName || !/^harmony (?:side effect evaluation|import specifier)$|^import\(\)$/.test(reason.type ?? '')) continue;
          const name = (path: string) => path.replace(/^\.\/src\//, '').replace(/ \+ \d+ modules?$/, '');
          found.add(`${name(reason.moduleName)} ${reason.type === 'import()' ? 'import()' : 'import'} ${name(module.name ?? '')}`);
        }
      }
      expect(drawn).toHaveLength(3);
      expect(drawn.sort()).toEqual([...found].sort());
    } finally {
      result.cleanup();
    }
  });
});

describe('targets', () => {
  const page = readPage('concepts/targets');

  it("target 'node' loads chunks with require() and runs in Node.js", async () => {
    const config = pick(page, 'webpack.config.js', (code) => code.includes("target: 'node'") && !code.includes('module.exports = ['));
    const result = await compile('concepts-targets-node', sources(page, ['src/index.js', 'src/report.js']), configFrom(config));
    try {
      const files = Object.keys(result.outputs);
      expect(files).toHaveLength(2);
      const chunk = files.find((f) => f !== 'main.js')!;
      expect(result.outputs['main.js']).toMatch(/require\("\.\/"\s*\+/);
      expect(result.outputs['main.js']).toContain('require("node:os")');
      expect(result.outputs[chunk]).toMatch(/exports\.ids\s*=/);
      const run = spawnSync(process.execPath, [join(result.dir, 'dist', 'main.js'), 'one', 'two'], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.stdout).toMatch(/^Report from .+: 2 argument\(s\)\n$/);
    } finally {
      result.cleanup();
    }
  });
});

describe('targets: the chunk format and browserslist', () => {
  const page = readPage('concepts/targets');
  const message = 'For the selected environment is no default script chunk format available';

  /** The chunk format webpack picks for a browserslist query, or the error it throws while applying defaults. */
  function chunkFormatFor(query: string): string {
    const dir = scratchDir('concepts-targets-chunk-format');
    try {
      writeFiles(dir, { ...PACKAGE_JSON, 'src/index.js': "import('./lazy.js');\n", 'src/lazy.js': 'export default 1;\n' });
      const compiler = webpack({ context: dir, mode: 'production', entry: './src/index.js', target: `browserslist:${query}` });
      return String(compiler.options.output.chunkFormat);
    } catch (error) {
      return (error as Error).message;
    } finally {
      removeDir(dir);
    }
  }

  it('old browsers alone get a chunk format; a mix with Node.js versions can have none', () => {
    expect(page.body).toContain(message);
    expect(page.body).not.toMatch(/only very old browsers, webpack may report/);
    for (const query of ['ie 6', 'ie 11', 'chrome 4']) expect(chunkFormatFor(query)).toBe('array-push');
    expect(chunkFormatFor('node 10, ie 11')).toContain(message);
    // When every entry supports ECMAScript modules, the mix builds as modules.
    expect(chunkFormatFor('node 20, chrome 120')).toBe('module');
  });
});

describe('module resolution: default extensions', () => {
  const page = readPage('concepts/module-resolution');

  it('require() and import get the extension lists the page gives', () => {
    const dir = scratchDir('concepts-resolution-extensions');
    try {
      writeFiles(dir, { ...PACKAGE_JSON, 'src/index.js': 'export default 1;\n' });
      const resolve = webpack({ context: dir, mode: 'production', entry: './src/index.js' }).options.resolve;
      // No rule handles .ts files, so the built-in TypeScript support is on (on any Node.js since webpack 5.113).
      expect(resolve.byDependency?.['commonjs']?.extensions).toEqual(['.ts', '.js', '.json', '.wasm']);
      expect(resolve.byDependency?.['esm']?.extensions).toEqual(['.ts', '.js', '.json', '.wasm', '.html', '.css']);
      const tsRule = { module: { rules: [{ test: /\.ts$/, loader: 'ts-loader' }] } };
      const withLoader = webpack({ context: dir, mode: 'production', entry: './src/index.js', ...tsRule }).options.resolve;
      expect(withLoader.byDependency?.['commonjs']?.extensions).toEqual(['.js', '.json', '.wasm']);
      expect(withLoader.byDependency?.['esm']?.extensions).toEqual(['.js', '.json', '.wasm', '.html', '.css']);
      const explicitHtml = webpack({ context: dir, mode: 'production', entry: './src/index.js', experiments: { html: true } }).options.resolve;
      expect(explicitHtml.byDependency?.['esm']?.extensions?.[0]).toBe('.html');
    } finally {
      removeDir(dir);
    }
    expect(page.body).toContain('For `require()` the default list is `.ts`, `.js`, `.json` and `.wasm`, and without webpack\'s built-in TypeScript support it is `.js`, `.json` and `.wasm`');
    expect(page.body).toContain('For `import`, webpack appends `.html` and `.css`');
  });
});

describe('concepts index: what npx webpack --version prints', () => {
  const page = readPage('concepts');

  it('--version prints the matching packages with their ranges, info adds the system and the binaries', () => {
    const cli = join(process.cwd(), 'node_modules', 'webpack-cli', 'bin', 'cli.js');
    const run = (arg: string) => spawnSync(process.execPath, [cli, arg], { encoding: 'utf8', cwd: process.cwd() });
    const version = run('--version');
    expect(version.status).toBe(0);
    expect(version.stdout).toContain('Packages:');
    for (const section of ['System:', 'Binaries:']) expect(version.stdout).not.toContain(section);
    const installed = new RegExp(`webpack: +\\^?[\\d.]+ → ${webpack.version.replace(/\./g, '\\.')}`);
    expect(version.stdout).toMatch(installed);
    // A declared dependency whose name holds neither "webpack" nor "loader" is left out.
    expect(version.stdout).not.toMatch(/^\s+vitest:/m);
    const info = run('info');
    expect(info.status).toBe(0);
    for (const section of ['System:', 'OS:', 'CPU:', 'Memory:', 'Binaries:', 'Node:', 'Packages:']) expect(info.stdout).toContain(section);
    expect(info.stdout).toMatch(installed);
    expect(page.body).toContain('the operating system, CPU and memory');
    expect(page.body).toContain(`(\`webpack: ^${webpack.version} → ${webpack.version}\`)`);
  });
});

describe('manifest', () => {
  const page = readPage('concepts/manifest');
  const config = configFrom(pick(page, 'webpack.config.js', "moduleIds: 'deterministic'"));

  it('with a runtime chunk, changing a lazy module leaves the main bundle name alone', async () => {
    const first = sources(page, ['src/index.js', 'src/chart.js']);
    expect(first['src/chart.js']).toContain('sales');
    const second = { ...first, 'src/chart.js': first['src/chart.js']!.replace('sales', 'profit') };
    const before = await compile('concepts-manifest-1', first, config);
    const after = await compile('concepts-manifest-2', second, config).catch((e: unknown) => {
      before.cleanup();
      throw e;
    });
    try {
      const names = (r: typeof before) => Object.keys(r.outputs).sort();
      const find = (r: typeof before, re: RegExp) => {
        const found = outputMatching(r.outputs, re);
        expect(found, `${re} in ${names(r).join(', ')}`).toHaveLength(1);
        return found[0]!;
      };
      for (const r of [before, after]) expect(names(r)).toHaveLength(3);
      expect(find(after, /^main\./)).toBe(find(before, /^main\./));
      expect(find(after, /^runtime\./)).not.toBe(find(before, /^runtime\./));
      expect(find(after, /^\d+\./)).not.toBe(find(before, /^\d+\./));
    } finally {
      before.cleanup();
      after.cleanup();
    }
  });

  it('ManifestPlugin writes an asset manifest', async () => {
    const result = await compile(
      'concepts-manifest-plugin',
      sources(page, ['src/index.js', 'src/chart.js']),
      configFrom(pick(page, 'webpack.config.js', 'ManifestPlugin')),
    );
    try {
      const manifest = JSON.parse(result.outputs['asset-manifest.json'] ?? '{}') as {
        assets: Record<string, { file: string }>;
        entrypoints: Record<string, { imports: string[] }>;
      };
      const [bundle] = outputMatching(result.outputs, /^main\.[0-9a-f]{20}\.js$/);
      expect(manifest.assets['main.js']?.file.endsWith(bundle!)).toBe(true);
      expect(manifest.entrypoints.main?.imports).toEqual(['main.js']);
    } finally {
      result.cleanup();
    }
  });
});

describe('hot module replacement', () => {
  const page = readPage('concepts/hot-module-replacement');

  it('a rebuild in watch mode writes an update manifest and an update chunk', async () => {
    const dir = scratchDir('concepts-hmr');
    const files = sources(page, ['src/index.js', 'src/view.js']);
    const edited = files['src/view.js']!.replace('You clicked', 'Clicks so far:');
    expect(edited).not.toBe(files['src/view.js']);
    writeFiles(dir, files);
    const dist = join(dir, 'dist');
    const config = configFrom(pick(page, 'webpack.config.js', 'HotModuleReplacementPlugin'))(dir);
    const compiler: Compiler = webpack({ ...config, context: dir, infrastructureLogging: { level: 'error' } });
    /** The hot update chunk carrying the edit, once a rebuild has written it. */
    const findUpdate = () =>
      listFiles(dist).find((f) => /^main\.[0-9a-f]+\.hot-update\.js$/.test(f) && readFileSync(join(dist, f), 'utf8').includes('Clicks so far:'));
    let editTimer: NodeJS.Timeout | undefined;
    try {
      const firstBuild: string[] = [];
      await new Promise<void>((resolve, reject) => {
        let builds = 0;
        let watching: ReturnType<Compiler['watch']>;
        const stop = (then: () => void) => (watching ? watching.close(then) : then());
        const timeout = setTimeout(() => stop(() => reject(new Error(`no hot update after editing view.js (${builds} builds)`))), 30_000);
        watching = compiler.watch({ aggregateTimeout: 50 }, (err, stats) => {
          if (err || stats?.hasErrors()) {
            clearTimeout(timeout);
            stop(() => reject(err ?? new Error(stats!.toString({ all: false, errors: true }))));
            return;
          }
          builds += 1;
          if (builds === 1) {
            firstBuild.push(...listFiles(dist));
            editTimer = setTimeout(() => writeFileSync(join(dir, 'src/view.js'), edited), 100);
          } else if (findUpdate()) {
            clearTimeout(timeout);
            stop(() => resolve());
          }
        });
      });
      expect(firstBuild).toEqual(['main.js']);
      const update = findUpdate()!;
      const manifest = update.replace(/\.js$/, '.json');
      expect(listFiles(dist)).toContain(manifest);
      const json = JSON.parse(readFileSync(join(dist, manifest), 'utf8')) as { c: string[]; r: string[]; m: string[] };
      expect(json.c).toEqual(['main']);
      expect(json.r).toEqual([]);
      expect(json.m).toEqual([]);
      // Only the changed module travels: index.js, which holds the state, is not in the update.
      expect(readFileSync(join(dist, update), 'utf8')).not.toContain('let clicks');
    } finally {
      clearTimeout(editTimer);
      await new Promise<void>((resolve) => compiler.close(() => resolve()));
      removeDir(dir);
    }
  });

  it('the dispose example runs in a production build without HMR', async () => {
    const result = await compile('concepts-hmr-clock', sources(page, ['src/clock.js']), {
      entry: './src/clock.js',
      output: { filename: 'clock.js' },
    });
    try {
      const code = result.outputs['clock.js'] ?? '';
      expect(code).not.toContain('webpackHot');
      let ticks: (() => void) | undefined;
      const context = { document: { title: '' }, setInterval: (fn: () => void) => ((ticks = fn), 1), clearInterval: () => {} };
      vm.runInNewContext(code, context);
      ticks?.();
      expect(context.document.title).toBe('Running for 1s');
    } finally {
      result.cleanup();
    }
  });
});
