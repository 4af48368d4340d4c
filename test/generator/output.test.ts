import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockOutput, processStarted, tempFolderPrefix } from '../../src/build/output-lock.js';
import { OutputWriter } from '../../src/build/output.js';
import { lockPath, outputScratch } from '../helpers/output-scratch.js';

/*
 * The atomic output writer (src/build/output.ts) and the lock of an output folder
 * (src/build/output-lock.ts), through their exported interface: what the output folder
 * and its neighbours hold before and after a commit, which files a later build keeps
 * (the same file, not a copy), and which locks a build waits for or takes over.
 */

const scratch = outputScratch('docs-output-');

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

const place = scratch.place;

const read = (path: string) => readFileSync(path, 'utf8');
const inode = (path: string) => statSync(path).ino;
/** Names beside the output folder that builds leave: temporary folders and locks. */
const leftovers = (parent: string) => readdirSync(parent).filter((n) => n !== 'dist').sort();

/** A first build of `files` into `target`. */
async function firstBuild(target: string, files: Record<string, string>): Promise<void> {
  const out = new OutputWriter(target);
  for (const [path, text] of Object.entries(files)) out.write(path, text, `key of ${text}`);
  await out.commit();
}

describe('the output writer', () => {
  it('leaves the output folder as it is when a build keeps every file where it is and writes none; any change swaps it', async () => {
    const { parent, target } = place();
    // (The build names its assets by their URL path, with a slash in front.)
    const files = { 'index.html': 'home', 'guides/index.html': 'guides', '/assets/app.js': 'script' };
    await firstBuild(target, files);
    const folder = inode(target);
    const again = async (extra: (out: OutputWriter) => void = () => undefined) => {
      const out = new OutputWriter(target);
      for (const [path, text] of Object.entries(files)) out.write(path, text, `key of ${text}`);
      extra(out);
      await out.commit();
    };
    await again();
    // The same folder, no temporary folder left beside it, and the next build still keeps the files.
    expect(inode(target)).toBe(folder);
    expect(leftovers(parent).filter((n) => !n.endsWith('.lock'))).toEqual([]);
    await again();
    expect(inode(target)).toBe(folder);
    // A file added by hand goes, as with any build: the folder is swapped.
    writeFileSync(join(target, 'mine.txt'), 'added by hand');
    await again();
    expect(existsSync(join(target, 'mine.txt'))).toBe(false);
    expect(read(join(target, 'guides/index.html'))).toBe('guides');
    const swapped = inode(target);
    expect(swapped).not.toBe(folder);
    // A file more, or one fewer, is a change too.
    await again((out) => out.write('new.html', 'new', 'key of new'));
    expect(read(join(target, 'new.html'))).toBe('new');
    expect(inode(target)).not.toBe(swapped);
    const withNew = inode(target);
    await again();
    expect(existsSync(join(target, 'new.html'))).toBe(false);
    expect(inode(target)).not.toBe(withNew);
  });

  it('writes into a temporary folder beside the output, and swaps it in whole at commit', async () => {
    const { parent, target } = place();
    const out = new OutputWriter(target);
    expect(dirname(out.temp)).toBe(parent);
    expect(basename(out.temp).startsWith('.dist-build-')).toBe(true);
    expect(basename(out.temp).length).toBe('.dist-build-'.length + 6);
    expect(statSync(out.temp).mode & 0o777).toBe(0o777 & ~process.umask());
    out.write('index.html', '<p>é</p>');
    out.write('assets/app.css', Buffer.from('body{}'));
    out.write('big/page.html', '<p>piece é😀</p>');
    await out.ready();
    expect(existsSync(target)).toBe(false);
    await out.commit();
    expect(read(join(target, 'index.html'))).toBe('<p>é</p>');
    expect(read(join(target, 'assets/app.css'))).toBe('body{}');
    expect(read(join(target, 'big/page.html'))).toBe('<p>piece é😀</p>');
    expect(statSync(target).mode & 0o777).toBe(0o777 & ~process.umask());
    expect(leftovers(parent)).toEqual([]);
  });

  it('leaves nothing of the previous output that this build did not write or keep', async () => {
    const { parent, target } = place();
    await firstBuild(target, { 'old.html': 'old', 'keep.html': 'kept' });
    const out = new OutputWriter(target);
    out.write('new.html', 'new');
    await out.commit();
    expect(readdirSync(target)).toEqual(['new.html']);
    expect(leftovers(parent)).toEqual([]);
  });

  it('writes many more files than it keeps open at once', async () => {
    const { target } = place();
    const out = new OutputWriter(target);
    for (let i = 0; i < 400; i++) out.write(`pages/${i % 7}/${i}.html`, `page ${i}`);
    await out.commit();
    for (let i = 0; i < 400; i++) expect(read(join(target, `pages/${i % 7}/${i}.html`))).toBe(`page ${i}`);
  });

  it('makes a caller that writes faster than the disk wait until what is in flight is written', async () => {
    const { target } = place();
    const out = new OutputWriter(target);
    const size = 40 * 1024 * 1024;
    out.write('huge.bin', Buffer.alloc(size, 1));
    await out.ready();
    expect(statSync(join(out.temp, 'huge.bin')).size).toBe(size);
    await out.abort();
  });

  it('keeps a file of the last build whose key did not change: the same file, not a copy', async () => {
    const { target } = place();
    await firstBuild(target, { 'a.html': 'aaa', 'b.html': 'bbb', 'c/d.html': 'ddd' });
    const before = { a: inode(join(target, 'a.html')), d: inode(join(target, 'c/d.html')) };
    const out = new OutputWriter(target);
    expect(out.keep('a.html', 'key of aaa')).toBe(true);
    expect(out.keep('b.html', 'another key')).toBe(false);
    expect(out.keep('missing.html', 'key of aaa')).toBe(false);
    out.write('b.html', 'BBB', 'another key');
    // Written with the key it had: kept, not written again.
    out.write('c/d.html', 'not written', 'key of ddd');
    await out.commit();
    expect(read(join(target, 'a.html'))).toBe('aaa');
    expect(read(join(target, 'b.html'))).toBe('BBB');
    expect(read(join(target, 'c/d.html'))).toBe('ddd');
    expect(inode(join(target, 'a.html'))).toBe(before.a);
    expect(inode(join(target, 'c/d.html'))).toBe(before.d);
    // And the build after keeps them again (the record follows each build).
    const third = new OutputWriter(target);
    expect(third.keep('a.html', 'key of aaa')).toBe(true);
    expect(third.keep('b.html', 'another key')).toBe(true);
    expect(third.keep('c/d.html', 'key of ddd')).toBe(true);
    await third.abort();
  });

  it('keeps a file of its contents\' hash when no key is given', async () => {
    const { target } = place();
    const first = new OutputWriter(target);
    first.write('a.txt', 'same bytes');
    first.write('b.txt', Buffer.from('buffer bytes'));
    await first.commit();
    const ino = inode(join(target, 'a.txt'));
    const out = new OutputWriter(target);
    out.write('a.txt', 'same bytes');
    out.write('b.txt', Buffer.from('other bytes'));
    await out.commit();
    expect(inode(join(target, 'a.txt'))).toBe(ino);
    expect(read(join(target, 'b.txt'))).toBe('other bytes');
  });

  it('writes again a file someone changed, resized or removed since the last build', async () => {
    const { target } = place();
    await firstBuild(target, { 'touched.html': 'one', 'resized.html': 'two', 'gone.html': 'three', 'folder.html': 'four' });
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(target, 'touched.html'), later, later);
    writeFileSync(join(target, 'resized.html'), 'two and more');
    // (Put back with its old time: the size alone tells.)
    const old = statSync(join(target, 'touched.html')).atime;
    utimesSync(join(target, 'resized.html'), old, new Date(Date.now() - 60_000));
    rmSync(join(target, 'gone.html'));
    rmSync(join(target, 'folder.html'));
    mkdirSync(join(target, 'folder.html'));
    const out = new OutputWriter(target);
    expect(out.keep('touched.html', 'key of one')).toBe(false);
    expect(out.keep('resized.html', 'key of two')).toBe(false);
    expect(out.keep('gone.html', 'key of three')).toBe(false);
    expect(out.keep('folder.html', 'key of four')).toBe(false);
    await out.abort();
  });

  it('keeps nothing without the cache, for another output folder, or when the output folder is gone', async () => {
    const { parent, target } = place();
    await firstBuild(target, { 'a.html': 'aaa' });
    process.env.DOCS_CACHE = '0';
    try {
      const uncached = new OutputWriter(target);
      expect(uncached.keep('a.html', 'key of aaa')).toBe(false);
      expect(uncached.keepMoved('b.html', 'key of aaa')).toBe(false);
      await uncached.abort();
    } finally {
      process.env.DOCS_CACHE = '1';
    }
    const other = new OutputWriter(join(parent, 'other'));
    expect(other.keep('a.html', 'key of aaa')).toBe(false);
    await other.abort();
    rmSync(target, { recursive: true });
    writeFileSync(target, 'not a folder');
    const replaced = new OutputWriter(target);
    expect(replaced.keep('a.html', 'key of aaa')).toBe(false);
    await replaced.abort();
  });

  it('writes everything again after a commit that stopped half way (no record while the folder changes)', async () => {
    const { target } = place();
    await firstBuild(target, { 'a.html': 'aaa' });
    const out = new OutputWriter(target);
    expect(out.keep('a.html', 'key of aaa')).toBe(true);
    out.write('sub', 'a file where the next write needs a folder');
    out.write('sub/b.html', 'b');
    await expect(out.commit()).rejects.toMatchObject({ path: expect.stringContaining(out.temp) });
    await out.abort();
    expect(read(join(target, 'a.html'))).toBe('aaa');
    expect(existsSync(out.temp)).toBe(false);
  });

  it('moves a file whose key the last build wrote at another path, once', async () => {
    const { target } = place();
    await firstBuild(target, { 'index/v1/data.json': '{"v":1}', 'same.json': 'same', 'twin-a.json': 'twin', 'twin-b.json': 'twin' });
    const ino = inode(join(target, 'index/v1/data.json'));
    const out = new OutputWriter(target);
    expect(out.keepMoved('same.json', 'key of same')).toBe(true);
    expect(out.keepMoved('index/v2/data.json', 'key of {"v":1}')).toBe(true);
    expect(out.keepMoved('index/v3/data.json', 'key of {"v":1}')).toBe(false);
    expect(out.keepMoved('nowhere.json', 'an unknown key')).toBe(false);
    // Two files of one key: each moves once; one kept where it is does not move.
    expect(out.keep('twin-a.json', 'key of twin')).toBe(true);
    expect(out.keepMoved('twin-c.json', 'key of twin')).toBe(true);
    expect(out.keepMoved('twin-d.json', 'key of twin')).toBe(false);
    await out.commit();
    expect(read(join(target, 'index/v2/data.json'))).toBe('{"v":1}');
    expect(inode(join(target, 'index/v2/data.json'))).toBe(ino);
    expect(existsSync(join(target, 'index/v1'))).toBe(false);
    expect(readdirSync(target).sort()).toEqual(['index', 'same.json', 'twin-a.json', 'twin-c.json']);
    const next = new OutputWriter(target);
    expect(next.keep('index/v2/data.json', 'key of {"v":1}')).toBe(true);
    await next.abort();
  });

  it('moves no file that was changed since the last build', async () => {
    const { target } = place();
    await firstBuild(target, { 'v1.json': 'data' });
    writeFileSync(join(target, 'v1.json'), 'changed!');
    const out = new OutputWriter(target);
    expect(out.keepMoved('v2.json', 'key of data')).toBe(false);
    await out.abort();
  });

  it('records a file another writer put in the temporary folder, and keeps it in the next build', async () => {
    const { target } = place();
    const out = new OutputWriter(target);
    writeFileSync(join(out.temp, 'search.json'), '[1,2,3]');
    out.writtenElsewhere('search.json', 'search key', 7);
    await out.commit();
    expect(read(join(target, 'search.json'))).toBe('[1,2,3]');
    const next = new OutputWriter(target);
    expect(next.keep('search.json', 'search key')).toBe(true);
    await next.abort();
  });

  it('records the size in bytes of what it wrote, so that the next build keeps it', async () => {
    const { target } = place();
    const out = new OutputWriter(target);
    out.write('text.html', 'é😀 wide', 'text key');
    await out.commit();
    const next = new OutputWriter(target);
    expect(next.keep('text.html', 'text key')).toBe(true);
    await next.abort();
  });

  it('removes its temporary folder when discarded or aborted, and leaves the output as it was', async () => {
    const { parent, target } = place();
    await firstBuild(target, { 'a.html': 'aaa' });
    const discarded = new OutputWriter(target);
    discarded.write('a.html', 'changed');
    discarded.discard();
    expect(existsSync(discarded.temp)).toBe(false);
    const aborted = new OutputWriter(target);
    aborted.write('a.html', 'changed');
    await aborted.abort();
    expect(existsSync(aborted.temp)).toBe(false);
    expect(read(join(target, 'a.html'))).toBe('aaa');
    expect(leftovers(parent)).toEqual([]);
  });
});

