import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isForwardingPage, servedRealSite } from '../helpers/real-site.js';

/*
 * Every address of the earlier webpack.js.org that had no page here answers in the built site: with a page of
 * ours, or with a real redirect (a line of _redirects and a forwarding page) to a page that exists, whose
 * anchor, when the target names one, is an id of that page.
 *
 * The list is the test's own data: the 33 addresses of webpack.js.org's src/content (at its commit 9c0ce6f5e9)
 * that had neither a page nor a redirect here. The blog's (the config's blog: key) answer with the blog's index
 * page, or forward to it or to the post of the same release at its address /blog/<slug>/.
 */
const ADDRESSES: Record<string, 'page' | 'redirect'> = {
  '/api/compilation-hooks/': 'redirect',
  '/api/compilation-object/': 'redirect',
  '/api/compiler-hooks/': 'redirect',
  '/api/contextmodulefactory-hooks/': 'redirect',
  '/api/logging/': 'page',
  '/api/normalmodulefactory-hooks/': 'redirect',
  '/api/resolvers/': 'redirect',
  '/api/webpack-dev-server/': 'page',
  '/awesome-webpack/': 'redirect',
  '/blog/': 'page',
  '/blog/2020-10-10-webpack-5-release/': 'redirect',
  '/blog/2020-12-08-roadmap-2021/': 'redirect',
  '/blog/2026-02-03-webpack-5-105/': 'redirect',
  '/blog/2026-02-04-roadmap-2026/': 'redirect',
  '/blog/2026-04-08-webpack-5-106/': 'redirect',
  '/blog/2026-05-19-webpack-5-107/': 'redirect',
  '/blog/2026-06-25-webpack-5-108/': 'redirect',
  '/concepts/module-federation/': 'page',
  '/concepts/under-the-hood/': 'page',
  '/concepts/why-webpack/': 'page',
  '/configuration/dotenv/': 'redirect',
  '/configuration/extending-configurations/': 'redirect',
  '/configuration/infrastructureLogging/': 'redirect',
  '/guides/entry-advanced/': 'page',
  '/guides/modern-web-platform/': 'page',
  '/guides/native-css/': 'page',
  '/migrate/': 'redirect',
  '/migrate/3/': 'redirect',
  '/migrate/4/': 'redirect',
  '/migrate/5/': 'redirect',
  '/plugins/NoEmitOnErrorsPlugin/': 'redirect',
  '/plugins/merge-duplicate-chunks-plugin/': 'page',
  '/plugins/virtual-url-plugin/': 'page',
};

let site: Awaited<ReturnType<typeof servedRealSite>>;

beforeAll(async () => {
  site = await servedRealSite();
}, 240_000);
afterAll(async () => {
  await site?.close();
});

describe('addresses of the earlier webpack.js.org', () => {
  it('lists the 33 addresses', () => {
    expect(Object.keys(ADDRESSES)).toHaveLength(33);
  });

  it.each(Object.entries(ADDRESSES))('%s answers with a %s', async (address, kind) => {
    const { status, html } = await site.get(address);
    expect(status).toBe(200);
    if (kind === 'page') {
      expect(isForwardingPage(html)).toBe(false);
      expect(site.redirects.has(address)).toBe(false);
      expect(html).toMatch(/<h1[^>]*>[^<]+<\/h1>/);
      return;
    }
    const target = site.redirects.get(address);
    expect(target, 'a line in _redirects').toBeDefined();
    expect(html).toContain(`<meta http-equiv="refresh" content="0; url=${target}">`);
    const [path, anchor] = target!.split('#') as [string, string | undefined];
    const page = await site.get(path);
    expect(page.status, target).toBe(200);
    expect(isForwardingPage(page.html), `${target} is a page, not another redirect`).toBe(false);
    if (anchor) expect(page.html, `#${anchor} on ${path}`).toContain(`id="${anchor}"`);
  });
});
