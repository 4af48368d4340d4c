import type { ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { TEMPLATES_DIR } from '../../src/build/parts.js';
import { loadPage } from '../../src/content/load.js';
import { headingLines, outlinePages } from '../../src/content/outline.js';
import { scanContent } from '../../src/io/sources.js';
import { loadHighlighter } from '../../src/content/highlight.js';
import { Preview } from '../../src/engine/preview.js';
import { addSlowPages, EventClient, get, makeFixture, ROOT, spawnServe, type Fixture } from './helpers.js';

/*
 * The first pass of `docs serve`: a page asked for before the site is built
 * is rendered on request, from the pages parsed so far and the outlines
 * (frontmatter and headings) of the others. What the browser gets then must
 * be the page `docs build` writes, or the browser is told to reload it.
 */

const previousCache = process.env.DOCS_CACHE_DIR;
let cacheDir: string;
let fixture: Fixture;
const children: ChildProcess[] = [];

beforeAll(() => {
  cacheDir = mkdtempSync(join(tmpdir(), 'docs-first-pass-cache-'));
  process.env.DOCS_CACHE_DIR = cacheDir;
  fixture = makeFixture();
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

afterAll(() => {
  if (previousCache === undefined) delete process.env.DOCS_CACHE_DIR;
  else process.env.DOCS_CACHE_DIR = previousCache;
  rmSync(cacheDir, { recursive: true, force: true });
  fixture?.cleanup();
});

/** Headings a writer may write, each in a page of its own shape. */
const HOSTILE: Record<string, string> = {
  'outline/markup.md':
    '---\ntitle: Markup in headings\n---\n\n## Plain words\n\n## The `entry` option\n\n## ``code with ` tick``\n\n## ` padded `\n\n' +
    '## *Emphasis* and **strong**\n\n## A [link](/guides/alpha/) inside\n\n## Escaped \\*star\\* and &amp; entity\n\n## snake_case_name\n\n' +
    '## Closing hashes ##\n\n## Trailing #hash\n\n### Third level `x`\n\n#### Fourth level\n\n## <kbd>Ctrl</kbd> key\n\n## ~~struck~~\n',
  'outline/duplicates.md':
    '---\ntitle: Duplicate headings\n---\n\n## Setup\n\nText.\n\n## Setup\n\n## Setup-1\n\n## Content\n\n## Sidebar\n\n## Footer\n\n### Setup\n\n## Tabs 1 1 tab\n\n::::tabs\n:::tab[npm]\nOne.\n:::\n::::\n',
  'outline/fences.md':
    '---\ntitle: Headings in code\n---\n\n## Before\n\n```md\n## Not a heading\n```\n\n~~~\n# Nor this\n```\n## Still code\n~~~\n\n````js\n```\n## Code too\n````\n\n## After\n',
  'outline/emoji.md': '---\ntitle: Headings with nothing to slug\n---\n\n## 🚀\n\n## 🚀\n\n## Section\n\n## !!\n',
  'outline/bad.md': '---\ntitle: [unclosed\n---\n\n## Never seen\n',
};

describe('page outlines (frontmatter and headings, without the render)', () => {
  it('give every page of the real site the anchors and headings its render has', async () => {
    const root = ROOT;
    const contentDir = join(root, 'content');
    const { files } = scanContent(root, contentDir);
    expect(files.length).toBeGreaterThan(100);
    process.env.DOCS_CACHE = '0';
    try {
      const outlines = await outlinePages(root, contentDir, files);
      let compared = 0;
      for (const file of files) {
        const { page } = await loadPage(root, contentDir, file, loadHighlighter);
        const outline = outlines.get(file);
        expect(outline, file).toBeTruthy();
        if (!outline || outline instanceof Error) continue;
        expect([outline.frontmatter, outline.anchors, outline.headings], file).toEqual([page.frontmatter, page.anchors, page.headings]);
        compared++;
      }
      expect(compared).toBe(files.length);
    } finally {
      delete process.env.DOCS_CACHE;
    }
  }, 240_000);

  it('read markup, duplicates, the chrome ids and fenced code as the pipeline does; bad frontmatter is an error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-outline-'));
    try {
      for (const [file, text] of Object.entries(HOSTILE)) {
        mkdirSync(dirname(join(dir, 'content', file)), { recursive: true });
        writeFileSync(join(dir, 'content', file), text);
      }
      const contentDir = join(dir, 'content');
      const files = Object.keys(HOSTILE);
      process.env.DOCS_CACHE = '0';
      const outlines = await outlinePages(dir, contentDir, files);
      // Every page but the one with broken frontmatter renders without problems, and its outline is its render's.
      let compared = 0;
      for (const file of files.filter((f) => f !== 'outline/bad.md')) {
        const outline = outlines.get(file);
        if (!outline || outline instanceof Error) throw new Error(`no outline for ${file}`);
        const { page } = await loadPage(dir, contentDir, file, loadHighlighter);
        expect([outline.anchors, outline.headings], file).toEqual([page.anchors, page.headings]);
        compared++;
      }
      expect(compared).toBe(4);
      const markup = outlines.get('outline/markup.md');
      if (!markup || markup instanceof Error) throw new Error('no outline');
      expect(markup.anchors.map((a) => a.title)).toEqual([
        'Plain words',
        'The entry option',
        'code with ` tick',
        'padded',
        'Emphasis and strong',
        'A link inside',
        'Escaped *star* and & entity',
        'snake_case_name',
        'Closing hashes',
        'Trailing #hash',
        'Ctrl key',
        'struck',
      ]);
      const duplicates = outlines.get('outline/duplicates.md');
      if (!duplicates || duplicates instanceof Error) throw new Error('no outline');
      // "content", "sidebar" and "footer" are the page chrome's ids; a second "Setup" is "setup-1", so "Setup-1" is "setup-1-1";
      // "tabs-1-1-tab" has the form of a tab's id.
      expect(duplicates.anchors.map((a) => a.id)).toEqual(['setup', 'setup-1', 'setup-1-1', 'content-1', 'sidebar-1', 'footer-1', 'tabs-1-1-tab-1']);
      const fences = outlines.get('outline/fences.md');
      if (!fences || fences instanceof Error) throw new Error('no outline');
      expect(fences.headings).toEqual(['Before', 'After']);
      expect(headingLines('```\n## a\n```\n## b\n')).toEqual(['## b']);
      expect(outlines.get('outline/bad.md')).toBeInstanceOf(Error);
    } finally {
      delete process.env.DOCS_CACHE;
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe('pages rendered on request during the first build', () => {
  const paths = ['/', '/guides/', '/guides/alpha/', '/guides/beta/', '/reference/one/', '/404.html'];

  async function firstPass() {
    const builder = await Preview.open({ root: fixture.site, configPath: fixture.path('site.config.yaml'), templatesDir: TEMPLATES_DIR });
    const building = builder.build({ full: true });
    const early = await Promise.all(paths.map((path) => builder.early(path)));
    const result = await building;
    if (!result.ok) throw new Error('the first build failed');
    // As the serve worker does once the result is sent: the next start (the warm test) finds this one's record.
    await builder.record.save();
    // Once the first build is done the server holds the files: no more early answers.
    expect(await builder.early('/guides/')).toBeUndefined();
    // (The first build's files are all new: its result sets every output file.)
    return { early, built: new Map(result.set) };
  }

  const html = (files: Array<[string, string | Uint8Array]> | undefined, path: string) => {
    const entry = files?.find(([p]) => p === path);
    return entry ? String(entry[1]) : undefined;
  };
  const fileOf = (path: string) => (path.endsWith('/') ? `${path}index.html` : path);
  const stylesheet = (page: string) => /href="(\/assets\/style\.[^"]+\.css)"/.exec(page)?.[1];

  it('cold: each page is the built page, except that its stylesheet may not list every code colour yet', async () => {
    const { early, built } = await firstPass();
    paths.forEach((path, i) => {
      const page = html(early[i], fileOf(path));
      expect(page, path).toBeDefined();
      const final = String(built.get(fileOf(path)));
      // The outlines of the pages not parsed yet gave the sidebars, menus and search terms the built page has.
      expect(page!.replace(stylesheet(page!)!, stylesheet(final)!), path).toBe(final);
      // What the page points to came with it.
      expect(html(early[i], stylesheet(page!)!), path).toContain('.sidebar');
      expect(html(early[i], '/_headers'), path).toBe(String(built.get('/_headers')));
    });
  });

  it('warm: every page is byte for byte the built page', async () => {
    const { early, built } = await firstPass();
    paths.forEach((path, i) => {
      expect(html(early[i], fileOf(path)), path).toBe(String(built.get(fileOf(path))));
      const css = stylesheet(html(early[i], fileOf(path))!)!;
      expect(html(early[i], css), path).toBe(String(built.get(css)));
    });
  });

  it('gives nothing for a path that is no page, and maps page paths to their files', async () => {
    const builder = await Preview.open({ root: fixture.site, configPath: fixture.path('site.config.yaml'), templatesDir: TEMPLATES_DIR });
    const building = builder.build({ full: true });
    const asked = ['/no-such-page/', '/assets/anything.css', '/guides/alpha', '/guides/alpha/index.html', '/index.html'];
    const [none, asset, noSlash, alpha, home] = await Promise.all(asked.map((path) => builder.early(path)));
    expect(none).toBeUndefined();
    expect(asset).toBeUndefined();
    // A page's folder without its final slash is no page's path; its index.html is (the paths ending in "/" are above).
    expect(noSlash).toBeUndefined();
    expect(html(alpha, '/guides/alpha/index.html')).toContain('Alpha body text.');
    expect(html(home, '/index.html')).toContain('The home page.');
    expect((await building).ok).toBe(true);
  });
});

describe('docs serve before its first build is done', () => {
  it('warm, on this site: answers a page asked for at once from its first pass, without an error (with the config and every page from the cache)', async () => {
    // A copy of this repository's site, whose first pass reads frontmatter and places of problems in YAML (the fixtures' does not).
    const dir = mkdtempSync(join(tmpdir(), 'docs-first-pass-warm-'));
    const site = join(dir, 'site');
    const cache = join(dir, 'cache');
    for (const part of ['content', 'static', 'site.config.yaml']) cpSync(join(ROOT, part), join(site, part), { recursive: true });
    try {
      // A first start fills the cache.
      const first = spawnServe(site, cache);
      children.push(first.child);
      await first.waitFor(/^Ready in [\d.]+ s/m, 180_000);
      first.child.kill('SIGINT');
      expect(await first.exit).toBe(0);
      const run = spawnServe(site, cache);
      children.push(run.child);
      const url = (await run.waitFor(/Serving (http:\/\/\S+\/) \(pages are rendered on request/, 60_000))[1]!;
      const page = await get(url, '/guides/installation/');
      expect(page.status).toBe(200);
      await run.waitFor(/^Ready in [\d.]+ s/m, 60_000);
      expect(run.output()).not.toContain('Unexpected error');
      run.child.kill('SIGINT');
      expect(await run.exit).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  it('answers pages before the build is done, and reloads exactly those that then differ', async () => {
    const extra = makeFixture();
    addSlowPages(extra);
    const site = extra.site;
    const cache = mkdtempSync(join(tmpdir(), 'docs-first-pass-serve-'));
    try {
      const run = spawnServe(site, cache);
      children.push(run.child);
      const { child, exit, waitFor } = run;
      const url = (await waitFor(/Serving (http:\/\/\S+\/) \(pages are rendered on request/, 60_000))[1]!;
      const pages = ['/guides/alpha/', '/more/page-149/', '/more/page-000/', '/reference/'];
      const early = await Promise.all(pages.map((path) => get(url, path)));
      // A page's path without its last slash is sent to the page, as after the build.
      const bare = await get(url, '/guides/beta');
      const builtBefore = /^Built \d+ pages/m.test(run.output());
      expect([bare.status, bare.headers.location]).toEqual([301, '/guides/beta/']);
      // The search box is told to wait while the index is made.
      const search = await get(url, '/search-index/index.json');
      const clients = early.map((response, i) => {
        expect(response.status, pages[i]).toBe(200);
        const hash = /docs;desc=([^,\s]+)/.exec(String(response.headers['server-timing']))?.[1] ?? '';
        expect(hash, pages[i]).not.toBe('');
        return new EventClient(url, pages[i]!, hash);
      });
      expect(builtBefore, run.output()).toBe(false);
      // A save during the first build: the page shown must not stay the old one.
      writeFileSync(join(site, 'content/more/page-149.md'), `---\ntitle: Page 149\n---\n\nSaved while the site was being built.\n`);
      if (!/^Built \d+ pages/m.test(run.output())) {
        expect(search.status).toBe(503);
        expect(search.headers['retry-after']).toBe('1');
      }
      await waitFor(/^Ready in [\d.]+ s/m, 180_000);
      await clients[1]!.next('reload', 20_000);
      expect((await get(url, '/more/page-149/')).text).toContain('Saved while the site was being built.');
      for (const [i, path] of pages.entries()) {
        if (path === '/more/page-149/') continue;
        const final = await get(url, path);
        expect(final.status).toBe(200);
        const reloaded = clients[i]!.events.some((e) => e.event === 'reload');
        if (final.text === early[i]!.text) expect(reloaded, path).toBe(false);
        else {
          // Every difference is one the server knows of: the page is reloaded.
          await clients[i]!.next('reload', 10_000);
        }
      }
      for (const client of clients) client.close();
      // The index comes once the site is built.
      for (let i = 0; i < 200 && (await get(url, '/search-index/index.json')).status !== 200; i++) await new Promise((r) => setTimeout(r, 100));
      expect((await get(url, '/search-index/index.json')).status).toBe(200);
      child.kill('SIGINT');
      expect(await exit).toBe(0);
    } finally {
      rmSync(dirname(site), { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
    }
  }, 240_000);
});

