import { describe, expect, it } from 'vitest';
import { buildWith, captureInternals, describeHooks, exampleTracker, fixtureFiles, h3sUnder, hookProblems, loadModule, reportCount } from './api-helpers.js';

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

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
