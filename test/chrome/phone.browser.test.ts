import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, launch, offline, screenshot } from '../helpers/browser.js';
import { builtSite } from '../helpers/built.js';
import { runDocs } from '../helpers/site.js';

/*
 * What a reader meets on a phone (390×844 and 320×640, touch) and a touch
 * tablet (820×1180), on a small site as a new user makes it: the starter of
 * `docs init` with a short title, three social icons, and a reference page
 * of tables of identifiers, a long command line and four sections, and a page titled by long identifiers. Taps are
 * the browser's own touch events (Input.dispatchTouchEvent of the DevTools
 * protocol). Set DOCS_SCREENSHOTS to a folder to keep a screenshot of each state.
 */

const touch = (width: number, height: number): BrowserContextOptions => ({ viewport: { width, height }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 });
const PHONE_390 = touch(390, 844);
const PHONE_320 = touch(320, 640);
const TABLET_820 = touch(820, 1180);
const DEVICES = { '390×844': PHONE_390, '320×640': PHONE_320, '820×1180': TABLET_820 };
const PAGE = '/reference/configuration/';

const REFERENCE = `---
title: Configuration
---

tidewater reads \`tidewater.toml\` from \`$XDG_CONFIG_HOME/tidewater/\`.

## [sync]

| Key | Type | Default | Description |
| --- | --- | --- | --- |
| \`days_ahead\` | integer | \`30\` | How many days of predictions to keep. |
| \`units\` | \`"metric"\` \\| \`"imperial"\` | \`"metric"\` | Units of heights. |
| \`source\` | string | \`"noaa"\` | Default source of predictions. |

## Global flags

| Flag | Description |
| --- | --- |
| \`--config <FILE>\` | Use another configuration file. |
| \`-v\`, \`--verbose\` | Print what is fetched. |

## Install

\`\`\`bash
curl -LO https://github.com/tidewater-rs/tidewater/releases/latest/download/tidewater-x86_64-unknown-linux-musl.tar.gz
tar xzf tidewater-x86_64-unknown-linux-musl.tar.gz
\`\`\`

\`\`\`bash title="scripts/install-tidewater-from-the-release-archive.sh"
sudo install tidewater /usr/local/bin/ && tidewater --version && tidewater sync --days-ahead 30
\`\`\`

## Stations

Text about stations.
`;

/** A page whose title and headings are single identifiers wider than a phone (as in webpack's configuration/output). */
const LONG_NAMES = `---
title: tidewater.sync.maximumPredictionDaysAheadWhenOffline
---

## sync.maximumPredictionDaysAheadWhenOfflineOrRateLimited

### sync.stations.defaultPredictionSourceIdentifierTemplate

#### sync.stations.defaultPredictionSourceIdentifierTemplateFallback

Text under them.
`;

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;
let root: string;

beforeAll(async () => {
  root = join(mkdtempSync(join(tmpdir(), 'docs-phone-')), 'site');
  expect((await runDocs(['init', root])).code).toBe(0);
  const config = join(root, 'site.config.yaml');
  const social = ['github https://github.com/example/tidewater GitHub', 'discord https://discord.example.org/tidewater Discord', 'mastodon https://mastodon.example.org/@tidewater Mastodon']
    .map((line) => line.split(' '))
    .map(([icon, url, label]) => `  - icon: ${icon}\n    url: ${url}\n    label: ${label}\n`)
    .join('');
  const before = readFileSync(config, 'utf8');
  const after = before.replace('title: My Project', 'title: tidewater').replace(/social:\n(?: {2}.*\n| {4}.*\n)+/, `social:\n${social}`);
  expect(after).not.toBe(before);
  writeFileSync(config, after);
  writeFileSync(join(root, 'content/reference/configuration.md'), REFERENCE);
  writeFileSync(join(root, 'content/guide/long-names.md'), LONG_NAMES);
  site = await builtSite(root);
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
  // (The temporary folder that holds the site.)
  if (root) rmSync(dirname(root), { recursive: true, force: true });
});

async function open(options: BrowserContextOptions, path = PAGE): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await offline(page);
  await page.goto(site.server.url + path);
  return page;
}

interface Point {
  x: number;
  y: number;
}

/** One finger down and up at a point, real touch events of the browser. */
async function fingerDownUp(page: Page, at: Point): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [at] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  await cdp.detach();
}

