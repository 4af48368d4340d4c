import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtSite } from '../helpers/built.js';
import { DESKTOP, hasChromium, launch, offline, PHONE } from '../helpers/browser.js';
import { ROOT } from '../helpers/content.js';

/*
 * Another project's site with a long name and long code lines (a copy of
 * test/fixtures/site): the header keeps the name on its one line, the banner
 * above it stays readable and tappable, and the printable section is no
 * wider than a phone's screen.
 */

const TITLE = 'Quillstream Distributed Event Processing Framework';
const TABLET = { viewport: { width: 820, height: 1180 }, hasTouch: true };
const NARROW_DESKTOP = { viewport: { width: 1000, height: 800 } };

let source: string;
let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;

beforeAll(async () => {
  source = mkdtempSync(join(tmpdir(), 'docs-long-title-'));
  cpSync(join(ROOT, 'test/fixtures/site'), source, { recursive: true });
  const config = join(source, 'site.config.yaml');
  writeFileSync(config, readFileSync(config, 'utf8').replace(/^  title: fixture$/m, `  title: ${TITLE}`));
  const page = join(source, 'content/guides/first.md');
  const line = `const pipeline = createPipeline({ source: kafka('events'), window: tumbling('5 minutes'), sink: postgres('aggregates'), retries: 3 });`;
  writeFileSync(page, readFileSync(page, 'utf8') + `\n## A long line\n\n\`\`\`js\n${line}\n\`\`\`\n`);
  site = await builtSite(source);
  if (hasChromium) browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await site?.close();
  rmSync(source, { recursive: true, force: true });
});

async function open(path: string, options: BrowserContextOptions): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await offline(page);
  await page.goto(site.server.url + path);
  return page;
}

describe('a long site title', () => {
  it('is built into the header and the link label whole', () => {
    const html = readFileSync(join(site.dir, 'guides/first/index.html'), 'utf8');
    expect(html).toContain(`<span class="logo-text" aria-hidden="true">${TITLE}</span>`);
  });
});

describe.runIf(hasChromium)('a long site title in the browser', () => {
  for (const [name, device] of [
    ['phone', PHONE],
    ['tablet', TABLET],
    ['narrow desktop', NARROW_DESKTOP],
    ['desktop', DESKTOP],
  ] as const) {
    it(`stays on the header's one line, cut short, and leaves the banner's link tappable (${name})`, async () => {
      const page = await open('/guides/first/', device);
      const boxes = await page.evaluate(() => {
        const box = (selector: string) => {
          const r = document.querySelector(selector)!.getBoundingClientRect();
          return { top: r.top, bottom: r.bottom, left: r.left, right: r.right };
        };
        const text = document.querySelector<HTMLElement>('.logo-text')!;
        const link = document.querySelector<HTMLElement>('.banner a')!.getBoundingClientRect();
        const hit = document.elementFromPoint(link.left + link.width / 2, link.top + link.height / 2);
        return {
          text: box('.logo-text'),
          bar: box('.header-bar'),
          lineHeight: parseFloat(getComputedStyle(text).lineHeight) || text.getBoundingClientRect().height,
          cut: text.scrollWidth > text.clientWidth,
          bannerLinkHit: hit?.closest('.banner a') !== null,
          scrollWidth: document.documentElement.scrollWidth,
          innerWidth: window.innerWidth,
        };
      });
      expect(boxes.text.top).toBeGreaterThanOrEqual(boxes.bar.top);
      expect(boxes.text.bottom).toBeLessThanOrEqual(boxes.bar.bottom);
      expect(boxes.text.bottom - boxes.text.top).toBeLessThanOrEqual(boxes.lineHeight + 1);
      expect(boxes.bannerLinkHit).toBe(true);
      expect(boxes.innerWidth).toBe(device.viewport!.width);
      expect(boxes.scrollWidth).toBe(boxes.innerWidth);
      // On a phone the name does not fit: it ends with an ellipsis rather than wrapping.
      if (name === 'phone') expect(boxes.cut).toBe(true);
      expect(await page.getAttribute('header .logo', 'aria-label')).toContain(TITLE);
    });
  }

  for (const [name, device] of [
    ['phone', PHONE],
    ['tablet', TABLET],
  ] as const) {
    it(`keeps the printable section within the screen; the long code line scrolls in its block (${name})`, async () => {
      const page = await open('/guides/printable/', device);
      const widths = await page.evaluate(() => {
        const pre = [...document.querySelectorAll<HTMLElement>('pre.code')].find((p) => p.textContent!.includes('createPipeline'))!;
        return { page: document.documentElement.scrollWidth, screen: window.innerWidth, content: document.querySelector('main')!.getBoundingClientRect().width, preScrolls: pre.scrollWidth > pre.clientWidth };
      });
      // (A phone browser widens its layout to a page wider than the screen and zooms out: compared with the device's width.)
      expect(widths.screen).toBe(device.viewport!.width);
      expect(widths.page).toBe(widths.screen);
      expect(widths.content).toBeLessThanOrEqual(widths.screen);
      expect(widths.preScrolls).toBe(true);
    });
  }

  it('gives the links of the article tools and of the footer targets of at least 24 px on a phone', async () => {
    const page = await open('/guides/first/', PHONE);
    const sizes = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.article-tools a, .footer-links a')].map((a) => ({ text: a.textContent!.trim(), height: a.getBoundingClientRect().height })),
    );
    expect(sizes.length).toBeGreaterThanOrEqual(3);
    for (const size of sizes) expect(size.height, size.text).toBeGreaterThanOrEqual(24);
  });

  it('gives the printable section the favicon of every page (no request for /favicon.ico)', async () => {
    const page = await open('/guides/printable/', DESKTOP);
    expect(await page.getAttribute('link[rel="icon"]', 'href')).toBe(await (await open('/guides/first/', DESKTOP)).getAttribute('link[rel="icon"]', 'href'));
  });
});
