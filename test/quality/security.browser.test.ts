import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launch, offline, PHONE } from '../helpers/browser.js';
import { buildRealSite } from '../helpers/real-site.js';
import { builtSite } from '../helpers/built.js';

/* Strict CSP, third-party requests and byte budgets of the real site. */

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;
let headers: Record<string, string>;

beforeAll(async () => {
  // Build once to read the _headers file, then serve with exactly those headers.
  const probe = await buildRealSite();
  const lines = readFileSync(join(probe.dir, '_headers'), 'utf8').split('\n');
  await probe.close();
  headers = {};
  for (const line of lines.slice(1, lines.indexOf('/assets/*'))) {
    const m = /^\s+([\w-]+): (.*)$/.exec(line);
    if (m) headers[m[1]!] = m[2]!;
  }
  site = await buildRealSite(headers);
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

describe('security headers', () => {
  it('writes a strict policy: no unsafe-inline, no unsafe-eval, the inline head script allowed by hash', () => {
    const csp = headers['Content-Security-Policy']!;
    expect(csp).not.toContain("'unsafe-inline'");
    expect(csp).not.toMatch(/'unsafe-eval'/);
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/=]+';/);
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(headers['X-Content-Type-Options']).toBe('nosniff');
    expect(headers['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['X-Frame-Options']).toBe('DENY');
    const html = readFileSync(join(site.dir, 'index.html'), 'utf8');
    expect(html).toContain('<meta http-equiv="Content-Security-Policy"');
    expect(html).not.toMatch(/ style="/);
  });
});

async function watch(page: Page): Promise<{ violations: string[] }> {
  const state = { violations: [] as string[] };
  await page.exposeFunction('__cspViolation', (v: string) => state.violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { __cspViolation(v: string): void }).__cspViolation(`${e.violatedDirective} ${e.blockedURI}`));
  });
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) state.violations.push(m.text());
  });
  return state;
}

describe.runIf(hasChromium)('pages under the Content-Security-Policy header', () => {
  it('load four pages and a missing one, search and open a result with the keyboard, switch tabs by click and arrow key, copy code, toggle the theme, open the language menu, dismiss the banner, and open and swipe shut the phone menu, without a single violation', async () => {
    const context = await browser.newContext({ ...DESKTOP, permissions: ['clipboard-read', 'clipboard-write'] });
    const page = await context.newPage();
    await offline(page);
    const state = await watch(page);
    for (const path of ['/', '/guides/', '/plugins/', '/configuration/', '/no-such-page/']) {
      await page.goto(site.server.url + path);
    }
    await page.goto(site.server.url + '/guides/');
    await page.focus('#search-input');
    await page.keyboard.type('install');
    await page.waitForFunction(() => document.querySelectorAll('#search-results [role="option"]').length > 0);
    await page.keyboard.press('ArrowDown');
    await Promise.all([page.waitForURL((url) => url.pathname !== '/guides/'), page.keyboard.press('Enter')]);
    // A page with tabs and code blocks.
    await page.goto(site.server.url + '/api/cli/');
    const tabs = page.locator('.tabs').first().locator('[role="tab"]');
    expect(await tabs.count()).toBeGreaterThan(1);
    await tabs.nth(1).click();
    expect(await tabs.nth(1).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    expect(await tabs.nth(0).getAttribute('aria-selected')).toBe('true');
    const copy = page.locator('.copy').first();
    await copy.click();
    await page.waitForFunction(() => document.querySelector('.copy')!.textContent !== 'Copy');
    await page.click('[data-theme-toggle]');
    await page.hover('.lang-button');
    await page.getByRole('button', { name: 'Close banner' }).click();
    expect(await page.locator('#banner').count()).toBe(0);
    const phone = await browser.newContext(PHONE);
    const phonePage = await phone.newPage();
    await offline(phonePage);
    const phoneState = await watch(phonePage);
    await phonePage.goto(site.server.url + '/guides/');
    await phonePage.tap('.menu-toggle');
    await phonePage.waitForFunction(() => document.getElementById('mobile-menu')!.classList.contains('visible'));
    const cdp = await phone.newCDPSession(phonePage);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: 250, y: 400 }] });
    for (let i = 1; i <= 5; i++) await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: 250 - 30 * i, y: 400 }] });
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
    await phonePage.waitForFunction(() => !document.getElementById('mobile-menu')!.classList.contains('visible'));
    expect([...state.violations, ...phoneState.violations]).toEqual([]);
    await context.close();
    await phone.close();
  });

  it('make no third-party request on load except the version badge', async () => {
    const context = await browser.newContext(DESKTOP);
    const page = await context.newPage();
    const thirdParty = new Set<string>();
    page.on('request', (r) => {
      const url = new URL(r.url());
      if (url.hostname !== '127.0.0.1') thirdParty.add(`${url.origin}${url.pathname}`);
    });
    await offline(page);
    for (const path of ['/', '/guides/', '/plugins/normal-module-replacement-plugin/']) {
      await page.goto(site.server.url + path, { waitUntil: 'networkidle' });
    }
    expect([...thirdParty]).toEqual(['https://img.shields.io/npm/v/webpack.svg']);
  });
});

describe('budgets of the built site (gzip)', () => {
  it('keeps the script under 8 KB, the search engine under 6 KB, the CSS under 20 KB and the longest page HTML under 60 KB; no web fonts; images sized', () => {
    const gz = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;
    const assets = readdirSync(join(site.dir, 'assets'));
    const js = assets.filter((f) => /^main\..+\.js$/.test(f)).map((f) => gz(join(site.dir, 'assets', f)));
    const engine = assets.filter((f) => /^search\..+\.js$/.test(f)).map((f) => gz(join(site.dir, 'assets', f)));
    const css = assets.filter((f) => f.endsWith('.css')).map((f) => gz(join(site.dir, 'assets', f)));
    let longest = { path: '', size: 0 };
    const fonts: string[] = [];
    const unsized: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(woff2?|ttf|otf|eot)$/.test(name)) fonts.push(path);
        else if (name.endsWith('.html') && !path.includes('/printable/')) {
          const html = readFileSync(path, 'utf8');
          const size = gzipSync(html, { level: 9 }).length;
          if (size > longest.size) longest = { path, size };
          for (const img of html.match(/<img [^>]*>/g) ?? []) if (!/ width="\d+"/.test(img) || !/ height="\d+"/.test(img)) unsized.push(`${path}: ${img}`);
        }
      }
    };
    walk(site.dir);
    console.log(`gzip: script ${js.join(', ')} B, search engine ${engine.join(', ')} B, CSS ${css.join(', ')} B, longest page ${longest.size} B (${longest.path.slice(site.dir.length)})`);
    expect(js).toHaveLength(1);
    expect(js[0]!).toBeLessThan(8 * 1024);
    expect(engine).toHaveLength(1);
    expect(engine[0]!).toBeLessThan(6 * 1024);
    expect(css[0]!).toBeLessThan(20 * 1024);
    expect(longest.size).toBeLessThan(60 * 1024);
    expect(fonts).toEqual([]);
    expect(unsized).toEqual([]);
  });
});
