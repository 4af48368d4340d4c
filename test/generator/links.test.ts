import { appendFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { nearest, withBase } from '../../src/site/links.js';
import { editFile, fixtureSite, runDocs } from '../helpers/site.js';

/*
 * The link checker (src/site/links.ts) as a writer meets it: links written into a page of
 * the fixture site, `docs check` (and `docs build`, for the hrefs it writes) run in this
 * process, and the problems it prints, line by line. The guide the links are added to is
 * content/guides/second.md (/guides/second/), beside /guides/first/ (with an #install
 * heading) and the static file /images/a.png.
 */

const PAGE = 'content/guides/second.md';
const saved = process.env.DOCS_CACHE;
beforeAll(() => {
  // Every check resolves the links anew (no record of an earlier build's).
  process.env.DOCS_CACHE = '0';
});
afterAll(() => {
  if (saved === undefined) delete process.env.DOCS_CACHE;
  else process.env.DOCS_CACHE = saved;
});

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the fixture site with `lines` added at the end of the guide; the line number of the first. */
function siteWith(lines: string[], edit?: (dir: string) => void): { dir: string; line: number } {
  const dir = fixtureSite();
  dirs.push(dir);
  mkdirSync(join(dir, 'static/images'), { recursive: true });
  writeFileSync(join(dir, 'static/images/a.png'), 'png');
  const file = join(dir, PAGE);
  const line = readFileSync(file, 'utf8').split('\n').length + 1;
  appendFileSync(file, ['', ...lines, ''].join('\n'));
  edit?.(dir);
  return { dir, line };
}

/** The problem lines `docs check` prints (without its summary), and its exit code. */
async function check(dir: string): Promise<{ code: number; problems: string[] }> {
  const { code, err } = await runDocs(['check', '--root', dir]);
  return { code, problems: err.split('\n').filter((l) => l && !/ problems? found;/.test(l)) };
}

/** The hrefs of the links a built page's article holds, in order. */
function hrefsOf(dir: string, out: string, path: string): string[] {
  const html = readFileSync(join(dir, out, path), 'utf8');
  return [...html.matchAll(/<a [^>]*?href="([^"]*)"[^>]*>(ok\d+)<\/a>/g)].map((m) => `${m[2]} ${m[1]!.replace(/&#x26;|&amp;/g, '&')}`);
}

describe('the links the checker accepts', () => {
  it('accepts every spelling of a page, a static file, a generated file and an anchor, in check and build', async () => {
    const { dir } = siteWith([
      '[ok1](/guides/first) [ok2](/guides/first/index.html) [ok3](../first/) [ok4](first/) [ok5](./first.md) [ok6](../index.md) [ok7](./index.md)',
      '[ok8](/sitemap.xml) [ok9](/guides/printable) [ok10](/guides/first/?tab=npm#install) [ok11](#) [ok12](#setup) [ok13](/images/a.png) [ok14](first) [ok15](/guides/printable/)',
      '[ok16](mailto:team@example.org) [ok17](https://example.com/x) [ok18](//example.com/y) [ok19](/guides/first/#install) [ok20](../../guides/first/index.html#install)',
      '![ok21](/images/a.png) ![ok22](https://img.shields.io/badge.svg) ![ok23](https://avatars.githubusercontent.com/u/1) [ok24](/sitemap.xml#top)',
    ]);
    expect(await check(dir)).toEqual({ code: 0, problems: [] });
    expect((await runDocs(['build', '--root', dir, '--base', '/docs/', '--quiet'])).code).toBe(0);
    expect(hrefsOf(dir, 'dist', 'guides/second/index.html')).toEqual([
      'ok1 /docs/guides/first/',
      'ok2 /docs/guides/first/',
      'ok3 /docs/guides/first/',
      'ok4 /docs/guides/first/',
      'ok5 /docs/guides/first/',
      'ok6 /docs/',
      'ok7 /docs/guides/',
      'ok8 /docs/sitemap.xml',
      'ok9 /docs/guides/printable/',
      'ok10 /docs/guides/first/?tab=npm#install',
      'ok11 #',
      'ok12 #setup',
      'ok13 /docs/images/a.png',
      'ok14 /docs/guides/first/',
      'ok15 /docs/guides/printable/',
      'ok16 mailto:team@example.org',
      'ok17 https://example.com/x',
      'ok18 //example.com/y',
      'ok19 /docs/guides/first/#install',
      'ok20 /docs/guides/first/#install',
      'ok24 /docs/sitemap.xml#top',
    ]);
  });

  it('writes root-absolute hrefs without a base, and the anchor of a heading of other letters encoded', async () => {
    const { dir } = siteWith(['## Café crème', '', '[ok1](/guides/first/) [ok2](#café-crème) [ok3](/guides/second/#café-crème) [ok4](?tab=npm)']);
    expect((await runDocs(['build', '--root', dir, '--quiet'])).code).toBe(0);
    expect(hrefsOf(dir, 'dist', 'guides/second/index.html')).toEqual(['ok1 /guides/first/', 'ok2 #caf%C3%A9-cr%C3%A8me', 'ok3 /guides/second/#caf%C3%A9-cr%C3%A8me', 'ok4 /guides/second/?tab=npm']);
  });
});

describe('the links the checker refuses', () => {
  it('names each broken link at its line and column, with what is wrong and the near misses', async () => {
    const { dir, line } = siteWith([
      '[a](/guides/frist/) [b](./third.md) [c](/guides/first/#instal) [d](#nowhere) [e](/guides/first/#a%zz)',
      'Text [f](/Guides/First/) and [g](frist/) then [h](/plugins/alpha-plugn/) [i](/guides/first/#INSTALL)',
      '[j](/nowhere//x/)',
    ]);
    const { code, problems } = await check(dir);
    expect(code).toBe(1);
    expect(problems).toEqual([
      `${PAGE}:${line}:1 links to "/guides/frist/", which is not a page of this site (did you mean /guides/first/?)`,
      `${PAGE}:${line}:21 links to "./third.md", which is not a page of this site`,
      `${PAGE}:${line}:37 links to "#instal", but /guides/first/ has no such anchor (did you mean #install?)`,
      `${PAGE}:${line}:64 links to "#nowhere", but /guides/second/ has no such anchor`,
      `${PAGE}:${line}:78 links to "/guides/first/#a%zz", whose anchor holds a "%" that starts no escape; write the heading's id as it is (#my-heading), or "%" as %25`,
      `${PAGE}:${line + 1}:6 links to "/Guides/First/", which is not a page of this site (did you mean /guides/first/?)`,
      `${PAGE}:${line + 1}:30 links to "frist/", which is not a page of this site`,
      `${PAGE}:${line + 1}:47 links to "/plugins/alpha-plugn/", which is not a page of this site (did you mean /plugins/alpha-plugin/, /plugins/beta-plugin/?)`,
      `${PAGE}:${line + 1}:74 links to "#INSTALL", but /guides/first/ has no such anchor (did you mean #install?)`,
      `${PAGE}:${line + 2}:1 links to "/nowhere//x/", which is not a page of this site`,
    ]);
  });

  it('refuses an image that is no file of static/, and one from a host the policy does not name', async () => {
    const { dir, line } = siteWith(['![i](/images/none.png) ![j](https://evil.example:8443/x.png) ![k](http://img.shields.io/x.svg) ![l](https://img.shields.io:444/x.svg)']);
    const { problems } = await check(dir);
    expect(problems).toEqual([
      `${PAGE}:${line}:1 shows the image "/images/none.png", which is not a file of static/ (put the image there and write its path from it, such as /images/diagram.png)`,
      `${PAGE}:${line}:24 shows the image "https://evil.example:8443/x.png", which the Content-Security-Policy does not let load (pages load images from the site and from csp.img); add https://evil.example:8443 to csp.img in the config`,
      `${PAGE}:${line}:62 shows the image "http://img.shields.io/x.svg", which the Content-Security-Policy does not let load (pages load images from the site and from csp.img); add http://img.shields.io to csp.img in the config`,
      `${PAGE}:${line}:96 shows the image "https://img.shields.io:444/x.svg", which the Content-Security-Policy does not let load (pages load images from the site and from csp.img); add https://img.shields.io:444 to csp.img in the config`,
    ]);
  });
});

describe('links of pages that could not be built', () => {
  it('checks the links of a page whose render had problems, with its other problems', async () => {
    const { dir, line } = siteWith(['<div class="box">', '', '[a](/guides/frist/) [b](#setup) [c](/guides/first/#instal)']);
    expect((await check(dir)).problems).toEqual([
      `${PAGE}:${line}:1 <div> is opened here and never closed: add </div> where it ends (the rest of the page is inside it until then)`,
      `${PAGE}:${line + 2}:1 links to "/guides/frist/", which is not a page of this site (did you mean /guides/first/?)`,
      `${PAGE}:${line + 2}:33 links to "#instal", but /guides/first/ has no such anchor (did you mean #install?)`,
    ]);
  });

  it('accepts a link to a page that failed to load, unchecked, anchor and all', async () => {
    const { dir } = siteWith(['[a](/guides/first/#anything) [b](/guides/first) [c](../first/#else)'], (d) => editFile(join(d, 'content/guides/first.md'), 'title: First guide', 'title: ""'));
    const { problems } = await check(dir);
    expect(problems.filter((p) => p.startsWith(PAGE))).toEqual([]);
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.every((p) => p.startsWith('content/guides/first.md:'))).toBe(true);
  });
});