/** A process id that no process has now. */
function deadPid(): number {
  const run = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(run.stdout);
}

/** A Node.js process that runs until the test ends. */
function liveNode(): number {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  children.push(child);
  return child.pid!;
}

function bootId(): string | undefined {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}

const lockOf = (holder: Record<string, unknown>) => JSON.stringify({ docsLock: 1, ...holder }) + '\n';

/** Takes the lock of `target` with the lock file holding `contents` beforehand; whom it waited for (it removes the lock then). */
async function takeOver(target: string, contents: string): Promise<number[]> {
  mkdirSync(dirname(target), { recursive: true });
  writeFileSync(lockPath(target), contents);
  const waited: number[] = [];
  const lock = await lockOutput(target, (pid) => {
    waited.push(pid);
    rmSync(lockPath(target));
  });
  expect(JSON.parse(read(lockPath(target))).pid).toBe(process.pid);
  lock.release();
  return waited;
}

describe('the lock of an output folder', () => {
  it('is a file beside the output folder naming this process, removed when released', async () => {
    const { parent, target } = place();
    expect(tempFolderPrefix(target)).toBe('.dist-build-');
    const lock = await lockOutput(target);
    const holder = JSON.parse(read(join(parent, '.dist.lock')));
    expect(holder).toEqual({ docsLock: 1, pid: process.pid, host: hostname(), boot: bootId(), started: processStarted(process.pid) });
    expect(readdirSync(parent)).toEqual(['.dist.lock']);
    await expect(lockOutput(target)).rejects.toThrow(`this process already builds into ${target}`);
    lock.release();
    lock.release();
    expect(readdirSync(parent)).toEqual([]);
    // Free again.
    (await lockOutput(target)).release();
  });

  it('releases once: a second release leaves the lock this process took again meanwhile', async () => {
    const { target } = place();
    const first = await lockOutput(target);
    first.release();
    const second = await lockOutput(target);
    first.release();
    expect(JSON.parse(read(lockPath(target))).pid).toBe(process.pid);
    await expect(lockOutput(target)).rejects.toThrow('this process already builds into');
    second.release();
    expect(existsSync(lockPath(target))).toBe(false);
  });

  it('leaves a lock another build took meanwhile when released', async () => {
    const { target } = place();
    const lock = await lockOutput(target);
    writeFileSync(lockPath(target), lockOf({ pid: deadPid() }));
    lock.release();
    expect(existsSync(lockPath(target))).toBe(true);
  });

  it('takes over at once a lock whose build is gone, and anything that is no lock', async () => {
    for (const contents of [lockOf({ pid: 0 }), lockOf({ pid: deadPid() }), `${deadPid()}\n`, '', '0\n', '{"docsLock":1,"pid"', lockOf({ pid: -3 }), lockOf({ pid: 1.5 }), JSON.stringify({ docsLock: 2, pid: liveNode() }), 'garbage']) {
      const { target } = place();
      expect(await takeOver(target, contents), contents).toEqual([]);
    }
  });

  it('takes over a lock naming this very process, or a process that is not Node.js', async () => {
    const sleeper = spawn('sleep', ['60'], { stdio: 'ignore' });
    children.push(sleeper);
    expect(await takeOver(place().target, lockOf({ pid: process.pid }))).toEqual([]);
    expect(await takeOver(place().target, lockOf({ pid: sleeper.pid, started: processStarted(sleeper.pid!) }))).toEqual([]);
  });

  it('waits for a build that is running (telling once whom it waits for), and takes the lock when it ends', async () => {
    const pid = liveNode();
    expect(await takeOver(place().target, lockOf({ pid, host: hostname(), boot: bootId(), started: processStarted(pid) }))).toEqual([pid]);
    // An older lock: the process id alone.
    expect(await takeOver(place().target, `${pid}\n`)).toEqual([pid]);
    // Another machine's build cannot be asked: it is waited for.
    expect(await takeOver(place().target, lockOf({ pid, host: 'another-machine', boot: 'another boot' }))).toEqual([pid]);
  });

  it('takes over a lock whose process id now names a later process, or one of another boot of this machine', async () => {
    const pid = liveNode();
    const started = processStarted(pid)!;
    expect(await takeOver(place().target, lockOf({ pid, started: started - 5000 }))).toEqual([]);
    expect(await takeOver(place().target, lockOf({ pid, started: started + 5000 }))).toEqual([]);
    expect(await takeOver(place().target, lockOf({ pid, started: started + 500 }))).toEqual([pid]);
    expect(await takeOver(place().target, lockOf({ pid, host: hostname(), boot: 'a boot before this one' }))).toEqual([]);
    // An older lock written before its process started.
    const { target } = place();
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(lockPath(target), `${pid}\n`);
    utimesSync(lockPath(target), new Date(started - 60_000), new Date(started - 60_000));
    (await lockOutput(target, () => expect.fail('waited for a lock written before its process started'))).release();
  });

  it('removes an empty folder where the lock goes, and refuses one with files in it', async () => {
    const empty = place().target;
    mkdirSync(lockPath(empty), { recursive: true });
    (await lockOutput(empty)).release();
    const full = place().target;
    mkdirSync(lockPath(full), { recursive: true });
    writeFileSync(join(lockPath(full), 'file'), 'x');
    await expect(lockOutput(full)).rejects.toThrow(`${lockPath(full)} is a folder with files in it, where a build keeps its lock; move it away and build again`);
  });

  it('removes the temporary folders of builds into the same folder that never finished, and only those', async () => {
    const { parent, target } = place();
    await firstBuild(target, { 'a.html': 'aaa' });
    for (const name of ['.dist-build-AAAAAA', '.dist-build-BBBBBB-old', '.other-build-CCCCCC', 'dist-build-DDDDDD']) mkdirSync(join(parent, name));
    writeFileSync(join(parent, '.dist-build-AAAAAA', 'x'), 'x');
    (await lockOutput(target)).release();
    expect(readdirSync(parent).sort()).toEqual(['.other-build-CCCCCC', 'dist', 'dist-build-DDDDDD']);
    expect(read(join(target, 'a.html'))).toBe('aaa');
  });

  it('puts back the output a build killed between its two renames set aside (the latest of them), before anything else', async () => {
    const { parent, target } = place();
    mkdirSync(parent, { recursive: true });
    for (const [name, text, age] of [['.dist-build-OLDEST-old', 'oldest', 120_000], ['.dist-build-LATEST-old', 'latest', 60_000], ['.dist-build-NEWOUT', 'unfinished', 0]] as const) {
      mkdirSync(join(parent, name));
      writeFileSync(join(parent, name, 'a.html'), text);
      const time = new Date(Date.now() - age);
      utimesSync(join(parent, name), time, time);
    }
    (await lockOutput(target)).release();
    expect(read(join(target, 'a.html'))).toBe('latest');
    expect(readdirSync(parent)).toEqual(['dist']);
  });

  it('sets nothing aside back when the output folder is there', async () => {
    const { parent, target } = place();
    await firstBuild(target, { 'a.html': 'current' });
    mkdirSync(join(parent, '.dist-build-XXXXXX-old'));
    writeFileSync(join(parent, '.dist-build-XXXXXX-old', 'a.html'), 'old');
    (await lockOutput(target)).release();
    expect(read(join(target, 'a.html'))).toBe('current');
    expect(readdirSync(parent)).toEqual(['dist']);
  });

  it('tells when a process started, to within a second of its own clock, and nothing for a process that is gone', () => {
    const started = processStarted(process.pid)!;
    expect(Math.abs(started - (Date.now() - process.uptime() * 1000))).toBeLessThan(2000);
    expect(processStarted(deadPid())).toBeUndefined();
  });
});

