import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listFiles } from '../helpers/content.js';
import { editFile, fixtureSite, runDocs } from '../helpers/site.js';

/* What a site needs on a real static host: its 404 page, its base path on every link of its own. */

const dirs: string[] = [];
function site(): string {
  const dir = fixtureSite();
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const read = (dir: string, file: string) => readFileSync(join(dir, 'dist', file), 'utf8');

describe('the 404 page', () => {
  it('is written in the site look when content/404.md is absent: title, search box, a link to each section', async () => {
    const dir = site();
    rmSync(join(dir, 'content/404.md'));
    const { code, out } = await runDocs(['build', '--root', dir]);
    expect(code).toBe(0);
    expect(out).toMatch(/^Built 10 pages/m);
    const html = read(dir, '404.html');
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<title>Page not found | fixture</title>');
    expect(html).toContain('<meta name="robots" content="noindex"/>');
    expect(html).toContain('<h1>Page not found</h1>');
    expect(html).toMatch(/<input id="search-input"/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/style\.[0-9a-f]{10}\.css"\/>/);
    expect(html).toMatch(/<script src="\/assets\/main\.[0-9a-f]{10}\.js" defer=""><\/script>/);
    for (const [title, url] of [['Home', '/'], ['Guides', '/guides/'], ['Plugins', '/plugins/']]) {
      expect(html).toContain(`<li><a href="${url}">${title}</a></li>`);
    }
    expect(html).toContain('class="header"');
    expect(html).toContain('id="mobile-menu"');
    expect(html).toContain('id="footer"');
    // Not a page of the site: not in the sitemap, the search index or llms.txt.
    expect(read(dir, 'sitemap.xml')).not.toContain('404');
    expect(read(dir, 'llms.txt')).not.toContain('Page not found');
  });

  it('is the site own page when content/404.md exists', async () => {
    const dir = site();
    expect((await runDocs(['build', '--root', dir, '--quiet'])).code).toBe(0);
    const html = read(dir, '404.html');
    expect(html).toContain('<title>Page not found | fixture</title>');
    expect(html).toContain('Go <a href="/">home</a>.');
    expect(html).not.toContain('There is no page at this address.');
  });

  it('links with the base path under --base', async () => {
    const dir = site();
    rmSync(join(dir, 'content/404.md'));
    expect((await runDocs(['build', '--root', dir, '--base', '/docs/', '--quiet'])).code).toBe(0);
    const html = read(dir, '404.html');
    expect(html).toContain('<li><a href="/docs/guides/">Guides</a></li>');
    expect(html).toMatch(/href="\/docs\/assets\/style\.[0-9a-f]{10}\.css"/);
  });
});

describe('--base', () => {
  it('prefixes every link of the site itself in every page, language links to the site included', async () => {
    const dir = site();
    expect((await runDocs(['build', '--root', dir, '--base', '/docs/', '--quiet'])).code).toBe(0);
    const pages = listFiles(join(dir, 'dist')).filter((f) => f.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(10);
    const strays: string[] = [];
    for (const file of pages) {
      const html = read(dir, file);
      // Paths from the site root, and absolute URLs of the site itself (https://docs.example.org/…).
      for (const m of html.matchAll(/(?:href|src|action)="(\/[^"]*|https:\/\/docs\.example\.org[^"]*)"|url=(\/[^">]*)/g)) {
        const url = m[1] ?? m[2]!;
        if (!url.startsWith('/docs/') && !url.startsWith('https://docs.example.org/docs/')) strays.push(`${file}: ${url}`);
      }
    }
    expect(strays).toEqual([]);
    // The English entry is this site (https://docs.example.org/ is site.url): in the header and the phone menu.
    const page = read(dir, 'guides/first/index.html');
    expect(page.match(/<a href="\/docs\/">English<\/a>/g)).toHaveLength(2);
    expect(page.match(/<a href="https:\/\/zh\.docs\.example\.org\/" target="_blank" rel="noopener noreferrer">中文/g)).toHaveLength(2);
    // The canonical address stays absolute.
    expect(page).toContain('<link rel="canonical" href="https://docs.example.org/docs/guides/first/"/>');
  });

  it('gives a language link written as a path the base path too', async () => {
    const dir = site();
    editFile(join(dir, 'site.config.yaml'), 'url: https://docs.example.org/\n', 'url: /\n');
    expect((await runDocs(['build', '--root', dir, '--base', '/docs/', '--quiet'])).code).toBe(0);
    expect(read(dir, 'index.html').match(/<a href="\/docs\/">English<\/a>/g)).toHaveLength(2);
  });
});

describe('page tools', () => {
  it('shows no "Printable section" link in a section of one page (the lone home page)', async () => {
    const dir = site();
    expect((await runDocs(['build', '--root', dir, '--quiet'])).code).toBe(0);
    expect(read(dir, 'index.html')).not.toContain('Printable section');
    expect(read(dir, 'guides/first/index.html')).toContain('<a href="/guides/printable/">Printable section</a>');
    expect(existsSync(join(dir, 'dist/guides/printable/index.html'))).toBe(true);
  });
});

describe('docs --help', () => {
  it('says what --root holds, and no templates folder', async () => {
    for (const command of ['build', 'serve', 'check']) {
      const help = await runDocs([command, '--help']);
      expect(help.code).toBe(0);
      expect(help.out.replace(/\s+/g, ' ')).toContain('--root <dir> the site folder (holds site.config.yaml, content/ and static/)');
      expect(help.out).not.toContain('templates');
    }
  });
});
