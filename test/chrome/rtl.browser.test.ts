import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/a11y.js';
import { hasChromium, launch, offline, screenshot } from '../helpers/browser.js';
import { builtSite } from '../helpers/built.js';
import { ROOT } from '../helpers/content.js';
import { centre, swipe, tap } from '../helpers/touch.js';

/*
 * A site in English and Arabic (test/fixtures/rtl): the Arabic pages are laid out right to left, the English ones
 * as always. Every check runs on both, measured from the reading start: what is at the left in English is at the
 * right in Arabic (the sidebar, the rules of the table of contents, asides and quotes, the phone menu and its
 * swipes, the chat button), and code stays left to right in both. Real touch through the DevTools protocol.
 */

const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const LANGUAGES = [
  { code: 'ar', dir: 'rtl', path: '/ar/guides/first/', query: 'الرمل' },
  { code: 'en', dir: 'ltr', path: '/guides/first/', query: 'sand' },
] as const;

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;
beforeAll(async () => {
  site = await builtSite(join(ROOT, 'test/fixtures/rtl'));
  if (hasChromium) browser = await launch();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function open(path: string, options: BrowserContextOptions): Promise<Page> {
  const page = await (await browser.newContext(options)).newPage();
  await offline(page);
  await page.goto(site.server.url + path);
  return page;
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
  width: number;
}

/** Distances from the reading start and end of the window (left and right in ltr, right and left in rtl). */
function sides(rtl: boolean, width: number) {
  return {
    fromStart: (b: Box) => (rtl ? width - b.right : b.left),
    fromEnd: (b: Box) => (rtl ? b.left : width - b.right),
    start: rtl ? 'Right' : 'Left',
    end: rtl ? 'Left' : 'Right',
    /** A point `d` px from the start edge of the window. */
    x: (d: number) => (rtl ? width - d : d),
  };
}

const box = (page: Page, selector: string) => page.locator(selector).first().evaluate((el) => el.getBoundingClientRect().toJSON() as Box);
const style = (page: Page, selector: string, property: string, pseudo?: string) =>
  page.locator(selector).first().evaluate((el, [p, ps]) => getComputedStyle(el, ps).getPropertyValue(p!), [property, pseudo] as const);

describe.runIf(hasChromium)('right-to-left pages at 1280×800', () => {
  for (const { code, dir, path, query } of LANGUAGES) {
    it(`${code}: the sidebar, the table of contents, quotes, asides, the pagination and the chat button sit on the reading sides`, async () => {
      const page = await open(path, DESKTOP);
      expect(await page.evaluate(() => document.documentElement.dir || 'ltr')).toBe(dir);
      const rtl = dir === 'rtl';
      const { fromStart, fromEnd, start, end } = sides(rtl, 1280);
      const [sidebar, article, toc, chat] = await Promise.all([box(page, '#sidebar'), box(page, '.article'), box(page, '.toc'), box(page, '#chat-button')]);
      // The sidebar at the start edge, with its rule on its end side (towards the article).
      expect(fromStart(sidebar)).toBe(0);
      expect(sidebar.width).toBe(300);
      expect(await style(page, '#sidebar', `border-${end.toLowerCase()}-width`)).toBe('1px');
      expect(await style(page, '#sidebar', `border-${start.toLowerCase()}-width`)).toBe('0px');
      // "On this page" after the article, its rule on its start side; the chat button at the end corner.
      expect(rtl ? toc.right <= article.left : toc.left >= article.right).toBe(true);
      expect(await style(page, '.toc-inner > ul', `border-${start.toLowerCase()}-width`)).toBe('2px');
      expect(await style(page, '.toc-inner > ul', `border-${end.toLowerCase()}-width`)).toBe('0px');
      expect(fromEnd(chat)).toBe(24);
      for (const selector of ['.markdown blockquote', '.aside']) {
        expect(await style(page, selector, `border-${start.toLowerCase()}-width`), selector).toBe('4px');
        expect(await style(page, selector, `border-${end.toLowerCase()}-width`), selector).toBe('0px');
      }
      // The next page's link at the end, the previous one at the start.
      const [previous, next] = await Promise.all([box(page, '.page-link-prev'), box(page, '.page-link-next')]);
      expect(fromStart(previous)).toBeLessThan(fromStart(next));
      expect(await style(page, '.page-link-next', 'text-align')).toBe('end');
      // Arrows point along the reading direction: the breadcrumbs' separator, a link card's arrow, a closed chevron.
      expect(await style(page, '.breadcrumbs li + li', 'content', '::before')).toBe(rtl ? '"‹" / ""' : '"›" / ""');
      expect(await style(page, '.link-card', 'content', '::after')).toBe(rtl ? '"←" / ""' : '"→" / ""');
      expect(await style(page, '.sidebar-item:not(.open) .chevron svg', 'transform')).toBe(rtl ? 'matrix(-1, 0, 0, -1, 0, 0)' : 'none');
      // Code reads left to right in both, its copy button at its right end.
      expect(await style(page, 'pre.code', 'direction')).toBe('ltr');
      expect(await style(page, '.markdown p > code', 'direction')).toBe('ltr');
      const [block, copy] = await Promise.all([box(page, '.code-block'), box(page, '.code-block .copy')]);
      expect(block.right - copy.right).toBe(9); // 8 px and the block's border
      await screenshot(page, `rtl-desktop-${code}`);
      expect(await axeViolations(page)).toEqual([]);
      // The skip link appears at the start corner (over the header, as it does in English).
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.className)).toBe('skip-link');
      expect(fromStart(await box(page, '.skip-link'))).toBe(8);
      await page.context().close();
    });

    it(`${code}: the search results hang from the box's end, the language menu opens at the end, the arrow keys follow the tabs`, async () => {
      const page = await open(path, DESKTOP);
      const rtl = dir === 'rtl';
      await page.click('#search-input');
      await page.keyboard.type(query);
      await page.waitForFunction(() => !document.getElementById('search-panel')!.hidden && document.querySelectorAll('#search-results [role="option"]').length > 0);
      const [search, panel] = await Promise.all([box(page, '.search'), box(page, '#search-panel')]);
      if (rtl) expect(panel.left).toBe(search.left);
      else expect(panel.right).toBe(search.right);
      await page.keyboard.press('ArrowDown');
      expect(await style(page, '#search-results [aria-selected="true"]', 'box-shadow')).toMatch(rtl ? /\) -3px 0px 0px 0px inset$/ : /\) 3px 0px 0px 0px inset$/);
      expect(await axeViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.click('.lang-button');
      const [button, menu] = await Promise.all([box(page, '.lang'), box(page, '.lang-menu')]);
      if (rtl) expect(menu.left).toBe(button.left);
      else expect(menu.right).toBe(button.right);
      await page.keyboard.press('Escape');
      // Tabs: the arrow towards the next tab as the row shows it (the left one in Arabic) selects it.
      await page.locator('[role="tab"]').first().focus();
      await page.keyboard.press(rtl ? 'ArrowLeft' : 'ArrowRight');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('pnpm');
      const [first, second] = await Promise.all([box(page, '[role="tab"] >> nth=0'), box(page, '[role="tab"] >> nth=1')]);
      expect(rtl ? second.right <= first.left : second.left >= first.right).toBe(true);
      await page.keyboard.press(rtl ? 'ArrowRight' : 'ArrowLeft');
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('npm');
      await page.context().close();
    });
  }
});

