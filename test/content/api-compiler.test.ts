import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MultiCompiler } from 'webpack';
import { removeDir, scratchDir, writeFiles } from '../helpers/content.js';
import { webpack } from '../helpers/webpack.js';
import { buildWith, describeHooks, exampleTracker, fixtureFiles, hookProblems, loadModule, readPage, reportCount } from './api-helpers.js';

const require = createRequire(import.meta.url);

const PAGE = 'api/compiler';

describe('/api/compiler/', () => {
  const examples = exampleTracker(PAGE);

  it('documents every compiler hook with its real class and arguments', () => {
    // A compiler created without a callback is not run.
    const compiler = webpack({ mode: 'none', entry: './nothing.js', infrastructureLogging: { level: 'none' } });
    const real = describeHooks(compiler.hooks);
    const report = hookProblems(PAGE, /^(?!MultiCompiler).*hooks$/, real);
    reportCount('compiler hooks', real.length);
    expect(report.missing, 'hooks without a heading').toEqual([]);
    expect(report.stale, 'headings for hooks that do not exist').toEqual([]);
    expect(report.wrong, 'signatures that differ from the real hooks').toEqual([]);
  });

  it('documents every MultiCompiler hook with its real class and arguments, matching types.d.ts', () => {
    const multi = webpack([
      { name: 'one', mode: 'none', entry: './nothing.js', infrastructureLogging: { level: 'none' } },
      { name: 'two', mode: 'none', entry: './nothing.js', infrastructureLogging: { level: 'none' } },
    ]);
    const real = describeHooks(multi.hooks);
    const report = hookProblems(PAGE, 'MultiCompiler hooks', real);
    reportCount('MultiCompiler hooks', real.length);
    expect(report.missing, 'hooks without a heading').toEqual([]);
    // The example under the same h2 is an h3 too; everything else must be a hook.
    expect(report.stale.filter((s) => !s.startsWith('Example:')), 'headings for hooks that do not exist').toEqual([]);
    expect(report.wrong, 'signatures that differ from the real hooks').toEqual([]);
    // A MultiHook taps the hook of the same name on every child compiler.
    for (const hook of real.filter((h) => h.type === 'MultiHook')) {
      const inner = (multi.hooks as unknown as Record<string, { hooks: unknown[] }>)[hook.name]!.hooks;
      expect(inner, hook.name).toEqual(multi.compilers.map((c) => (c.hooks as unknown as Record<string, unknown>)[hook.name]));
    }
    const types = readFileSync(require.resolve('webpack/types.d.ts'), 'utf8');
    const start = types.indexOf('hooks: Readonly<{', types.indexOf('declare class MultiCompiler {'));
    const declared = [...types.slice(start, types.indexOf('\n\t}>;', start)).matchAll(/^\t\t(\w+): /gm)].map((m) => m[1]!);
    expect(declared.sort()).toEqual(real.map((h) => h.name).sort());
  });

  it('AllBuildsDonePlugin, set as a plugin of the array, reports once for all builds', async () => {
    const dir = scratchDir('api-compiler-multi');
    try {
      writeFiles(dir, { 'package.json': '{ "private": true }\n', ...fixtureFiles('app') });
      const Plugin = loadModule<new () => { apply(m: MultiCompiler): void }>(examples.code('AllBuildsDonePlugin.js'), dir);
      const base = { mode: 'development' as const, devtool: false as const, context: dir, infrastructureLogging: { level: 'none' as const } };
      const configs = Object.assign(
        [
          { ...base, name: 'browser', output: { path: join(dir, 'dist/browser') } },
          { ...base, name: 'server', target: 'node', output: { path: join(dir, 'dist/server') } },
        ],
        { plugins: [new Plugin()] },
      );
      const logs: string[] = [];
      const original = console.log;
      console.log = (...args: unknown[]) => void logs.push(args.join(' '));
      try {
        await new Promise<void>((resolve, reject) => {
          webpack(configs, (err) => (err ? reject(err) : resolve()));
        });
      } finally {
        console.log = original;
      }
      expect(logs).toEqual(['2 builds ready without errors; built this time: browser, server']);
      expect(readPage(PAGE).body).toContain('prints `2 builds ready without errors; built this time: browser, server`');
    } finally {
      removeDir(dir);
    }
  });

  it('WrittenFilesPlugin lists every written file once the build is done', async () => {
    const build = await buildWith('api-compiler-written', fixtureFiles('app'), (dir) => {
      const Plugin = loadModule<new () => never>(examples.code('WrittenFilesPlugin.js'), dir);
      return { plugins: [new Plugin()] };
    });
    try {
      const files = Object.keys(build.outputs);
      expect(build.logs[0]).toBe(`build succeeded, ${files.length} files written`);
      for (const file of files) {
        const bytes = Buffer.byteLength(build.outputs[file]!);
        expect(build.logs).toContain(`  dist/${file} (${bytes} bytes)`);
      }
    } finally {
      build.cleanup();
    }
  });

  it('DryRunPlugin builds everything but writes nothing, and steps aside when disabled', async () => {
    const load = (dir: string) => loadModule<new (o?: { enabled: boolean }) => never>(examples.code('DryRunPlugin.js'), dir);
    const dry = await buildWith('api-compiler-dry', fixtureFiles('app'), (dir) => ({ plugins: [new (load(dir))()] }));
    try {
      expect(Object.keys(dry.outputs)).toEqual([]);
      expect(dry.stats.toJson({ all: false, assets: true }).assets!.length).toBeGreaterThan(0);
      const logging = dry.stats.toJson({ all: false, logging: 'info' }).logging!;
      expect(logging.DryRunPlugin!.entries[0]!.message).toMatch(/^dry run: \d+ assets not written$/);
    } finally {
      dry.cleanup();
    }
    const wet = await buildWith('api-compiler-wet', fixtureFiles('app'), (dir) => ({ plugins: [new (load(dir))({ enabled: false })] }));
    try {
      expect(Object.keys(wet.outputs)).toContain('main.js');
    } finally {
      wet.cleanup();
    }
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
