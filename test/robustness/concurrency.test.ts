import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsIn, expectNoStack, goodBuild, leftovers, put, scratchSite, startDocs, treeHash, type Run, type Scratch } from './harness.js';

/*
 * Builds that run at once, or are stopped half way (F13-F15; report
 * section 4): two builds into one output folder take turns through a lock
 * file beside it, a killed build's temporary folder is removed by the next
 * build, Ctrl+C removes it at once, and the output is readable by other
 * users.
 */

let s: Scratch;
const FIRST = 'content/guides/first.md';
let first: string;

beforeAll(async () => {
  s = scratchSite();
  first = readFileSync(join(s.site, FIRST), 'utf8');
  await goodBuild(s);
});

afterAll(() => s?.remove());

/** The page in one of two versions, so that each round of builds has something new to write. */
const edit = (version: number) => writeFileSync(join(s.site, FIRST), `${first}\nVersion ${version} of this page.\n`);

describe('two builds into one output folder (F13)', () => {
  it('10 rounds: both exit 0, the output equals a clean build of the last one, no orphan index folder, nothing left over', async () => {
    // Clean builds of each version of the page with each base, cache off, for comparison.
    const clean = new Map<string, Map<string, string>>();
    for (const version of [0, 1]) {
      edit(version);
      for (const base of ['/', '/docs/']) {
        const out = `clean-${version}-${base.length}`;
        const run = await docsIn(s, ['build', '-q', '--out', out, '--base', base], { env: { DOCS_CACHE: '0' } });
        expect(run.code).toBe(0);
        clean.set(`${version} ${base}`, treeHash(join(s.site, out)));
        rmSync(join(s.site, out), { recursive: true });
      }
    }
    let waited = 0;
    for (let round = 0; round < 10; round++) {
      const version = round % 2;
      edit(version);
      // Even rounds: the same input twice (the crash of F13); odd rounds: two bases (the orphan folders of F13).
      const bases = round % 2 === 0 ? ['/', '/'] : ['/', '/docs/'];
      const closed: string[] = [];
      const runs = await Promise.all(
        bases.map((base, i) => {
          const { finished } = startDocs(['build', '-q', '--out', 'out', '--base', base], { cwd: s.site, env: { DOCS_CACHE_DIR: s.cache } });
          return finished.then((run: Run) => {
            closed.push(base);
            return { run, i };
          });
        }),
      );
      for (const { run } of runs) {
        expectNoStack(run);
        expect(run.stderr).toMatch(/^(?:Waiting for another build \(process \d+\) into out\/ to finish…\n)?$/);
        if (run.stderr) waited++;
        expect(run.code, `round ${round}: ${run.stderr}`).toBe(0);
      }
      const last = closed[1]!;
      expect(treeHash(join(s.site, 'out')), `round ${round}: the output is the clean build with base ${last}`).toEqual(clean.get(`${version} ${last}`));
      expect(leftovers(s.site), `round ${round}`).toEqual([]);
    }
    // Not an assertion of timing: a record of how often the lock made a build wait.
    console.info(`concurrent builds: a build waited for the other in ${waited} of 10 rounds`);
  });

  it('a lock left by a process that is gone is taken over', async () => {
    const dead = spawn('true');
    await new Promise((resolve) => dead.on('exit', resolve));
    writeFileSync(join(s.site, '.dist.lock'), `${dead.pid}\n`);
    const run = await docsIn(s, ['build', '-q']);
    expectNoStack(run);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(leftovers(s.site)).toEqual([]);
  });

  it('a build waits while a live build holds the lock, and says so', async () => {
    // A Node.js process that started before the lock was written, as the build that wrote it would have.
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await new Promise((resolve) => holder.on('spawn', resolve));
      writeFileSync(join(s.site, '.dist.lock'), `${holder.pid}\n`);
      const { child, finished } = startDocs(['build', '-q'], { cwd: s.site, env: { DOCS_CACHE_DIR: s.cache } });
      let stderr = '';
      await new Promise<void>((resolve) =>
        child.stderr!.on('data', (c: Buffer) => {
          stderr += c.toString();
          if (stderr.includes('\n')) resolve();
        }),
      );
      expect(stderr).toBe(`Waiting for another build (process ${holder.pid}) into dist/ to finish…\n`);
      expect(child.exitCode).toBe(null);
      holder.kill('SIGKILL');
      const run = await finished;
      expectNoStack(run);
      expect(run.code).toBe(0);
      expect(leftovers(s.site)).toEqual([]);
    } finally {
      holder.kill('SIGKILL');
    }
  });
});