describe('images of other hosts against csp.img', () => {
  const withCsp = (sources: string[]) => (dir: string) =>
    editFile(join(dir, 'site.config.yaml'), /^redirects:/m, `csp:\n  img:\n${sources.map((s) => `    - ${JSON.stringify(s)}\n`).join('')}redirects:`);

  it('lets a host, its subdomains (*.), a path or a folder of it, and http: sources let https: images load', async () => {
    const { dir } = siteWith(
      [
        '![a](https://cdn.example.net/a.png) ![b](https://x.pics.example.org/b.png) ![c](https://files.example.com/logo.png) ![d](https://assets.example.com/img/d/e.png)',
        '![e](https://plain.example.io/e.png) ![f](https://ported.example:8080/f.png) ![g](//cdn.example.net/g.png)',
      ],
      withCsp(['https://cdn.example.net', 'https://*.pics.example.org', 'https://files.example.com/logo.png', 'https://assets.example.com/img/', 'http://plain.example.io', 'https://ported.example:8080']),
    );
    expect(await check(dir)).toEqual({ code: 0, problems: [] });
  });

  it('does not let the host of a subdomain source, another path, another folder, another port, or https: sources let http: images load', async () => {
    const { dir, line } = siteWith(
      ['![a](https://pics.example.org/a.png) ![b](https://files.example.com/other.png) ![c](https://assets.example.com/imgx/c.png) ![d](https://ported.example/d.png) ![e](http://cdn.example.net/e.png) ![f](https://cdn.example.net.evil/f.png)'],
      withCsp(['https://cdn.example.net', 'https://*.pics.example.org', 'https://files.example.com/logo.png', 'https://assets.example.com/img/', 'https://ported.example:8080']),
    );
    const refused = (column: number, url: string, origin: string) =>
      `${PAGE}:${line}:${column} shows the image "${url}", which the Content-Security-Policy does not let load (pages load images from the site and from csp.img); add ${origin} to csp.img in the config`;
    expect((await check(dir)).problems).toEqual([
      refused(1, 'https://pics.example.org/a.png', 'https://pics.example.org'),
      refused(38, 'https://files.example.com/other.png', 'https://files.example.com'),
      refused(80, 'https://assets.example.com/imgx/c.png', 'https://assets.example.com'),
      refused(124, 'https://ported.example/d.png', 'https://ported.example'),
      refused(159, 'http://cdn.example.net/e.png', 'http://cdn.example.net'),
      refused(194, 'https://cdn.example.net.evil/f.png', 'https://cdn.example.net.evil'),
    ]);
  });
});

