import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Configuration, StatsCompilation } from 'webpack';
import { gzipSync } from 'node:zlib';
import { buildWith, captureInternals, exampleTracker, expectHookTables, fixtureFiles, h3sUnder, loadModule, readPage, reportCount } from './api-helpers.js';
import { webpack } from '../helpers/webpack.js';
import { writeFiles } from '../helpers/content.js';

const require = createRequire(import.meta.url);
const PAGE = 'api/stats';

/**
 * Property names of the interface Known<name> in webpack's types.d.ts: a top-level
 * `declare interface`, or (since webpack 5.113, for the types plugins extend by
 * declaration merging) an `export interface` inside the exported namespace.
 */
function typedKeys(name: string): string[] {
  const types = readFileSync(require.resolve('webpack/types.d.ts'), 'utf8');
  const found = new RegExp(`^(\\t*)(?:declare|export) interface Known${name} \\{$`, 'm').exec(types);
  expect(found, `Known${name} in types.d.ts`).not.toBeNull();
  const indent = found![1]!;
  const start = found!.index;
  const body = types.slice(start, types.indexOf(`\n${indent}}`, start));
  return [...body.matchAll(new RegExp(`^${indent}\\t(\\w+)\\??:`, 'gm'))].map((m) => m[1]!);
}

/** Checks a documented type (the first inline code of a section) against a real value. */
function typeMismatch(documented: string | undefined, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  if (documented === undefined) return 'no type given';
  const ok = Array.isArray(value)
    ? documented.includes('[]')
    : value === null
      ? /\bnull\b/.test(documented)
      : typeof value === 'object'
        ? /Record<|\b[A-Z]\w*\b(?!\[)/.test(documented)
        : new RegExp(`\\b${typeof value}\\b`).test(documented);
  return ok ? undefined : `documented as ${documented}, real value is ${JSON.stringify(value)?.slice(0, 60)}`;
}

describe('/api/stats/', () => {
  const examples = exampleTracker(PAGE);

  it('documents every field of a real stats object and of the typed shape, with matching types', async () => {
    const app = fixtureFiles('app');
    const files: Record<string, string> = {
      ...app,
      'src/index.js': `${app['src/index.js']}import logo from './extra.js';\nconsole.log(logo);\n`,
      'src/extra.js': "import logo from './logo.png';\nexport default logo;\n",
      'src/logo.png': 'not really a png',
    };
    const build = await buildWith('api-stats-shape', files, { mode: 'production', name: 'client', profile: true, module: { rules: [{ test: /\.png$/, type: 'asset/resource' }] } });
    let json: StatsCompilation;
    try {
      json = build.stats.toJson({
        all: true,
        logging: 'verbose',
        source: true,
        groupModulesByPath: false,
        groupModulesByExtension: false,
        groupModulesByType: false,
        groupModulesByAttributes: false,
        groupModulesByLayer: false,
        groupModulesByCacheStatus: false,
        groupAssetsByPath: false,
        groupAssetsByExtension: false,
        groupAssetsByInfo: false,
        groupAssetsByEmitStatus: false,
        groupAssetsByChunk: false,
      });
    } finally {
      build.cleanup();
    }
    const sections: [string, string, string, Record<string, unknown>[]][] = [
      ['Top-level fields', '', 'StatsCompilation', [json as Record<string, unknown>]],
      ['Asset objects', 'assets[].', 'StatsAsset', (json.assets ?? []) as Record<string, unknown>[]],
      ['Chunk objects', 'chunks[].', 'StatsChunk', (json.chunks ?? []) as Record<string, unknown>[]],
      ['Module objects', 'modules[].', 'StatsModule', (json.modules ?? []) as Record<string, unknown>[]],
    ];
    for (const [h2, prefix, typeName, objects] of sections) {
      expect(objects.length, `${h2}: the fixture produces some`).toBeGreaterThan(0);
      const real = new Set(objects.flatMap((o) => Object.keys(o)));
      const expected = new Set([...real, ...typedKeys(typeName)]);
      const documented = new Map(h3sUnder(PAGE, h2).map((s) => [s.text.slice(prefix.length), s]));
      reportCount(`stats ${h2.toLowerCase()} in a real stats object`, real.size);
      reportCount(`stats ${h2.toLowerCase()} (real + types.d.ts)`, expected.size);
      expect([...expected].filter((k) => !documented.has(k)), `${h2}: fields without a heading`).toEqual([]);
      expect([...documented.keys()].filter((k) => !expected.has(k)), `${h2}: headings for fields that do not exist`).toEqual([]);
      expect([...documented.values()].filter((s) => !s.text.startsWith(prefix)).map((s) => s.text), `${h2}: headings start with ${prefix}`).toEqual([]);
      const wrong: string[] = [];
      for (const [key, section] of documented) {
        const type = /`([^`]+)`/.exec(section.body)?.[1];
        for (const object of objects) {
          const problem = typeMismatch(type, object[key]);
          if (problem) {
            wrong.push(`${prefix}${key}: ${problem}`);
            break;
          }
        }
      }
      expect(wrong, `${h2}: documented types`).toEqual([]);
    }
  });

  it('runs largest-assets.js against a fixture', async () => {
    const build = await buildWith('api-stats-example', fixtureFiles('app'), { mode: 'production' });
    try {
      writeFiles(build.dir, { 'largest-assets.js': examples.code('largest-assets.js') });
      const printed = execFileSync(process.execPath, [join(build.dir, 'largest-assets.js')], { cwd: build.dir, encoding: 'utf8' }).trim().split('\n');
      const sizes = Object.entries(build.outputs).map(([name, text]) => `${name} ${Buffer.byteLength(text)}`);
      expect(printed.at(-1)).toBe('0 errors');
      expect(printed.slice(0, -1).sort()).toEqual(sizes.sort());
    } finally {
      build.cleanup();
    }
  });

  it('toJson() without options ignores the configuration\'s stats option; --json passes it', async () => {
    const build = await buildWith('api-stats-defaults', fixtureFiles('app'), { stats: { modules: false, assets: false } });
    try {
      const plain = build.stats.toJson();
      expect(plain.modules?.length ?? 0, 'modules with the built-in defaults').toBeGreaterThan(0);
      expect(plain.assets?.length ?? 0, 'assets with the built-in defaults').toBeGreaterThan(0);
      const configured = build.stats.toJson(build.stats.compilation.compiler.options.stats);
      expect(configured.modules).toBeUndefined();
      expect(configured.assets).toBeUndefined();
    } finally {
      build.cleanup();
    }
    const body = readPage(PAGE).body;
    expect(body).toContain('`stats.toJson()` called without an argument does not: it ignores the configuration\'s `stats` option');
    expect(body).not.toContain('without options use the defaults of your configuration');
  });

  it('chunk group assetsSize is always a number', async () => {
    const build = await buildWith('api-stats-groups', fixtureFiles('app'), {});
    try {
      const groups = Object.values(build.stats.toJson({ all: false, chunkGroups: true }).namedChunkGroups ?? {});
      expect(groups.length).toBeGreaterThan(0);
      for (const group of groups) {
        expect(typeof group.assetsSize, group.name ?? undefined).toBe('number');
        expect(group.assetsSize).toBe((group.assets ?? []).reduce((sum, asset) => sum + (asset.size ?? 0), 0));
      }
    } finally {
      build.cleanup();
    }
    expect(readPage(PAGE).body).toContain('| `assetsSize` | Their total size in bytes, always a number');
  });

  it('chunks[].recorded is true only for chunks AggressiveSplittingPlugin recorded', async () => {
    const app = fixtureFiles('app');
    const files = { ...app, 'src/index.js': `${app['src/index.js']}export const filler = ${JSON.stringify('x'.repeat(4000))};\n` };
    const recorded = async (name: string, plugins: Configuration['plugins']) => {
      const build = await buildWith(name, files, (dir) => ({ mode: 'production', recordsPath: join(dir, 'records.json'), plugins }));
      try {
        return (build.stats.toJson({ all: false, chunks: true }).chunks ?? []).map((c) => c.recorded);
      } finally {
        build.cleanup();
      }
    };
    const without = await recorded('api-stats-records-plain', []);
    expect(without.length).toBeGreaterThan(0);
    expect(without.every((r) => r === false), 'records alone mark no chunk').toBe(true);
    const split = await recorded('api-stats-records-split', [new webpack.optimize.AggressiveSplittingPlugin({ minSize: 100, maxSize: 2000 })]);
    expect(split.some((r) => r === true), 'chunks made by AggressiveSplittingPlugin').toBe(true);
    expect(readPage(PAGE).body).toContain('created this chunk and wrote its split into the');
  });

  it('documents every StatsFactory and StatsPrinter hook with its real class and arguments, and only those', async () => {
    const { compilation } = await captureInternals();
    const options = compilation.createStatsOptions({}, { forToString: true });
    const registries: [string, object][] = [
      ['StatsFactory hooks', compilation.createStatsFactory(options).hooks],
      ['StatsPrinter hooks', compilation.createStatsPrinter(options).hooks],
    ];
    expectHookTables(PAGE, registries);
  });

  it('GzipSizePlugin adds gzipSize to every asset of the JSON and prints it after the size', async () => {
    const build = await buildWith('api-stats-gzip', fixtureFiles('app'), (dir) => {
      const Plugin = loadModule<new () => never>(examples.code('GzipSizePlugin.js'), dir);
      return { plugins: [new Plugin()] };
    });
    try {
      const assets = build.stats.toJson({ all: false, assets: true }).assets!;
      expect(assets.length).toBeGreaterThan(0);
      for (const asset of assets) {
        const expected = gzipSync(readFileSync(join(build.dir, 'dist', asset.name))).length;
        expect(asset.gzipSize, asset.name).toBe(expected);
      }
      const text = build.stats.toString({ all: false, assets: true, colors: false });
      const main = assets.find((a) => a.name === 'main.js')!;
      const line = text.split('\n').find((l) => l.startsWith('asset main.js '))!;
      const kib = `${Math.round((main.gzipSize as number) / 1024 * 100) / 100} KiB`;
      expect(line).toBe(`asset main.js ${Math.round(main.size / 1024 * 10) / 10} KiB (${kib} gzipped) [emitted] (name: main)`);
      // The page's sample line has the same shape.
      const sample = examples.after('GzipSizePlugin.js', 0)?.code.trim();
      expect(sample).toMatch(/^asset main\.js [\d.]+ KiB \([\d.]+ KiB gzipped\) \[emitted\] \(name: main\)$/);
    } finally {
      build.cleanup();
    }
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
