import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewServer as Preview } from '../../src/serve/serve.js';
import { DESKTOP, hasChromium, launch, offline } from '../helpers/browser.js';
import { makeFixture, nextBuild, startBuiltPreview, type Captured, type Fixture } from './helpers.js';

/* The live preview in Chromium: pages change by themselves after a save, and show an overlay when the input is broken. */

let fixture: Fixture;
let preview: Preview;
let captured: Captured;
let browser: Browser;
const contexts: BrowserContext[] = [];
/** Console errors per page (a blocked script or style shows up here as a CSP violation). */
const consoleErrors = new Map<Page, string[]>();

beforeAll(async () => {
  if (!hasChromium) return;
  fixture = makeFixture();
  ({ preview, captured } = await startBuiltPreview(fixture));
  browser = await launch();
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
  await preview?.settled();
});

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  fixture?.cleanup();
});

/** Opens a page and waits until its event stream is connected. */
async function open(path: string): Promise<Page> {
  const context = await browser.newContext(DESKTOP);
  contexts.push(context);
  const page = await context.newPage();
  await offline(page);
  const errors: string[] = [];
  consoleErrors.set(page, errors);
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  const connected = page.waitForResponse((r) => r.url().includes('/__docs/events'));
  await page.goto(preview.url.replace(/\/$/, '') + path);
  await connected;
  return page;
}

/** Resolves on the page's next load (a reload by the preview), with the time it took. */
function nextLoad(page: Page): Promise<void> {
  return page.waitForEvent('load', { timeout: 30_000 }).then(() => undefined);
}

const overlay = (page: Page) => page.locator('#docs-serve-overlay');

describe.runIf(hasChromium)('docs serve in the browser', () => {
  it('reloads the page by itself after a save, at the same scroll position', async () => {
    const page = await open('/guides/alpha/');
    await page.evaluate(() => window.scrollTo(0, 1500));
    await page.waitForFunction(() => Math.abs(window.scrollY - 1500) < 2);
    const reloaded = nextLoad(page);
    fixture.edit('content/guides/alpha.md', 'Paragraph 59 of the alpha guide', 'Paragraph 59, edited in the browser test, of the alpha guide');
    await reloaded;
    await expect.poll(() => page.locator('main').innerText(), { timeout: 30_000 }).toContain('Paragraph 59, edited in the browser test');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1490);
    expect(await page.evaluate(() => window.scrollY)).toBeLessThan(1510);
    expect(consoleErrors.get(page)).toEqual([]);
  });

  it('does not reload a page the save does not affect', async () => {
    const page = await open('/reference/two/');
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    const built = nextBuild(preview);
    fixture.edit('content/guides/alpha.md', 'Use it.', 'Use it well.');
    expect((await built).ok).toBe(true);
    await preview.settled();
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
  });

  it('shows an accessible, dismissible overlay for broken input, keeps the last good page, and clears it when fixed', async () => {
    const page = await open('/guides/beta/');
    fixture.edit('content/guides/beta.md', 'title: Beta guide', 'title: Beta guide\nkeywords: [broken]');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.count(), { timeout: 30_000 }).toBe(1);
    const text = await alert.innerText();
    expect(text).toContain('1 problem found');
    expect(text).toContain('content/guides/beta.md:3:1 frontmatter.keywords: unknown key "keywords"');
    // The same line as in the terminal.
    expect(captured.err).toContain('content/guides/beta.md:3:1 frontmatter.keywords: unknown key "keywords"');
    expect(await page.locator('h1').innerText()).toBe('Beta guide');
    // Readable: light text on a dark panel above everything.
    const colours = await overlay(page).evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el).backgroundColor, getComputedStyle(el).position]);
    expect(colours).toEqual(['rgb(244, 244, 245)', 'rgb(27, 27, 31)', 'fixed']);

    // A page opened while the build is broken shows the overlay at once.
    const late = await open('/reference/one/');
    await expect.poll(() => late.getByRole('alert').count()).toBe(1);
    expect(await late.getByRole('alert').innerText()).toContain('content/guides/beta.md:3:1');

    await page.getByRole('button', { name: 'Dismiss the build errors' }).click();
    expect(await overlay(page).count()).toBe(0);
    await late.keyboard.press('Escape');
    expect(await overlay(late).count()).toBe(0);

    const reloaded = nextLoad(page);
    fixture.edit('content/guides/beta.md', 'title: Beta guide\nkeywords: [broken]', 'title: Beta guide, fixed');
    await reloaded;
    await expect.poll(() => page.locator('h1').innerText(), { timeout: 30_000 }).toBe('Beta guide, fixed');
    expect(await overlay(page).count()).toBe(0);
    expect(consoleErrors.get(page)).toEqual([]);
    expect(consoleErrors.get(late)).toEqual([]);
  });

  it('removes the overlay by itself when the problem is fixed without a page change', async () => {
    const page = await open('/reference/two/');
    const before = await page.locator('main').innerText();
    fixture.edit('content/guides/alpha.md', 'Use it well.', 'Use it [badly](/no/such/page/).');
    await expect.poll(() => page.getByRole('alert').count(), { timeout: 30_000 }).toBe(1);
    expect(await page.getByRole('alert').innerText()).toMatch(/content\/guides\/alpha\.md:\d+:\d+ links to "\/no\/such\/page\/", which is not a page of this site/);
    fixture.edit('content/guides/alpha.md', 'Use it [badly](/no/such/page/).', 'Use it well.');
    await expect.poll(() => page.getByRole('alert').count(), { timeout: 30_000 }).toBe(0);
    expect(await page.locator('main').innerText()).toBe(before);
    expect(consoleErrors.get(page)).toEqual([]);
  });
});
