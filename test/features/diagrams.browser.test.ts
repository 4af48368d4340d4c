import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/a11y.js';
import { hasChromium, launch, offline, screenshot } from '../helpers/browser.js';
import { builtSite } from '../helpers/built.js';
import { ROOT } from '../helpers/content.js';

/*
 * Diagrams (```mermaid blocks, drawn at build time) in Chromium under the site's own Content-Security-Policy, in both
 * colour schemes, on a phone and a desktop: every word of a drawing has the contrast of text against what is behind
 * it, axe finds nothing, the policy is never broken, no script comes with them, and they show without JavaScript.
 * DOCS_SCREENSHOTS=<folder> keeps a screenshot of each diagram to look at.
 */

const PHONE: BrowserContextOptions = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };
const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
const PAGE = '/guide/diagrams/';

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;
beforeAll(async () => {
  site = await builtSite(join(ROOT, 'test/fixtures/diagrams'));
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

interface Opened {
  page: Page;
  /** The directives of the Content-Security-Policy the page broke, and its console errors. */
  violations: string[];
  /** The scripts the page asked for. */
  scripts: string[];
}

async function open(options: BrowserContextOptions, path = PAGE): Promise<Opened> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await offline(page);
  const violations: string[] = [];
  const scripts: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') violations.push(m.text());
  });
  page.on('pageerror', (e) => violations.push(e.message));
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await page.exposeFunction('reportViolation', (directive: string) => violations.push(`CSP: ${directive}`));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { reportViolation(d: string): void }).reportViolation(e.violatedDirective));
  });
  await page.goto(site.server.url + path, { waitUntil: 'load' });
  return { page, violations, scripts };
}

/** Each word of each drawing with its colour, the colour of what is behind it and the contrast of the two. */
function wordContrasts(page: Page) {
  return page.$$eval('figure.diagram svg text', (texts) => {
    const rgb = (colour: string): number[] => {
      const m = /^rgba?\(([^)]+)\)$/.exec(colour) ?? /^color\(srgb ([^)]+)\)$/.exec(colour);
      if (!m) throw new Error(`unreadable colour ${colour}`);
      const parts = m[1]!.split(/[\s,/]+/).filter(Boolean).map(Number);
      return colour.startsWith('color(') ? parts.slice(0, 3).map((p) => p * 255) : parts.slice(0, 3);
    };
    const luminance = (colour: string) => {
      const [r, g, b] = rgb(colour).map((v) => {
        const c = v / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    return texts.map((text) => {
      // What is behind a word: the shape drawn before it in its group (a box, a label's plate), else the figure's own background.
      let behind: Element | null = text.previousElementSibling;
      while (behind && !['rect', 'polygon', 'circle', 'ellipse', 'path'].includes(behind.tagName)) behind = behind.previousElementSibling;
      const fg = getComputedStyle(text).fill;
      const bgShape = behind ? getComputedStyle(behind).fill : 'none';
      const bg = bgShape !== 'none' ? bgShape : getComputedStyle(text.closest('.diagram-view')!).backgroundColor;
      const [a, b] = [luminance(fg), luminance(bg)];
      const box = text.getBoundingClientRect();
      return { word: text.textContent, fg, bg, contrast: (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05), width: box.width, height: box.height };
    });
  });
}

describe.runIf(hasChromium)('diagrams in the browser', () => {
  for (const [device, options] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    for (const colorScheme of ['light', 'dark'] as const) {
      it(`are drawn with readable words, no axe violations and no policy broken on a ${device} (${colorScheme} scheme)`, async () => {
        const { page, violations } = await open({ ...options, colorScheme });
        expect(await page.locator('figure.diagram svg[role="img"]').count()).toBe(3);
        const words = await wordContrasts(page);
        expect(words.map((w) => w.word)).toEqual(expect.arrayContaining(['Entry', 'Loaders', 'Dependency graph', 'chunks', 'Browser', 'GET /main.js', 'Building', 'no new modules']));
        for (const w of words) {
          expect(w.contrast, `${w.word}: ${w.fg} on ${w.bg}`).toBeGreaterThanOrEqual(4.5);
          expect(w.width * w.height, `${w.word} is drawn`).toBeGreaterThan(0);
        }
        // The two schemes draw with other colours: the words follow the page's text colour.
        const text = await page.evaluate(() => getComputedStyle(document.body).color);
        expect(words.find((w) => w.word === 'Entry')!.fg).toBe(text);
        expect(await axeViolations(page), 'axe').toEqual([]);
        // A wide drawing scrolls in its frame; the page does not widen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(options.viewport!.width);
        for (const [i, figure] of (await page.locator('figure.diagram').all()).entries()) {
          await figure.evaluate((el) => el.scrollIntoView({ block: 'center' }));
          await screenshot(page, `diagram-${device}-${colorScheme}-${i + 1}`);
        }
        expect(violations).toEqual([]);
        await page.context().close();
      });
    }
  }

  it('are images named by their title and described by their description or their words', async () => {
    const { page } = await open(DESKTOP);
    const svgs = page.locator('figure.diagram svg');
    const named = await svgs.evaluateAll((els) => els.map((el) => ({ role: el.getAttribute('role'), name: el.querySelector('title')?.textContent, description: el.querySelector('desc')?.textContent })));
    expect(named).toEqual([
      { role: 'img', name: 'How webpack builds', description: 'Flowchart of Entry, Loaders, Dependency graph, Output files, chunks' },
      { role: 'img', name: 'Sequence diagram', description: 'Sequence diagram of Browser, Server, GET /main.js, 200, the bundle' },
      { role: 'img', name: 'State diagram', description: 'A module is built, then sealed, then emitted.' },
    ]);
    expect(await page.locator('figure.diagram').first().ariaSnapshot()).toContain('- img "How webpack builds"');
    // Their Mermaid text is there to read, behind a disclosure that opens by keyboard.
    const summary = page.locator('figure.diagram summary').first();
    await summary.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('figure.diagram details').first().evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    expect(await page.locator('figure.diagram details pre').first().textContent()).toContain('entry[Entry] --> loaders[Loaders]');
    await page.context().close();
  });

  it('follow the scheme chosen with the header toggle, not only the system\'s', async () => {
    const { page } = await open({ ...DESKTOP, colorScheme: 'light' });
    const entry = () => wordContrasts(page).then((words) => words.find((w) => w.word === 'Entry')!);
    const light = await entry();
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    const dark = await entry();
    expect(dark.fg).not.toBe(light.fg);
    expect(dark.bg).not.toBe(light.bg);
    expect(dark.contrast).toBeGreaterThanOrEqual(4.5);
    await page.context().close();
  });

  it('bring no script: a page with diagrams loads what a page without any does', async () => {
    const withDiagrams = await open(DESKTOP);
    const without = await open(DESKTOP, '/guide/plain/');
    expect(withDiagrams.scripts.length).toBeGreaterThan(0);
    expect(withDiagrams.scripts).toEqual(without.scripts);
    expect(await without.page.locator('figure.diagram, svg[role="img"]').count()).toBe(0);
    await withDiagrams.page.context().close();
    await without.page.context().close();
  });

  it('are drawn without JavaScript', async () => {
    const { page } = await open({ ...DESKTOP, javaScriptEnabled: false });
    const words = await wordContrasts(page);
    expect(words.length).toBeGreaterThan(10);
    for (const w of words) expect(w.contrast, `${w.word}: ${w.fg} on ${w.bg}`).toBeGreaterThanOrEqual(4.5);
    await page.context().close();
  });
});
