import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { correctQuery, editDistance, fromHosted, moveActive } from '../../templates/client/search-logic.js';
import { DESKTOP, hasChromium, launch, offline, PHONE } from '../helpers/browser.js';
import { builtSite } from '../helpers/built.js';
import { ROOT } from '../helpers/content.js';

describe('search logic', () => {
  it('reads hosted hits in the DocSearch record shape', () => {
    expect(fromHosted({ url: '/a/#b', hierarchy: { lvl0: 'Guides', lvl1: 'Caching', lvl2: 'Hashes' }, _snippetResult: { content: { value: 'x <mark>y</mark>' } } })).toEqual({
      url: '/a/#b',
      title: 'Caching',
      section: 'Guides',
      heading: 'Hashes',
      excerpt: 'x <mark>y</mark>',
    });
  });
  it('corrects typos against known words and leaves known words and prefixes alone', () => {
    const terms = ['splitchunks', 'optimization', 'devtool', 'loader', 'cache'];
    expect(editDistance('splitchuncks', 'splitchunks')).toBe(1);
    expect(editDistance('devtol', 'devtool')).toBe(1);
    expect(editDistance('cahce', 'cache')).toBe(1); // a transposition is one edit
    expect(correctQuery('splitchuncks', terms)).toBe('splitchunks');
    expect(correctQuery('optimiz', terms)).toBeNull();
    expect(correctQuery('loader', terms)).toBeNull();
    expect(correctQuery('zzzzzz', terms)).toBeNull();
  });
  it('moves the active option with the arrow keys, wrapping', () => {
    expect(moveActive('ArrowDown', -1, 3)).toBe(0);
    expect(moveActive('ArrowDown', 2, 3)).toBe(0);
    expect(moveActive('ArrowUp', 0, 3)).toBe(2);
    expect(moveActive('ArrowUp', -1, 3)).toBe(2);
    expect(moveActive('End', 0, 3)).toBe(2);
    expect(moveActive('a', 0, 3)).toBeNull();
    expect(moveActive('ArrowDown', -1, 0)).toBeNull();
  });
});

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;
beforeAll(async () => {
  site = await builtSite();
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function open(path: string, options = DESKTOP, base = site.server.url): Promise<{ page: Page; requests: string[] }> {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  await offline(page);
  const requests: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  await page.goto(base + path);
  return { page, requests };
}

/** Types a query and waits until the results for exactly that query are shown. */
async function typeQuery(page: Page, query: string): Promise<void> {
  await page.fill('#search-input', query);
  await page.waitForFunction((q) => !document.getElementById('search-panel')!.hidden && document.getElementById('search-results')!.dataset.query === q, query);
}

describe.runIf(hasChromium)('local search in the browser', () => {
  it('downloads nothing of search before the box is focused', async () => {
    const { page, requests } = await open('/guides/first/');
    await page.waitForTimeout(300);
    expect(requests.filter((r) => /\/search-index\/|\/assets\/(search|terms)\./.test(r))).toEqual([]);
    await page.focus('#search-input');
    await expect.poll(() => requests.some((r) => /\/assets\/search\.[0-9a-f]{10}\.js$/.test(r))).toBe(true);
    await expect.poll(() => requests.some((r) => r.endsWith('/search-index/index.json'))).toBe(true);
  });

  it('shows results as you type, with title, section, heading and marked excerpt, and opens one by keyboard', async () => {
    const { page } = await open('/guides/first/');
    await page.focus('#search-input');
    await typeQuery(page, 'setup');
    const first = page.locator('#search-results [role="option"]').first();
    expect(await first.locator('.search-result-title').textContent()).toBe('Second guide › Setup');
    expect(await first.locator('.search-result-section').textContent()).toBe('Guides');
    expect(await first.locator('mark').first().textContent()).toMatch(/setup/i);
    expect(await page.getAttribute('#search-input', 'aria-expanded')).toBe('true');
    await page.keyboard.press('ArrowDown');
    expect(await page.getAttribute('#search-input', 'aria-activedescendant')).toBe('search-result-0');
    expect(await first.getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('Enter');
    await page.waitForURL('**/guides/second/#setup');
  });

  it('while the index is being built (503, as the preview answers), says so and searches again by itself', async () => {
    const { page } = await open('/guides/first/');
    let refused = 0;
    // The preview answers 503 until its first build has written the index; then the files come.
    await page.route('**/search-index/index.json', (route) =>
      refused++ < 2 ? route.fulfill({ status: 503, headers: { 'Retry-After': '1' }, body: 'The search index is being built.' }) : route.continue(),
    );
    await page.focus('#search-input');
    await page.fill('#search-input', 'setup');
    await expect.poll(() => page.textContent('#search-status')).toBe('The search index is still being built; searching again in a moment…');
    expect(await page.locator('#search-panel').isHidden()).toBe(false);
    // No new keystroke: the same query runs again and finds its results once the index answers.
    await page.waitForFunction(() => document.getElementById('search-results')!.dataset.query === 'setup', undefined, { timeout: 10_000 });
    expect(await page.locator('.search-result-title').first().textContent()).toBe('Second guide › Setup');
    expect(refused).toBeGreaterThanOrEqual(2);
  });

  it('says so when nothing matches', async () => {
    const { page } = await open('/guides/first/');
    await page.focus('#search-input');
    await typeQuery(page, 'qwxzv');
    expect(await page.textContent('#search-status')).toBe('No results for “qwxzv”');
    expect(await page.locator('#search-results [role="option"]').count()).toBe(0);
  });

  it('corrects a typo and matches prefixes', async () => {
    const { page } = await open('/guides/first/');
    await page.focus('#search-input');
    await typeQuery(page, 'confgure');
    expect(await page.textContent('#search-status')).toMatch(/for “configure” \(no results for “confgure”\)/);
    expect(await page.locator('.search-result-title').first().textContent()).toBe('First guide › Configure');
    await typeQuery(page, 'escap');
    expect(await page.locator('.search-result-title').first().textContent()).toBe('Second guide › Escaping');
  });

  it('focuses the box with "/" and Ctrl+K, and Escape closes, then restores focus', async () => {
    const { page } = await open('/guides/first/');
    await page.focus('.sidebar-row a >> nth=1');
    await page.keyboard.press('/');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-input');
    await typeQuery(page, 'install');
    await page.keyboard.press('Escape');
    expect(await page.locator('#search-panel').isHidden()).toBe(true);
    expect(await page.getAttribute('#search-input', 'aria-expanded')).toBe('false');
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('First guide');
    await page.keyboard.press('Control+k');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('search-input');
  });

  it('escapes markup in queries and excerpts: no script runs, no element is injected', async () => {
    const { page } = await open('/guides/first/');
    let dialogs = 0;
    page.on('dialog', async (d) => {
      dialogs++;
      await d.dismiss();
    });
    await page.focus('#search-input');
    const payload = '<img src=x onerror=alert(1)>';
    await typeQuery(page, payload);
    await typeQuery(page, 'onerror');
    expect(await page.locator('#search-results [role="option"]').count()).toBeGreaterThan(0);
    expect(await page.locator('#search-panel img').count()).toBe(0);
    expect(await page.locator('#search-results').textContent()).toContain('onerror');
    await page.waitForTimeout(300);
    expect(dialogs).toBe(0);
  });

  it('works on the phone layout', async () => {
    const { page } = await open('/guides/first/', PHONE);
    await page.tap('.search-toggle');
    await page.keyboard.type('install');
    await page.waitForFunction(() => document.querySelectorAll('#search-results [role="option"]').length > 0);
    const box = await page.locator('#search-panel').boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(375);
  });
});

describe.runIf(hasChromium)('hosted search provider against a stub of the service', () => {
  let stub: Server;
  let stubUrl: string;
  let hosted: Awaited<ReturnType<typeof builtSite>>;
  let siteDir: string;
  const received: Array<{ path: string; headers: Record<string, unknown>; body: unknown }> = [];

  beforeAll(async () => {
    stub = createServer((req, res) => {
      const cors = { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'content-type, x-algolia-api-key, x-algolia-application-id', 'Access-Control-Allow-Methods': 'POST' };
      if (req.method === 'OPTIONS') return void res.writeHead(204, cors).end();
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ path: req.url!, headers: req.headers, body: JSON.parse(body) });
        res.writeHead(200, { ...cors, 'Content-Type': 'application/json' });
        res.end(
          JSON.stringify({
            hits: [
              { url: '/guides/first/#install', hierarchy: { lvl0: 'Guides', lvl1: 'First guide', lvl2: 'Install' }, content: 'npm install example', _snippetResult: { content: { value: 'npm <mark>install</mark> example <img src=x onerror=alert(1)>' } } },
            ],
            nbHits: 1,
          }),
        );
      });
    });
    await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
    stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
    siteDir = mkdtempSync(join(tmpdir(), 'docs-hosted-'));
    cpSync(join(ROOT, 'test/fixtures/site'), siteDir, { recursive: true });
    const config = join(siteDir, 'site.config.yaml');
    writeFileSync(config, readFileSync(config, 'utf8') + `search:\n  provider: algolia\n  appId: TESTAPP\n  apiKey: public-search-key\n  indexName: docs\n  host: ${stubUrl}\n`);
    hosted = await builtSite(siteDir);
  });
  afterAll(async () => {
    await hosted?.close();
    await new Promise((r) => stub?.close(r));
    rmSync(siteDir, { recursive: true, force: true });
  });

  it('queries the service from the same box and shows its hits in the same UI', async () => {
    const { page } = await open('/guides/second/', DESKTOP, hosted.server.url);
    await page.focus('#search-input');
    await typeQuery(page, 'install');
    expect(await page.locator('.search-result-title').first().textContent()).toBe('First guide › Install');
    expect(await page.locator('#search-panel mark').first().textContent()).toBe('install');
    expect(await page.locator('#search-panel img').count()).toBe(0);
    const last = received.at(-1)!;
    expect(last.path).toBe('/1/indexes/docs/query');
    expect(last.headers['x-algolia-application-id']).toBe('TESTAPP');
    expect(last.headers['x-algolia-api-key']).toBe('public-search-key');
    expect(last.body).toMatchObject({ query: 'install', hitsPerPage: 6 });
    expect(readFileSync(join(hosted.dir, 'guides/second/index.html'), 'utf8')).toContain(`connect-src &#x27;self&#x27; ${stubUrl};`);
  });
});