/** A tap that stays on the page: the touch, then two frames for the click that follows. */
async function tap(page: Page, at: Point): Promise<void> {
  await fingerDownUp(page, at);
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

async function centre(page: Page, selector: string): Promise<Point> {
  const box = (await page.locator(selector).first().boundingBox())!;
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

const menuAtRest = (page: Page, open: boolean) =>
  page.waitForFunction((left) => document.getElementById('mobile-menu')!.getBoundingClientRect().left === left, open ? 0 : -295);

describe.runIf(hasChromium)('the closed phone menu', () => {
  for (const [name, device] of Object.entries(DEVICES)) {
    it(`paints nothing at the left edge of the page at ${name}`, async () => {
      const page = await open(device);
      await menuAtRest(page, false);
      // The left 16 px of the page, beside the text, as painted; then as painted with no menu at all.
      const clip = { x: 0, y: 200, width: 16, height: 300 };
      const painted = await page.screenshot({ clip });
      await page.evaluate(() => (document.getElementById('mobile-menu')!.style.display = 'none'));
      const without = await page.screenshot({ clip });
      await page.evaluate(() => (document.getElementById('mobile-menu')!.style.display = ''));
      expect(painted.equals(without)).toBe(true);
      await screenshot(page, `phone-closed-menu-${name}`);
    });
  }
});

describe.runIf(hasChromium)('tables on phones', () => {
  for (const [name, device] of Object.entries(DEVICES)) {
    it(`keep each identifier of a cell on one line and scroll sideways within the page at ${name}`, async () => {
      const page = await open(device);
      const measured = await page.evaluate(() => {
        const tables = [...document.querySelectorAll<HTMLElement>('.markdown table')];
        return {
          // Each inline code of a cell is one box: never broken across lines.
          broken: [...document.querySelectorAll<HTMLElement>('.markdown td code, .markdown th code')].filter((code) => code.getClientRects().length > 1).map((code) => code.textContent),
          // A table wider than the column scrolls by itself; the page never does.
          tables: tables.map((t) => ({ scrolls: t.scrollWidth > t.clientWidth, overflowX: getComputedStyle(t).overflowX, right: t.getBoundingClientRect().right })),
          pageWidth: document.documentElement.scrollWidth,
        };
      });
      expect(measured.broken).toEqual([]);
      expect(measured.pageWidth).toBeLessThanOrEqual(device.viewport!.width);
      for (const table of measured.tables) {
        expect(table.overflowX).toBe('auto');
        expect(table.right).toBeLessThanOrEqual(device.viewport!.width);
      }
      if (device !== TABLET_820) expect(measured.tables[0]!.scrolls).toBe(true);
      await page.locator('.markdown table').first().scrollIntoViewIfNeeded();
      await screenshot(page, `phone-table-${name}`);
    });
  }
});

describe.runIf(hasChromium)('long identifiers as titles and headings on phones', () => {
  for (const [name, device] of Object.entries(DEVICES)) {
    it(`break inside the column instead of widening the page at ${name}`, async () => {
      const page = await open(device, '/guide/long-names/');
      const measured = await page.evaluate(() => ({
        pageWidth: document.documentElement.scrollWidth,
        // The layout viewport of a phone widens to fit what sticks out; it must stay the screen's width.
        layoutWidth: innerWidth,
        outside: [...document.querySelectorAll<HTMLElement>('.article h1, .markdown :is(h2, h3, h4)')].filter((h) => h.scrollWidth > h.clientWidth || h.getBoundingClientRect().right > document.documentElement.clientWidth).map((h) => h.textContent),
      }));
      expect(measured).toEqual({ pageWidth: device.viewport!.width, layoutWidth: device.viewport!.width, outside: [] });
      await screenshot(page, `phone-long-names-${name}`);
    });
  }
});

describe.runIf(hasChromium)('copy buttons on phones', () => {
  for (const [name, device] of Object.entries(DEVICES)) {
    it(`never cover the code or the title of a block at ${name}`, async () => {
      const page = await open(device);
      await page.waitForFunction(() => document.documentElement.classList.contains('js'));
      const overlaps = await page.evaluate(() => {
        const hit = (a: DOMRect, b: DOMRect) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        return [...document.querySelectorAll<HTMLElement>('.code-block')].map((block) => {
          const button = block.querySelector<HTMLElement>('.copy')!.getBoundingClientRect();
          // The lines span the block's whole width, scrolled or not: the button must sit clear of every one of them.
          const lines = [...block.querySelectorAll<HTMLElement>('pre .line')].filter((line) => hit(line.getBoundingClientRect(), button)).map((line) => line.textContent);
          const title = block.querySelector('.code-title')?.firstChild;
          const range = document.createRange();
          if (title) range.selectNodeContents(title);
          const titleCovered = title ? [...range.getClientRects()].some((r) => hit(r, button)) : false;
          return { visible: button.width > 0, lines, titleCovered };
        });
      });
      expect(overlaps.length).toBe(2);
      for (const block of overlaps) expect(block).toEqual({ visible: true, lines: [], titleCovered: false });
      await page.locator('.code-block').first().scrollIntoViewIfNeeded();
      await screenshot(page, `phone-code-${name}`);
    });
  }
});

describe.runIf(hasChromium)('the header on phones', () => {
  for (const [name, device] of Object.entries(DEVICES)) {
    it(`shows the whole site title beside its buttons at ${name}, with the icon links in the menu`, async () => {
      const page = await open(device);
      const header = await page.evaluate(() => {
        const title = document.querySelector<HTMLElement>('.logo-text')!;
        const shown = [...document.querySelectorAll<HTMLElement>('.header-bar > *')].filter((el) => el.checkVisibility() && el.getBoundingClientRect().width > 0);
        return {
          title: title.textContent,
          cut: title.scrollWidth > title.clientWidth,
          outside: shown.filter((el) => el.getBoundingClientRect().right > innerWidth || el.getBoundingClientRect().left < 0).map((el) => el.className),
          // Every control keeps a target of at least 24 px.
          small: shown.filter((el) => el.matches('button, a') && (el.getBoundingClientRect().width < 24 || el.getBoundingClientRect().height < 24)).map((el) => el.className),
          social: [...document.querySelectorAll<HTMLAnchorElement>('.header-bar > a.icon-button')].filter((a) => a.checkVisibility()).map((a) => a.href),
          inMenu: [...document.querySelectorAll<HTMLAnchorElement>('#mobile-menu a')].map((a) => a.href),
        };
      });
      expect(header.title).toBe('tidewater');
      expect(header.cut).toBe(false);
      expect(header.outside).toEqual([]);
      expect(header.small).toEqual([]);
      for (const href of ['https://github.com/example/tidewater', 'https://discord.example.org/tidewater', 'https://mastodon.example.org/@tidewater']) {
        // Shown in the header, or else listed in the menu.
        expect(header.social.includes(href) || header.inMenu.includes(href), href).toBe(true);
      }
      await screenshot(page, `phone-header-${name}`);
    });
  }
});

describe.runIf(hasChromium)('the open phone menu', () => {
  for (const [name, device] of Object.entries(DEVICES)) {
    it(`dims the page behind it at ${name}; a tap on the dimmed page closes the menu and follows nothing under it`, async () => {
      const page = await open(device);
      await tap(page, await centre(page, '.menu-toggle'));
      await menuAtRest(page, true);
      // Beside the 300 px menu, over the page's "Contents" summary under the title (at 320 px, beside it: the summary is under the menu).
      // (The page's links at the top used to be there; "Edit this page" and "Printable section" now follow the text.)
      const centred = await centre(page, '.toc-phone summary');
      const link = { x: Math.max(centred.x, 310), y: centred.y };
      const dim = await page.evaluate(({ x, y }) => {
        const top = document.elementFromPoint(x, y)!;
        const alpha = (colour: string) => (colour.startsWith('rgba') ? Number(colour.slice(colour.lastIndexOf(',') + 1, -1)) : colour === 'transparent' ? 0 : 1);
        const style = getComputedStyle(top);
        return { onTop: top.closest('#content, .header') ? 'page' : top.className, alpha: alpha(style.backgroundColor) * Number(style.opacity) };
      }, link);
      expect(dim.onTop).not.toBe('page');
      expect(dim.alpha).toBeGreaterThanOrEqual(0.3);
      await screenshot(page, `phone-menu-open-${name}`);
      await tap(page, link);
      await menuAtRest(page, false);
      expect(await page.evaluate(() => document.getElementById('mobile-menu')!.classList.contains('visible'))).toBe(false);
      expect(page.url()).toBe(site.server.url + PAGE);
      if (device === PHONE_320) return;
      expect(await page.evaluate(() => document.querySelector<HTMLDetailsElement>('details.toc-phone')!.open)).toBe(false);
      // Closed, the backdrop is gone: the same tap reaches the page, and opens the list.
      await page.waitForFunction(({ x, y }) => document.elementFromPoint(x, y)?.closest('.toc-phone summary'), link);
      await tap(page, link);
      await page.waitForFunction(() => document.querySelector<HTMLDetailsElement>('details.toc-phone')!.open);
    });
  }
});

describe.runIf(hasChromium)('opening the phone menu with a swipe', () => {
  it('opens on a 110 px swipe from the edge strip at every height of the page, also when the last move comes with the lift', async () => {
    const page = await open(PHONE_390);
    const missed: number[] = [];
    for (let y = 80; y <= 800; y += 40) {
      await menuAtRest(page, false);
      // Five moves of 22 px, a frame apart, and the finger lifts right after the last: the browser may hand that
      // last move to the page only with the touchend.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 10, y }] });
      for (let i = 1; i <= 5; i++) {
        await new Promise((r) => setTimeout(r, 16));
        await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: 10 + 22 * i, y }] });
      }
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      await cdp.detach();
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      if (!(await page.evaluate(() => document.getElementById('mobile-menu')!.classList.contains('visible')))) missed.push(y);
      else await page.keyboard.press('Escape');
    }
    expect(missed).toEqual([]);
  });
});

