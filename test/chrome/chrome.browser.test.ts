import { gzipSync } from 'node:zlib';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launch, offline, PHONE } from '../helpers/browser.js';
import { builtSite } from '../helpers/built.js';
import { editFile, fixtureSite } from '../helpers/site.js';

/* The page chrome of SPEC §1–§4 in a real browser, on the fixture site. */

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;
const contexts: BrowserContext[] = [];

beforeAll(async () => {
  site = await builtSite();
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function open(path: string, options = DESKTOP, init?: () => void): Promise<Page> {
  const context = await browser.newContext(options);
  contexts.push(context);
  const page = await context.newPage();
  await offline(page);
  if (init) await page.addInitScript(init);
  await page.goto(site.server.url + path);
  return page;
}

const attr = (page: Page, selector: string, name: string) => page.locator(selector).first().getAttribute(name);

describe.runIf(hasChromium)('header and navigation', () => {
  it('highlights the top entry whose section the path starts with, and the active child in the sub-menu', async () => {
    const page = await open('/guides/first/');
    const documentation = page.locator('.topnav a', { hasText: 'Documentation' });
    expect(await documentation.getAttribute('aria-current')).toBe('true');
    expect(await documentation.getAttribute('class')).toBe('active');
    expect(await page.locator('.topnav a', { hasText: 'Contribute' }).getAttribute('aria-current')).toBeNull();
    const guides = page.locator('.subnav a', { hasText: 'Guides' });
    expect(await guides.getAttribute('aria-current')).toBe('true');
    expect(await page.locator('.subnav a', { hasText: 'Plugins' }).getAttribute('aria-current')).toBeNull();
    await page.goto(site.server.url + '/guides/');
    expect(await page.locator('.subnav a', { hasText: 'Guides' }).getAttribute('aria-current')).toBe('page');
    await page.goto(site.server.url + '/plugins/alpha-plugin/');
    expect(await page.locator('.subnav a', { hasText: 'Plugins' }).getAttribute('aria-current')).toBe('true');
    await page.goto(site.server.url + '/');
    expect(await page.locator('.subnav').count()).toBe(0);
  });

  it('opens links starting with http or // in a new tab, safely', async () => {
    const page = await open('/guides/first/');
    const external = page.locator('.markdown a[href="https://example.com"]');
    expect(await external.getAttribute('target')).toBe('_blank');
    expect(await external.getAttribute('rel')).toBe('noopener noreferrer');
    expect(await page.locator('.topnav a', { hasText: 'Blog' }).getAttribute('target')).toBe('_blank');
    expect(await page.locator('.markdown a', { hasText: 'section link' }).getAttribute('target')).toBeNull();
  });

  it('links the logo to / and names the icon links', async () => {
    const page = await open('/guides/first/');
    expect(await attr(page, '.logo', 'href')).toBe('/');
    expect(await page.getByRole('link', { name: /Source code on GitHub/ }).getAttribute('href')).toBe('https://github.com/example/project');
    expect(await page.getByRole('link', { name: /Questions on Stack Overflow/ }).getAttribute('href')).toBe('https://stackoverflow.com/questions/tagged/example');
    expect(await attr(page, '#search-input', 'placeholder')).toBe('Search documentation…');
  });

  it('activates the language dropdown on mouse over and deactivates it on mouse leave', async () => {
    const page = await open('/guides/first/');
    const menu = page.locator('.lang-menu');
    expect(await menu.isVisible()).toBe(false);
    await page.hover('.lang-button');
    expect(await menu.isVisible()).toBe(true);
    expect(await attr(page, '.lang-button', 'aria-expanded')).toBe('true');
    await page.mouse.move(200, 600);
    expect(await menu.isVisible()).toBe(false);
    expect(await attr(page, '.lang-button', 'aria-expanded')).toBe('false');
  });

  it('operates the language dropdown by keyboard (Enter opens, Escape closes and returns focus)', async () => {
    const page = await open('/guides/first/');
    await page.focus('.lang-button');
    await page.keyboard.press('Enter');
    expect(await page.locator('.lang-menu').isVisible()).toBe(true);
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('English');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain('中文');
    await page.keyboard.press('Escape');
    expect(await page.locator('.lang-menu').isVisible()).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('lang-button');
  });

  it('enters search mode when Tab focus lands on the search input, and leaves it on blur', async () => {
    const page = await open('/guides/first/');
    const header = page.locator('.header');
    await page.focus('.subnav a >> nth=0');
    await page.keyboard.press('Shift+Tab'); // back through the header
    await page.focus('.topnav a >> nth=2');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-input');
    expect(await header.getAttribute('class')).toContain('search-mode');
    await page.keyboard.press('Tab');
    expect(await header.getAttribute('class')).not.toContain('search-mode');
  });

  it('toggles search mode with the search icon on the phone layout', async () => {
    const page = await open('/guides/first/', PHONE);
    const header = page.locator('.header');
    const width = () => page.evaluate(() => document.getElementById('search-input')!.offsetWidth);
    expect(await width()).toBeLessThan(2);
    await page.tap('.search-toggle');
    expect(await header.getAttribute('class')).toContain('search-mode');
    await page.waitForFunction(() => document.getElementById('search-input')!.offsetWidth > 200);
    await page.tap('h1');
    expect(await header.getAttribute('class')).not.toContain('search-mode');
  });
});

describe.runIf(hasChromium)('sponsorship banner', () => {
  it('stores the dismissal as "2" and stays dismissed on later visits, absent from the first frame', async () => {
    const page = await open('/guides/first/');
    expect(await page.locator('#banner').isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Close banner' }).click();
    expect(await page.locator('#banner').count()).toBe(0);
    expect(await page.evaluate(() => localStorage.getItem('notification-dismissed'))).toBe('2');
    await page.addInitScript(() => {
      requestAnimationFrame(() => {
        const banner = document.getElementById('banner');
        (window as unknown as { firstFrame: string }).firstFrame = banner ? `${getComputedStyle(banner).display}:${banner.getBoundingClientRect().height}` : 'missing';
      });
    });
    await page.reload();
    await page.waitForFunction(() => (window as unknown as { firstFrame?: string }).firstFrame !== undefined);
    expect(await page.evaluate(() => (window as unknown as { firstFrame: string }).firstFrame)).toBe('none:0');
    await page.goto(site.server.url + '/plugins/');
    expect(await page.locator('#banner').isVisible()).toBe(false);
  });

  it('shows a banner again when its version changes: hidden under a dismissal of its version (2), shown under one of an older version (1)', async () => {
    const dismissed = await open('/guides/first/', DESKTOP, () => localStorage.setItem('notification-dismissed', '2'));
    expect(await dismissed.locator('#banner').isVisible()).toBe(false);
    const page = await open('/guides/first/', DESKTOP, () => localStorage.setItem('notification-dismissed', '1'));
    expect(await page.locator('#banner').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Close banner' }).isVisible()).toBe(true);
  });

  it('keeps the banner and shows no close button when storage is blocked', async () => {
    const page = await open('/guides/first/', DESKTOP, () => {
      Object.defineProperty(window, 'localStorage', {
        get() {
          throw new DOMException('The operation is insecure.', 'SecurityError');
        },
      });
    });
    expect(await page.locator('#banner').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Close banner' }).isVisible()).toBe(false);
  });
});

describe.runIf(hasChromium)('notification bar', () => {
  it('shows the announcement with its link and dismisses it under its own key and version', async () => {
    const page = await open('/guides/first/');
    const bar = page.locator('#notification');
    expect(await bar.textContent()).toContain('Version 2 of the fixture is out.');
    expect(await bar.locator('a').getAttribute('href')).toBe('/guides/second/');
    await page.getByRole('button', { name: 'Dismiss announcement' }).click();
    expect(await page.evaluate(() => localStorage.getItem('announcement-dismissed'))).toBe('v2');
    expect(await page.evaluate(() => localStorage.getItem('notification-dismissed'))).toBeNull();
    await page.reload();
    expect(await page.locator('#notification').isVisible()).toBe(false);
    expect(await page.locator('#banner').isVisible()).toBe(true);
  });

  it('is not rendered when the config has none', async () => {
    const dir = fixtureSite();
    try {
      editFile(join(dir, 'site.config.yaml'), /notification:\n(  .*\n|    .*\n)+/, '');
      const plain = await builtSite(dir);
      try {
        const html = readFileSync(join(plain.dir, 'guides/first/index.html'), 'utf8');
        expect(html).not.toContain('class="notification"');
        expect(html).not.toContain('announcement-dismissed');
      } finally {
        await plain.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

async function swipe(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [from] });
  for (let i = 1; i <= 5; i++) {
    const x = from.x + ((to.x - from.x) * i) / 5;
    const y = from.y + ((to.y - from.y) * i) / 5;
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
  await settle(page);
}

/** Touch events are delivered asynchronously: wait two frames for them to be handled. */
function settle(page: Page): Promise<unknown> {
  return page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Waits until the menu's 500 ms slide has finished (it rests at 0 when open, -295 px when closed). */
const menuAtRest = (page: Page, open: boolean) =>
  page.waitForFunction((left) => document.getElementById('mobile-menu')!.getBoundingClientRect().left === left, open ? 0 : -295);

const menuOpen = (page: Page) => page.evaluate(() => document.getElementById('mobile-menu')!.classList.contains('visible'));

describe.runIf(hasChromium)('mobile side menu (375×667, touch)', () => {
  it('toggles with the menu button, highlights the current page and closes on a link click', async () => {
    const page = await open('/guides/second/', PHONE);
    expect(await menuOpen(page)).toBe(false);
    expect(await attr(page, '.mobile-menu-inner', 'inert')).toBe('');
    await page.tap('.menu-toggle');
    expect(await menuOpen(page)).toBe(true);
    expect(await attr(page, '.menu-toggle', 'aria-expanded')).toBe('true');
    expect(await page.locator('#mobile-menu a[aria-current="page"]').textContent()).toBe('Second guide');
    expect(await page.locator('#mobile-menu .mobile-section-title a', { hasText: 'Guides' }).getAttribute('aria-current')).toBe('true');
    await page.locator('#mobile-menu a', { hasText: 'First guide' }).tap();
    await page.waitForURL('**/guides/first/');
    expect(await menuOpen(page)).toBe(false);
  });

  it('closes on a click or touch outside', async () => {
    const page = await open('/guides/first/', PHONE);
    await page.tap('.menu-toggle');
    expect(await menuOpen(page)).toBe(true);
    await page.touchscreen.tap(360, 500);
    expect(await menuOpen(page)).toBe(false);
  });

  it('by keyboard: Enter opens it with focus on its first link, Tab past its last link closes it, Escape closes it and returns focus', async () => {
    const page = await open('/guides/first/', PHONE);
    await page.focus('.menu-toggle');
    await page.keyboard.press('Enter');
    expect(await menuOpen(page)).toBe(true);
    const focusedInMenu = () => page.evaluate(() => document.getElementById('mobile-menu')!.contains(document.activeElement));
    expect(await focusedInMenu()).toBe(true);
    // Tab through every link of the menu: focus never lands on the page under the open menu.
    const stops = await page.locator('#mobile-menu a, #mobile-menu button').count();
    for (let i = 1; i < stops; i++) {
      await page.keyboard.press('Tab');
      expect(await menuOpen(page)).toBe(true);
      expect(await focusedInMenu()).toBe(true);
    }
    await page.keyboard.press('Tab');
    expect(await focusedInMenu()).toBe(false);
    expect(await menuOpen(page)).toBe(false);
    expect(await attr(page, '.menu-toggle', 'aria-expanded')).toBe('false');
    // Shift+Tab from its first link goes back to the header: that closes it too.
    await page.focus('.menu-toggle');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Shift+Tab');
    expect(await focusedInMenu()).toBe(false);
    expect(await menuOpen(page)).toBe(false);
    // Escape closes it and puts focus back on the toggle.
    await page.focus('.menu-toggle');
    await page.keyboard.press('Enter');
    expect(await menuOpen(page)).toBe(true);
    await page.keyboard.press('Escape');
    expect(await menuOpen(page)).toBe(false);
    expect(await page.evaluate(() => document.activeElement?.classList.contains('menu-toggle'))).toBe(true);
  });

  it('opens on a right swipe of more than 100 px from the edge handle, not of 90 px or at a steep angle', async () => {
    const page = await open('/guides/first/', PHONE);
    await swipe(page, { x: 10, y: 400 }, { x: 100, y: 400 });
    expect(await menuOpen(page)).toBe(false);
    await menuAtRest(page, false);
    await swipe(page, { x: 10, y: 400 }, { x: 120, y: 500 }); // 110 across, 100 down: ratio 0.91
    expect(await menuOpen(page)).toBe(false);
    await menuAtRest(page, false);
    await swipe(page, { x: 10, y: 400 }, { x: 120, y: 400 });
    expect(await menuOpen(page)).toBe(true);
  });

  it('closes on a left swipe of more than 100 px, not of 90 px', async () => {
    const page = await open('/guides/first/', PHONE);
    await page.tap('.menu-toggle');
    await menuAtRest(page, true);
    await swipe(page, { x: 250, y: 400 }, { x: 160, y: 400 });
    expect(await menuOpen(page)).toBe(true);
    await swipe(page, { x: 250, y: 400 }, { x: 140, y: 400 });
    expect(await menuOpen(page)).toBe(false);
  });

  it('follows the finger while dragging open, limited to under 295 px', async () => {
    const page = await open('/guides/first/', PHONE);
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 10, y: 300 }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: 110, y: 300 }] });
    await settle(page);
    const mid = await page.evaluate(() => document.getElementById('mobile-menu')!.getBoundingClientRect().left);
    expect(mid).toBe(-195);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: 370, y: 300 }] });
    await settle(page);
    const far = await page.evaluate(() => document.getElementById('mobile-menu')!.getBoundingClientRect().left);
    expect(far).toBe(-1); // 294 px of drag at most
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await settle(page);
    expect(await menuOpen(page)).toBe(true);
  });
});

describe.runIf(hasChromium)('desktop sidebar', () => {
  it('lists the section pages with group headings, open current item and anchors linked per page', async () => {
    const page = await open('/guides/first/');
    expect(await page.locator('.sidebar-group').allTextContents()).toEqual(['Basics', 'Advanced']);
    const current = page.locator('.sidebar-item.open');
    expect(await current.count()).toBe(1);
    expect(await current.locator('.sidebar-row a').getAttribute('aria-current')).toBe('page');
    expect(await current.locator('.sidebar-anchors a').first().getAttribute('href')).toBe('#install');
    const other = page.locator('.sidebar-item', { hasText: 'Second guide' });
    expect(await other.locator('.sidebar-anchors a').first().getAttribute('href')).toBe('/guides/second/#setup');
    expect(await other.locator('.sidebar-anchors').isVisible()).toBe(false);
    // The section index has no anchors, so no chevron.
    expect(await page.locator('.sidebar-item', { hasText: 'Guides' }).first().locator('.chevron').count()).toBe(0);
  });

  it('toggles an item with its chevron', async () => {
    const page = await open('/guides/first/');
    const other = page.locator('.sidebar-item', { hasText: 'Second guide' });
    await other.locator('.chevron').click();
    expect(await other.locator('.sidebar-anchors').isVisible()).toBe(true);
    expect(await other.locator('.chevron').getAttribute('aria-expanded')).toBe('true');
    await other.locator('.chevron').click();
    expect(await other.locator('.sidebar-anchors').isVisible()).toBe(false);
  });

  it('lists every plugin page with its anchors and no group headings on a plugin page', async () => {
    const page = await open('/plugins/normal-module-replacement-plugin/');
    expect(await page.locator('.sidebar-row a').allTextContents()).toEqual(['Plugins', 'alpha-plugin', 'beta-plugin', 'normal-module-replacement-plugin']);
    expect(await page.locator('.sidebar-group').count()).toBe(0);
    expect(await page.locator('.sidebar-item.open .sidebar-anchors a').allTextContents()).toEqual(['Install', 'Usage', 'Options', 'Examples']);
  });

  it('becomes fixed after scrolling past header and banner, and shrinks when the footer comes into view', async () => {
    const page = await open('/guides/long/');
    await page.waitForTimeout(300); // the 250 ms recalculation after load
    expect(await page.locator('#sidebar').getAttribute('class')).not.toContain('fixed');
    await page.mouse.wheel(0, 600);
    await page.waitForFunction(() => document.getElementById('sidebar')!.classList.contains('fixed'));
    const inner = () => page.evaluate(() => document.querySelector('.sidebar-inner')!.getBoundingClientRect().toJSON() as DOMRect);
    const top = await inner();
    expect(top.top).toBe(0);
    expect(top.height).toBe(800);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForFunction(() => (document.querySelector('.sidebar-inner') as HTMLElement).getBoundingClientRect().height < 800);
    const footerTop = await page.evaluate(() => document.getElementById('footer')!.getBoundingClientRect().top);
    expect((await inner()).height).toBeCloseTo(footerTop, 0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.waitForFunction(() => !document.getElementById('sidebar')!.classList.contains('fixed'));
  });
});

describe.runIf(hasChromium)('chat button and version badge', () => {
  it('keeps the chat button at offset 0 until the footer is near, then lifts it by the footer height minus the remaining distance', async () => {
    const page = await open('/guides/long/');
    const offset = () => page.evaluate(() => new DOMMatrix(getComputedStyle(document.getElementById('chat-button')!).transform).m42);
    await page.waitForTimeout(300);
    expect(await offset()).toBe(0);
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await page.waitForTimeout(100);
    const footer = await page.evaluate(() => document.getElementById('footer')!.offsetHeight);
    expect(await offset()).toBe(-footer);
    await page.evaluate((f) => window.scrollTo(0, document.documentElement.scrollHeight - window.innerHeight - f / 2), footer);
    await page.waitForTimeout(100);
    expect(await offset()).toBeCloseTo(-footer / 2, 0);
    const link = page.getByRole('link', { name: /Chat with us/ });
    expect(await link.getAttribute('href')).toBe('https://chat.example.org');
  });

  it('shows the version badge with fixed size and a meaningful alt, linking to the releases', async () => {
    const page = await open('/guides/first/');
    const img = page.locator('.badge img');
    expect(await img.getAttribute('src')).toBe('https://img.shields.io/npm/v/example.svg?label=example&style=flat-square&maxAge=3600');
    expect(await img.getAttribute('width')).toBe('90');
    expect(await img.getAttribute('height')).toBe('20');
    expect(await img.getAttribute('alt')).toBe('example version');
    expect(await page.getByRole('link', { name: 'example version (release notes, opens in a new tab)' }).count()).toBe(1);
    expect(await attr(page, '.badge', 'href')).toBe('https://github.com/example/project/releases');
  });

  it('shows the chat button on phones too, smaller (40 px) and nearer the corner', async () => {
    const page = await open('/guides/first/', PHONE);
    const box = (await page.locator('#chat-button').boundingBox())!;
    expect(box.width).toBe(40);
    expect(375 - (box.x + box.width)).toBe(12);
  });

  it('keeps the badge box (90×20, no overflow) with a short alt text when the image cannot load', async () => {
    const context = await browser.newContext(DESKTOP);
    contexts.push(context);
    const page = await context.newPage();
    await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) => route.abort());
    await page.goto(site.server.url + '/guides/first/');
    const sizes = await page.evaluate(() => {
      const badge = document.querySelector<HTMLElement>('.badge')!;
      const img = badge.querySelector('img')!;
      return { complete: img.complete && img.naturalWidth === 0, badge: [badge.offsetWidth, badge.offsetHeight], img: [img.offsetWidth, img.offsetHeight], scroll: [badge.scrollWidth, badge.scrollHeight] };
    });
    expect(sizes).toEqual({ complete: true, badge: [90, 20], img: [90, 20], scroll: [90, 20] });
    expect((await page.locator('.badge img').getAttribute('alt'))!.length).toBeLessThanOrEqual(20);
  });
});

describe.runIf(hasChromium)('robustness', () => {
  it('has no layout shift after load (CLS 0)', async () => {
    for (const options of [DESKTOP, PHONE]) {
      const page = await open('/guides/long/', options, () => {
        (window as unknown as { cls: number }).cls = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) (window as unknown as { cls: number }).cls += (entry as unknown as { value: number }).value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.waitForTimeout(600);
      expect(await page.evaluate(() => (window as unknown as { cls: number }).cls)).toBe(0);
    }
  });

  it('reads well and navigates with JavaScript off: menus degrade to plain links', async () => {
    const context = await browser.newContext({ ...PHONE, javaScriptEnabled: false });
    contexts.push(context);
    const page = await context.newPage();
    await offline(page);
    await page.goto(site.server.url + '/guides/first/');
    expect(await page.locator('h1').textContent()).toBe('First guide');
    expect(await page.locator('.menu-toggle').isVisible()).toBe(false);
    const menuLink = page.locator('#mobile-menu a', { hasText: 'Second guide' });
    expect(await menuLink.isVisible()).toBe(true);
    await menuLink.click();
    await page.waitForURL('**/guides/second/');
    expect(await page.locator('h1').textContent()).toBe('Second guide');
    expect(await page.locator('.copy').first().isVisible()).toBe(false);
  });

  it('respects prefers-reduced-motion', async () => {
    const page = await open('/guides/first/', { ...PHONE, reducedMotion: 'reduce' });
    expect(await page.evaluate(() => getComputedStyle(document.getElementById('mobile-menu')!).transitionDuration)).toBe('0s');
    const moving = await open('/guides/first/', PHONE);
    expect(await moving.evaluate(() => getComputedStyle(document.getElementById('mobile-menu')!).transitionDuration)).toBe('0.5s');
  });

  it('has a skip link that moves focus to the main content, and visible focus', async () => {
    const page = await open('/guides/first/');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to content');
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('content');
  });
});

describe('budgets of the built output', () => {
  it('keeps the interaction script under 8 KB and the CSS under 20 KB (gzip)', () => {
    const assets = join(site.dir, 'assets');
    const sizes = Object.fromEntries(readdirSync(assets).map((f) => [f, gzipSync(readFileSync(join(assets, f)), { level: 9 }).length]));
    console.log('gzip sizes:', sizes);
    const js = Object.entries(sizes).filter(([f]) => /^main\..*\.js$/.test(f));
    const css = Object.entries(sizes).filter(([f]) => f.endsWith('.css'));
    expect(js).toHaveLength(1);
    expect(css).toHaveLength(1);
    expect(js[0]![1]).toBeLessThan(8 * 1024);
    expect(css[0]![1]).toBeLessThan(20 * 1024);
  });
});