describe('links of the frontmatter', () => {
  it('checks related links, hero buttons and feature cards like links of the body, and refuses script links', async () => {
    const { dir } = siteWith([], (d) => {
      editFile(join(d, 'content/guides/first.md'), '    url: /guides/second/\n', '    url: /guides/secnd/\n  - title: Script\n    url: "javascript:alert(1)"\n  - title: Mail\n    url: mailto:team@example.org\n  - title: Anchor\n    url: /guides/second/#nope\n  - title: Good anchor\n    url: /guides/second/#setup\n  - title: Data\n    url: " DATA:text/html,x"\n  - title: Colon in the query\n    url: /guides/secnd/?at=a:b\n');
    });
    const { problems } = await check(dir);
    expect(problems).toEqual([
      'content/guides/first.md:11:10 frontmatter.related[0].url: links to "/guides/secnd/", which is not a page of this site (did you mean /guides/second/?)',
      'content/guides/first.md:13:10 frontmatter.related[1].url: links to "javascript:alert(1)": javascript:, vbscript: and data: links are not allowed (they run script or hide content); link to a page or an https:// address',
      'content/guides/first.md:17:10 frontmatter.related[3].url: links to "#nope", but /guides/second/ has no such anchor',
      'content/guides/first.md:21:10 frontmatter.related[5].url: links to "DATA:text/html,x": javascript:, vbscript: and data: links are not allowed (they run script or hide content); link to a page or an https:// address',
      'content/guides/first.md:23:10 frontmatter.related[6].url: links to "/guides/secnd/?at=a:b", which is not a page of this site (did you mean /guides/second/?)',
    ]);
  });
});

describe('links of the landing page\'s frontmatter', () => {
  it('checks the hero\'s buttons and the feature cards\' links, and lets a card without a link be', async () => {
    const { dir } = siteWith([], (d) =>
      editFile(
        join(d, 'content/index.md'),
        'description: Home of the fixture site.\n',
        'description: Home of the fixture site.\nhero:\n  actions:\n    - text: Start\n      url: /guides/first/\n    - text: Broken\n      url: /guides/secnd/\nfeatures:\n  - title: Plain\n    text: No link.\n  - title: Linked\n    text: A link.\n    url: "vbscript:msgbox"\n  - title: Good\n    text: A good link.\n    url: /guides/first/#install\n',
      ),
    );
    const { problems } = await check(dir);
    expect(problems.filter((p) => p.startsWith('content/index.md'))).toEqual([
      'content/index.md:9:12 frontmatter.hero.actions[1].url: links to "/guides/secnd/", which is not a page of this site (did you mean /guides/second/?)',
      'content/index.md:15:10 frontmatter.features[1].url: links to "vbscript:msgbox": javascript:, vbscript: and data: links are not allowed (they run script or hide content); link to a page or an https:// address',
    ]);
  });
});

