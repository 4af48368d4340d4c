import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launch, offline, PHONE, screenshot } from '../helpers/browser.js';
import { builtSite } from '../helpers/built.js';
import { centre, swipe, tap, type Point } from '../helpers/touch.js';

/*
 * The page chrome under real touch input (test/helpers/touch.ts: Chromium's own
 * touch events through the DevTools protocol). Set DOCS_SCREENSHOTS
 * to a folder to keep a screenshot of each state.
 */

const TABLET: BrowserContextOptions = { viewport: { width: 768, height: 1024 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const SMALL_PHONE: BrowserContextOptions = { ...PHONE, viewport: { width: 360, height: 640 } };
const DISMISSED = () => {
  localStorage.setItem('notification-dismissed', '2');
  localStorage.setItem('announcement-dismissed', 'v2');
};

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;

beforeAll(async () => {
  site = await builtSite();
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function open(path: string, options: BrowserContextOptions, init?: () => void): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await offline(page);
  if (init) await page.addInitScript(init);
  await page.goto(site.server.url + path);
  return page;
}

const menuOpen = (page: Page) => page.evaluate(() => document.getElementById('mobile-menu')!.classList.contains('visible'));
const menuAtRest = (page: Page, open: boolean) =>
  page.waitForFunction((left) => document.getElementById('mobile-menu')!.getBoundingClientRect().left === left, open ? 0 : -295);

async function openMenu(page: Page): Promise<void> {
  await tap(page, await centre(page, '.menu-toggle'));
  expect(await menuOpen(page)).toBe(true);
  await menuAtRest(page, true);
}

describe.runIf(hasChromium)('language dropdown by touch and by mouse', () => {
  it('opens with a tap on a 768×1024 touch tablet; a second tap or a tap outside closes it', async () => {
    const page = await open('/guides/first/', TABLET);
    const menu = page.locator('.lang-menu');
    expect(await page.locator('.lang-button').isVisible()).toBe(true);
    const button = await centre(page, '.lang-button');
    await tap(page, button);
    expect(await menu.isVisible()).toBe(true);
    expect(await page.getAttribute('.lang-button', 'aria-expanded')).toBe('true');
    await screenshot(page, 'tablet-language-menu-open');
    await tap(page, button);
    expect(await menu.isVisible()).toBe(false);
    await tap(page, button);
    expect(await menu.isVisible()).toBe(true);
    await tap(page, await centre(page, 'h1'));
    expect(await menu.isVisible()).toBe(false);
    expect(await page.getAttribute('.lang-button', 'aria-expanded')).toBe('false');
    // A tap on a language entry follows it.
    await tap(page, button);
    const href = await menu.locator('a').last().getAttribute('href');
    expect(href).toBe('https://zh.docs.example.org/');
  });

  it('with a mouse: hover opens it, a click then keeps it open, leaving closes it; a click opens it when closed', async () => {
    const page = await open('/guides/first/', DESKTOP);
    const menu = page.locator('.lang-menu');
    await page.hover('.lang-button');
    expect(await menu.isVisible()).toBe(true);
    await page.click('.lang-button');
    expect(await menu.isVisible()).toBe(true);
    await page.click('.lang-button');
    expect(await menu.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    expect(await menu.isVisible()).toBe(false);
    await page.click('.lang-button'); // still over it: closed, so the click opens it
    expect(await menu.isVisible()).toBe(true);
    await page.mouse.move(200, 600);
    expect(await menu.isVisible()).toBe(false);
  });
});

describe.runIf(hasChromium)('phone menu under real touch (375×667)', () => {
  it('closes on a left swipe of more than 100 px from any start point, over links or not', async () => {
    const page = await open('/guides/first/', PHONE);
    await openMenu(page);
    const links = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('#mobile-menu a')].slice(0, 6).map((a) => {
        const r = a.getBoundingClientRect();
        return { y: r.top + r.height / 2, left: r.left, right: r.right };
      }),
    );
    const starts: Point[] = [
      { x: 260, y: links[2]!.y }, // over a page link
      { x: 200, y: links[1]!.y }, // over a section link's row
      { x: 150, y: links[3]!.y },
      { x: 290, y: 600 }, // near the menu's right edge, below the links
      { x: 260, y: 40 },
    ];
    for (const start of starts) {
      // 90 px: stays open.
      await swipe(page, start, { x: start.x - 90, y: start.y });
      expect(await menuOpen(page), `90 px from ${JSON.stringify(start)}`).toBe(true);
      await swipe(page, start, { x: start.x - 110, y: start.y + 10 });
      expect(await menuOpen(page), `110 px from ${JSON.stringify(start)}`).toBe(false);
      expect(await page.evaluate(() => window.scrollY)).toBe(0); // the page under the menu did not scroll
      expect(page.url()).toBe(site.server.url + '/guides/first/'); // no link followed
      await menuAtRest(page, false);
      await openMenu(page);
    }
  });

  it('scrolls vertically inside the open menu, and a vertical swipe does not close it', async () => {
    const page = await open('/guides/first/', PHONE);
    await openMenu(page);
    const inner = () => page.evaluate(() => document.querySelector('.mobile-menu-inner')!.scrollTop);
    expect(await inner()).toBe(0);
    await swipe(page, { x: 150, y: 600 }, { x: 150, y: 250 }, 10);
    await page.waitForFunction(() => document.querySelector('.mobile-menu-inner')!.scrollTop > 0);
    expect(await menuOpen(page)).toBe(true);
  });

  it('lets a tap on the edge strip reach the page: a link at x=10 is followed and the menu stays closed', async () => {
    const page = await open('/guides/second/', PHONE);
    const link = page.locator('.page-link-prev');
    await link.scrollIntoViewIfNeeded();
    // The previous-page link starts at the content's padding (x=18), inside the 32 px strip.
    let box = (await link.boundingBox())!;
    expect(box.x).toBeLessThan(32);
    await tap(page, { x: 24, y: box.y + box.height / 2 });
    await page.waitForURL('**/guides/first/');
    expect(await menuOpen(page)).toBe(false);

    // A link whose box reaches the very edge, tapped at x=10.
    await page.goto(site.server.url + '/guides/second/');
    await link.evaluate((a) => (a.style.marginLeft = '-18px'));
    await link.scrollIntoViewIfNeeded();
    box = (await link.boundingBox())!;
    expect(box.x).toBe(0);
    await tap(page, { x: 10, y: box.y + box.height / 2 });
    await page.waitForURL('**/guides/first/');
    expect(await menuOpen(page)).toBe(false);
  });

  it('opens only on a horizontal drag that starts on the edge strip, even over a link', async () => {
    const page = await open('/guides/second/', PHONE);
    const link = page.locator('.page-link-prev');
    await link.scrollIntoViewIfNeeded();
    const box = (await link.boundingBox())!;
    const y = box.y + box.height / 2;
    await swipe(page, { x: 40, y }, { x: 160, y }); // starts right of the strip
    expect(await menuOpen(page)).toBe(false);
    await swipe(page, { x: 24, y }, { x: 144, y });
    expect(await menuOpen(page)).toBe(true);
    expect(page.url()).toBe(site.server.url + '/guides/second/');
  });

  it('lists in the menu every link the header hides on phones, at 375 and 360 px', async () => {
    for (const options of [PHONE, SMALL_PHONE]) {
      const page = await open('/guides/first/', options);
      const hidden = await page.evaluate(() =>
        [...document.querySelectorAll<HTMLAnchorElement>('.header a[href]')]
          .filter((a) => {
            const r = a.getBoundingClientRect();
            return !a.checkVisibility() || r.width === 0 || r.right > innerWidth || r.left < 0;
          })
          .map((a) => a.getAttribute('href')!),
      );
      // The top navigation, its sub-row and the languages (English is this site: "/") are hidden on phones.
      expect(hidden).toEqual(expect.arrayContaining(['/guides/', '/contribute/', 'https://blog.example.org', '/plugins/', '/', 'https://zh.docs.example.org/']));
      await openMenu(page);
      for (const href of hidden) {
        const entry = page.locator(`#mobile-menu a[href="${href}"]`).first();
        expect(await entry.count(), href).toBe(1);
        await entry.scrollIntoViewIfNeeded();
        expect(await entry.isVisible(), href).toBe(true);
      }
      // The icon links of the header are in the menu too, named.
      for (const name of ['Source code on GitHub', 'Questions on Stack Overflow', 'Contribute', 'Blog', 'English', '中文']) {
        expect(await page.locator('#mobile-menu a', { hasText: name }).count(), name).toBe(1);
      }
      await page.locator('#mobile-menu .mobile-languages').scrollIntoViewIfNeeded();
      await screenshot(page, `drawer-languages-${options.viewport!.width}`);
    }
  });
});

describe.runIf(hasChromium)('search on a phone', () => {
  for (const options of [PHONE, SMALL_PHONE]) {
    for (const banners of ['shown', 'dismissed'] as const) {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { width, height } = options.viewport!;
        it(`keeps the box in view above the results at ${width}×${height}, banners ${banners}, ${colorScheme}`, async () => {
          const page = await open('/guides/first/', { ...options, colorScheme }, banners === 'dismissed' ? DISMISSED : undefined);
          expect(await page.locator('#banner').isVisible()).toBe(banners === 'shown');
          await tap(page, await centre(page, '.search-toggle'));
          await page.waitForFunction(() => document.getElementById('search-input')!.offsetWidth > 200);
          await page.keyboard.type('guide', { delay: 30 });
          await page.waitForFunction(() => document.querySelectorAll('#search-results [role="option"], #search-results a').length > 0);
          const boxes = await page.evaluate(() => {
            const input = document.getElementById('search-input')!.getBoundingClientRect();
            const panel = document.getElementById('search-panel')!.getBoundingClientRect();
            const hit = document.elementFromPoint(input.left + input.width / 2, input.top + input.height / 2);
            return { input: input.toJSON() as DOMRect, panel: panel.toJSON() as DOMRect, onTop: hit?.id, value: (document.getElementById('search-input') as HTMLInputElement).value };
          });
          expect(boxes.value).toBe('guide');
          expect(boxes.input.top).toBeGreaterThanOrEqual(0);
          expect(boxes.input.bottom).toBeLessThanOrEqual(boxes.panel.top);
          expect(boxes.input.width).toBeGreaterThan(width / 2);
          expect(boxes.onTop).toBe('search-input');
          expect(boxes.panel.left).toBeGreaterThanOrEqual(0);
          expect(boxes.panel.right).toBeLessThanOrEqual(width);
          // Nothing of the header shows through the box.
          expect(await page.locator('.logo').isVisible()).toBe(false);
          await screenshot(page, `phone-search-${width}-banners-${banners}-${colorScheme}`);
        });
      }
    }
  }
});

describe.runIf(hasChromium)('chat button on phones', () => {
  it('shows at 40 px and never covers a link or button of the page while scrolling; the footer rule holds', async () => {
    for (const path of ['/guides/first/', '/guides/long/']) {
      const page = await open(path, PHONE);
      const button = page.locator('#chat-button');
      expect(await button.isVisible()).toBe(true);
      expect((await button.boundingBox())!.width).toBe(40);
      const height = await page.evaluate(() => document.documentElement.scrollHeight - innerHeight);
      for (let y = 0; y <= height + 50; y += 60) {
        await page.evaluate((top) => window.scrollTo(0, top), y);
        // The script answers a scroll on its next frames: on a busy machine, later than a fixed wait.
        const covered = () => page.evaluate(() => {
          const chat = document.getElementById('chat-button')!;
          const c = chat.getBoundingClientRect();
          return [...document.querySelectorAll<HTMLElement>('#content a[href], #content button, #content summary')]
            .map((el) => {
              const r = el.getBoundingClientRect();
              const x = r.left + r.width / 2;
              const y = r.top + r.height / 2;
              const under = x > c.left && x < c.right && y > c.top && y < c.bottom;
              return under && document.elementFromPoint(x, y) === chat ? el.textContent : null;
            })
            .filter(Boolean);
        });
        await expect.poll(covered, { message: `${path} at scroll ${y}`, timeout: 3000 }).toEqual([]);
      }
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const footer = await page.evaluate(() => document.getElementById('footer')!.offsetHeight);
      const lift = () => page.evaluate(() => new DOMMatrix(getComputedStyle(document.getElementById('chat-button')!).transform).m42);
      await expect.poll(lift, { timeout: 3000 }).toBe(-footer);
      await screenshot(page, `phone-chat-page-end${path.replace(/\//g, '-')}`);
    }
  });
});
