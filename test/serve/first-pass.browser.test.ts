import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launch, offline } from '../helpers/browser.js';
import { addSlowPages, get, makeFixture, spawnServe } from './helpers.js';

/*
 * `docs serve` as a writer meets it on a fresh clone: the address is printed
 * at once, the page opened before the site is built shows in its real look,
 * the search box says the index is being made, and once the build is in the
 * browser shows the built page (reloaded by itself if it differed) and
 * search answers.
 */

let browser: Browser | undefined;
const children: ChildProcess[] = [];
const cleanups: Array<() => void> = [];

beforeAll(async () => {
  if (hasChromium) browser = await launch();
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  await browser?.close();
  for (const cleanup of cleanups) cleanup();
});

describe.runIf(hasChromium)('docs serve in the browser before its first build is done', () => {
  it('shows the page in its look, says search is coming, then holds the built page and finds it', async () => {
    const fixture = makeFixture();
    cleanups.push(() => rmSync(dirname(fixture.site), { recursive: true, force: true }));
    // Enough pages with code that the first build takes seconds.
    addSlowPages(fixture);
    // And 600 more: the search box answers within a second, and the build must still run then (with these, some 3 s longer).
    for (let i = 0; i < 600; i++) {
      fixture.write(`content/much/page-${String(i).padStart(3, '0')}.md`, `---\ntitle: More ${i}\n---\n\n${Array.from({ length: 6 }, (_, j) => `## Part ${j}\n\nText ${i} ${j} with \`code\`.\n\n\`\`\`ini\n[p${j}]\nv = ${i * j}\n\`\`\`\n`).join('\n')}`);
    }
    const cache = mkdtempSync(join(tmpdir(), 'docs-first-pass-browser-'));
    cleanups.push(() => rmSync(cache, { recursive: true, force: true }));
    const run = spawnServe(fixture.site, cache);
    const { child, waitFor } = run;
    children.push(child);
    const url = (await waitFor(/Serving (http:\/\/\S+\/) /, 60_000))[1]!;

    const context = await browser!.newContext(DESKTOP);
    const page = await context.newPage();
    await offline(page);
    const problems: string[] = [];
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    page.on('pageerror', (e) => problems.push(e.message));
    await page.goto(`${url}guides/alpha/`);
    const builtWhenShown = /^Built \d+ pages/m.test(run.output());
    expect(builtWhenShown, 'the page was shown before the build was done').toBe(false);
    if (process.env.DOCS_SCREENSHOTS) await page.screenshot({ path: join(process.env.DOCS_SCREENSHOTS, 'first-pass.png') });
    expect(await page.title()).toContain('Alpha guide');
    // The stylesheet came with the page: the layout is the site's, and the code is coloured.
    expect(await page.evaluate(() => getComputedStyle(document.querySelector('.sidebar')!).display)).not.toBe('inline');
    const tokenColour = await page.evaluate(() => {
      const token = document.querySelector('pre code span[class^="t"]');
      return token ? getComputedStyle(token).color : null;
    });
    expect(tokenColour).not.toBeNull();
    expect(tokenColour).not.toBe(await page.evaluate(() => getComputedStyle(document.querySelector('pre code')!).color));

    // Still before the build is done (it takes seconds; the page and the search box answer in far less): asserted, not assumed.
    await page.focus('#search-input');
    await page.fill('#search-input', 'alpha');
    const status = await page.waitForFunction(() => document.getElementById('search-status')!.textContent || null, undefined, { timeout: 10_000 });
    expect(/^Built \d+ pages/m.test(run.output()), 'the search box answered after the build was done').toBe(false);
    expect(await status.jsonValue()).toBe('The search index is still being built; searching again in a moment…');

    await waitFor(/^Ready in [\d.]+ s/m, 180_000);
    // The browser ends on the built page: the document it shows is the one the server has now.
    const served = async () => /docs;desc=([^,\s]+)/.exec(String((await get(url, '/guides/alpha/')).headers['server-timing']))?.[1];
    const shown = () => page.evaluate(() => (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).serverTiming.find((t) => t.name === 'docs')?.description);
    await expect.poll(async () => (await shown()) === (await served()), { timeout: 20_000 }).toBe(true);
    // And search answers, without a new keystroke if the first query was told to wait.
    await page.focus('#search-input');
    await page.fill('#search-input', 'alpha');
    await page.waitForFunction(() => document.getElementById('search-results')!.dataset.query === 'alpha', undefined, { timeout: 20_000 });
    expect(await page.locator('.search-result-title').first().textContent()).toContain('Alpha guide');
    // The index's "not yet" answers are the only failed loads; no script error, no blocked resource.
    expect(problems.filter((p) => !/status of 503/.test(p))).toEqual([]);
    expect(problems.length, 'the search index was asked for while it was being made').toBeGreaterThan(0);
    await context.close();
    child.kill('SIGINT');
  }, 240_000);
});