describe('links while the config is not valid', () => {
  it('still checks the links of the pages against the pages and files, but not images of other hosts', async () => {
    const { dir, line } = siteWith(['[a](/guides/frist/) [b](/old-first/) ![c](https://evil.example/x.png) [d](/guides/first/#install) [e](/guides/printable/) [f](/robots.txt)'], (d) =>
      editFile(join(d, 'site.config.yaml'), 'title: fixture', 'title: 5\n  unknown: 1'),
    );
    const { code, problems } = await check(dir);
    expect(code).toBe(1);
    expect(problems.filter((p) => p.startsWith(PAGE))).toEqual([`${PAGE}:${line}:1 links to "/guides/frist/", which is not a page of this site (did you mean /guides/first/?)`]);
  });
});

describe('nearest, the near misses a problem suggests', () => {
  it('puts the same word in another case first, then the fewest typing mistakes, then the name alone', () => {
    expect(nearest('Install', ['install', 'instal', 'installing', 'other'])).toEqual(['install', 'instal', 'installing']);
    expect(nearest('install', ['install'])).toEqual([]);
    expect(nearest('abcdefgh', ['abcdefhg', 'abcdefg', 'abcdexgh', 'zzzzzzzz'])).toEqual(['abcdefg', 'abcdefhg', 'abcdexgh']);
  });

  it('allows one mistake per four letters, and at least one', () => {
    expect(nearest('ab', ['ax', 'xy'])).toEqual(['ax']);
    expect(nearest('abcdefgh', ['abcdefxy', 'abcdxyzh'])).toEqual(['abcdefxy']);
    expect(nearest('abcdefghijkl', ['abcdefghixyz', 'abcdefghijxy'])).toEqual(['abcdefghijxy', 'abcdefghixyz']);
    expect(nearest('abcdefghijkl', ['abcdefghwxyz'])).toEqual([]);
    expect(nearest('abc', ['abcdefg'])).toEqual([]);
    expect(nearest('abc', ['abcdef'])).toEqual(['abcdef']);
  });

  it('takes a swap of two neighbours as one mistake', () => {
    expect(nearest('abcd', ['bacd', 'abdc', 'acbd'])).toEqual(['abdc', 'acbd', 'bacd']);
    expect(nearest('abcd', ['badc'])).toEqual([]);
  });

  it('takes a word that holds the name, or that the name holds, when neither is twice the other, and only with parts', () => {
    expect(nearest('config', ['configuration', 'my-config', 'conf', 'co'])).toEqual(['conf', 'my-config']);
    expect(nearest('config', ['con'])).toEqual(['con']);
    expect(nearest('configuration', ['config', 'configurat'])).toEqual(['configurat']);
    expect(nearest('webpack-config', ['config', 'webpack'])).toEqual(['webpack']);
    expect(nearest('config', ['my-config'], false)).toEqual([]);
    expect(nearest('config', ['Config'], false)).toEqual(['Config']);
    expect(nearest('abcd', ['abcdabcd', 'xabcdxyzq'])).toEqual(['abcdabcd']);
  });

  it('gives at most three, best first, and in order of the alphabet among equals', () => {
    expect(nearest('page', ['pagx', 'pags', 'pagd', 'pagb'])).toEqual(['pagb', 'pagd', 'pags']);
    expect(nearest('page', ['Page', 'pagx', 'PAGE'])).toEqual(['PAGE', 'Page', 'pagx']);
  });
});

describe('withBase', () => {
  it('puts the base before a root-absolute URL, once, and leaves other hosts and schemes alone', () => {
    expect(withBase('/', '/guides/')).toBe('/guides/');
    expect(withBase('/docs/', '/guides/')).toBe('/docs/guides/');
    expect(withBase('/docs', '/guides/')).toBe('/docs/guides/');
    expect(withBase('/docs/', 'https://example.com/a')).toBe('https://example.com/a');
    expect(withBase('/docs/', 'HTTP://example.com/a')).toBe('HTTP://example.com/a');
    expect(withBase('/docs/', '//example.com/a')).toBe('//example.com/a');
    expect(withBase('/docs/', 'mailto:a@example.org')).toBe('mailto:a@example.org');
    expect(withBase('/docs/', 'x-custom+1.2:thing')).toBe('x-custom+1.2:thing');
  });
});
