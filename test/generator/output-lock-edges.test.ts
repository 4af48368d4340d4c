import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockOutput, processStarted, tempFolderPrefix } from '../../src/build/output-lock.js';
import { lockPath, outputScratch } from '../helpers/output-scratch.js';

/*
 * The lock of an output folder where the file system or time misbehave: hard links refused (as
 * some file systems refuse them), a lock held for longer than a build waits, older and odd lock
 * files, outputs set aside by killed builds. The link function, the wait limit and the clock are
 * the tests' own (arguments no caller of the command can give), so that these run without a
 * special file system and without waiting minutes.
 */

const scratch = outputScratch('docs-output-lock-edges-');

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const place = scratch.place;
const read = (path: string) => readFileSync(path, 'utf8');
const failing = (code: string) => () => {
  throw Object.assign(new Error(`${code}: refused`), { code });
};



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
    const target = join(scratch.dir, `long-${Date.now()}`, 'd'.repeat(240));
    await expect(lockOutput(target)).rejects.toMatchObject({ code: 'ENAMETOOLONG', path: lockPath(target) });
  });

  it('reads an older lock as a bare process id on a line, and nothing else as one', async () => {
    const pid = liveNode();
    for (const [contents, waits] of [[`${pid}`, true], [`${pid}\n`, true], [`${pid}\n\n`, true], [`${pid}abc\n`, false], [` ${pid}\n`, false], [`x${pid}\n`, false]] as const) {
      const { target } = place();
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(lockPath(target), contents);
      const waited: number[] = [];
      const lock = await lockOutput(target, (p) => {
        waited.push(p);
        rmSync(lockPath(target));
      }, { pollMs: 1 });
      lock.release();
      expect(waited, JSON.stringify(contents)).toEqual(waits ? [pid] : []);
    }
  });

  it('writes the lock as one line, readable by all', async () => {
    const { target } = place();
    const lock = await lockOutput(target);
    expect(read(lockPath(target))).toMatch(/^\{"docsLock":1,[^\n]*\}\n$/);
    expect(statSync(lockPath(target)).mode & 0o777).toBe(0o644 & ~process.umask());
    lock.release();
  });

  it('takes a lock whose start time is a second or more from its process, and waits for one within it', async () => {
    const pid = liveNode();
    const started = processStarted(pid)!;
    for (const [offset, waits] of [[-1000, false], [1000, false], [-990, true], [990, true]] as const) {
      const { target } = place();
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(lockPath(target), lockOf({ pid, started: started + offset }));
      const waited: number[] = [];
      const lock = await lockOutput(target, (p) => {
        waited.push(p);
        rmSync(lockPath(target));
      }, { pollMs: 1 });
      lock.release();
      expect(waited, String(offset)).toEqual(waits ? [pid] : []);
    }
  });

  it('puts back the latest output set aside, whichever the folder lists first', async () => {
    for (const order of [['EARLY', 'LATER'], ['LATER', 'EARLY']]) {
      const { parent, target } = place();
      mkdirSync(parent, { recursive: true });
      for (const name of order) {
        const folder = join(parent, `${tempFolderPrefix(target)}${name}-old`);
        mkdirSync(folder);
        writeFileSync(join(folder, 'a.html'), name);
        const time = new Date(Date.now() - (name === 'EARLY' ? 120_000 : 60_000));
        utimesSync(folder, time, time);
      }
      (await lockOutput(target)).release();
      expect(read(join(target, 'a.html'))).toBe('LATER');
      expect(readdirSync(parent)).toEqual(['dist']);
    }
  });

  it('releases quietly a lock whose file someone removed meanwhile', async () => {
    const { target } = place();
    const lock = await lockOutput(target);
    rmSync(lockPath(target));
    expect(() => lock.release()).not.toThrow();
    (await lockOutput(target)).release();
  });
});
