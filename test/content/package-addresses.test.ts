import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isForwardingPage, servedRealSite } from '../helpers/real-site.js';

/*
 * webpack.js.org publishes one page per loader or plugin package, made from the package's README, at
 * /loaders/<repository>/ and /plugins/<repository>/. Every one of those addresses answers in the built site:
 * with a page of ours for that package, or with a real redirect (a line of _redirects and a forwarding page) to
 * a page that exists, whose anchor is an id of that page, and which names the package.
 *
 * Where the list comes from (the test's own data; nothing outside the repository is read):
 * - webpack.js.org (commit 9c0ce6f5e9), src/utilities/fetch-package-repos.mjs: the public repositories of the
 *   `webpack` GitHub organisation whose names end in -loader (loaders) or in -webpack-plugin or -extract-plugin
 *   (plugins), minus the retired ones of src/utilities/constants.mjs (excludedLoaders, excludedPlugins), plus
 *   babel/babel-loader, yoriiis/svg-chunk-webpack-plugin and yoriiis/chunks-webpack-plugin.
 * - That organisation's list is fetched from the GitHub API when webpack.js.org is built, so it is not in that
 *   repository. The names below were established from the public repositories of the `webpack` organisation
 *   and of the `webpack-contrib` organisation, whose maintained packages moved to `webpack` in 2025
 *   (webpack.js.org stopped reading webpack-contrib then); the repository field on npm was checked for a few of
 *   them. The 25 retired loaders and 7 retired plugins of constants.mjs are left out (constants.mjs names them
 *   as webpack-contrib/<name>).
 * - The repository of terser-webpack-plugin is now named minimizer-webpack-plugin (the npm package kept its
 *   name), so the package's page moved to /plugins/minimizer-webpack-plugin/; the earlier address is checked too.
 */
const LOADERS = [
  'babel-loader',
  'coffee-loader',
  'css-loader',
  'exports-loader',
  'expose-loader',
  'html-loader',
  'imports-loader',
  'less-loader',
  'node-loader',
  'postcss-loader',
  'remark-loader',
  'sass-loader',
  'source-map-loader',
  'style-loader',
  'stylus-loader',
  'thread-loader',
  'val-loader',
];

const PLUGINS = [
  'chunks-webpack-plugin',
  'compression-webpack-plugin',
  'copy-webpack-plugin',
  'css-minimizer-webpack-plugin',
  'diagnostics-webpack-plugin',
  'eslint-webpack-plugin',
  'html-minimizer-webpack-plugin',
  'image-minimizer-webpack-plugin',
  'install-webpack-plugin',
  'json-minimizer-webpack-plugin',
  'mini-css-extract-plugin',
  'minimizer-webpack-plugin',
  'stylelint-webpack-plugin',
  'svg-chunk-webpack-plugin',
  // The address of the minimizer's page before its repository was renamed.
  'terser-webpack-plugin',
];

/** How each address answers: 'page' for a page of ours, else the target of its redirect. */
const EXPECTED: Record<string, string> = {
  '/loaders/babel-loader/': 'page',
  '/loaders/coffee-loader/': '/loaders/#transpiling',
  '/loaders/css-loader/': 'page',
  '/loaders/exports-loader/': 'page',
  '/loaders/expose-loader/': 'page',
  '/loaders/html-loader/': 'page',
  '/loaders/imports-loader/': 'page',
  '/loaders/less-loader/': 'page',
  '/loaders/node-loader/': '/loaders/#files',
  '/loaders/postcss-loader/': 'page',
  '/loaders/remark-loader/': '/loaders/#templating',
  '/loaders/sass-loader/': 'page',
  '/loaders/source-map-loader/': 'page',
  '/loaders/style-loader/': 'page',
  '/loaders/stylus-loader/': '/loaders/#styling',
  '/loaders/thread-loader/': 'page',
  '/loaders/val-loader/': '/loaders/#files',
  '/plugins/chunks-webpack-plugin/': '/plugins/#packages-without-a-page-here',
  '/plugins/compression-webpack-plugin/': 'page',
  '/plugins/copy-webpack-plugin/': 'page',
  '/plugins/css-minimizer-webpack-plugin/': 'page',
  '/plugins/diagnostics-webpack-plugin/': '/plugins/#packages-without-a-page-here',
  '/plugins/eslint-webpack-plugin/': 'page',
  '/plugins/html-minimizer-webpack-plugin/': 'page',
  '/plugins/image-minimizer-webpack-plugin/': 'page',
  '/plugins/install-webpack-plugin/': '/plugins/#packages-without-a-page-here',
  '/plugins/json-minimizer-webpack-plugin/': 'page',
  '/plugins/mini-css-extract-plugin/': 'page',
  '/plugins/minimizer-webpack-plugin/': '/plugins/terser-webpack-plugin/',
  '/plugins/stylelint-webpack-plugin/': 'page',
  '/plugins/svg-chunk-webpack-plugin/': '/plugins/#packages-without-a-page-here',
  '/plugins/terser-webpack-plugin/': 'page',
};

const ADDRESSES = [
  ...LOADERS.map((name) => [`/loaders/${name}/`, name] as const),
  ...PLUGINS.map((name) => [`/plugins/${name}/`, name] as const),
];

let site: Awaited<ReturnType<typeof servedRealSite>>;

beforeAll(async () => {
  site = await servedRealSite();
}, 240_000);
afterAll(async () => {
  await site?.close();
});

describe('package pages of webpack.js.org', () => {
  it('lists 17 loaders and 15 plugin addresses, each with its expected answer', () => {
    expect(LOADERS).toHaveLength(17);
    expect(PLUGINS).toHaveLength(15);
    expect(ADDRESSES.map(([address]) => address).sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(ADDRESSES)('%s answers', async (address, name) => {
    const expected = EXPECTED[address]!;
    const { status, html } = await site.get(address);
    expect(status).toBe(200);
    const file = join(site.dir, address, 'index.html');
    if (expected === 'page') {
      expect(existsSync(file), `${address}index.html`).toBe(true);
      expect(isForwardingPage(html)).toBe(false);
      expect(site.redirects.has(address)).toBe(false);
      expect(html).toMatch(/<h1[^>]*>[^<]+<\/h1>/);
      expect(html, `the page names ${name}`).toContain(name);
      return;
    }
    expect(site.redirects.get(address), 'a line in _redirects').toBe(expected);
    expect(existsSync(file), `a forwarding page at ${address}index.html`).toBe(true);
    expect(readFileSync(file, 'utf8')).toContain(`<meta http-equiv="refresh" content="0; url=${expected}">`);
    const [path, anchor] = expected.split('#') as [string, string | undefined];
    const page = await site.get(path);
    expect(page.status, expected).toBe(200);
    expect(isForwardingPage(page.html), `${expected} is a page, not another redirect`).toBe(false);
    if (!anchor) {
      expect(page.html, `${path} names ${name}`).toContain(name);
      return;
    }
    const start = page.html.indexOf(`id="${anchor}"`);
    expect(start, `#${anchor} on ${path}`).toBeGreaterThan(-1);
    const next = page.html.slice(start).search(/<h[23][\s>]/);
    const section = page.html.slice(start, next === -1 ? undefined : start + next);
    expect(section, `the section #${anchor} names ${name}`).toContain(name);
  });
});
