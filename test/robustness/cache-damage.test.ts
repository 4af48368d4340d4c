import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotDir } from '../helpers/site.js';
import { docsIn, expectNoStack, scratchSite, type Scratch } from './harness.js';

/*
 * C2: a cache file that is emptied, cut short, edited or has bytes flipped is taken for missing:
 * the build makes what it held again and writes byte for byte what a build without any cache
 * writes, exits 0, and never publishes the damaged contents nor stops as "a bug in docs". Each
 * kind of cache file (every folder of the cache a build fills) is damaged in each way, one kind at
 * a time, from a cache that a full build filled, with the output of the last build in place; then
 * a page is edited (a build that reads the search index's postings and keeps the other pages).
 */

let s: Scratch;
let pristine: string;
let expected: Map<string, string>;
let expectedEdited: Map<string, string>;
const EDITED = 'content/guides/first.md';
let original: string;

/** The cache files of each kind (its top folder; the record's postings, a file of their own beside its JSON, apart), as paths relative to the cache. */
function cacheFiles(cache: string): Map<string, string[]> {
  const kinds = new Map<string, string[]>();
  for (const name of readdirSync(cache, { recursive: true }).map(String)) {
    const path = join(cache, name);
    if (!statSync(path).isFile() || name.endsWith('.tmp')) continue;
    const kind = name.split(/[\\/]/)[0]! + (name.endsWith('.bin') ? ' (postings)' : '');
    kinds.set(kind, [...(kinds.get(kind) ?? []), relative(cache, path)]);
  }
  return kinds;
}

const DAMAGES: Record<string, (path: string) => void> = {
  emptied: (path) => writeFileSync(path, ''),
  'cut in half': (path) => truncateSync(path, Math.floor(statSync(path).size / 2)),
  'a key renamed in its JSON': (path) => {
    const text = readFileSync(path, 'latin1');
    const edited = text.replace(/"(href|html|files|pages|ids|anchors|contents|inputs|title|format)"/, '"$1x"');
    writeFileSync(path, edited === text ? text.replace(/.$/s, text.endsWith('x') ? 'y' : 'x') : edited, 'latin1');
  },
  'one byte flipped near the end': (path) => {
    const bytes = readFileSync(path);
    const at = bytes.length - 1 - Math.floor(bytes.length / 10);
    if (at >= 0) bytes[at] = bytes[at]! ^ 0x01;
    writeFileSync(path, bytes);
  },
  'replaced by a file of another page': (path) => writeFileSync(path, 'docs-cache-1 0000000000000005 ' + '0'.repeat(64) + '\nhello'),
};

beforeAll(async () => {
  s = scratchSite();
  // The reference: no cache at all.
  const plain = await docsIn(s, ['build', '-q', '--out', 'plain'], { env: { DOCS_CACHE: '0' } });
  expect(plain.code).toBe(0);
  expected = snapshotDir(join(s.site, 'plain'));
  original = readFileSync(join(s.site, EDITED), 'utf8');
  writeFileSync(join(s.site, EDITED), `${original}\nA sentence added with the word zebrafish.\n`);
  expect((await docsIn(s, ['build', '-q', '--out', 'plain-edited'], { env: { DOCS_CACHE: '0' } })).code).toBe(0);
  expectedEdited = snapshotDir(join(s.site, 'plain-edited'));
  writeFileSync(join(s.site, EDITED), original);
  // A cache filled by a full build (and the output folder that build left).
  const filled = await docsIn(s, ['build', '-q', '--out', 'out']);
  expect(filled.stderr).toBe('');
  expect(filled.code).toBe(0);
  pristine = mkdtempSync(join(tmpdir(), 'docs-cache-pristine-'));
  cpSync(s.cache, pristine, { recursive: true });
}, 120_000);

afterAll(() => {
  s?.remove();
  if (pristine) rmSync(pristine, { recursive: true, force: true });
});

describe('a damaged cache changes nothing that is published (C2)', () => {
  it('the cache a build fills has the kinds this test damages', () => {
    const kinds = [...cacheFiles(pristine).keys()].sort();
    expect(kinds).toEqual(['pages', 'record', 'record (postings)']);
  });

  for (const [damage, apply] of Object.entries(DAMAGES)) {
    it(`every kind of cache file ${damage}: the output is that of a build without a cache, byte for byte`, async () => {
      for (const [kind, files] of cacheFiles(pristine)) {
        // A fresh copy of the filled cache, with every file of this kind damaged.
        rmSync(s.cache, { recursive: true, force: true });
        cpSync(pristine, s.cache, { recursive: true });
        for (const file of files) apply(join(s.cache, file));
        for (const round of [1, 2]) {
          const run = await docsIn(s, ['build', '-q', '--out', 'out']);
          expectNoStack(run);
          expect(run.stderr, `${kind} ${damage}, build ${round}`).toBe('');
          expect(run.code, `${kind} ${damage}, build ${round}`).toBe(0);
          expect(snapshotDir(join(s.site, 'out')), `${kind} ${damage}, build ${round}`).toEqual(expected);
        }
        const check = await docsIn(s, ['check']);
        expect(check.code, `${kind} ${damage}: check`).toBe(0);
        // One page edited, from the same damaged cache.
        rmSync(s.cache, { recursive: true, force: true });
        cpSync(pristine, s.cache, { recursive: true });
        for (const file of files) apply(join(s.cache, file));
        writeFileSync(join(s.site, EDITED), `${original}\nA sentence added with the word zebrafish.\n`);
        try {
          const edit = await docsIn(s, ['build', '-q', '--out', 'out']);
          expectNoStack(edit);
          expect(edit.code, `${kind} ${damage}, edit`).toBe(0);
          expect(snapshotDir(join(s.site, 'out')), `${kind} ${damage}, edit`).toEqual(expectedEdited);
        } finally {
          writeFileSync(join(s.site, EDITED), original);
        }
      }
    }, 300_000);
  }
});
