import { describe, expect, it } from 'vitest';
import { readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { removeDir, scratchDir, writeFiles } from '../helpers/content.js';
import { webpack } from '../helpers/webpack.js';
import { buildWith, captureInternals, describeHooks, exampleTracker, fixtureFiles, hookProblems, loadModule, reportCount } from './api-helpers.js';

const PAGE = 'api/parser';

describe('/api/parser/', () => {
  const examples = exampleTracker(PAGE);

  it('documents every JavascriptParser hook with its real class and arguments', async () => {
    const { javascriptParser } = await captureInternals();
    const real = describeHooks(javascriptParser.hooks);
    // Every "… hooks" section but the one of HotModuleReplacementPlugin, checked below.
    const report = hookProblems(PAGE, /^(?!Hot module replacement).*hooks$/, real);
    reportCount('JavascriptParser hooks', real.length);
    expect(report.missing, 'hooks without a heading').toEqual([]);
    expect(report.stale, 'headings for hooks that do not exist').toEqual([]);
    expect(report.wrong, 'signatures that differ from the real hooks').toEqual([]);
  });

  it('documents both HotModuleReplacementPlugin parser hooks with their real class and arguments', async () => {
    const { javascriptParser } = await captureInternals();
    const hooks = webpack.HotModuleReplacementPlugin.getParserHooks(javascriptParser as never);
    expect(webpack.HotModuleReplacementPlugin.getParserHooks(javascriptParser as never)).toBe(hooks);
    expect(() => webpack.HotModuleReplacementPlugin.getParserHooks({} as never)).toThrow(TypeError);
    const real = describeHooks(hooks);
    const report = hookProblems(PAGE, 'Hot module replacement hooks', real);
    reportCount('HotModuleReplacementPlugin parser hooks', real.length);
    expect(real.length).toBeGreaterThan(0);
    expect(report.missing, 'hooks without a heading').toEqual([]);
    expect(report.stale, 'headings for hooks that do not exist').toEqual([]);
    expect(report.wrong, 'signatures that differ from the real hooks').toEqual([]);
  });

  it('HotBoundariesPlugin reports each accept call with dependencies, keeps the report on a cached rebuild, and finds nothing without HMR', async () => {
    const files = {
      'src/index.js': "import { count } from './cart.js';\nimport './prices.js';\nconst render = () => console.log(count);\nrender();\nif (module.hot) {\n  module.hot.accept('./cart.js', render);\n  module.hot.accept(['./prices.js']);\n  module.hot.accept();\n}\n",
      'src/cart.js': 'export const count = 2;\n',
      'src/prices.js': "import.meta.webpackHot.accept('./cart.js', () => {});\nexport const total = 10;\n",
    };
    const expected = {
      './src/index.js': [
        { requests: ['./cart.js'], callback: true },
        { requests: ['./prices.js'], callback: false },
      ],
      './src/prices.js': [{ requests: ['./cart.js'], callback: true }],
    };
    const dir = scratchDir('api-parser-hot-boundaries');
    try {
      writeFiles(dir, { 'package.json': '{ "private": true }\n', ...files });
      // Written a minute ago: webpack takes a file changed within its timestamp accuracy of the build's start as
      // possibly changed again, and would build it once more on the cached rebuild (a flaky failure, not the plugin's).
      const past = new Date(Date.now() - 60_000);
      for (const file of ['package.json', ...Object.keys(files)]) utimesSync(join(dir, file), past, past);
      const Plugin = loadModule<new () => never>(examples.code('HotBoundariesPlugin.js'), dir);
      const compiler = webpack({
        mode: 'development',
        devtool: false,
        context: dir,
        cache: { type: 'memory' },
        output: { path: join(dir, 'dist') },
        infrastructureLogging: { level: 'error' },
        plugins: [new webpack.HotModuleReplacementPlugin(), new Plugin()],
      });
      const run = () =>
        new Promise<import('webpack').Stats>((resolve, reject) => compiler.run((err, stats) => (err ? reject(err) : resolve(stats!))));
      const first = await run();
      expect(first.hasErrors()).toBe(false);
      expect(JSON.parse(readFileSync(join(dir, 'dist', 'hot-boundaries.json'), 'utf8'))).toEqual(expected);
      const second = await run();
      // Nothing was built again, and the report is the same.
      expect(second.toJson({ all: false, modules: true }).modules!.filter((m) => m.built)).toEqual([]);
      expect(JSON.parse(readFileSync(join(dir, 'dist', 'hot-boundaries.json'), 'utf8'))).toEqual(expected);
      await new Promise<void>((resolve) => compiler.close(() => resolve()));
    } finally {
      removeDir(dir);
    }
    const withoutHmr = await buildWith('api-parser-hot-off', files, (d) => {
      const Plugin = loadModule<new () => never>(examples.code('HotBoundariesPlugin.js'), d);
      return { plugins: [new Plugin()] };
    });
    try {
      expect(JSON.parse(withoutHmr.outputs['hot-boundaries.json']!)).toEqual({});
    } finally {
      withoutHmr.cleanup();
    }
  });

  it('BuildDatePlugin replaces the identifier and its typeof with constants', async () => {
    const build = await buildWith('api-parser-date', fixtureFiles('parser'), (dir) => {
      const Plugin = loadModule<new (date: string) => never>(examples.code('BuildDatePlugin.js'), dir);
      return { plugins: [new Plugin('2025-06-30')] };
    });
    try {
      const main = build.outputs['main.js']!;
      expect(main).toContain('built on ${"2025-06-30"}');
      expect(main).toContain('"string"');
      expect(main).not.toContain('__BUILD_DATE__');
    } finally {
      build.cleanup();
    }
  });

  it('DeprecatedCallPlugin warns once, at the call of the free function only', async () => {
    const build = await buildWith('api-parser-deprecated', fixtureFiles('parser'), (dir) => {
      const Plugin = loadModule<new (name: string, advice: string) => never>(examples.code('DeprecatedCallPlugin.js'), dir);
      return { plugins: [new Plugin('legacyLog', 'use the logger module')] };
    });
    try {
      const warnings = build.stats.toJson({ all: false, warnings: true }).warnings!.filter((w) => w.message.includes('legacyLog'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.message).toContain('legacyLog() is deprecated: use the logger module');
      expect(warnings[0]!.loc).toBe('3:0-39');
    } finally {
      build.cleanup();
    }
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
