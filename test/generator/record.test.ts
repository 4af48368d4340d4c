import { existsSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cachePath } from '../../src/io/cache.js';
import { BuildRecord, currentRecord } from '../../src/io/record.js';

/*
 * The record of the last build (src/io/record.ts): its parts are used only under their keys, it is
 * written only when a build changed it, and a record that is damaged, removed or another folder's
 * is no record. The builds that use it are tested in build.test.ts and cache-damage.test.ts.
 */

let dir: string;
const saved = { dir: process.env.DOCS_CACHE_DIR, off: process.env.DOCS_CACHE_OFF, cache: process.env.DOCS_CACHE };

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'docs-record-'));
  process.env.DOCS_CACHE_DIR = dir;
  delete process.env.DOCS_CACHE_OFF;
  delete process.env.DOCS_CACHE;
});

afterEach(() => {
  for (const [name, value] of [['DOCS_CACHE_DIR', saved.dir], ['DOCS_CACHE_OFF', saved.off], ['DOCS_CACHE', saved.cache]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(dir, { recursive: true, force: true });
});

const file = (name: string) => cachePath('record', `${new BuildRecord(name).id}.json`);

describe('the record of the last build', () => {
  it('gives a part back only under the key it was set with, and keeps the parts a later build did not set', async () => {
    const first = new BuildRecord('/site/dist');
    first.set('config', 'text 1', { title: 'A' });
    first.set('links', 'site 1', { page: ['/a/'] });
    // Not read back by the build that set it.
    expect(first.get('config', 'text 1')).toBeUndefined();
    await first.save();
    const second = new BuildRecord('/site/dist');
    expect(second.get('config', 'text 1')).toEqual({ title: 'A' });
    expect(second.get('config', 'text 2')).toBeUndefined();
    second.set('config', 'text 2', { title: 'B' });
    await second.save();
    const third = new BuildRecord('/site/dist');
    expect(third.get('config', 'text 2')).toEqual({ title: 'B' });
    expect(third.get('links', 'site 1')).toEqual({ page: ['/a/'] });
  });

  it('writes nothing when the build set no part, and nothing is left after remove until the next save', async () => {
    const first = new BuildRecord('/site/dist');
    first.set('output', '/site/dist', { files: {} });
    await first.save();
    const time = statSync(file('/site/dist')).mtimeMs;
    const unchanged = new BuildRecord('/site/dist');
    expect(unchanged.get('output', '/site/dist')).toEqual({ files: {} });
    await unchanged.save();
    expect(statSync(file('/site/dist')).mtimeMs).toBe(time);
    unchanged.remove();
    expect(existsSync(file('/site/dist'))).toBe(false);
    // Saved again whole (what it had read, with nothing set since).
    await unchanged.save();
    expect(new BuildRecord('/site/dist').get('output', '/site/dist')).toEqual({ files: {} });
  });

  it('is no record when damaged or made for another folder', async () => {
    const record = new BuildRecord('/site/dist');
    record.set('config', 'k', 1);
    await record.save();
    // One byte of the JSON changed: its hash no longer matches.
    const bytes = readFileSync(file('/site/dist'));
    bytes[bytes.length - 3] = bytes[bytes.length - 3]! ^ 1;
    writeFileSync(file('/site/dist'), bytes);
    expect(new BuildRecord('/site/dist').get('config', 'k')).toBeUndefined();
    // Another folder's record under this one's name (as if the names collided).
    const other = new BuildRecord('/elsewhere');
    other.set('config', 'k', 2);
    await other.save();
    rmSync(file('/site/dist'));
    renameSync(file('/elsewhere'), file('/site/dist'));
    expect(new BuildRecord('/site/dist').get('config', 'k')).toBeUndefined();
  });

  it('turns a part off with DOCS_CACHE_OFF (its family), and every part with record or DOCS_CACHE=0', async () => {
    const record = new BuildRecord('/site/dist');
    record.set('assets /x/main.ts', 'v', 'script');
    record.set('links', 'k', 'hrefs');
    await record.save();
    process.env.DOCS_CACHE_OFF = 'assets';
    expect(new BuildRecord('/site/dist').get('assets /x/main.ts', 'v')).toBeUndefined();
    expect(new BuildRecord('/site/dist').get('links', 'k')).toBe('hrefs');
    process.env.DOCS_CACHE_OFF = 'record';
    expect(new BuildRecord('/site/dist').get('links', 'k')).toBeUndefined();
    delete process.env.DOCS_CACHE_OFF;
    process.env.DOCS_CACHE = '0';
    expect(new BuildRecord('/site/dist').get('links', 'k')).toBeUndefined();
    const off = new BuildRecord('/site/dist');
    off.set('links', 'k2', 'other');
    off.remove();
    await off.save();
    delete process.env.DOCS_CACHE;
    expect(new BuildRecord('/site/dist').get('links', 'k')).toBe('hrefs');
  });

  it('is the current record while its build runs, and the one before after it', async () => {
    const outer = new BuildRecord('/a');
    const inner = new BuildRecord('/b');
    expect(currentRecord()).toBeUndefined();
    await outer.run(async () => {
      expect(currentRecord()).toBe(outer);
      await inner.run(async () => expect(currentRecord()).toBe(inner));
      expect(currentRecord()).toBe(outer);
    });
    expect(currentRecord()).toBeUndefined();
    await expect(outer.run(async () => Promise.reject(new Error('failed')))).rejects.toThrow('failed');
    expect(currentRecord()).toBeUndefined();
  });
});
