import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { axeViolations } from '../helpers/a11y.js';
import { DESKTOP, hasChromium, launch, offline, PHONE } from '../helpers/browser.js';
import { buildRealSite } from '../helpers/real-site.js';

/* Accessibility of the real site: axe-core (WCAG 2.2 AA, every impact level), keyboard, landmarks, headings. */

let browser: Browser;
let site: Awaited<ReturnType<typeof buildRealSite>>;
let longest = '/';

beforeAll(async () => {
  site = await buildRealSite();
  if (hasChromium) browser = await launch();
  // The longest content page by HTML size.
  let size = 0;
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        if (!['assets', 'search-index', 'printable'].includes(name)) walk(path);
      } else if (name === 'index.html' && !path.includes('printable') && statSync(path).size > size) {
        size = statSync(path).size;
        longest = '/' + relative(site.dir, dir).split('\\').join('/') + (dir === site.dir ? '' : '/');
      }
    }
  };
  walk(site.dir);
  longest = longest.replace(/^\/\/$/, '/');
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function open(path: string, options: BrowserContextOptions = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ ...options, bypassCSP: true });
  const page = await context.newPage();
  await offline(page);
  await page.goto(site.server.url + path);
  return page;
}

async function expectNoViolations(page: Page): Promise<void> {
  const violations = await axeViolations(page);
  expect(violations, JSON.stringify(violations, null, 2)).toEqual([]);
}

describe.runIf(hasChromium)('axe-core reports zero violations', () => {
  it('on the home page', async () => expectNoViolations(await open('/')));
  it('on a section index', async () => expectNoViolations(await open('/guides/')));
  it('on the longest content page', async () => {
    console.log('longest page:', longest);
    await expectNoViolations(await open(longest));
  });
  it('on a plugin page', async () => expectNoViolations(await open('/plugins/normal-module-replacement-plugin/')));
  it('on the 404 page', async () => {
    const page = await open('/no-such-page/');
    expect(await page.locator('h1').textContent()).toBe('Page not found');
    await expectNoViolations(page);
  });
  it('on the phone layout with the mobile menu open', async () => {
    const page = await open('/guides/', PHONE);
    await page.tap('.menu-toggle');
    await page.waitForFunction(() => document.getElementById('mobile-menu')!.getBoundingClientRect().left === 0);
    await expectNoViolations(page);
  });
  for (const colorScheme of ['light', 'dark'] as const) {
    it(`with the search results open (${colorScheme} scheme)`, async () => {
      const page = await open('/guides/', { ...DESKTOP, colorScheme });
      await page.focus('#search-input');
      await page.keyboard.type('install');
      await page.waitForFunction(() => document.querySelectorAll('#search-results [role="option"] mark').length > 0);
      await page.keyboard.press('ArrowDown');
      await expectNoViolations(page);
    });
  }
  it('in the dark colour scheme', async () => {
    await expectNoViolations(await open(longest, { ...DESKTOP, colorScheme: 'dark' }));
    await expectNoViolations(await open('/', { ...PHONE, colorScheme: 'dark' }));
  });
});

describe.runIf(hasChromium)('keyboard and structure', () => {
  it('tabs through skip link, header, dropdown, search, sidebar and content in order, focus always visible', async () => {
    const page = await open('/guides/');
    const seen: string[] = [];
    for (let i = 0; i < 300; i++) {
      await page.keyboard.press('Tab');
      const info = await page.evaluate(() => {
        const el = document.activeElement as HTMLElement;
        const style = getComputedStyle(el);
        const region = el.closest('.skip-link') ? 'skip' : el.closest('.banner') ? 'banner' : el.closest('.topnav') ? 'topnav' : el.closest('.search') ? 'search' : el.closest('.lang') ? 'lang' : el.closest('.header-bar') ? 'header' : el.closest('.subnav') ? 'subnav' : el.closest('#sidebar') ? 'sidebar' : el.closest('main') ? 'main' : el.closest('footer') ? 'footer' : 'other';
        return { region, visible: style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2 };
      });
      expect(info.visible, `focus ring on tab stop ${i} (${info.region})`).toBe(true);
      if (seen.at(-1) !== info.region) seen.push(info.region);
      if (info.region === 'main') break;
    }
    expect(seen).toEqual(['skip', 'banner', 'header', 'topnav', 'search', 'lang', 'header', 'subnav', 'sidebar', 'main']);
  });

  it('names every landmark and has one h1 and no skipped heading levels', async () => {
    for (const path of ['/', '/guides/', longest, '/plugins/normal-module-replacement-plugin/']) {
      const page = await open(path);
      const landmarks = await page.evaluate(() =>
        [...document.querySelectorAll('header, nav, aside, main, footer')].map((el) => ({ tag: el.tagName.toLowerCase(), name: el.getAttribute('aria-label') ?? (el.tagName === 'MAIN' ? 'main' : '') })),
      );
      for (const l of landmarks) expect(l.name, `${path}: ${l.tag} needs a name`).not.toBe('');
      expect(landmarks.map((l) => l.tag)).toEqual(expect.arrayContaining(['header', 'nav', 'main', 'footer']));
      const levels = await page.evaluate(() => [...document.querySelectorAll('h1, h2, h3, h4, h5, h6')].filter((h) => (h as HTMLElement).offsetParent !== null || h.closest('main')).map((h) => Number(h.tagName[1])));
      expect(levels.filter((l) => l === 1), `${path}: one h1`).toHaveLength(1);
      expect(levels[0], `${path}: the h1 comes first`).toBe(1);
      levels.forEach((level, i) => {
        if (i > 0) expect(level, `${path}: heading ${i} skips a level`).toBeLessThanOrEqual(levels[i - 1]! + 1);
      });
    }
  });
});