describe('locks left by builds that are gone, whose process id now names another process (P2)', () => {
  /** A build that must take the lock over at once: it never waits, and leaves no lock behind. */
  async function takesOver(prefix: string[] = []) {
    const run = await docsIn(s, ['build', '-q'], { prefix });
    expectNoStack(run);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(leftovers(s.site)).toEqual([]);
  }

  it('a lock that names the new build\'s own process id (a container, where every run is process 1)', async () => {
    await takesOver(['sh', '-c', 'echo $$ > .dist.lock && exec "$0" "$@"']);
  });

  it('a lock whose process id names a live program that is not a build (sleep)', async () => {
    const other = spawn('sleep', ['60']);
    try {
      await new Promise((resolve) => other.on('spawn', resolve));
      writeFileSync(join(s.site, '.dist.lock'), `${other.pid}\n`);
      await takesOver();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('a lock whose process id names a live Node.js process that started at another time than the lock says', async () => {
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    try {
      await new Promise((resolve) => other.on('spawn', resolve));
      const lock = { docsLock: 1, pid: other.pid, host: hostname(), boot: readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim(), started: Date.now() - 3_600_000 };
      writeFileSync(join(s.site, '.dist.lock'), JSON.stringify(lock));
      await takesOver();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('a lock from an earlier boot of this machine', async () => {
    writeFileSync(join(s.site, '.dist.lock'), JSON.stringify({ docsLock: 1, pid: process.pid, host: hostname(), boot: 'an-earlier-boot', started: 1 }));
    await takesOver();
  });

  it('an empty lock (a full disk while it was written), a torn one, and an empty folder by its name', async () => {
    writeFileSync(join(s.site, '.dist.lock'), '');
    await takesOver();
    writeFileSync(join(s.site, '.dist.lock'), '{"docsLock":1,"pi');
    await takesOver();
    mkdirSync(join(s.site, '.dist.lock'));
    await takesOver();
  });

  it('a folder with files by the lock\'s name is refused with a message, exit 2, and kept', async () => {
    mkdirSync(join(s.site, '.dist.lock'));
    writeFileSync(join(s.site, '.dist.lock', 'notes.txt'), 'mine\n');
    try {
      const run = await docsIn(s, ['build', '-q']);
      expectNoStack(run);
      expect(run.stderr).toBe(`${join(s.site, '.dist.lock')} is a folder with files in it, where a build keeps its lock; move it away and build again\n`);
      expect(run.code).toBe(2);
      expect(readFileSync(join(s.site, '.dist.lock', 'notes.txt'), 'utf8')).toBe('mine\n');
    } finally {
      rmSync(join(s.site, '.dist.lock'), { recursive: true });
    }
  });
});

describe('interrupted builds (F14)', () => {
  beforeAll(() => {
    // A site big enough that its write phase lasts a moment: 200 more pages.
    const body = readFileSync(join(s.site, 'content/guides/long.md'), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
    for (let i = 0; i < 200; i++) put(s, `content/bulk/page-${i}.md`, `---\ntitle: Bulk page ${i}\n---\n${body}`);
  });
  afterAll(async () => {
    rmSync(join(s.site, 'content/bulk'), { recursive: true, force: true });
  });

  /**
   * Starts a build that rewrites every file, and sends `signal` as soon as its temporary folder exists.
   * The pages come from the render cache (quick to reach the write phase), but the record of what the
   * last build wrote is removed, so that nothing is kept and the write phase lasts.
   */
  async function interrupt(signal: NodeJS.Signals): Promise<Run> {
    rmSync(join(s.cache, 'record'), { recursive: true, force: true });
    const { child, finished } = startDocs(['build', '-q'], { cwd: s.site, env: { DOCS_CACHE_DIR: s.cache } });
    let sent = false;
    await new Promise<void>((resolve) => {
      const poll = setInterval(() => {
        if (readdirSync(s.site).some((name) => name.startsWith('.dist-build-'))) {
          child.kill(signal);
          sent = true;
        }
        if (sent || child.exitCode !== null) {
          clearInterval(poll);
          resolve();
        }
      }, 5);
    });
    const run = await finished;
    expect(sent, `the build ended before its temporary folder was seen: ${run.stderr}`).toBe(true);
    return run;
  }

  it('SIGKILL mid-build leaves the output intact; the next build removes what it left', async () => {
    await goodBuild(s);
    const before = treeHash(join(s.site, 'dist'));
    const killed = await interrupt('SIGKILL');
    expect(killed.signal).toBe('SIGKILL');
    // What a killed build leaves: its temporary folder and its lock (nothing can remove them).
    expect(leftovers(s.site).some((name) => name.startsWith('.dist-build-'))).toBe(true);
    expect(treeHash(join(s.site, 'dist'))).toEqual(before);
    const next = await docsIn(s, ['build', '-q']);
    expectNoStack(next);
    expect(next.stderr).toBe('');
    expect(next.code).toBe(0);
    expect(leftovers(s.site)).toEqual([]);
  });

  it('SIGINT (Ctrl+C) mid-build: exit 130, no temporary folder, no lock, the output intact', async () => {
    const before = treeHash(join(s.site, 'dist'));
    const run = await interrupt('SIGINT');
    expectNoStack(run);
    expect(run.code).toBe(130);
    expect(leftovers(s.site)).toEqual([]);
    expect(treeHash(join(s.site, 'dist'))).toEqual(before);
  });

  it('SIGTERM mid-build: exit 143, no temporary folder, no lock, the output intact', async () => {
    const before = treeHash(join(s.site, 'dist'));
    const run = await interrupt('SIGTERM');
    expectNoStack(run);
    expect(run.code).toBe(143);
    expect(leftovers(s.site)).toEqual([]);
    expect(treeHash(join(s.site, 'dist'))).toEqual(before);
  });
});

describe('the output as a web server running as another user sees it (F15)', () => {
  /** Modes of every folder and file under `dir`. */
  function modes(dir: string): { dirs: Set<string>; files: Set<string> } {
    const dirs = new Set<string>([(statSync(dir).mode & 0o777).toString(8)]);
    const files = new Set<string>();
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const mode = (statSync(join(entry.parentPath, entry.name)).mode & 0o777).toString(8);
      (entry.isDirectory() ? dirs : files).add(mode);
    }
    return { dirs, files };
  }

  for (const [umask, dir, file] of [
    ['022', '755', '644'],
    ['027', '750', '640'],
  ] as const) {
    it(`umask ${umask}: folders ${dir}, files ${file}`, async () => {
      rmSync(join(s.site, 'perm'), { recursive: true, force: true });
      const run = await docsIn(s, ['build', '-q', '--out', 'perm'], { prefix: ['sh', '-c', `umask ${umask} && exec "$@"`, 'sh'], env: { DOCS_CACHE: '0' } });
      expect(run.code).toBe(0);
      expect(modes(join(s.site, 'perm'))).toEqual({ dirs: new Set([dir]), files: new Set([file]) });
    });
  }
});

describe('search-index folders', () => {
  it('a folder that no file of the build names is removed', async () => {
    await goodBuild(s);
    const index = join(s.site, 'dist/search-index');
    const own = readdirSync(index);
    put(s, 'dist/search-index/0123456789ab/p0.bin', 'orphan');
    const run = await docsIn(s, ['build', '-q']);
    expect(run.code).toBe(0);
    expect(readdirSync(index).sort()).toEqual(own.sort());
    expect(existsSync(join(index, '0123456789ab'))).toBe(false);
  });
});
