import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launch, offline } from '../helpers/browser.js';
import { buildRealSite } from '../helpers/real-site.js';

/*
 * Relevance of the local search on the real site: queries a webpack user
 * types, each with the pages of which one must come first (or within the
 * first `within` results, where another page has as good a claim). For
 * "entry points" the code splitting guide, about entry points too, may come
 * first; "module federation" is answered by the concept page and the plugin page.
 */

/** Each query with its expected pages (and how many first results may hold one, 1 unless given). Shared with `npm run bench:search`. */
const QUERIES = JSON.parse(readFileSync(new URL('./search-relevance-queries.json', import.meta.url), 'utf8')) as Array<[query: string, expected: string[], within?: number]>;

let browser: Browser;
let site: Awaited<ReturnType<typeof buildRealSite>>;
let page: Page;
const transferred: number[] = [];

beforeAll(async () => {
  site = await buildRealSite();
  if (!hasChromium) return;
  browser = await launch();
  page = await (await browser.newContext(DESKTOP)).newPage();
  await offline(page);
  page.on('response', async (r) => {
    if (/\/search-index\/|\/assets\/(search|terms)\./.test(r.url())) {
      try {
        transferred.push((await r.body()).length);
      } catch {
        /* a redirect or aborted response has no body */
      }
    }
  });
  await page.goto(site.server.url + '/guides/');
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function search(query: string): Promise<{ urls: string[]; ms: number }> {
  const started = Date.now();
  await page.fill('#search-input', query);
  await page.waitForFunction((q) => document.getElementById('search-results')!.dataset.query === q, query);
  const ms = Date.now() - started;
  const urls = await page.$$eval('#search-results [role="option"]', (links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  return { urls, ms };
}

describe.runIf(hasChromium)('search relevance on the real site', () => {
  it('downloads a small first query and answers typed words quickly', async () => {
    await page.focus('#search-input');
    await search('webpack');
    const first = transferred.reduce((a, b) => a + b, 0);
    const timings: number[] = [];
    for (const word of ['entry', 'output', 'plugin', 'module', 'resolve']) timings.push((await search(word)).ms);
    console.log(`first query transferred ${(first / 1024).toFixed(1)} KB; later queries took ${timings.join(', ')} ms (typing to results shown)`);
    expect(first).toBeLessThan(300 * 1024);
  });

  for (const [query, expected, within = 1] of QUERIES) {
    it(`puts ${expected.join(' or ')} ${within === 1 ? 'first' : `within the first ${within}`} for "${query}"`, async () => {
      await page.focus('#search-input');
      const { urls } = await search(query);
      const top = urls.slice(0, within);
      expect(top.some((u) => expected.includes(u)), `first ${within} for "${query}": ${urls.slice(0, 5).join(', ')}`).toBe(true);
    });
  }
});
