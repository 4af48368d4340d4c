import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launch, offline } from '../helpers/browser.js';
import { builtSite } from '../helpers/built.js';
import { ROOT } from '../helpers/content.js';

/* The search box of a site whose interface language is Chinese: a Chinese word typed finds the page whose sentence holds it. */

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;
beforeAll(async () => {
  site = await builtSite(join(ROOT, 'test/fixtures/search-zh'));
  if (hasChromium) browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe.runIf(hasChromium)('local search of a Chinese site in the browser', () => {
  it('finds the page for a Chinese word typed into the box, and for English words inside Chinese prose', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    await offline(page);
    await page.goto(site.server.url + '/guides/');
    await page.focus('#search-input');
    const results = async (query: string) => {
      await page.fill('#search-input', '');
      await page.locator('#search-input').pressSequentially(query);
      await page.waitForFunction((q) => !document.getElementById('search-panel')!.hidden && document.getElementById('search-results')!.dataset.query === q, query);
      return page.$$eval('#search-results [role="option"]', (links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname + decodeURIComponent(new URL((a as HTMLAnchorElement).href).hash)));
    };
    expect((await results('潮汐'))[0]).toBe('/guides/tides/');
    const first = page.locator('#search-results [role="option"]').first();
    expect(await first.locator('.search-result-title').textContent()).toBe('海洋');
    expect(await first.locator('mark').first().textContent()).toBe('潮汐');
    expect((await results('月球引力'))[0]).toBe('/guides/tides/');
    expect((await results('splitChunks'))[0]).toBe('/guides/config/');
    expect((await results('yarn'))[0]).toBe('/guides/config/#安装');
    await first.click();
    await page.waitForURL('**/guides/config/**');
    await context.close();
  });
});
