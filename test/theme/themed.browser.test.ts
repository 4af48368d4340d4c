import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { axeViolations } from '../helpers/a11y.js';
import { builtSite } from '../helpers/built.js';
import { DESKTOP, hasChromium, launch, PHONE } from '../helpers/browser.js';
import { ROOT } from '../helpers/content.js';

/*
 * A site that sets every theming key of the config (test/fixtures/themed):
 * logo, favicon, colours, its own stylesheet, social links, the Chinese
 * interface with one string replaced, CSP sources, the landing home and its
 * own Footer component. Built, then opened in Chromium.
 */

const FIXTURE = join(ROOT, 'test/fixtures/themed');
const config = parse(readFileSync(join(FIXTURE, 'site.config.yaml'), 'utf8')) as {
  theme: { colors: Record<string, string> };
  social: Array<{ url: string; label: string }>;
  csp: { img: string[]; frame: string[] };
};
const colors = config.theme.colors;

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;

beforeAll(async () => {
  site = await builtSite(FIXTURE);
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

/** rgb(r, g, b) of a #rrggbb colour, as computed styles give it. */
function rgb(hex: string): string {
  const n = parseInt(hex.slice(1), 16);
  return `rgb(${(n >> 16) & 255}, ${(n >> 8) & 255}, ${n & 255})`;
}

async function open(path: string, options: BrowserContextOptions = DESKTOP): Promise<Page> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) violations.push(m.text());
  });
  (page as Page & { cspViolations?: string[] }).cspViolations = violations;
  // Nothing outside the local server is fetched; the tests never need it.
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (route) => route.fulfill({ status: 204, body: '' }));
  await page.goto(site.server.url + path);
  return page;
}

const style = (page: Page, selector: string, property: string) =>
  page.$eval(selector, (el, p) => getComputedStyle(el).getPropertyValue(p), property);

