import { describe, expect, it } from 'vitest';
import { webpack } from '../helpers/webpack.js';
import { buildWith, describeHooks, exampleTracker, fixtureFiles, hookProblems, loadModule, reportCount } from './api-helpers.js';

const PAGE = 'api/compiler';

describe('/api/compiler/', () => {
  const examples = exampleTracker(PAGE);

  it('documents every compiler hook with its real class and arguments', () => {
    // A compiler created without a callback is not run.
    const compiler = webpack({ mode: 'none', entry: './nothing.js', infrastructureLogging: { level: 'none' } });
    const real = describeHooks(compiler.hooks);
    const report = hookProblems(PAGE, /hooks$/, real);
    reportCount('compiler hooks', real.length);
    expect(report.missing, 'hooks without a heading').toEqual([]);
    expect(report.stale, 'headings for hooks that do not exist').toEqual([]);
    expect(report.wrong, 'signatures that differ from the real hooks').toEqual([]);
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
