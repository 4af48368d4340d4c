import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cachePath, readCheckedFileSync, writeCheckedFileSync } from '../../src/io/cache.js';
import { lockOutput, lockPath, tempFolderPrefix } from '../../src/build/output-lock.js';
import { OutputWriter } from '../../src/build/output.js';

/*
 * The output writer and the lock where the file system or time misbehave: hard links refused (as
 * some file systems refuse them), a full disk, thousands of files at once, a build that writes
 * faster than the disk, a lock held for longer than a build waits. The link function, the wait
 * limit and the clock are the tests' own (arguments no caller of the command can give), so that
 * these run without a special file system and without waiting minutes.
 */

const saved = { cache: process.env.DOCS_CACHE, dir: process.env.DOCS_CACHE_DIR };
let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'docs-output-edges-'));
  process.env.DOCS_CACHE = '1';
  process.env.DOCS_CACHE_DIR = join(scratch, 'cache');
});
afterAll(() => {
  for (const [name, value] of [['DOCS_CACHE', saved.cache], ['DOCS_CACHE_DIR', saved.dir]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(scratch, { recursive: true, force: true });
});

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

let count = 0;
function place(): { parent: string; target: string } {
  const parent = join(scratch, `site-${++count}`);
  return { parent, target: join(parent, 'dist') };
}
const read = (path: string) => readFileSync(path, 'utf8');
const inode = (path: string) => statSync(path).ino;
const failing = (code: string) => () => {
  throw Object.assign(new Error(`${code}: refused`), { code });
};

async function firstBuild(target: string, files: Record<string, string>): Promise<void> {
  const out = new OutputWriter(target);
  for (const [path, text] of Object.entries(files)) out.write(path, text, `key of ${text}`);
  await out.commit();
}

/** The last build's record of `target`, as the cache holds it. */
function manifestOf(target: string): { time: number; files: Record<string, [string, number]> } {
  const files = readdirSync(cachePath('output')).map((name) => JSON.parse(readCheckedFileSync(cachePath('output', name))!));
  return files.find((m) => m.target === target);
}

describe('the output writer where the file system refuses', () => {
  for (const code of ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK', 'ENOSYS']) {
    it(`copies a kept file where a hard link is refused with ${code}`, async () => {
      const { target } = place();
      await firstBuild(target, { 'a.html': 'aaa', 'sub/b.html': 'bbb' });
      const before = inode(join(target, 'a.html'));
      const out = new OutputWriter(target, { link: failing(code) });
      expect(out.keep('a.html', 'key of aaa')).toBe(true);
      expect(out.keep('sub/b.html', 'key of bbb')).toBe(true);
      await out.commit();
      expect(read(join(target, 'a.html'))).toBe('aaa');
      expect(read(join(target, 'sub/b.html'))).toBe('bbb');
      expect(inode(join(target, 'a.html'))).not.toBe(before);
    });
  }

  it('fails the commit on any other refusal of a link, and leaves the output as it was', async () => {
    const { target } = place();
    await firstBuild(target, { 'a.html': 'aaa' });
    const out = new OutputWriter(target, { link: failing('EIO') });
    expect(out.keep('a.html', 'key of aaa')).toBe(true);
    out.write('b.html', 'bbb');
    await expect(out.commit()).rejects.toMatchObject({ code: 'EIO' });
    await out.abort();
    expect(readdirSync(target).sort()).toEqual(['a.html']);
    expect(read(join(target, 'a.html'))).toBe('aaa');
  });

  it('links kept files with the link function it is given (the real one by default)', async () => {
    const { target } = place();
    await firstBuild(target, { 'a.html': 'aaa' });
    const linked: string[] = [];
    const out = new OutputWriter(target, { link: (from, to) => (linked.push(from), linkSync(from, to)) });
    out.keep('a.html', 'key of aaa');
    await out.commit();
    expect(linked).toEqual([join(target, 'a.html')]);
  });

  it.runIf(existsSync('/dev/full'))('names the file in a disk-full error, whose system message names none', async () => {
    const { target } = place();
    const out = new OutputWriter(target);
    // (A file of the temporary folder that leads to a device that is always full.)
    symlinkSync('/dev/full', join(out.temp, 'full.bin'));
    out.write('full.bin', 'bytes that do not fit');
    const error = await out.commit().catch((e: NodeJS.ErrnoException) => e);
    expect(error).toMatchObject({ code: 'ENOSPC', path: join(out.temp, 'full.bin') });
    await out.abort();
    expect(existsSync(target)).toBe(false);
  });

  it('keeps a file written in the very millisecond the last build ended', async () => {
    const { target } = place();
    await firstBuild(target, { 'a.html': 'aaa' });
    const { time } = manifestOf(target);
    // (Half a millisecond on: a time in seconds loses a little, and the file's time must not fall into the millisecond before.)
    utimesSync(join(target, 'a.html'), (time + 0.5) / 1000, (time + 0.5) / 1000);
    const out = new OutputWriter(target);
    expect(out.keep('a.html', 'key of aaa')).toBe(true);
    await out.abort();
    utimesSync(join(target, 'a.html'), (time + 1.5) / 1000, (time + 1.5) / 1000);
    const later = new OutputWriter(target);
    expect(later.keep('a.html', 'key of aaa')).toBe(false);
    await later.abort();
  });

  it('keeps a record per output folder, and none for a record of another format', async () => {
    const { parent, target } = place();
    const other = join(parent, 'other');
    await firstBuild(target, { 'a.html': 'aaa' });
    await firstBuild(other, { 'a.html': 'AAA' });
    expect(manifestOf(target).files['a.html']![0]).toBe('key of aaa');
    expect(manifestOf(other).files['a.html']![0]).toBe('key of AAA');
    const again = new OutputWriter(target);
    expect(again.keep('a.html', 'key of aaa')).toBe(true);
    await again.abort();
    // A record written by another version of the tool (another format) is not read.
    const name = readdirSync(cachePath('output')).find((n) => JSON.parse(readCheckedFileSync(cachePath('output', n))!).target === target)!;
    const record = JSON.parse(readCheckedFileSync(cachePath('output', name))!);
    writeCheckedFileSync(cachePath('output', name), JSON.stringify({ ...record, format: 99 }));
    const stranger = new OutputWriter(target);
    expect(stranger.keep('a.html', 'key of aaa')).toBe(false);
    await stranger.abort();
  });
});

/** A folder's files and their text, by path. */
function tree(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files[join(entry.parentPath, entry.name).slice(dir.length + 1)] = read(join(entry.parentPath, entry.name));
  }
  return files;
}

describe('the fault points of the commit (DOCS_FAULT, for the tests that kill a build there)', () => {
  const A = { 'index.html': 'A home', 'kept.css': 'same in both', 'a-only.html': 'A' };
  const B = { 'index.html': 'B home', 'kept.css': 'same in both', 'b-only.html': 'B' };
  /** What the output folder and its neighbours hold: "A" or "B" whole, "A set aside" (no folder, A whole beside it), or what else. */
  function state(target: string): string {
    const text = (files: Record<string, string>) => JSON.stringify(Object.entries(files).sort());
    const of = (files: Record<string, string>) => (text(files) === text(A) ? 'A' : text(files) === text(B) ? 'B' : text(files));
    if (existsSync(target)) return of(tree(target));
    const aside = readdirSync(dirname(target)).filter((name) => name.startsWith(tempFolderPrefix(target)) && name.endsWith('-old'));
    return aside.length === 1 ? `${of(tree(join(dirname(target), aside[0]!)))} set aside` : `no output (${aside.length} set aside)`;
  }
  /** Runs `step` with DOCS_FAULT=point, the kill it asks for taken as a look at the state there: the states seen, by point. */
  async function stopAt(point: string, target: string, step: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const kill = vi.spyOn(process, 'kill').mockImplementation((pid, signal) => {
      expect([pid, signal]).toEqual([process.pid, 'SIGKILL']);
      seen.push(state(target));
      return true;
    });
    process.env.DOCS_FAULT = point;
    try {
      await step();
    } finally {
      delete process.env.DOCS_FAULT;
      kill.mockRestore();
    }
    return seen;
  }

  const POINTS = [
    ['commit-start', 'A'],
    ['commit-manifest-removed', 'A'],
    ['commit-linking', 'A'],
    ['commit-linked', 'A'],
    ['commit-between-renames', 'A set aside'],
    ['commit-swapped', 'B'],
    ['commit-old-renamed', 'B'],
    ['commit-old-removed', 'B'],
    ['commit-done', 'B'],
  ] as const;
  for (const [point, expected] of POINTS) {
    it(`${point}: the output is ${expected} there`, async () => {
      const { target } = place();
      const first = new OutputWriter(target);
      for (const [path, text] of Object.entries(A)) first.write(path, text);
      await first.commit();
      const out = new OutputWriter(target);
      for (const [path, text] of Object.entries(B)) out.write(path, text);
      // (commit-linking is reached once per file linked: one here, the stylesheet both builds share.)
      expect(await stopAt(point, target, () => out.commit())).toEqual([expected]);
      expect(state(target)).toBe('B');
    });
  }

  it('recover-restored: the output set aside is back in place', async () => {
    const { parent, target } = place();
    mkdirSync(join(parent, `${tempFolderPrefix(target)}KILLED-old`), { recursive: true });
    for (const [path, text] of Object.entries(A)) writeFileSync(join(parent, `${tempFolderPrefix(target)}KILLED-old`, path), text);
    let lock: { release(): void } | undefined;
    expect(await stopAt('recover-restored', target, async () => (lock = await lockOutput(target)))).toEqual(['A']);
    lock!.release();
    expect(readdirSync(parent)).toEqual(['dist']);
  });
});

describe('the output writer under load', () => {
  it('keeps at most 128 files open at once, however many it writes', async () => {
    const { target } = place();
    const fds = () => readdirSync('/proc/self/fd').length;
    const baseline = fds();
    const out = new OutputWriter(target);
    let most = 0;
    const sampler = setInterval(() => (most = Math.max(most, fds())), 0);
    for (let i = 0; i < 600; i++) out.write(`f/${i}.txt`, 'x'.repeat(16 * 1024));
    for (let i = 0; i < 200; i++) {
      most = Math.max(most, fds());
      await new Promise((resolve) => setImmediate(resolve));
    }
    await out.commit();
    clearInterval(sampler);
    expect(readdirSync(join(target, 'f'))).toHaveLength(600);
    // (A few descriptors of the test runner's own come and go meanwhile.)
    expect(most - baseline).toBeLessThanOrEqual(128 + 16);
    expect(most - baseline).toBeGreaterThan(8);
  }, 60_000);

  it('does not make a caller wait while little is in flight', async () => {
    const { target } = place();
    const out = new OutputWriter(target);
    out.write('small.txt', 'small');
    await out.ready();
    // Still in flight: ready() did not wait for it.
    expect(existsSync(join(out.temp, 'small.txt')) && statSync(join(out.temp, 'small.txt')).size === 5).toBe(false);
    await out.commit();
    expect(read(join(target, 'small.txt'))).toBe('small');
  });

  it('makes the caller wait from 32 MB in flight, until less than that is', async () => {
    const { target } = place();
    const out = new OutputWriter(target);
    const size = 32 * 1024 * 1024;
    out.write('exact.bin', Buffer.alloc(size, 1));
    await out.ready();
    expect(statSync(join(out.temp, 'exact.bin')).size).toBe(size);
    const third = 20 * 1024 * 1024;
    for (const name of ['a.bin', 'b.bin', 'c.bin']) out.write(name, Buffer.alloc(third, 2));
    await out.ready();
    // 60 MB were in flight: two of the three files at least are written when the caller goes on.
    const written = ['a.bin', 'b.bin', 'c.bin'].filter((name) => existsSync(join(out.temp, name)) && statSync(join(out.temp, name)).size === third);
    expect(written.length).toBeGreaterThanOrEqual(2);
    await out.abort();
  }, 60_000);
});

const lockOf = (holder: Record<string, unknown>) => JSON.stringify({ docsLock: 1, ...holder }) + '\n';
function liveNode(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}
/** A clock that moves on `step` ms each time it is read. */
function clock(step: number): () => number {
  let now = 1_000_000;
  return () => (now += step);
}

describe('the lock where a build waits long or the file system lacks links', () => {
  it('gives up on a build that holds the lock for longer than the wait limit, naming it, the folder and the lock', async () => {
    const pid = liveNode();
    const { target } = place();
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(lockPath(target), lockOf({ pid, host: hostname() }));
    const told: number[] = [];
    await expect(lockOutput(target, (p) => told.push(p), { pollMs: 1, now: clock(60_000), waitLimitMs: 3 * 60_000 })).rejects.toThrow(
      `another build (process ${pid}) has been writing ${target} for over 3 minutes; stop it or remove ${lockPath(target)}`,
    );
    // Told once, though it looked several times.
    expect(told).toEqual([pid]);
    // Ten minutes by default.
    writeFileSync(lockPath(target), lockOf({ pid, host: 'another-machine', boot: 'another boot' }));
    await expect(lockOutput(target, undefined, { pollMs: 1, now: clock(4 * 60_000) })).rejects.toThrow(
      `another build (process ${pid} on another-machine) has been writing ${target} for over 10 minutes; stop it or remove ${lockPath(target)}`,
    );
  });

  it('waits until the limit itself, and takes the lock when the build ends then', async () => {
    const pid = liveNode();
    const { target } = place();
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(lockPath(target), lockOf({ pid }));
    let looks = 0;
    const lock = await lockOutput(target, undefined, {
      pollMs: 1,
      waitLimitMs: 9 * 60_000,
      now: () => {
        // The build ends at the fourth look, nine minutes after the first: the limit, not over it.
        if (++looks === 4) rmSync(lockPath(target));
        return looks * 3 * 60_000;
      },
    });
    expect(JSON.parse(read(lockPath(target))).pid).toBe(process.pid);
    lock.release();
  });

  for (const code of ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS']) {
    it(`makes the lock in place where a hard link is refused with ${code}, and still waits for a lock that is there`, async () => {
      const { target } = place();
      const lock = await lockOutput(target, undefined, { link: failing(code) });
      expect(JSON.parse(read(lockPath(target)))).toMatchObject({ docsLock: 1, pid: process.pid });
      expect(readdirSync(dirname(target))).toEqual(['.dist.lock']);
      lock.release();
      const pid = liveNode();
      writeFileSync(lockPath(target), lockOf({ pid }));
      const waited: number[] = [];
      const second = await lockOutput(
        target,
        (p) => {
          waited.push(p);
          rmSync(lockPath(target));
        },
        { link: failing(code), pollMs: 1 },
      );
      expect(waited).toEqual([pid]);
      second.release();
      expect(existsSync(lockPath(target))).toBe(false);
    });
  }

  it('fails on any other refusal of the link, leaving no file behind', async () => {
    const { target } = place();
    await expect(lockOutput(target, undefined, { link: failing('EIO') })).rejects.toMatchObject({ code: 'EIO' });
    expect(readdirSync(dirname(target))).toEqual([]);
    // Not held: a later build takes it.
    (await lockOutput(target)).release();
  });

  it('names the lock file in the error of a lock that cannot be written', async () => {
    // A name that fits, beside which the lock's temporary name is too long for the file system.
    const target = join(scratch, `long-${++count}`, 'd'.repeat(240));
    await expect(lockOutput(target)).rejects.toMatchObject({ code: 'ENAMETOOLONG', path: lockPath(target) });
  });

  it('releases quietly a lock whose file someone removed meanwhile', async () => {
    const { target } = place();
    const lock = await lockOutput(target);
    rmSync(lockPath(target));
    expect(() => lock.release()).not.toThrow();
    (await lockOutput(target)).release();
  });
});