describe.runIf(hasChromium)('"On this page" on phones', () => {
  const ids = ['#sync', '#global-flags', '#install', '#stations'];

  for (const [name, device] of Object.entries(DEVICES)) {
    it(`lists the page's sections in a closed list under the title at ${name}; a tap opens it, a tap on an entry scrolls there; no layout shift`, async () => {
      const context = await browser.newContext(device);
      const page = await context.newPage();
      await offline(page);
      await page.addInitScript(() => {
        (window as unknown as { cls: number }).cls = 0;
        new PerformanceObserver((list) => {
          // (A shift just after a tap, such as the list opening, is the reader's doing: not counted, as in CLS.)
          for (const entry of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean }>) if (!entry.hadRecentInput) (window as unknown as { cls: number }).cls += entry.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      await page.goto(site.server.url + PAGE);
      await page.waitForTimeout(300);
      expect(await page.evaluate(() => (window as unknown as { cls: number }).cls)).toBe(0);
      const toc = page.locator('.article details.toc-phone');
      expect(await toc.isVisible()).toBe(true);
      expect(await toc.getAttribute('open')).toBeNull();
      const boxes = await page.evaluate(() => {
        const box = (selector: string) => document.querySelector(selector)!.getBoundingClientRect();
        return { h1: box('.article h1').bottom, toc: box('.toc-phone').top, tocBottom: box('.toc-phone').bottom, h2: box('.markdown h2').top, summary: box('.toc-phone summary').height };
      });
      // Compact, between the title and the first section.
      expect(boxes.toc).toBeGreaterThanOrEqual(boxes.h1);
      expect(boxes.tocBottom).toBeLessThanOrEqual(boxes.h2);
      expect(boxes.summary).toBeGreaterThanOrEqual(24);
      expect(boxes.tocBottom - boxes.toc).toBeLessThan(60);
      expect(await page.locator('.toc-phone a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(ids);
      expect(await page.locator('.toc-phone a').first().isVisible()).toBe(false);
      await tap(page, await centre(page, '.toc-phone summary'));
      expect(await toc.getAttribute('open')).toBe('');
      expect(await page.locator('.toc-phone a').allTextContents()).toEqual(['[sync]', 'Global flags', 'Install', 'Stations']);
      await screenshot(page, `phone-toc-open-${name}`);
      await tap(page, await centre(page, '.toc-phone a[href="#stations"]'));
      await page.waitForFunction(() => location.hash === '#stations');
      await page.waitForFunction(() => Math.abs(document.getElementById('stations')!.getBoundingClientRect().top - 16) < 4 || scrollY + innerHeight >= document.documentElement.scrollHeight - 1);
      expect(await page.evaluate(() => (window as unknown as { cls: number }).cls)).toBe(0);
      await context.close();
    });
  }

  it('works without JavaScript: the list is in the page and opens with a tap', async () => {
    const context = await browser.newContext({ ...PHONE_390, javaScriptEnabled: false });
    const page = await context.newPage();
    await offline(page);
    await page.goto(site.server.url + PAGE);
    expect(await page.locator('.toc-phone a').evaluateAll((as) => as.map((a) => a.getAttribute('href')))).toEqual(ids);
    await page.locator('.toc-phone summary').tap();
    expect(await page.locator('.toc-phone a').first().isVisible()).toBe(true);
    await page.locator('.toc-phone a[href="#install"]').tap();
    await page.waitForFunction(() => location.hash === '#install');
    await context.close();
  });

  it('is not shown on wide screens, where the sidebar lists the sections (from 1280 px, the column right of the article)', async () => {
    const visible = (page: Page, selector: string) => page.locator(selector).evaluateAll((as) => as.filter((a) => a.checkVisibility()).map((a) => a.getAttribute('href')));
    const narrow = await open({ viewport: { width: 1000, height: 800 } });
    expect(await narrow.locator('.toc-phone').isVisible()).toBe(false);
    expect(await visible(narrow, '.sidebar-anchors a')).toEqual(ids);
    expect(await visible(narrow, '.toc a')).toEqual([]);
    const wide = await open({ viewport: { width: 1280, height: 800 } });
    expect(await wide.locator('.toc-phone').isVisible()).toBe(false);
    expect(await visible(wide, '.toc a')).toEqual(ids);
    expect(await visible(wide, '.sidebar-anchors a')).toEqual([]);
  });
});
