import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsIn, expectNoStack, scratchSite, type Scratch } from './harness.js';

/*
 * M1: the pages of the reliability report that took a build past 1 GB. Each page the build accepts
 * is built with a peak under 1 GB (the build's own peak, DOCS_PROFILE's maxRssMB); each it cannot
 * render within that is a problem at its line, said at once, not a build that swells.
 */

let s: Scratch;
const PAGE = 'content/guides/long.md';
let original: string;

beforeAll(() => {
  s = scratchSite();
  original = readFileSync(join(s.site, PAGE), 'utf8');
});
afterAll(() => s?.remove());

const page = (body: string) => writeFileSync(join(s.site, PAGE), `---\ntitle: Long guide\n---\n\n## Start\n\n${body}`);

async function peak(): Promise<{ mb: number; stderr: string; code: number | null }> {
  const run = await docsIn(s, ['build', '-q'], { env: { DOCS_CACHE: '0', DOCS_PROFILE: '1' }, timeoutMs: 240_000 });
  expectNoStack(run);
  const profile = /DOCS_PROFILE (.*)/.exec(run.stderr);
  return { mb: profile ? (JSON.parse(profile[1]!) as { maxRssMB: number }).maxRssMB : NaN, stderr: run.stderr.replace(/DOCS_PROFILE .*\n/, ''), code: run.code };
}

describe('pages that took a build past 1 GB (M1)', () => {
  it('20,000 links on 1,000 lines (0.24 MB): built under 1 GB; 70,000 on 3,500 lines (0.85 MB): a problem at the first line, not a build past 1 GB', async () => {
    const links = (lines: number) => Array.from({ length: lines }, () => Array(20).fill('[l](#start)').join(' ')).join('\n\n') + '\n';
    page(links(1_000));
    const built = await peak();
    expect(built.stderr).toBe('');
    expect(built.code).toBe(0);
    expect(built.mb).toBeLessThan(1000);
    page(links(3_500));
    const refused = await peak();
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(`${PAGE}:5:1 this page's 824 KB hold too much markup to be rendered within the memory a build may use; move part of it to a page of its own\n1 problem found; the previous output was left untouched.\n`);
  }, 300_000);

  it('a code block of one line of 1 MB: built under 1 GB, shown uncoloured', async () => {
    page('```js\n' + 'a+'.repeat(500_000) + '\n```\n');
    const { mb, stderr, code } = await peak();
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(mb).toBeLessThan(1000);
    const html = readFileSync(join(s.site, 'dist/guides/long/index.html'), 'utf8');
    expect(html).toContain(`<span class="line">${'a+'.repeat(100)}`);
  }, 300_000);

  it('1 MB of &amp; in one paragraph: a problem at its first line, found before it is parsed; a page over 1 MB: a problem at its file', async () => {
    page('&amp;'.repeat(200_000) + '\n');
    let run = await peak();
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`${PAGE}:5:1 this page's 977 KB hold too much markup to be rendered within the memory a build may use; move part of it to a page of its own\n1 problem found; the previous output was left untouched.\n`);
    page('word '.repeat(1_000_000) + '\n');
    run = await peak();
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`${PAGE}: this page's Markdown is 4,883 KB, over the limit of 1,024 KB a page may have; split it into several pages\n1 problem found; the previous output was left untouched.\n`);
    writeFileSync(join(s.site, PAGE), original);
  }, 300_000);
});
