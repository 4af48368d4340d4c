import { execFile, spawn } from 'node:child_process';
import { appendFileSync, readdirSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { removeDir, scratchDir, writeFiles } from '../helpers/content.js';
import type { Stats } from 'webpack';
import { buildWith, exampleTracker, fixtureFiles, h3sUnder, readPage } from './api-helpers.js';
import { webpack } from '../helpers/webpack.js';

const run = promisify(execFile);
const PAGE = 'api/node';

/** A scratch project with the app fixture, a package.json without "type" and the given extra files. */
function project(name: string, extra: Record<string, string>): string {
  const dir = scratchDir(name);
  writeFiles(dir, { 'package.json': '{ "private": true }\n', ...fixtureFiles('app'), ...extra });
  return dir;
}

async function runScript(dir: string, script: string): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [join(dir, script)], { cwd: dir, timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('/api/node/', () => {
  const examples = exampleTracker(PAGE);

  it('documents compiler and Stats members that really exist', async () => {
    const build = await buildWith('api-node-members', fixtureFiles('app'), {});
    build.cleanup();
    const compiler = webpack({ mode: 'none', entry: './nothing.js', infrastructureLogging: { level: 'none' } });
    const owners: Record<string, Record<string, unknown>> = {
      compiler: compiler as unknown as Record<string, unknown>,
      stats: build.stats as unknown as Record<string, unknown>,
    };
    const problems: string[] = [];
    for (const section of [...h3sUnder(PAGE, 'Compiler'), ...h3sUnder(PAGE, 'Stats object')]) {
      const m = /^(compiler|stats)\.(\w+)(\(\))?$/.exec(section.text);
      if (!m) {
        problems.push(`${section.text}: not written as object.member`);
        continue;
      }
      const [, owner, member, call] = m;
      const target = owners[owner!]!;
      const exists = call ? typeof target[member!] === 'function' : member! in target && typeof target[member!] !== 'function';
      if (!exists) problems.push(`${section.text}: no such ${call ? 'method' : 'property'}`);
    }
    expect(problems).toEqual([]);
  });

  it('the Watching methods exist on a real Watching object', async () => {
    const dir = project('api-node-watching', {});
    try {
      const compiler = webpack({ mode: 'development', context: dir, output: { path: join(dir, 'dist') }, infrastructureLogging: { level: 'none' } });
      const watching = await new Promise<{ [k: string]: unknown; close(cb: () => void): void }>((resolve) => {
        const w = compiler.watch({}, () => resolve(w as never));
      });
      for (const section of h3sUnder(PAGE, 'Watching')) {
        const member = /^watching\.(\w+)\(\)$/.exec(section.text)?.[1];
        expect(member && typeof watching[member], section.text).toBe('function');
      }
      await new Promise<void>((resolve) => watching.close(() => compiler.close(() => resolve())));
    } finally {
      removeDir(dir);
    }
  });

  it('a second run() reuses modules only when caching is on (development mode by default)', async () => {
    const dir = project('api-node-rerun', {});
    // Files written a moment ago are within webpack's timestamp accuracy and count as changed on the
    // next run, whatever the cache: they are dated a minute back, as an edited project's files are.
    const past = new Date(Date.now() - 60_000);
    for (const file of readdirSync(dir, { recursive: true }) as string[]) utimesSync(join(dir, file), past, past);
    const secondRun = (mode: 'development' | 'production') =>
      new Promise<{ built: number; cached: number }>((resolve, reject) => {
        const compiler = webpack({ mode, context: dir, devtool: false, output: { path: join(dir, `dist-${mode}`) }, infrastructureLogging: { level: 'none' } });
        const run = () => new Promise<Stats>((res, rej) => compiler.run((err, stats) => (err ? rej(err) : res(stats!))));
        run()
          .then(run)
          .then((stats) => {
            const modules = (stats.toJson({ all: false, modules: true, cachedModules: true, groupModulesByCacheStatus: false }).modules ?? []).filter((m) => m.moduleType?.startsWith('javascript'));
            compiler.close(() => resolve({ built: modules.filter((m) => m.built).length, cached: modules.filter((m) => m.cached).length }));
          })
          .catch(reject);
      });
    try {
      const development = await secondRun('development');
      const production = await secondRun('production');
      expect(development.cached).toBeGreaterThan(0);
      expect(development.built).toBe(0);
      expect(production.cached).toBe(0);
      expect(production.built).toBeGreaterThan(0);
      expect(readPage(PAGE).body).toContain('in `production` and `none` mode `cache` defaults to `false`, and every run builds all modules again');
    } finally {
      removeDir(dir);
    }
  });

  it('watching.resume() starts a build even when nothing changed', async () => {
    const dir = project('api-node-resume', {});
    try {
      const compiler = webpack({ mode: 'development', context: dir, output: { path: join(dir, 'dist') }, infrastructureLogging: { level: 'none' } });
      let builds = 0;
      let onBuild: () => void = () => {};
      const watching = compiler.watch({ aggregateTimeout: 50 }, () => {
        builds++;
        onBuild();
      })!;
      const nextBuild = () => new Promise<void>((resolve) => (onBuild = resolve));
      const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
      await (builds > 0 ? Promise.resolve() : nextBuild());
      // Files written just before watching started can cause one extra build; let it pass.
      await sleep(1000);
      watching.suspend();
      const before = builds;
      await sleep(500);
      expect(builds, 'no build while suspended and unchanged').toBe(before);
      const next = nextBuild();
      watching.resume();
      await next;
      expect(builds).toBe(before + 1);
      await new Promise<void>((resolve) => watching.close(() => compiler.close(() => resolve())));
      expect(readPage(PAGE).body).toContain('starts a build right away, whether or not any file changed in the meantime');
    } finally {
      removeDir(dir);
    }
  });

  it('build.js succeeds on a working project and exits with 1 on a compilation error', async () => {
    const dir = project('api-node-build', { 'build.js': examples.code('build.js') });
    try {
      const ok = await runScript(dir, 'build.js');
      expect(ok.code).toBe(0);
      expect(ok.stdout).toMatch(/compiled successfully/);
      writeFiles(dir, { 'src/greeting.js': 'export function greet( {\n' });
      const broken = await runScript(dir, 'build.js');
      expect(broken.code).toBe(1);
      expect(broken.stderr).toContain('Module parse failed');
    } finally {
      removeDir(dir);
    }
  });

  it('watch.js rebuilds on a change and stops cleanly on SIGINT', async () => {
    const dir = project('api-node-watch', { 'watch.js': examples.code('watch.js') });
    try {
      const child = spawn(process.execPath, [join(dir, 'watch.js')], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      const waitFor = (pattern: RegExp, count = 1) =>
        new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`timed out waiting for ${pattern}; output so far:\n${output}`)), 20_000);
          const check = () => {
            if ((output.match(new RegExp(pattern, 'g')) ?? []).length >= count) {
              clearTimeout(timer);
              child.stdout.off('data', check);
              resolve();
            }
          };
          child.stdout.on('data', (d: Buffer) => {
            output += d.toString();
            check();
          });
          check();
        });
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      await waitFor(/built in \d+ ms with 0 errors/);
      // A change made right after watching starts can fall inside the file system's timestamp
      // resolution; keep changing the file until the rebuild shows up.
      let edits = 0;
      const edit = setInterval(() => appendFileSync(join(dir, 'src', 'greeting.js'), `\nexport const changed${edits++} = true;\n`), 1500);
      appendFileSync(join(dir, 'src', 'greeting.js'), '\nexport const changed = true;\n');
      try {
        await waitFor(/built in \d+ ms with 0 errors/, 2);
      } finally {
        clearInterval(edit);
      }
      child.kill('SIGINT');
      expect(await exited).toBe(0);
      expect(output).toContain('stopped watching');
    } finally {
      removeDir(dir);
    }
  });

  it('multi-build.js builds both configurations and reports each', async () => {
    const dir = project('api-node-multi', { 'multi-build.js': examples.code('multi-build.js') });
    try {
      const result = await runScript(dir, 'multi-build.js');
      expect(result.code).toBe(0);
      expect(result.stdout.trim().split('\n')).toEqual(['browser: later.js, main.js', 'server: later.js, main.js']);
    } finally {
      removeDir(dir);
    }
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
