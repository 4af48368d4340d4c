import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasJava, nuHtmlErrors } from '../helpers/nu-html.js';
import { runDocs } from '../helpers/site.js';

/*
 * Issue #38 (item 2): the starter of `docs init` has a showcase page, content/guide/components.md,
 * with each writers' component (a card, a card grid, link cards, steps, a file tree, badges) under a
 * heading of its own with its Markdown shown, and the hero explained with a link to the home page
 * that shows it. `docs init` then `docs build` of the starter, as a new user runs them.
 */

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

let out: string;
let html: string;
/** The part of the showcase page from the heading with this id to the next h2. */
const section = (id: string) => {
  const start = html.indexOf(`<h2 id="${id}"`);
  expect(start, `a heading #${id}`).toBeGreaterThan(0);
  const end = html.indexOf('<h2 ', start + 1);
  return html.slice(start, end < 0 ? html.indexOf('</article>', start) : end);
};
const count = (text: string, pattern: RegExp) => text.match(new RegExp(pattern.source, 'g'))?.length ?? 0;

beforeAll(async () => {
  const dir = join(mkdtempSync(join(tmpdir(), 'docs-showcase-')), 'site');
  temps.push(dir);
  expect((await runDocs(['init', dir])).code).toBe(0);
  const built = await runDocs(['build', '--root', dir]);
  expect(built.err).toBe('');
  expect(built.code).toBe(0);
  out = join(dir, 'dist');
  html = readFileSync(join(out, 'guide/components/index.html'), 'utf8');
});

describe("the starter's showcase page", () => {
  it('is in the guide after the Markdown page, and the Markdown page links to it', () => {
    const guide = readFileSync(join(out, 'guide/index.html'), 'utf8');
    expect(guide).toMatch(/href="\/guide\/getting-started\/"[^]*href="\/guide\/markdown\/"[^]*href="\/guide\/components\/"/);
    expect(readFileSync(join(out, 'guide/markdown/index.html'), 'utf8')).toContain('href="/guide/components/"');
    expect(html).toContain('<h1>Components</h1>');
  });

  it('shows a card, with its Markdown before it', () => {
    const part = section('cards');
    expect(part).toMatch(/<p>A card sets[^<]*<\/p>/);
    expect(part).toContain(':::card[One idea per card]');
    expect(count(part, /class="card"/)).toBe(1);
    expect(part).toMatch(/class="card-title"[^>]*>One idea per card</);
  });

  it('shows a grid of three cards', () => {
    const part = section('card-grids');
    expect(count(part, /class="cards"/)).toBe(1);
    expect(count(part, /class="card"/)).toBe(3);
    for (const title of ['Fast', 'Searchable', 'Checked']) expect(part).toMatch(new RegExp(`class="card-title"[^>]*>${title}<`));
  });

  it('shows two link cards to pages of the starter, with their descriptions', () => {
    const part = section('link-cards');
    expect(count(part, /class="link-card"/)).toBe(2);
    expect(part).toMatch(/<a class="link-card" href="\/guide\/getting-started\/"|<a href="\/guide\/getting-started\/" class="link-card"/);
    expect(part).toMatch(/class="link-card-description"[^>]*>Every option, with its type and default\.</);
  });

  it('shows steps: an ordered list of three items, the first with its code block', () => {
    const part = section('steps');
    const list = /<ol class="steps">([^]*?)<\/ol>/.exec(part)?.[1] ?? '';
    expect(count(list, /<li[ >]/)).toBe(3);
    expect(list).toContain('class="code-block"');
  });

  it('shows a file tree with folders, files, a comment and a highlighted file', () => {
    const part = section('file-trees');
    expect(count(part, /class="file-tree"/)).toBe(1);
    expect(count(part, /class="tree-folder"/)).toBe(3);
    expect(part).toMatch(/class="tree-file tree-highlight"[^]*components\.md/);
    expect(part).toContain('class="tree-comment"');
  });

  it('shows a badge of every variant', () => {
    const part = section('badges');
    for (const variant of ['default', 'note', 'tip', 'caution', 'danger']) expect(part, variant).toContain(`class="text-badge text-badge-${variant}"`);
  });

  it('explains the hero with its frontmatter and links to the home page, which shows it', () => {
    const part = section('hero');
    expect(part).toContain('href="/"');
    expect(part).toMatch(/tagline/);
    const home = readFileSync(join(out, 'index.html'), 'utf8');
    expect(home).toContain('class="hero hero-with-image"');
  });

  it.runIf(hasJava)('has no error in the Nu HTML Checker', async () => {
    const files = ['guide/components/index.html', 'guide/markdown/index.html', 'index.html'].map((f) => join(out, f));
    expect(await nuHtmlErrors(out, files)).toEqual([]);
  }, 120_000);
});


describe("the starter's home page", () => {
  it('shows its hero picture in a light and a dark version, of one shape', () => {
    const home = readFileSync(join(out, 'index.html'), 'utf8');
    expect(home).toMatch(/<img[^>]*src="\/hero.svg"[^>]*class="hero-image-light"|<img[^>]*class="hero-image-light"[^>]*src="\/hero.svg"/);
    expect(home).toMatch(/<img[^>]*src="\/hero-dark.svg"[^>]*class="hero-image-dark"|<img[^>]*class="hero-image-dark"[^>]*src="\/hero-dark.svg"/);
    const size = (file: string) => /width="(\d+)" height="(\d+)"/.exec(readFileSync(join(out, file), 'utf8'))!.slice(1).join('x');
    expect(size('hero-dark.svg')).toBe(size('hero.svg'));
  });
});

describe("the starter's Markdown page", () => {
  it('draws its mermaid block as a diagram with its caption', () => {
    const page = readFileSync(join(out, 'guide/markdown/index.html'), 'utf8');
    const figure = /<figure[^>]*class="[^"]*diagram[^"]*"[^]*?<\/figure>/.exec(page)?.[0] ?? '';
    expect(figure).toContain('From a page to the site');
    expect(figure).toMatch(/<svg[^>]*role="img"/);
    for (const label of ['Markdown page', 'docs build', 'HTML page', 'Search index']) expect(figure).toContain(label);
  });
});
