import { existsSync, linkSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { cachePath, readCachedFile, writeCachedFile } from '../../src/io/cache.js';
import { BuildRecord } from '../../src/io/record.js';
import { lockOutput, tempFolderPrefix } from '../../src/build/output-lock.js';
import { OutputWriter } from '../../src/build/output.js';
import { outputScratch } from '../helpers/output-scratch.js';

/*
 * The output writer where the file system misbehaves or is pushed: hard links refused (as some
 * file systems refuse them), a full disk, thousands of files at once, a build that writes faster
 * than the disk; and what the output folder holds at each fault point of the commit. The link
 * function is the tests' own (an argument no caller of the command can give), so that these run
 * without a special file system.
 */

const scratch = outputScratch('docs-output-edges-');


const place = scratch.place;
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

/** The file of the record of the last build into `target` (src/io/record.ts), in the cache's record/ folder. */
const recordName = (target: string) => `${new BuildRecord(target).id}.json`;
type Saved = { name: string; parts: Record<string, { key: string; value: unknown }> };
const recordOf = (target: string) => JSON.parse(readCachedFile('record', recordName(target))!.toString()) as Saved;

/** The last build's manifest of `target`, as its record holds it. */
function manifestOf(target: string): { time: number; files: Record<string, [string, number]> } {
  return recordOf(target).parts.output!.value as { time: number; files: Record<string, [string, number]> };
}

describe('the output writer where the file system refuses', () => {
  for (const code of ['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK', 'ENOSYS']) {
    it(`copies a kept file where a hard link is refused with ${code}`, async () => {
      const { target } = place();
      await firstBuild(target, { 'a.html': 'aaa', 'sub/b.html': 'bbb' });
      const before = inode(join(target, 'a.html'));
      const out = new OutputWriter(target, failing(code));
      expect(out.keep('a.html', 'key of aaa')).toBe(true);
      expect(out.keep('sub/b.html', 'key of bbb')).toBe(true);
      // (A file written too: a build that changes nothing leaves the folder as it is, and links nothing.)
      out.write('c.html', 'ccc');
      await out.commit();
      expect(read(join(target, 'c.html'))).toBe('ccc');
      expect(read(join(target, 'a.html'))).toBe('aaa');
      expect(read(join(target, 'sub/b.html'))).toBe('bbb');
      expect(inode(join(target, 'a.html'))).not.toBe(before);
    });
  }

  it('fails the commit on any other refusal of a link, and leaves the output as it was', async () => {
    const { target } = place();
    await firstBuild(target, { 'a.html': 'aaa' });
    const out = new OutputWriter(target, failing('EIO'));
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
    const out = new OutputWriter(target, (from, to) => (linked.push(from), linkSync(from, to)));
    out.keep('a.html', 'key of aaa');
    out.write('b.html', 'bbb');
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
    // A manifest made under another key (for another folder) is not read.
    const record = recordOf(target);
    expect(await writeCachedFile('record', recordName(target), JSON.stringify({ ...record, parts: { ...record.parts, output: { ...record.parts.output, key: other } } }))).toBe(true);
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
    const record = existsSync(cachePath('record', recordName(target)));
    return `${where()}${record ? ', with its record' : ''}`;
    function where(): string {
      if (existsSync(target)) return of(tree(target));
      const aside = readdirSync(dirname(target)).filter((name) => name.startsWith(tempFolderPrefix(target)) && name.endsWith('-old'));
      return aside.length === 1 ? `${of(tree(join(dirname(target), aside[0]!)))} set aside` : `no output (${aside.length} set aside)`;
    }
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

  // (No record of the last build while the folder changes: a commit stopped there is followed by a build that writes everything.)
  const POINTS = [
    ['commit-start', 'A, with its record'],
    ['commit-manifest-removed', 'A'],
    ['commit-linking', 'A'],
    ['commit-linked', 'A'],
    ['commit-between-renames', 'A set aside'],
    ['commit-swapped', 'B'],
    ['commit-old-renamed', 'B'],
    ['commit-old-removed', 'B'],
    ['commit-done', 'B, with its record'],
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
      expect(state(target)).toBe('B, with its record');
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

describe('the output writer keeping and moving files', () => {
  it('keeps a file where it is rather than moving another of the same key there', async () => {
    const { target } = place();
    await firstBuild(target, { 'a.json': 'same', 'b.json': 'same' });
    const b = inode(join(target, 'b.json'));
    const out = new OutputWriter(target);
    expect(out.keepMoved('b.json', 'key of same')).toBe(true);
    await out.commit();
    expect(inode(join(target, 'b.json'))).toBe(b);
  });

  it('moves any file of the key that is free, not only the last one the last build wrote', async () => {
    const { target } = place();
    await firstBuild(target, { 'a.json': 'same', 'b.json': 'same' });
    const a = inode(join(target, 'a.json'));
    const out = new OutputWriter(target);
    expect(out.keep('b.json', 'key of same')).toBe(true);
    expect(out.keepMoved('c.json', 'key of same')).toBe(true);
    await out.commit();
    expect(inode(join(target, 'c.json'))).toBe(a);
  });

  it('names the folder the system names in a write error, not the file', async () => {
    const { target } = place();
    const out = new OutputWriter(target);
    out.write('sub', 'a file where the next write needs a folder');
    await out.ready();
    await new Promise((resolve) => setTimeout(resolve, 50));
    out.write('sub/b.html', 'b');
    const error = await out.commit().catch((e: NodeJS.ErrnoException) => e);
    expect(error).toMatchObject({ path: join(out.temp, 'sub') });
    await out.abort();
  });

  it('can be discarded or aborted after its commit (Ctrl+C at the very end) without an error', async () => {
    const { target } = place();
    const out = new OutputWriter(target);
    out.write('a.html', 'aaa');
    await out.commit();
    expect(() => out.discard()).not.toThrow();
    await expect(out.abort()).resolves.toBeUndefined();
    expect(read(join(target, 'a.html'))).toBe('aaa');
  });

  it('reads no record that names another output folder', async () => {
    const { target } = place();
    await firstBuild(target, { 'a.html': 'aaa' });
    expect(await writeCachedFile('record', recordName(target), JSON.stringify({ ...recordOf(target), name: `${target}-elsewhere` }))).toBe(true);
    const out = new OutputWriter(target);
    expect(out.keep('a.html', 'key of aaa')).toBe(false);
    await out.abort();
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
    // (64 KB: little beside the 32 MB the writer lets be in flight.)
    out.write('small.txt', 'x'.repeat(64 * 1024));
    await out.ready();
    // Still in flight: ready() did not wait for it.
    expect(existsSync(join(out.temp, 'small.txt')) && statSync(join(out.temp, 'small.txt')).size === 64 * 1024).toBe(false);
    await out.commit();
    expect(read(join(target, 'small.txt'))).toBe('x'.repeat(64 * 1024));
  });

  /** Whether ready() resolves at once (before the next turn of the event loop, when no write can end). */
  const readyAtOnce = (out: OutputWriter) => Promise.race([out.ready().then(() => true), new Promise<boolean>((resolve) => setImmediate(() => resolve(false)))]);

  it('makes the caller wait from 32 MB in flight, until less than that is', async () => {
    const { target } = place();
    const out = new OutputWriter(target);
    const size = 32 * 1024 * 1024;
    out.write('exact.bin', Buffer.alloc(size, 1));
    expect(await readyAtOnce(out)).toBe(false);
    await out.ready();
    expect(statSync(join(out.temp, 'exact.bin')).size).toBe(size);
    expect(await readyAtOnce(out)).toBe(true);
    const third = 20 * 1024 * 1024;
    for (const name of ['a.bin', 'b.bin', 'c.bin']) out.write(name, Buffer.alloc(third, 2));
    await out.ready();
    // 60 MB were in flight: when the caller goes on, 20 MB at most are, and a caller goes on at once.
    expect(await readyAtOnce(out)).toBe(true);
    // 32 MB and one byte: once the byte is written, 32 MB are still in flight, and the caller still waits.
    out.write('one.bin', 'x');
    out.write('exact2.bin', Buffer.alloc(size, 3));
    await out.ready();
    expect(await readyAtOnce(out)).toBe(true);
    await out.abort();
  }, 60_000);

  it('writes file after file, each once the one before is written, without running out of places', async () => {
    const { target } = place();
    const out = new OutputWriter(target);
    for (let i = 0; i < 200; i++) {
      out.write(`${i}.txt`, 'text');
      const file = join(out.temp, `${i}.txt`);
      for (let tries = 0; !(existsSync(file) && statSync(file).size === 4); tries++) {
        if (tries > 2000) throw new Error(`file ${i} was never written`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    }
    await out.commit();
    expect(readdirSync(target)).toHaveLength(200);
  }, 60_000);
});