describe.runIf(hasChromium)('an English page copied into the Arabic pages at 1280×800', () => {
  it('has the mirrored frame around its text, which stays left to right', async () => {
    const page = await open('/ar/guides/third/', DESKTOP);
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(await page.getAttribute('main', 'dir')).toBe('ltr');
    expect(1280 - (await box(page, '#sidebar')).right).toBe(0);
    expect(await style(page, '.markdown blockquote', 'border-left-width')).toBe('4px');
    expect(await style(page, '.markdown blockquote', 'border-right-width')).toBe('0px');
    expect(await style(page, '.link-card', 'content', '::after')).toBe('"→" / ""');
    // The notice above it is in Arabic, right to left: its rule on its right.
    expect(await style(page, '.fallback-notice', 'border-right-width')).toBe('4px');
    expect(await axeViolations(page)).toEqual([]);
    await page.context().close();
  });
});

describe.runIf(hasChromium)('the phone menu of right-to-left pages at 390×844, under real touch', () => {
  const menuBox = (page: Page) => box(page, '#mobile-menu');
  const menuOpen = (page: Page) => page.evaluate(() => document.getElementById('mobile-menu')!.classList.contains('visible'));

  for (const { code, dir, path } of LANGUAGES) {
    it(`${code}: opens from the start edge, closes with a swipe towards it, opens with a drag from that edge`, async () => {
      const page = await open(path, PHONE);
      const rtl = dir === 'rtl';
      const { fromStart, fromEnd, x } = sides(rtl, 390);
      /** The menu at rest, `offset` px from the start edge (0 open, -295 closed: its last 5 px on the screen). */
      const atRest = (offset: number) => expect.poll(async () => fromStart(await menuBox(page)), { timeout: 3000 }).toBe(offset);
      await atRest(-295);
      expect(fromEnd(await box(page, '#chat-button'))).toBe(12);
      // The toggle is at the start of the header too.
      expect(fromStart(await box(page, '.menu-toggle'))).toBeLessThan(20);

      await tap(page, await centre(page, '.menu-toggle'));
      expect(await menuOpen(page)).toBe(true);
      await atRest(0);
      expect((await menuBox(page)).width).toBe(300);
      // Its shadow falls on the page, on its end side.
      expect(await style(page, '.mobile-menu-inner', 'box-shadow')).toMatch(rtl ? / -2px 0px 12px/ : / 2px 0px 12px/);
      await screenshot(page, `rtl-phone-menu-${code}`);
      expect(await axeViolations(page)).toEqual([]);

      // Swipes inside it: away from the start edge (the wrong way) or 90 px towards it keep it open; 110 px towards it closes it.
      const y = 400;
      await swipe(page, { x: x(100), y }, { x: x(250), y });
      expect(await menuOpen(page)).toBe(true);
      await swipe(page, { x: x(250), y }, { x: x(160), y });
      expect(await menuOpen(page)).toBe(true);
      await swipe(page, { x: x(250), y }, { x: x(140), y: y + 10 });
      expect(await menuOpen(page)).toBe(false);
      await atRest(-295);

      // Closed: a drag that starts beside the edge strip does nothing; one from the strip (the start edge) opens it.
      await swipe(page, { x: x(40), y }, { x: x(160), y });
      expect(await menuOpen(page)).toBe(false);
      await swipe(page, { x: x(10), y }, { x: x(130), y });
      expect(await menuOpen(page)).toBe(true);
      await atRest(0);
      expect(page.url()).toBe(site.server.url + path);
      await page.context().close();
    });

    it(`${code}: while a drag from the edge moves it, the menu follows the finger into the screen`, async () => {
      const page = await open(path, PHONE);
      const rtl = dir === 'rtl';
      const { fromStart, x } = sides(rtl, 390);
      const cdp = await page.context().newCDPSession(page);
      const y = 400;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: x(10), y }] });
      for (let i = 1; i <= 5; i++) {
        await new Promise((r) => setTimeout(r, 16));
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: x(10 + 20 * i), y }] });
      }
      await page.waitForFunction(() => document.getElementById('mobile-menu')!.classList.contains('dragging'));
      // 100 px of finger: the menu has come into the screen from its closed place (by 100 px less the browser's touch slop).
      await expect.poll(async () => fromStart(await menuBox(page)), { timeout: 3000 }).toBeGreaterThan(-295 + 50);
      expect(fromStart(await menuBox(page))).toBeLessThanOrEqual(-195);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await cdp.detach();
      await page.context().close();
    });
  }
});
