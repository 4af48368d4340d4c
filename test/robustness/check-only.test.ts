import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsIn, expectNoStack, expectRejected, notCache, put, scratchSite, treeHash, type Scratch } from './harness.js';

/*
 * `docs check --only <prefix>` reports the problems of the files whose path
 * (from the site folder) starts with the prefix. A prefix that nothing in the
 * site starts with is a typing mistake, refused with exit 2: it must not pass
 * for a check that found no problem.
 */

let s: Scratch;
const BROKEN_GUIDE = 'content/guides/first.md:59:3 links to "/no-such-page/", which is not a page of this site';
const BROKEN_PLUGIN = 'content/plugins/alpha-plugin.md';

beforeAll(() => {
  s = scratchSite();
  put(s, 'content/guides/first.md', readFileSync(join(s.site, 'content/guides/first.md'), 'utf8') + '\nA [broken](/no-such-page/) link.\n');
  put(s, 'content/plugins/alpha-plugin.md', readFileSync(join(s.site, 'content/plugins/alpha-plugin.md'), 'utf8') + '\nAnother [broken](/gone/) link.\n');
});

afterAll(() => s?.remove());

describe('docs check --only', () => {
  it('without it, the problems of every file', async () => {
    const run = await docsIn(s, ['check']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(BROKEN_GUIDE);
    expect(run.stderr).toContain(BROKEN_PLUGIN);
  });

  for (const only of ['content/guides/', 'content/guides', './content/guides/', 'content/guides/fir']) {
    it(`--only ${only}: the problems of those files only`, () => expectRejected(s, ['check', '--only', only], [BROKEN_GUIDE]));
  }

  it('an absolute path inside the site folder', () => expectRejected(s, ['check', '--only', join(s.site, 'content', 'guides') + '/'], [BROKEN_GUIDE]));

  it('files without problems: none found, though other files have some', async () => {
    const run = await docsIn(s, ['check', '--only', 'content/guides/second.md']);
    expectNoStack(run);
    expect(run.stderr).toBe('');
    expect(run.stdout).toMatch(/^Checked \d+ pages in [\d.]+ s: no problems found\.\n$/);
    expect(run.code).toBe(0);
  });

  for (const [only, shown] of [
    ['contnet/guides/', 'contnet/guides/'],
    ['content/guide/', 'content/guide/'],
    ['content/guides/third', 'content/guides/third'],
    ['../', '../'],
  ] as const) {
    it(`--only ${only}: nothing in the site starts with it, exit 2`, async () => {
      const before = treeHash(s.dir, notCache);
      const run = await docsIn(s, ['check', '--only', only]);
      expectNoStack(run);
      expect(run.stderr).toBe(`--only ${only}: nothing in the site folder starts with ${shown}; give a path from the site folder, such as content/ or a page's file\n`);
      expect(run.stdout).toBe('');
      expect(run.code).toBe(2);
      expect(treeHash(s.dir, notCache)).toEqual(before);
    });
  }
});
