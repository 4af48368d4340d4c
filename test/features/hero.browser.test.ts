import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/a11y.js';
import { builtSite } from '../helpers/built.js';
import { hasChromium, launch, screenshot } from '../helpers/browser.js';
import { ROOT } from '../helpers/content.js';

/*
 * The landing hero's picture (frontmatter hero.image, fixture test/fixtures/writers) in Chromium: beside
 * the text on a wide screen (1280×800), above it on a phone (390×844), the dark picture in the dark
 * scheme, its place kept before it loads (no layout shift), and no axe violation. With DOCS_SCREENSHOTS
 * set, each view is saved there to look at.
 */

const WIDE: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;

beforeAll(async () => {
  site = await builtSite(join(ROOT, 'test/fixtures/writers'));
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** Opens the home page; `hold` keeps the pictures from loading until it is called back. */
async function open(options: BrowserContextOptions, hold?: (release: () => void) => void): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 204, body: '' }));
  if (hold) {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    hold(release);
    await page.route(/\/images\//, async (route) => {
      await released;
      await route.continue();
    });
  }
  await page.goto(site.server.url + '/', { waitUntil: hold ? 'domcontentloaded' : 'load' });
  return page;
}

type Box = { x: number; y: number; width: number; height: number };
const box = async (page: Page, selector: string): Promise<Box> => (await page.locator(selector).boundingBox())!;
const shown = (scheme: 'light' | 'dark') => (scheme === 'dark' ? '.hero-image-dark' : '.hero-image-light');

describe.runIf(hasChromium)('the hero image', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`stands beside the hero text at 1280×800, and shows the ${scheme} picture (${scheme} scheme)`, async () => {
      const page = await open({ ...WIDE, colorScheme: scheme });
      const image = await box(page, shown(scheme));
      const text = await box(page, '.hero-text');
      expect(image.x).toBeGreaterThanOrEqual(text.x + text.width);
      // Side by side: their middles at about the same height.
      expect(Math.abs(image.y + image.height / 2 - (text.y + text.height / 2))).toBeLessThan(image.height / 2);
      expect(image.width / image.height).toBeCloseTo(640 / 400, 1);
      expect(await page.locator(scheme === 'dark' ? '.hero-image-light' : '.hero-image-dark').isVisible()).toBe(false);
      expect(await page.$eval(shown(scheme), (img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth)).toBe(640);
      // The whole hero is in the first screen.
      expect(image.y + image.height).toBeLessThan(800);
      await screenshot(page, `hero-1280x800-${scheme}`);
      expect(await axeViolations(page)).toEqual([]);
      await page.context().close();
    });

    it(`stands above the title at 390×844, within the screen's width (${scheme} scheme)`, async () => {
      const page = await open({ ...PHONE, colorScheme: scheme });
      const image = await box(page, shown(scheme));
      const title = await box(page, '.hero h1');
      expect(image.y + image.height).toBeLessThanOrEqual(title.y);
      expect(image.x).toBeGreaterThanOrEqual(0);
      expect(image.x + image.width).toBeLessThanOrEqual(390);
      expect(image.width / image.height).toBeCloseTo(640 / 400, 1);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, `hero-390x844-${scheme}`);
      expect(await axeViolations(page)).toEqual([]);
      await page.context().close();
    });
  }

  it('keeps the picture\'s place before it loads: the title does not move, and no layout shift is recorded', async () => {
    for (const options of [WIDE, PHONE]) {
      let release!: () => void;
      const page = await open(options, (r) => (release = r));
      await page.evaluate(() => {
        (window as unknown as { shifts: number }).shifts = 0;
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) (window as unknown as { shifts: number }).shifts += (entry as unknown as { value: number }).value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      const before = { image: await box(page, '.hero-image-light'), title: await box(page, '.hero h1') };
      expect(await page.$eval('.hero-image-light', (img) => (img as HTMLImageElement).complete)).toBe(false);
      release();
      await page.waitForFunction(() => (document.querySelector('.hero-image-light') as HTMLImageElement).complete);
      await page.waitForTimeout(100);
      expect(await box(page, '.hero-image-light')).toEqual(before.image);
      expect(await box(page, '.hero h1')).toEqual(before.title);
      expect(await page.evaluate(() => (window as unknown as { shifts: number }).shifts)).toBe(0);
      await page.context().close();
    }
  });
});
