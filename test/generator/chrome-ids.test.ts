import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/engine/build.js';
import { CHROME_IDS, isChromeId } from '../../src/content/slug.js';
import { listFiles, ROOT } from '../helpers/content.js';
import { fixtureSite, runDocs } from '../helpers/site.js';

/*
 * Heading ids never collide with the ids of the page chrome: the fixture
 * test/fixtures/chrome-ids has a heading named after every chrome id, and
 * every part of the chrome switched on.
 */

const FIXTURE = join(ROOT, 'test/fixtures/chrome-ids');
const made: string[] = [];
const sites = new Map<string, string>();

beforeAll(async () => {
  for (const [name, root] of [
    ['ids', FIXTURE],
    ['fixture', join(ROOT, 'test/fixtures/site')],
  ] as const) {
    const out = mkdtempSync(join(tmpdir(), 'docs-ids-'));
    made.push(out);
    await build({ root, out });
    sites.set(name, out);
  }
});
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

const html = (site: string, path: string) => readFileSync(join(sites.get(site)!, path), 'utf8');
const documents = (site: string) => listFiles(sites.get(site)!).filter((f) => f.endsWith('.html'));

/** Ids of a document with the tag of their element. */
function idsOf(markup: string): Array<{ tag: string; id: string }> {
  return [...markup.matchAll(/<([a-z][a-z0-9]*)\b[^>]*?\sid="([^"]*)"/g)].map((m) => ({ tag: m[1]!, id: m[2]! }));
}

/** The document without its Markdown bodies (each `<div class="markdown">` up to its closing tag): what the chrome wrote. */
function chromeOf(markup: string): string {
  let out = '';
  let from = 0;
  const open = /<div class="markdown">/g;
  for (let m = open.exec(markup); m; m = open.exec(markup)) {
    out += markup.slice(from, m.index);
    const tags = /<(\/?)div\b[^>]*>/g;
    tags.lastIndex = open.lastIndex;
    let depth = 1;
    for (let t = tags.exec(markup); t && depth; t = depth ? tags.exec(markup) : null) depth += t[1] ? -1 : 1;
    if (depth) throw new Error('a Markdown body is not closed');
    from = open.lastIndex = tags.lastIndex;
  }
  return out + markup.slice(from);
}

describe('ids the page chrome writes', () => {
  it('are all reserved: every id outside the page bodies is a chrome id (printable chapters excepted)', () => {
    const seen = new Set<string>();
    for (const site of ['ids', 'fixture']) {
      for (const file of documents(site)) {
        for (const { tag, id } of idsOf(chromeOf(html(site, file)))) {
          // A printable section's chapters are h2s with ids of their own (made unique in render.tsx).
          if (file.endsWith('printable/index.html') && tag === 'h2') continue;
          expect(isChromeId(id), `${site}: ${file} has the chrome id "${id}", which slug.ts does not reserve`).toBe(true);
          seen.add(id);
        }
      }
    }
    // Each fixed chrome id is written somewhere in these two sites, so the list holds no stale names.
    expect(CHROME_IDS.filter((id) => !seen.has(id))).toEqual([]);
  });

  it('include the ids the client script gives elements it makes', () => {
    const dir = join(ROOT, 'templates/client');
    const made = readdirSync(dir).flatMap((f) => [...readFileSync(join(dir, f), 'utf8').matchAll(/\.id = `([a-z-]+)\$\{/g)].map((m) => m[1]!));
    expect(made).toContain('search-result-');
    for (const prefix of made) expect(isChromeId(`${prefix}0`), prefix).toBe(true);
  });

  it('each have a heading named after them on the fixture page', () => {
    const source = readFileSync(join(FIXTURE, 'content/reference/chrome-ids.md'), 'utf8');
    const headings = [...source.matchAll(/^## (.+)$/gm)].map((m) => m[1]!);
    expect(CHROME_IDS.filter((id) => !headings.includes(id))).toEqual([]);
  });
});

describe('headings named like chrome ids', () => {
  it('get the next free id, as duplicates do', () => {
    const page = html('ids', 'reference/chrome-ids/index.html');
    for (const id of CHROME_IDS) expect(page, id).toContain(`<h2 id="${id}-1">${id}</h2>`);
    expect(page).toContain('<h2 id="sidebar-anchors-0-1">');
    expect(page).toContain('<h2 id="search-result-5-1">');
    // The second heading that slugs to "content" takes the number after the first's.
    expect(page).toContain('<h2 id="content-2">Content</h2>');
  });

  it('leave no id twice in any document of the fixture sites (pages, printable sections, 404)', () => {
    for (const site of ['ids', 'fixture']) {
      for (const file of documents(site)) {
        const ids = idsOf(html(site, file)).map((x) => x.id);
        expect(ids.filter((id, i) => ids.indexOf(id) !== i), `${site}: ${file}`).toEqual([]);
      }
    }
  });

  it('are what the sidebar anchors and the resolved links point to', () => {
    const links = html('ids', 'reference/links/index.html');
    // The sidebar lists the page's h2s by the ids they were given.
    expect(links).toContain('href="/reference/chrome-ids/#banner-1"');
    expect(links).toContain('href="/reference/chrome-ids/#contributors-1"');
    expect(links).not.toContain('href="/reference/chrome-ids/#banner"');
    // The body's links, checked against those ids, resolve to them.
    expect(links).toContain('href="/reference/chrome-ids/#content-2"');
    const printable = html('ids', 'reference/printable/index.html');
    expect(printable).toContain('id="reference-chrome-ids--footer-1"');
    expect(printable).toContain('href="#reference-chrome-ids--banner-1"');
  });
});

describe('attribute names', () => {
  it('are lowercase in every document of the fixture sites, except the camelCase names of SVG', () => {
    for (const site of ['ids', 'fixture']) {
      for (const file of documents(site)) {
        const tags = chromeOf(html(site, file)).match(/<[a-z][^>]*>/g) ?? [];
        const cased = tags.flatMap((tag) => (tag.match(/ [a-z]+[A-Z][A-Za-z]*(?==)/g) ?? []).filter((name) => name !== ' viewBox'));
        expect(cased, `${site}: ${file}`).toEqual([]);
      }
    }
    expect(html('ids', 'index.html')).toContain('<meta charset="utf-8"/>');
  });
});

describe('the link checker', () => {
  it('takes a link to a chrome id for a missing anchor and names the heading it may mean', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'docs-ids-src-'));
    made.push(dir);
    cpSync(FIXTURE, dir, { recursive: true });
    appendFileSync(join(dir, 'content/reference/links.md'), '\nSee [the footer](../chrome-ids/#footer).\n');
    const { code, err } = await runDocs(['check', '--root', dir]);
    expect(code).not.toBe(0);
    expect(err).toContain('links to "#footer", but /reference/chrome-ids/ has no such anchor');
    expect(err).toContain('footer-1');
  });

  it('reports an id written in a page body that the chrome uses', async () => {
    const dir = fixtureSite();
    made.push(dir);
    appendFileSync(join(dir, 'content/guides/second.md'), '\n<a id="footer"></a>\n');
    const { code, err } = await runDocs(['check', '--root', dir]);
    expect(code).not.toBe(0);
    expect(err).toContain('the id "footer" is used by the page chrome');
  });
});
