import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/a11y.js';
import { hasChromium, launch, offline, screenshot } from '../helpers/browser.js';
import { builtSite } from '../helpers/built.js';
import { ROOT } from '../helpers/content.js';

/*
 * The desktop layout of issue #38 in Chromium, on the sharing fixture (a header white in the light scheme and
 * dark in the dark one, a logo per scheme that replaces the title, a landing home with feature cards):
 * the "On this page" column right of the article from 1280 px, its entry of the section being read marked as
 * the page scrolls, breadcrumbs, the edit link after the text; on a phone no column, the "Contents" list
 * under the title instead. Both schemes, no axe-core violations.
 */

const WIDE = { viewport: { width: 1440, height: 900 } } satisfies BrowserContextOptions;
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 } satisfies BrowserContextOptions;
const SCHEMES = ['light', 'dark'] as const;
const TOUR = '/guide/tour/';
const TOC_IDS = ['arrive', 'look-around', 'windows', 'doors', 'configure', 'build', 'fast-builds', 'slow-builds', 'ship', 'leave'];

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;
beforeAll(async () => {
  site = await builtSite(join(ROOT, 'test/fixtures/sharing'));
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function open(path: string, options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await offline(page);
  await page.goto(site.server.url + path);
  return page;
}

/** The href of the marked entry of the column (null when none is marked). */
const marked = (page: Page) => page.evaluate(() => document.querySelector('.toc a[aria-current]')?.getAttribute('href') ?? null);

/** Scrolls so that the heading's top sits `below` px under the top of the window, and waits for the mark to follow. */
async function scrollToHeading(page: Page, id: string, below: number): Promise<void> {
  await page.evaluate(
    ({ id, below }) => window.scrollTo(0, document.getElementById(id)!.getBoundingClientRect().top + window.scrollY - below),
    { id, below },
  );
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

describe.runIf(hasChromium)('the "On this page" column at 1440 × 900', () => {
  for (const colorScheme of SCHEMES) {
    it(`is right of the article, lists the h2s and h3s, and marks the section being read as the page scrolls (${colorScheme})`, async () => {
      const page = await open(TOUR, { ...WIDE, colorScheme });
      const toc = page.locator('nav.toc');
      expect(await toc.isVisible()).toBe(true);
      expect(await toc.getAttribute('aria-label')).toBe('On this page');
      expect(await toc.locator('a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(TOC_IDS.map((id) => `#${id}`));
      // The h3s are nested under their h2.
      expect(await toc.locator('li:has(> a[href="#look-around"]) > ul a').allTextContents()).toEqual(['Windows', 'Doors']);
      const [article, column] = await Promise.all([page.locator('article.article').boundingBox(), toc.boundingBox()]);
      expect(column!.x).toBeGreaterThanOrEqual(article!.x + article!.width);
      expect(column!.x + column!.width).toBeLessThanOrEqual(1440);
      // The phone list is not shown; the sidebar does not repeat the page's sections under its entry.
      expect(await page.locator('.toc-phone').isVisible()).toBe(false);
      expect(await page.locator('.sidebar-item.open .sidebar-anchors').isVisible()).toBe(false);
      expect(await page.locator('.sidebar-item.open .chevron').isVisible()).toBe(false);

      // Above the first heading nothing is marked; then the mark follows the reading.
      expect(await marked(page)).toBe(null);
      await scrollToHeading(page, 'configure', 40);
      await page.waitForFunction(() => document.querySelector('.toc a[aria-current="true"]')?.getAttribute('href') === '#configure');
      await screenshot(page, `desktop-toc-configure-${colorScheme}`);
      await scrollToHeading(page, 'fast-builds', 10);
      await page.waitForFunction(() => document.querySelector('.toc a[aria-current="true"]')?.getAttribute('href') === '#fast-builds');
      expect(await page.locator('.toc a[aria-current]').count()).toBe(1);
      // Back up: the mark goes back with it.
      await scrollToHeading(page, 'look-around', 20);
      await page.waitForFunction(() => document.querySelector('.toc a[aria-current="true"]')?.getAttribute('href') === '#look-around');
      // The column stays in view while the page scrolls.
      const box = (await toc.locator('.toc-inner').boundingBox())!;
      expect(box.y).toBeGreaterThanOrEqual(-1);
      expect(box.y).toBeLessThan(900);
      // At the end of the page the last section is marked, though its heading cannot reach the top.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await page.waitForFunction(() => document.querySelector('.toc a[aria-current="true"]')?.getAttribute('href') === '#leave');
      // The marked entry is told apart by more than colour: weight and a bar.
      const style = await page.locator('.toc a[aria-current]').evaluate((a) => {
        const s = getComputedStyle(a);
        return { weight: s.fontWeight, bar: s.borderLeftColor, plain: getComputedStyle(document.querySelector('.toc a:not([aria-current])')!).borderLeftColor };
      });
      expect(Number(style.weight)).toBeGreaterThanOrEqual(600);
      expect(style.bar).not.toBe(style.plain);
      await screenshot(page, `desktop-toc-end-${colorScheme}`);
      await page.context().close();
    });

    it(`shows the keyboard focus on the column's links and follows them (${colorScheme})`, async () => {
      const page = await open(TOUR, { ...WIDE, colorScheme });
      const link = page.locator('.toc a[href="#build"]');
      await link.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.getAttribute('href'))).toBe('#build');
      const ring = await link.evaluate((a) => {
        const s = getComputedStyle(a);
        return { style: s.outlineStyle, width: parseFloat(s.outlineWidth), visible: a.matches(':focus-visible') };
      });
      expect(ring.visible).toBe(true);
      expect(ring.style).not.toBe('none');
      expect(ring.width).toBeGreaterThanOrEqual(2);
      await screenshot(page, `desktop-toc-focus-${colorScheme}`);
      await page.keyboard.press('Enter');
      await page.waitForFunction(() => location.hash === '#build');
      await page.waitForFunction(() => document.querySelector('.toc a[aria-current="true"]')?.getAttribute('href') === '#build');
      await page.context().close();
    });

    it(`has breadcrumbs above the title, the edit link after the text, and no axe-core violations (${colorScheme})`, async () => {
      const page = await open(TOUR, { ...WIDE, colorScheme });
      const crumbs = page.locator('nav.breadcrumbs[aria-label="Breadcrumb"]');
      expect(await crumbs.locator('ol > li').allTextContents()).toEqual(['Guide', 'The tour']);
      expect(await crumbs.locator('a[aria-current="page"]').textContent()).toBe('The tour');
      const order = await page.evaluate(() => {
        const top = (selector: string) => document.querySelector(selector)!.getBoundingClientRect().top;
        return { crumbs: top('.breadcrumbs'), h1: top('.article h1'), text: top('.markdown'), tools: top('.article-tools'), pagination: top('.pagination') };
      });
      expect(order.crumbs).toBeLessThan(order.h1);
      expect(order.tools).toBeGreaterThan(order.text);
      expect(order.tools).toBeLessThan(order.pagination);
      expect(await page.locator('.article-tools a').allTextContents()).toEqual(['Edit this page (opens in a new tab)', 'Printable section']);
      expect(await axeViolations(page)).toEqual([]);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await screenshot(page, `desktop-article-end-${colorScheme}`);
      await page.context().close();
    });

    it(`shows the logo of the scheme in place of the title, with the header colours of the scheme (${colorScheme})`, async () => {
      const page = await open(TOUR, { ...WIDE, colorScheme });
      const shown = await page.locator('.header .logo img').evaluateAll((imgs) => imgs.filter((img) => (img as HTMLElement).offsetParent !== null).map((img) => img.getAttribute('src')));
      expect(shown).toEqual([colorScheme === 'dark' ? '/logo-dark.svg' : '/logo.svg']);
      // The title is hidden from sight, not from the link's name.
      expect(await page.locator('.header .logo-text').evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
      expect(await page.locator('.header .logo').getAttribute('aria-label')).toBe('Lumen home');
      const header = await page.locator('.header').evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(header).toBe(colorScheme === 'dark' ? 'rgb(23, 26, 32)' : 'rgb(255, 255, 255)');
      const text = await page.locator('.topnav a.active').evaluate((el) => getComputedStyle(el).color);
      expect(text).toBe(colorScheme === 'dark' ? 'rgb(255, 255, 255)' : 'rgb(31, 42, 48)');
      await screenshot(page, `desktop-header-${colorScheme}`);
      // The scheme chosen with the header toggle (data-theme) wins over the system's, for the logo too.
      const other = colorScheme === 'dark' ? 'light' : 'dark';
      await page.evaluate((theme) => (document.documentElement.dataset.theme = theme), other);
      const chosen = await page.locator('.header .logo img').evaluateAll((imgs) => imgs.filter((img) => (img as HTMLElement).offsetParent !== null).map((img) => img.getAttribute('src')));
      expect(chosen).toEqual([other === 'dark' ? '/logo-dark.svg' : '/logo.svg']);
      expect(await page.locator('.header').evaluate((el) => getComputedStyle(el).backgroundColor)).toBe(other === 'dark' ? 'rgb(23, 26, 32)' : 'rgb(255, 255, 255)');
      await page.context().close();
    });

    it(`underlines a feature card's title only under the pointer or the keyboard's focus; no axe-core violations on the home (${colorScheme})`, async () => {
      const page = await open('/', { ...WIDE, colorScheme });
      const title = page.locator('.feature h2 a').first();
      const line = () => title.evaluate((a) => getComputedStyle(a).textDecorationLine);
      expect(await line()).toBe('none');
      await title.hover();
      expect(await line()).toBe('underline');
      await page.mouse.move(0, 0);
      expect(await line()).toBe('none');
      await title.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      expect(await line()).toBe('underline');
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `desktop-home-${colorScheme}`);
      await page.context().close();
    });
  }

  it('has the chat button step aside while it is over one of its links', async () => {
    const page = await open(TOUR, { viewport: { width: 1440, height: 340 } });
    await scrollToHeading(page, 'ship', 0);
    await page.waitForTimeout(300);
    const state = await page.evaluate(() => {
      const chat = document.getElementById('chat-button')!.getBoundingClientRect();
      const over = [...document.querySelectorAll('.toc a')].some((a) => {
        const box = a.getBoundingClientRect();
        return box.left < chat.right && box.right > chat.left && box.top < chat.bottom && box.bottom > chat.top;
      });
      return { over, aside: document.getElementById('chat-button')!.classList.contains('aside') };
    });
    expect(state).toEqual({ over: true, aside: true });
    await page.context().close();
  });

  it('is a plain list of links without JavaScript, nothing marked', async () => {
    const page = await open(TOUR, { ...WIDE, javaScriptEnabled: false });
    expect(await page.locator('nav.toc').isVisible()).toBe(true);
    expect(await page.locator('nav.toc a').count()).toBe(TOC_IDS.length);
    expect(await page.locator('nav.toc a[aria-current]').count()).toBe(0);
    await page.locator('nav.toc a[href="#ship"]').click();
    await page.waitForFunction(() => location.hash === '#ship');
    await page.context().close();
  });

  it('is not shown below 1280 px, where the sidebar lists the page\'s sections', async () => {
    const page = await open(TOUR, { viewport: { width: 1100, height: 800 } });
    expect(await page.locator('nav.toc').isVisible()).toBe(false);
    expect(await page.locator('.sidebar-item.open .sidebar-anchors a').evaluateAll((as) => as.filter((a) => a.checkVisibility()).map((a) => a.getAttribute('href')))).toEqual(
      ['#arrive', '#look-around', '#configure', '#build', '#ship', '#leave'],
    );
    await page.context().close();
  });
});

describe.runIf(hasChromium)('a phone at 390 × 844', () => {
  for (const colorScheme of SCHEMES) {
    it(`has no right column, keeps the "Contents" list under the title, and no axe-core violations (${colorScheme})`, async () => {
      const page = await open(TOUR, { ...PHONE, colorScheme });
      expect(await page.locator('nav.toc').isVisible()).toBe(false);
      const contents = page.locator('.article details.toc-phone');
      expect(await contents.isVisible()).toBe(true);
      const [h1, list] = await Promise.all([page.locator('.article h1').boundingBox(), contents.boundingBox()]);
      expect(list!.y).toBeGreaterThan(h1!.y);
      expect(await page.locator('.breadcrumbs').isVisible()).toBe(true);
      await page.locator('.toc-phone summary').tap();
      expect(await page.locator('.toc-phone a').allTextContents()).toEqual(['Arrive', 'Look around', 'Configure', 'Build', 'Ship', 'Leave']);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width).toBeLessThanOrEqual(390);
      expect(await axeViolations(page)).toEqual([]);
      await screenshot(page, `phone-contents-${colorScheme}`);
      await page.context().close();
    });
  }
});
