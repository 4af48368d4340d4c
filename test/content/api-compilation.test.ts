import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Compiler } from 'webpack';
import { webpack } from '../helpers/webpack.js';
import { buildWith, captureInternals, describeHooks, exampleTracker, fixtureFiles, h3sUnder, hookProblems, loadModule, reportCount } from './api-helpers.js';

const require = createRequire(import.meta.url);
const PAGE = 'api/compilation';

/** The compilation methods a plugin author needs; each must exist and have a `### compilation.name()` heading. */
const PLUGIN_METHODS = [
  'emitAsset',
  'updateAsset',
  'renameAsset',
  'deleteAsset',
  'getAsset',
  'getAssets',
  'getPath',
  'getLogger',
  'getCache',
  'getStats',
  'addEntry',
  'addInclude',
  'rebuildModule',
  'findModule',
  'addRuntimeModule',
  'createChildCompiler',
  'executeModule',
  'getErrors',
  'getWarnings',
];

describe('/api/compilation/', () => {
  const examples = exampleTracker(PAGE);

  it('documents every compilation hook with its real class and arguments', async () => {
    const { compilation } = await captureInternals();
    const real = describeHooks(compilation.hooks);
    const report = hookProblems(PAGE, /hooks$/, real);
    reportCount('compilation hooks', real.length);
    expect(report.missing, 'hooks without a heading').toEqual([]);
    expect(report.stale, 'headings for hooks that do not exist').toEqual([]);
    expect(report.wrong, 'signatures that differ from the real hooks').toEqual([]);
  });

  it('documents the public methods plugins use, and only methods that exist', async () => {
    const { compilation } = await captureInternals();
    const documented = h3sUnder(PAGE, 'Methods').map((s) => s.text);
    const asHeading = (m: string) => `compilation.${m}()`;
    const real = compilation as unknown as Record<string, unknown>;
    reportCount('compilation methods documented', documented.length);
    expect(PLUGIN_METHODS.filter((m) => typeof real[m] !== 'function'), 'listed methods missing in webpack').toEqual([]);
    expect(PLUGIN_METHODS.filter((m) => !documented.includes(asHeading(m))), 'methods without a heading').toEqual([]);
    const stale = documented.filter((h) => {
      const m = /^compilation\.(\w+)\(\)$/.exec(h);
      return !m || typeof real[m[1]!] !== 'function';
    });
    expect(stale, 'method headings that are not methods of a real compilation').toEqual([]);
  });

  it('ChunkFilesPlugin writes the files of every named chunk', async () => {
    const build = await buildWith('api-compilation-chunks', fixtureFiles('app'), (dir) => {
      const Plugin = loadModule<new () => never>(examples.code('ChunkFilesPlugin.js'), dir);
      return { plugins: [new Plugin()] };
    });
    try {
      expect(JSON.parse(build.outputs['chunk-files.json']!)).toEqual({ main: ['main.js'], later: ['later.js'] });
    } finally {
      build.cleanup();
    }
  });

  it('ModuleBudgetPlugin counts modules and warns over budget', async () => {
    const build = await buildWith('api-compilation-budget', fixtureFiles('app'), (dir) => {
      const Plugin = loadModule<new (max: number) => never>(examples.code('ModuleBudgetPlugin.js'), dir);
      return { plugins: [new Plugin(2)] };
    });
    try {
      const json = build.stats.toJson({ all: false, warnings: true, logging: 'info' });
      expect(json.warnings!.map((w) => w.message)).toContainEqual(expect.stringMatching(/^3 modules exceed the budget of 2/));
      expect(json.logging!.ModuleBudgetPlugin!.entries[0]!.message).toBe('3 built, 0 from cache, 3 in total');
    } finally {
      build.cleanup();
    }
  });

  it('ReleasePlaceholderPlugin fills in [release] in filename templates', async () => {
    const build = await buildWith('api-compilation-release', fixtureFiles('app'), (dir) => {
      const Plugin = loadModule<new (release: string) => never>(examples.code('ReleasePlaceholderPlugin.js'), dir);
      return { output: { filename: '[name].[release].js', chunkFilename: '[name].[release].js' }, plugins: [new Plugin('2025-06')] };
    });
    try {
      expect(Object.keys(build.outputs).sort()).toEqual(['later.2025-06.js', 'main.2025-06.js']);
    } finally {
      build.cleanup();
    }
  });

  it('addInclude bundles a module with the entry without evaluating it; only ProvideSharedPlugin calls it', async () => {
    const files = { 'src/index.js': "console.log('entry evaluated');\n", 'src/extra.js': "console.log('extra evaluated');\nmodule.exports = 'extra';\n" };
    const build = await buildWith('api-compilation-include', files, (dir) => ({
      target: 'node',
      plugins: [
        {
          apply(compiler: Compiler) {
            compiler.hooks.make.tapAsync('IncludeExtra', (compilation, callback) => {
              const dependency = webpack.EntryPlugin.createDependency('./src/extra.js', { name: 'main' });
              compilation.addInclude(dir, dependency, { name: 'main' }, (err) => callback(err ?? undefined));
            });
          },
        },
      ],
    }));
    try {
      expect(build.outputs['main.js']).toContain('extra evaluated');
      const printed = execFileSync(process.execPath, [join(build.dir, 'dist', 'main.js')], { encoding: 'utf8' });
      expect(printed).toContain('entry evaluated');
      expect(printed).not.toContain('extra evaluated');
    } finally {
      build.cleanup();
    }
    // Which of webpack's own modules call addInclude, addEntry and addModuleChain.
    const lib = join(dirname(require.resolve('webpack/package.json')), 'lib');
    const callers = (method: string) =>
      (readdirSync(lib, { recursive: true }) as string[])
        .filter((file) => file.endsWith('.js') && file !== 'Compilation.js' && readFileSync(join(lib, file), 'utf8').includes(`.${method}(`))
        .map((file) => basename(file, '.js'))
        .sort();
    expect(callers('addInclude')).toEqual(['ProvideSharedPlugin']);
    expect(callers('addEntry')).toContain('EntryPlugin');
    expect(callers('addModuleChain')).toContain('PrefetchPlugin');
    const section = h3sUnder(PAGE, 'Methods').find((s) => s.text === 'compilation.addInclude()')!;
    expect(section.body).toContain('only `ProvideSharedPlugin`');
    expect(section.body).toContain('not evaluated when the entry starts');
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
