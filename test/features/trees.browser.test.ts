import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/a11y.js';
import { DESKTOP, hasChromium, launch, offline, screenshot } from '../helpers/browser.js';
import { builtSite } from '../helpers/built.js';
import { ROOT } from '../helpers/content.js';

/*
 * A site in three languages (English, Chinese, French) and two versions (5.x, 4.x), in Chromium:
 * the language and version menus keep the page, in the same tab; an older version's banner leads
 * to the current one; each language and version searches its own index.
 */

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;
beforeAll(async () => {
  site = await builtSite(join(ROOT, 'test/fixtures/trees'));
  if (hasChromium) browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function open(path: string): Promise<Page> {
  const context = await browser.newContext(DESKTOP);
  const page = await context.newPage();
  await offline(page);
  await page.goto(site.server.url + path);
  return page;
}

const pathOf = (page: Page) => new URL(page.url()).pathname;

/** The results of a query typed into the header's box, as paths. */
async function search(page: Page, query: string): Promise<string[]> {
  await page.focus('#search-input');
  await page.fill('#search-input', '');
  await page.locator('#search-input').pressSequentially(query);
  await page.waitForFunction((q) => !document.getElementById('search-panel')!.hidden && document.getElementById('search-results')!.dataset.query === q, query);
  return page.$$eval('#search-results [role="option"]', (links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
}

describe.runIf(hasChromium)('a site in three languages and two versions, in the browser', () => {
  it('switches language on the same page, in the same tab, and the page is then in that language', async () => {
    const page = await open('/guides/tides/');
    await page.click('.lang-button');
    await page.click('#lang-menu a[hreflang="zh-CN"]');
    await page.waitForURL('**/zh-cn/guides/tides/');
    expect(page.context().pages()).toHaveLength(1);
    expect(await page.getAttribute('html', 'lang')).toBe('zh-CN');
    expect(await page.textContent('h1')).toBe('海洋');
    expect(await page.textContent('.lang-button')).toContain('简体中文');
    await screenshot(page, 'trees-zh-tides');
    // And back, to French: a page French lacks is the English one with a notice in French.
    await page.click('.lang-button');
    await page.click('#lang-menu a[hreflang="fr"]');
    await page.waitForURL('**/fr/guides/tides/');
    expect(await page.textContent('.fallback-notice')).toBe('Cette page n’est pas encore traduite : elle s’affiche dans sa langue d’origine (English).');
    expect(await page.getAttribute('main', 'lang')).toBe('en');
    expect(await page.textContent('h1')).toBe('Tides');
    await screenshot(page, 'trees-fr-fallback');
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('switches version on the same page, or to the version\'s home when it has no such page, and the old version\'s banner leads back', async () => {
    const page = await open('/zh-cn/guides/tides/');
    // By keyboard: the menu opens with Enter, its entries are reached with Tab, with a visible focus ring.
    await page.focus('.version-menu summary');
    expect(await page.$eval('.version-menu summary', (el) => getComputedStyle(el).outlineStyle)).not.toBe('none');
    await page.keyboard.press('Enter');
    expect(await page.isVisible('.version-menu ul')).toBe(true);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('4.x');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/4.x/zh-cn/guides/tides/');
    expect(await page.textContent('h1')).toBe('Tides');
    expect(await page.textContent('.version-banner')).toContain('这是旧版本 4.x 的文档。');
    expect(await page.getAttribute('meta[name="robots"]', 'content')).toBe('noindex');
    await screenshot(page, 'trees-4x-zh-banner');
    expect(await axeViolations(page)).toEqual([]);
    await page.click('.version-banner a');
    await page.waitForURL('**/zh-cn/guides/tides/');
    expect(pathOf(page)).toBe('/zh-cn/guides/tides/');
    // Version 4.x has no configuration page: its home instead.
    await page.goto(site.server.url + '/guides/config/');
    await page.click('.version-menu summary');
    await page.getByRole('link', { name: '4.x' }).click();
    await page.waitForURL('**/4.x/');
    expect(await page.textContent('h1')).toBe('Tides 4.x');
    await page.context().close();
  });

  it('searches the index of the page\'s language and version', async () => {
    const page = await open('/zh-cn/');
    expect((await search(page, '潮汐'))[0]).toBe('/zh-cn/guides/tides/');
    expect(await page.locator('#search-results [role="option"] mark').first().textContent()).toBe('潮汐');
    await screenshot(page, 'trees-zh-search');
    await page.goto(site.server.url + '/guides/');
    // The English index has the English pages only.
    expect(await search(page, '潮汐')).toEqual([]);
    expect((await search(page, 'moon'))[0]).toBe('/guides/tides/');
    await page.goto(site.server.url + '/4.x/guides/');
    expect(await search(page, 'hand')).toEqual(['/4.x/guides/tides/']);
    await page.context().close();
  });
});
