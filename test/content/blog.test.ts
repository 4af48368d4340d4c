import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildRealSite } from '../helpers/real-site.js';

/*
 * The webpack site's blog (blog: in site.config.yaml, content/blog/): a post for each release from 5.105 to
 * 5.113, newest first on /blog/, in the Atom feed, each linking into the reference pages.
 */

const RELEASES = ['113', '112', '111', '110', '109', '108', '107', '106', '105'].map((minor) => `5.${minor}`);

let site: Awaited<ReturnType<typeof buildRealSite>>;
beforeAll(async () => {
  site = await buildRealSite();
}, 240_000);
afterAll(async () => {
  await site?.close();
});

const read = (path: string) => readFileSync(join(site.dir, path), 'utf8');

describe('the webpack blog', () => {
  it('lists a post per release from 5.113 down to 5.105 on /blog/', () => {
    const index = read('blog/index.html');
    const titles = [...index.matchAll(/<li class="blog-entry"><h2><a href="\/blog\/([^"]+)\/">([^<]+)<\/a><\/h2><p class="blog-date"><time datetime="(\d{4}-\d{2}-\d{2})">/g)];
    expect(titles.map((m) => m[2])).toEqual(RELEASES.map((release) => `webpack ${release}`));
    expect(titles.map((m) => m[1])).toEqual(RELEASES.map((release) => `webpack-${release.replace('.', '-')}`));
    const dates = titles.map((m) => m[3]!);
    expect([...dates].sort().reverse()).toEqual(dates);
  });

  it.each(RELEASES)('webpack %s: its date, links into the reference, and the posts around it', (release) => {
    const html = read(`blog/webpack-${release.replace('.', '-')}/index.html`);
    expect(html).toMatch(/<p class="last-updated blog-post-line"><time datetime="2026-\d{2}-\d{2}">/);
    expect(html).toMatch(/href="\/(configuration|plugins|api)\/[^"]*"/);
    if (release !== '5.105') expect(html).toContain('rel="prev"');
    if (release !== '5.113') expect(html).toContain('rel="next"');
  });

  it('has an Atom feed of the nine posts with absolute addresses', () => {
    const feed = read('blog/atom.xml');
    expect(feed).toContain('<link rel="self" type="application/atom+xml" href="https://webpack.js.org/blog/atom.xml"/>');
    expect([...feed.matchAll(/<entry>\n {4}<id>(https:\/\/webpack\.js\.org\/blog\/webpack-5-1\d\d\/)<\/id>/g)]).toHaveLength(9);
  });

  it('is in the navigation', () => {
    expect(read('index.html')).toMatch(/<a href="\/blog\/"[^>]*>Blog<\/a>/);
  });
});
