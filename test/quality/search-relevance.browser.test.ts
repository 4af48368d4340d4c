import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launch, offline } from '../helpers/browser.js';
import { buildRealSite } from '../helpers/real-site.js';

/*
 * Relevance of the local search on the real site: queries a webpack user
 * types, each with the pages of which one must come first (or within the
 * first `within` results, where another page has as good a claim).
 */

const QUERIES: Array<[query: string, expected: string[], within?: number]> = [
  ['splitChunks', ['/configuration/optimization/', '/plugins/split-chunks-plugin/']],
  ['devtool', ['/configuration/devtool/']],
  ['source map', ['/configuration/devtool/', '/plugins/source-map-dev-tool-plugin/', '/loaders/source-map-loader/']],
  ['hot module replacement', ['/guides/hot-module-replacement/', '/concepts/hot-module-replacement/', '/api/hot-module-replacement/']],
  ['publicPath', ['/guides/public-path/', '/configuration/output/']],
  ['tree shaking', ['/guides/tree-shaking/']],
  ['loader', ['/concepts/loaders/', '/loaders/', '/api/loaders/', '/contribute/writing-a-loader/']],
  ['DefinePlugin', ['/plugins/define-plugin/']],
  ['externals', ['/configuration/externals/']],
  ['resolve alias', ['/configuration/resolve/']],
  ['code splitting', ['/guides/code-splitting/']],
  ['lazy loading', ['/guides/lazy-loading/']],
  ['dev server', ['/configuration/dev-server/', '/guides/development/']],
  ['cache', ['/configuration/cache/', '/guides/caching/']],
  ['typescript', ['/guides/typescript/']],
  ['environment variables', ['/guides/environment-variables/']],
  ['CSP nonce', ['/guides/csp/']],
  ['library', ['/guides/author-libraries/', '/configuration/output/']],
  ['target node', ['/configuration/target/', '/concepts/targets/']],
  ['stats', ['/configuration/stats/', '/api/stats/']],
  ['splitchuncks', ['/configuration/optimization/', '/plugins/split-chunks-plugin/']],
  ['optimiz', ['/configuration/optimization/']],
  // (The code splitting guide is about entry points too, and comes first.)
  ['entry points', ['/concepts/entry-points/'], 2],
  ['mini-css-extract-plugin', ['/plugins/mini-css-extract-plugin/']],
  ['html-webpack-plugin', ['/plugins/html-webpack-plugin/']],
  // (The concept page and the plugin page both answer it.)
  ['module federation', ['/concepts/module-federation/', '/plugins/module-federation-plugin/']],
  ['babel-loader', ['/loaders/babel-loader/']],
  ['css-loader', ['/loaders/css-loader/']],
  ['mode production', ['/configuration/mode/', '/guides/production/']],
  ['watch', ['/configuration/watch/']],
  ['compiler hooks', ['/api/compiler/']],
  ['getting started', ['/guides/getting-started/']],
  ['asset modules', ['/guides/asset-modules/']],
  ['migrate from webpack 4', ['/guides/migrating/']],
  ['ProvidePlugin', ['/plugins/provide-plugin/']],
];

let browser: Browser;
let site: Awaited<ReturnType<typeof buildRealSite>>;
let page: Page;
const transferred: number[] = [];

beforeAll(async () => {
  site = await buildRealSite();
  if (!hasChromium) return;
  browser = await launch();
  page = await (await browser.newContext(DESKTOP)).newPage();
  await offline(page);
  page.on('response', async (r) => {
    if (/\/search-index\/|\/assets\/(search|terms)\./.test(r.url())) {
      try {
        transferred.push((await r.body()).length);
      } catch {
        /* a redirect or aborted response has no body */
      }
    }
  });
  await page.goto(site.server.url + '/guides/');
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

async function search(query: string): Promise<{ urls: string[]; ms: number }> {
  const started = Date.now();
  await page.fill('#search-input', query);
  await page.waitForFunction((q) => document.getElementById('search-results')!.dataset.query === q, query);
  const ms = Date.now() - started;
  const urls = await page.$$eval('#search-results [role="option"]', (links) => links.map((a) => new URL((a as HTMLAnchorElement).href).pathname));
  return { urls, ms };
}

describe.runIf(hasChromium)('search relevance on the real site', () => {
  it('downloads a small first query and answers typed words quickly', async () => {
    await page.focus('#search-input');
    await search('webpack');
    const first = transferred.reduce((a, b) => a + b, 0);
    const timings: number[] = [];
    for (const word of ['entry', 'output', 'plugin', 'module', 'resolve']) timings.push((await search(word)).ms);
    console.log(`first query transferred ${(first / 1024).toFixed(1)} KB; later queries took ${timings.join(', ')} ms (typing to results shown)`);
    expect(first).toBeLessThan(300 * 1024);
  });

  for (const [query, expected, within = 1] of QUERIES) {
    it(`puts ${expected.join(' or ')} ${within === 1 ? 'first' : `within the first ${within}`} for "${query}"`, async () => {
      await page.focus('#search-input');
      const { urls } = await search(query);
      const top = urls.slice(0, within);
      expect(top.some((u) => expected.includes(u)), `first ${within} for "${query}": ${urls.slice(0, 5).join(', ')}`).toBe(true);
    });
  }
});
