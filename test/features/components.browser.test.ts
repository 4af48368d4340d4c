import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations, WCAG_TAGS } from '../helpers/a11y.js';
import { hasChromium, launch, offline, screenshot } from '../helpers/browser.js';
import { builtSite } from '../helpers/built.js';
import { ROOT } from '../helpers/content.js';
import { buildRealSite } from '../helpers/real-site.js';

/*
 * The writers' components (cards, link cards, steps, file trees, badges) in Chromium, on a phone and a
 * desktop, in both colour schemes, under the site's own Content-Security-Policy: axe finds nothing,
 * cards stack on a phone, a link card is one focusable link with a visible ring, lists stay lists.
 * DOCS_SCREENSHOTS=<folder> keeps a screenshot of each part to look at.
 */

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const PAGE = '/guide/components/';

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;
beforeAll(async () => {
  site = await builtSite(join(ROOT, 'test/fixtures/components'));
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function open(options: BrowserContextOptions, path = PAGE): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await offline(page);
  await page.goto(site.server.url + path);
  return page;
}

/** The boxes of the elements `selector` matches. */
const boxes = (page: Page, selector: string) =>
  page.$$eval(selector, (els) => els.map((el) => {
    const r = el.getBoundingClientRect();
    return { left: Math.round(r.left), top: Math.round(r.top), width: Math.round(r.width), height: Math.round(r.height) };
  }));

async function shoot(page: Page, name: string): Promise<void> {
  for (const [part, selector] of [['cards', '.cards'], ['steps', '.steps'], ['tree', '.file-tree'], ['badges', 'h2:has(.text-badge)']] as const) {
    await page.locator(selector).first().evaluate((el) => el.scrollIntoView({ block: 'start' }));
    // (Past the sticky header.)
    await page.evaluate(() => window.scrollBy(0, -80));
    await screenshot(page, `components-${name}-${part}`);
  }
}

describe.runIf(hasChromium)('writers\' components in the browser', () => {
  for (const [device, options] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`have no axe violations on a ${device} (${colorScheme} scheme)`, async () => {
        const page = await open({ ...options, colorScheme });
        const violations = await axeViolations(page);
        expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
        await shoot(page, `${device}-${colorScheme}`);
        await page.context().close();
      });
    }
  }

  it('stack the cards in one column on a phone, side by side on a desktop, and never widen the page', async () => {
    const phone = await open(PHONE);
    const small = await boxes(phone, '.cards > li');
    expect(small).toHaveLength(4);
    expect(new Set(small.map((b) => b.left)).size).toBe(1);
    for (let i = 1; i < small.length; i++) expect(small[i]!.top).toBeGreaterThan(small[i - 1]!.top);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.context().close();

    const desktop = await open(DESKTOP);
    const wide = await boxes(desktop, '.cards > li');
    expect(wide[0]!.top).toBe(wide[1]!.top);
    expect(wide[1]!.left).toBeGreaterThan(wide[0]!.left + wide[0]!.width);
    // The cards of a row are as tall as each other.
    expect(wide[0]!.height).toBe(wide[1]!.height);
    await desktop.context().close();
  });

  it('make a link card one focusable link with a visible focus ring, named by its title and description', async () => {
    const page = await open(DESKTOP);
    const card = page.locator('.cards a.link-card').first();
    expect(await card.locator('a, button, [tabindex]').count()).toBe(0);
    await expect.poll(() => card.getAttribute('href')).toBe('/guide/next/');
    // Tab from the last link before it reaches the card.
    await page.locator('.card-body a').last().focus();
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.className)).toBe('link-card');
    const ring = await card.evaluate((el) => {
      const style = getComputedStyle(el);
      return { style: style.outlineStyle, width: style.outlineWidth };
    });
    expect(ring).toEqual({ style: 'solid', width: '3px' });
    await screenshot(page, 'components-desktop-link-card-focus');
    const snapshot = await page.locator('.cards').ariaSnapshot();
    expect(snapshot).toContain('- link "Next page Where the guide goes after this one."');
    await page.locator('.cards a.link-card').first().click();
    await page.waitForURL(/\/guide\/next\/$/);
    await page.context().close();
  });

  it('keep steps and file trees lists (a numbered list; nested lists of folders and files), with the steps joined by a line', async () => {
    const page = await open(DESKTOP);
    const steps = await page.locator('.steps').ariaSnapshot();
    expect(steps).toMatch(/^- list:\n {2}- listitem:/);
    expect(await page.locator('ol.steps > li').count()).toBe(3);
    const marks = await page.$$eval('ol.steps > li', (items) =>
      items.map((li) => ({ number: getComputedStyle(li, '::before').content, line: getComputedStyle(li, '::after').display, height: parseFloat(getComputedStyle(li, '::after').height) })),
    );
    expect(marks.map((m) => m.number)).toEqual(['counter(list-item)', 'counter(list-item)', 'counter(list-item)']);
    expect(marks[0]!.height).toBeGreaterThan(20);
    expect(marks[2]!.line).toBe('none');

    const tree = await page.locator('.file-tree').ariaSnapshot();
    expect(tree).toContain('- listitem:\n    - text: src/\n    - list:');
    expect(tree).toContain('- listitem: index.js the entry point');
    // Icons are drawn by the stylesheet (a data: image the policy allows), folders unlike files.
    const icons = await page.$$eval('.file-tree .tree-name', (names) => names.map((el) => {
      const before = getComputedStyle(el, '::before');
      return { name: el.textContent, mask: before.maskImage.slice(0, 30), colour: before.backgroundColor, width: before.width };
    }));
    const src = icons.find((i) => i.name === 'src/')!;
    const index = icons.find((i) => i.name === 'index.js')!;
    expect(src.mask).toMatch(/^url\("data:image\/svg\+xml/);
    expect(index.mask).toMatch(/^url\("data:image\/svg\+xml/);
    expect(src.mask === index.mask && src.colour === index.colour).toBe(false);
    expect(parseFloat(index.width)).toBeGreaterThan(10);
    await page.context().close();
  });

  it('look the same without JavaScript', async () => {
    const page = await open({ ...DESKTOP, javaScriptEnabled: false });
    const wide = await boxes(page, '.cards > li');
    expect(wide[0]!.top).toBe(wide[1]!.top);
    expect(await page.locator('.text-badge-tip').first().evaluate((el) => getComputedStyle(el).backgroundColor)).not.toBe('rgba(0, 0, 0, 0)');
    await page.context().close();
  });
});

/** axe's WCAG violations inside the elements `selector` matches (the rest of a page is other tests' business). */
async function axeViolationsIn(page: Page, selector: string): Promise<Array<{ id: string; targets: string[] }>> {
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async ([include, tags]) => {
    const axe = (window as unknown as { axe: { run(ctx: unknown, opts: unknown): Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
    const result = await axe.run({ include: [[include]] }, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, targets: v.nodes.map((n) => n.target.join(' ')) }));
  }, [selector, WCAG_TAGS] as const);
}

describe.runIf(hasChromium)('writers\' components on the webpack site', () => {
  let real: Awaited<ReturnType<typeof buildRealSite>>;
  beforeAll(async () => {
    real = await buildRealSite();
  }, 120_000);
  afterAll(async () => {
    await real?.close();
  });

  for (const [device, options] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`show Getting started's file tree and Migrating's steps without violations on a ${device} (${colorScheme} scheme)`, async () => {
        const context = await browser.newContext({ ...options, colorScheme });
        const page = await context.newPage();
        await offline(page);
        await page.goto(real.server.url + '/guides/getting-started/');
        const tree = await page.locator('.file-tree').ariaSnapshot();
        expect(tree).toContain('- listitem:\n    - text: webpack-demo/\n    - list:');
        expect(await axeViolations(page)).toEqual([]);
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(options.viewport!.width);
        await page.locator('.file-tree').evaluate((el) => el.scrollIntoView({ block: 'center' }));
        await screenshot(page, `components-real-${device}-${colorScheme}-file-tree`);
        await page.goto(real.server.url + '/guides/migrating/');
        expect(await page.locator('ol.steps > li').count()).toBe(7);
        expect(await axeViolationsIn(page, '.steps')).toEqual([]);
        await page.locator('.steps').evaluate((el) => el.scrollIntoView({ block: 'start' }));
        await page.evaluate(() => window.scrollBy(0, -80));
        await screenshot(page, `components-real-${device}-${colorScheme}-steps`);
        await context.close();
      });
    }
  }
});