describe.runIf(hasChromium)('a site themed in YAML alone', () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`paints the configured colours (${scheme} scheme)`, async () => {
      const page = await open('/guide/stores/', { ...DESKTOP, colorScheme: scheme });
      const dark = scheme === 'dark';
      expect(await style(page, '.header', 'background-color')).toBe(rgb(dark ? colors.headerDark! : colors.header!));
      expect(await style(page, '.logo', 'color')).toBe(rgb(colors.headerText!));
      expect(await style(page, '.header-bar > a.icon-button', 'color')).toBe(rgb(colors.headerTextSoft!));
      expect(await style(page, '.banner', 'background-color')).toBe(rgb(colors.banner!));
      expect(await style(page, '.banner', 'color')).toBe(rgb(colors.bannerText!));
      expect(await style(page, '.markdown p a', 'color')).toBe(rgb(dark ? colors.linkDark! : colors.link!));
      expect(await style(page, '.aside-title', 'color')).toBe(rgb(dark ? colors.linkDark! : colors.link!));
      expect(await style(page, 'pre.code .line.hl', 'box-shadow')).toContain(rgb(dark ? colors.accentDark! : colors.accent!));
      expect(await style(page, '.topnav a.active', 'box-shadow')).toContain(rgb(colors.headerAccent!));
    });

    it(`has no axe violations on the landing page and a guide page (${scheme} scheme)`, async () => {
      for (const path of ['/', '/guide/stores/']) {
        for (const device of [DESKTOP, PHONE]) {
          const page = await open(path, { ...device, colorScheme: scheme });
          expect(await axeViolations(page), `${path} ${device === PHONE ? 'phone' : 'desktop'}`).toEqual([]);
        }
      }
    });
  }

  it('shows the configured logo and favicon files', async () => {
    const page = await open('/');
    const logo = await page.$eval('header .logo img', (img) => ({ src: img.getAttribute('src'), width: img.getAttribute('width'), height: img.getAttribute('height') }));
    expect(logo).toEqual({ src: '/brand.svg', width: '64', height: '32' });
    const icon = await page.$eval('link[rel="icon"]', (link) => ({ href: link.getAttribute('href'), type: link.getAttribute('type') }));
    expect(icon).toEqual({ href: '/mark.svg', type: 'image/svg+xml' });
    for (const [url, file] of [
      ['/brand.svg', 'static/brand.svg'],
      ['/mark.svg', 'static/mark.svg'],
    ]) {
      const served = await page.evaluate(async (u) => (await fetch(u)).text(), url!);
      expect(served).toBe(readFileSync(join(FIXTURE, file!), 'utf8'));
    }
    expect(await page.$eval('header .logo img', (img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0);
    expect(await page.locator('header .logo svg').count()).toBe(0);
  });

  it('names the social links as configured, in order, and lists them in the phone menu', async () => {
    const page = await open('/');
    const links = await page.$$eval('.header-bar > a.icon-button', (as) => as.map((a) => ({ href: a.getAttribute('href'), name: a.getAttribute('aria-label') })));
    // A second "#" in a fragment is written %23 (valid HTML; matrix.to reads it the same).
    const hrefOf = (url: string) => url.replace('#/#', '#/%23');
    expect(links).toEqual(config.social.map((s) => ({ href: hrefOf(s.url), name: `${s.label} （在新标签页中打开）` })));
    for (const s of config.social) {
      expect(await page.getByRole('link', { name: s.label, exact: false }).first().getAttribute('href')).toBe(hrefOf(s.url));
    }
    const phone = await open('/', PHONE);
    const menu = await phone.$$eval('.mobile-extra a', (as) => as.map((a) => a.getAttribute('href')));
    expect(menu).toEqual(expect.arrayContaining(config.social.map((s) => hrefOf(s.url))));
  });

  it('writes the chrome in Chinese, with the string the config replaces', async () => {
    const page = await open('/guide/stores/');
    expect(await page.getAttribute('html', 'lang')).toBe('zh');
    expect(await page.textContent('.skip-link')).toBe('跳到正文');
    expect(await page.getAttribute('#search-input', 'placeholder')).toBe('搜索文档…');
    expect(await page.getAttribute('.header', 'aria-label')).toBe('网站页眉');
    expect(await page.getAttribute('.menu-toggle', 'aria-label')).toBe('菜单');
    expect(await page.getAttribute('.banner', 'aria-label')).toBe('横幅');
    expect(await page.getAttribute('[data-theme-toggle]', 'aria-label')).toBe('配色：跟随系统');
    expect(await page.textContent('.article-tools a')).toBe('在 Codeberg 上编辑 （在新标签页中打开）');
    expect(await page.textContent('.page-link-label')).toBe('上一页');
    expect(await page.textContent('button[data-copy]')).toBe('复制');
    // An aside without a title of its own takes the interface's word for its kind.
    expect(await page.textContent('.aside-note .aside-title')).toBe('注意');
    expect(await page.getAttribute('.aside-note', 'aria-label')).toBe('注意');
    // The client script takes its words from the page as well.
    await page.click('[data-theme-toggle]');
    expect(await page.getAttribute('[data-theme-toggle]', 'aria-label')).toBe('配色：浅色');
    await page.focus('#search-input');
    await page.keyboard.type('zzzzqqq');
    await page.waitForFunction(() => document.querySelector('#search-status')?.textContent !== '');
    expect(await page.textContent('#search-status')).toBe('没有找到“zzzzqqq”的结果');
    // No English word of the chrome is left in the rendered page's own text.
    const chrome = await page.evaluate(() => {
      const texts: string[] = [];
      for (const el of document.querySelectorAll('body *:not(.markdown *):not(script):not(style)')) {
        for (const attr of ['aria-label', 'placeholder', 'title', 'alt']) {
          const v = el.getAttribute(attr);
          if (v) texts.push(v);
        }
        for (const node of el.childNodes) if (node.nodeType === Node.TEXT_NODE && node.textContent!.trim()) texts.push(node.textContent!.trim());
      }
      return texts;
    });
    const english = chrome.filter((t) => /\b(the|of|page|search|menu|open|close|edit|previous|next|section|home|language|theme|footer|header)\b/i.test(t));
    expect(english).toEqual([]);
  });

  it('renders the landing home: hero, actions and feature cards from the frontmatter, no sidebar', async () => {
    const page = await open('/');
    expect(await page.textContent('.hero h1')).toBe('Fluxon');
    expect(await page.textContent('.hero-tagline')).toBe('小巧的状态管理库。');
    expect(await page.$$eval('.hero-action', (as) => as.map((a) => [a.textContent, a.getAttribute('href'), a.classList.contains('primary')]))).toEqual([
      ['开始使用', '/guide/', true],
      ['存储', '/guide/stores/', false],
    ]);
    expect(await page.$$eval('.feature h2', (hs) => hs.map((h) => h.textContent))).toEqual(['小巧', '类型安全']);
    expect(await page.locator('#sidebar').count()).toBe(0);
    expect(await page.textContent('.home .markdown')).toContain('Fluxon 管理应用的状态。');
    // The site's own stylesheet applies after the built-in one.
    expect(await style(page, '.hero h1', 'letter-spacing')).not.toBe('normal');
  });

  it("renders the site's own Footer component in place of the built-in one", async () => {
    const page = await open('/guide/');
    expect(await page.locator('footer[data-own-footer]').count()).toBe(1);
    expect(await page.textContent('footer[data-own-footer]')).toBe('© 2026 Fluxon');
    expect(await page.locator('.footer-nav').count()).toBe(0);
  });

  it('allows the configured CSP sources and nothing more, in the meta tag and _headers', async () => {
    const page = await open('/');
    const meta = (await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content'))!;
    const directives = new Map(meta.split(/;\s*/).map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));
    expect(directives.get('img-src')).toEqual(["'self'", 'data:', ...config.csp.img]);
    expect(directives.get('frame-src')).toEqual(config.csp.frame);
    expect(directives.get('connect-src')).toEqual(["'self'"]);
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.has('media-src')).toBe(false);
    const headers = readFileSync(join(site.dir, '_headers'), 'utf8');
    expect(headers).toContain(`Content-Security-Policy: ${meta}; frame-ancestors 'none'`);
    // In the browser: an image from the configured host loads, one from elsewhere is refused.
    const result = await page.evaluate(async (allowed) => {
      const load = (src: string) =>
        new Promise<string>((resolve) => {
          const img = new Image();
          img.onload = () => resolve('loaded');
          img.onerror = () => resolve('error');
          document.addEventListener('securitypolicyviolation', (e) => e.blockedURI.startsWith(src.slice(0, 20)) && resolve('blocked'), { once: true });
          img.src = src;
        });
      return { allowed: await load(`${allowed}/a.svg`), other: await load('https://elsewhere.example.net/a.svg') };
    }, config.csp.img[0]!);
    expect(result.other).toBe('blocked');
    expect(result.allowed).not.toBe('blocked');
  });
});
