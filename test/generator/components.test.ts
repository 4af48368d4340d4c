import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHighlighter } from '../../src/content/highlight.js';
import { renderMarkdown } from '../../src/content/markdown.js';
import { listFiles, ROOT } from '../helpers/content.js';
import { hasJava, nuHtmlErrors } from '../helpers/nu-html.js';
import { runDocs } from '../helpers/site.js';

/* The writers' components (src/content/plugins/components.ts): their HTML, their problems, and writers' text kept as text. */

const FIXTURE = join(ROOT, 'test/fixtures/components');
const dirs: string[] = [];
/** A copy of the components fixture in a temporary folder. */
function site(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-components-'));
  cpSync(FIXTURE, dir, { recursive: true });
  dirs.push(dir);
  return dir;
}

let built: string;
let dist: string;
beforeAll(async () => {
  const dir = site();
  dist = join(dir, 'dist');
  const { code, err } = await runDocs(['build', '--root', dir, '--out', 'dist', '--quiet']);
  expect(err).toBe('');
  expect(code).toBe(0);
  built = readFileSync(join(dir, 'dist/guide/components/index.html'), 'utf8');
});
afterAll(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const render = (body: string) => renderMarkdown(body, { file: 'content/x.md', lineOffset: 3, highlighter: loadHighlighter });
const html = async (body: string) => (await render(body)).html;
const problems = async (body: string) => (await render(body)).problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`);

describe('the components fixture site', () => {
  it('renders cards as a list of cards, link cards as one link each, with the title kept as Markdown', () => {
    expect(built).toContain(
      '<ul class="cards"><li class="cards-item"><div class="card"><p class="card-title">Fast <strong>rebuilds</strong></p><div class="card-body"><p>The cache keeps modules between builds, so a rebuild only compiles what changed.</p></div></div></li>',
    );
    // A link in a card is checked and given its address as any link.
    expect(built).toContain('Read <a href="/guide/next/">the next page</a>.</p></div></div></li>');
    expect(built).toContain(
      '<li class="cards-item"><a class="link-card" href="/guide/next/"><span class="link-card-title">Next page</span><span class="link-card-description">Where the guide goes after this one.</span></a></li>',
    );
    expect(built).toContain('<a class="link-card" href="/guide/next/#done"><span class="link-card-title">Done section</span>');
    // Outside a grid, a link card stands alone.
    expect(built).toContain('</ul>\n<a class="link-card" href="/guide/next/"><span class="link-card-title">A link card alone</span>');
  });

  it('renders steps as the numbered list they hold, and a file tree as nested lists of folders and files', () => {
    expect(built).toMatch(/<ol class="steps">\n<li>\n<p>Install the packages:<\/p>\n<div class="code-block">/);
    expect(built).toContain('<li>\n<p>Run the build <span class="text-badge text-badge-tip">Fast</span>.</p>\n</li>\n</ol>');
    expect(built).toContain(
      '<div class="file-tree"><ul><li class="tree-folder"><span class="tree-line"><span class="tree-name">src/</span></span><ul><li class="tree-file"><span class="tree-line"><span class="tree-name">index.js</span> <span class="tree-comment">the entry point</span></span></li>',
    );
    expect(built).toContain('<li class="tree-file tree-highlight"><span class="tree-line"><span class="tree-name"><strong>greeting.js</strong></span> <span class="tree-comment">the module this guide adds</span></span></li>');
    // A folder is a name ending in "/" or an entry holding others: "dist" gets its slash.
    expect(built).toContain('<li class="tree-folder"><span class="tree-line"><span class="tree-name">dist/</span></span><ul><li class="tree-file"><span class="tree-line"><span class="tree-name">main.js</span> <span class="tree-comment">generated: <em>never edit it</em></span></span></li></ul></li>');
    expect(built).toContain('<li class="tree-file"><span class="tree-line"><span class="tree-name">webpack.config.js</span></span></li></ul></div>');
  });

  it('renders badges in prose and headings, and keeps other colons in prose as text', () => {
    expect(built).toContain('<h2 id="badges-new">Badges <span class="text-badge text-badge-note">New</span></h2>');
    expect(built).toContain(
      '<p>Variants: <span class="text-badge text-badge-default">Default</span>, <span class="text-badge text-badge-note">Note</span>, <span class="text-badge text-badge-tip">Tip</span>, <span class="text-badge text-badge-caution">Caution</span> and <span class="text-badge text-badge-danger">Danger</span>. Colons in prose stay text: node:fs and webpack:5.</p>',
    );
  });

  it.runIf(hasJava)('passes the Nu HTML Checker on every page', async () => {
    const files = listFiles(dist).filter((f) => f.endsWith('.html'));
    expect(files).toContain('guide/components/index.html');
    expect(files).toContain('guide/printable/index.html');
    const errors = await nuHtmlErrors(dist, files.map((f) => join(dist, f)));
    expect(errors, errors.join('\n')).toEqual([]);
  }, 120_000);

  it('ships the components\' styles in the one stylesheet, on the theme\'s custom properties', () => {
    const css = readFileSync(join(ROOT, 'templates/styles/35-components.css'), 'utf8');
    // Every colour is a property of the theme (00-base.css, colors.ts): none written out here.
    expect(css.replace(/url\("[^"]*"\)/g, '')).not.toMatch(/#[0-9a-f]{3,8}\b|rgba?\(|hsla?\(/i);
    expect(css).toMatch(/\.text-badge-note \{ background: var\(--note\); color: var\(--bg\); \}/);
  });
});

describe('a long page of components', () => {
  it('places the problem of each repeated section at its own line', async () => {
    const section = (i: number) =>
      `## Part ${i}\n\n::::cards\n:::card[Card ${i}]\nBody ${i}.\n:::\n::link-card[Link ${i}]{href=/a/ description="D ${i}"}\n::::\n\n:::steps\n1. One :badge[${i}]{variant=tip}\n2. Two\n:::\n\n:::file-tree\n- src/\n  - **a${i}.js** comment ${i}\n:::\n\nProse :badge[x]{variant=bad} here.\n`;
    const body = Array.from({ length: 12 }, (_, i) => section(i)).join('\n');
    const page = await renderMarkdown(body, { file: 'content/x.md', lineOffset: 3, highlighter: loadHighlighter });
    expect(page.problems).toHaveLength(12);
    expect(page.problems[11]).toMatchObject({ line: 3 + 11 * 21 + 20, column: 7 });
    expect(page.html.match(/<ol class="steps">/g)).toHaveLength(12);
  });
});

describe('component problems', () => {
  const BROKEN = `---
title: Next
description: Where a link card goes.
---

## Done

::::cards
:::card
No title.
:::
Stray paragraph.
::::

::link-card[Alone]

:::steps
- not numbered
:::

:::file-tree
Just text.
:::

Badge :badge[Hot]{variant=warning} and :badge{variant=tip} and :badge[x]{colour=red #id}.

::card[Leaf]

:::link-card[Block]{href=/}
:::

:::file-tree
- src/
  - index.js

    \`\`\`js
    code
    \`\`\`
-
:::

:::steps
1. One

Not in the list.
:::

::link-card[Evil]{href="javascript:alert(1)" onclick="x"}

:::cards
:::

::link-card[Gone]{href=/guide/gone/}

::link-card{href=/guide/next/}
`;

  it('are reported all at once, with file, line and column, and the build exits 1', async () => {
    const dir = site();
    writeFileSync(join(dir, 'content/guide/next.md'), BROKEN);
    const { code, err } = await runDocs(['build', '--root', dir]);
    expect(code).toBe(1);
    const file = 'content/guide/next.md';
    expect(err.trim().split('\n')).toEqual([
      `${file}:9:1 a :::card needs a title, as in :::card[Fast rebuilds]`,
      `${file}:12:1 a ::::cards block may only contain :::card[Title] blocks and ::link-card[Title]{href=…} lines`,
      `${file}:15:1 a ::link-card needs an address, as in ::link-card[Guides]{href=/guides/}`,
      `${file}:18:1 a :::steps block must hold one numbered list (1. First step, 2. Next step, …) and nothing else`,
      `${file}:22:1 a :::file-tree block must hold one bulleted list (- src/, then its files indented under it) and nothing else`,
      `${file}:25:7 unknown badge variant "warning" (expected one of note, tip, caution, danger, default)`,
      `${file}:25:40 a :badge needs its text in brackets, as in :badge[New]`,
      `${file}:25:64 unknown option "colour" of a :badge (expected variant)`,
      `${file}:25:64 unknown option "#…" of a :badge (expected variant)`,
      `${file}:27:1 ::card is not how a card is written: write :::card[Title], closed by :::`,
      `${file}:29:1 :::link-card is not how a link-card is written: write one line, ::link-card[Title]{href=/guides/ description="…"}`,
      `${file}:36:5 an entry of a :::file-tree holds a name, an optional comment after it and the entries inside it (a bulleted list), nothing else`,
      `${file}:39:1 an entry of a :::file-tree needs a name first (a file such as index.js, or a folder such as src/)`,
      `${file}:45:1 a :::steps block must hold one numbered list (1. First step, 2. Next step, …) and nothing else`,
      `${file}:48:1 unknown option "onclick" of a ::link-card (expected href or description)`,
      `${file}:48:1 link to "javascript:alert(1)": javascript:, vbscript: and data: links are not allowed (they run script or hide content); link to a page or an https:// address`,
      `${file}:50:1 a ::::cards block needs at least one :::card[Title] block or ::link-card[Title]{href=…} line`,
      // The address of a link card is checked as any link's, at the card (once every page is read).
      `${file}:53:1 links to "/guide/gone/", which is not a page of this site`,
      `${file}:55:1 a ::link-card needs a title, as in ::link-card[Guides]{href=/guides/}`,
      '19 problems found; the previous output was left untouched.',
    ]);
  });

  it('name the directive, not another, for a component in the wrong place or of the wrong form', async () => {
    expect(await problems(':::sidenote\nx\n:::\n')).toEqual([
      'content/x.md:4:1 unknown directive "sidenote" (expected one of note, tip, warning, danger, tabs, cards, card, link-card, steps, file-tree)',
    ]);
    expect(await problems('::::cards[Grid]\n:::card[A]\nx\n:::\n::::\n')).toEqual(['content/x.md:4:1 a ::::cards block takes no title: give each :::card[Title] its own']);
    expect(await problems(':::card[A]{.wide}\nx\n:::\n\n:::steps{#s}\n1. a\n:::\n')).toEqual([
      'content/x.md:4:1 a :::card takes no options in {…}, but ".…" is given',
      'content/x.md:8:1 a :::steps block takes no options in {…}, but "#…" is given',
    ]);
    expect(await problems(':::steps\n:::\n\n:::file-tree\n1. a\n:::\n')).toEqual([
      'content/x.md:4:1 a :::steps block must hold one numbered list (1. First step, 2. Next step, …) and nothing else',
      'content/x.md:8:1 a :::file-tree block must hold one bulleted list (- src/, then its files indented under it) and nothing else',
    ]);
    // A card left open is the directive problem every block has.
    expect(await problems('::::cards\n:::card[A]\nx\n::::\n')).toEqual([
      'content/x.md:5:1 the :::card block opened here is never closed, so it takes in the rest of the page: add a line of ::: where it ends',
    ]);
  });

  it('never crash on odd input', async () => {
    for (const body of [
      ':::steps\n1.\n:::\n',
      ':::file-tree\n-\n  -\n:::\n',
      ':::file-tree\n- `a b` c\n- [x] done\n- <b>x</b>\n:::\n',
      '::::cards\n::link-card[]{}\n:::card[]\n:::\n::::\n',
      ':badge[]{variant=}\n\n:badge[a]{variant}\n\n:badge\n\n:badge[:badge[x]]\n',
      '> :::steps\n> 1. a\n> :::\n',
      '- :::file-tree\n  - a\n  :::\n',
    ]) {
      const result = await render(body);
      expect(typeof result.html).toBe('string');
    }
    // Pieces of components, right and wrong, mixed and nested at random (seeded): a result every time, each problem placed.
    const pieces = [
      '::::cards\n', ':::card[T]\n', ':::card\n', '::link-card[L]{href=/a/}\n', '::link-card{}\n', ':::steps\n', ':::file-tree\n', ':::\n', '::::\n',
      '1. one\n', '- a/\n  - b.js c\n', '- **x**\n', '-\n', 'text :badge[b]{variant=tip} :badge{x} :badge[\n', '```js\nx\n```\n', '> :::steps\n', '\n',
    ];
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    for (let n = 0; n < 150; n++) {
      const body = Array.from({ length: 3 + Math.floor(next() * 25) }, () => pieces[Math.floor(next() * pieces.length)]).join('');
      const result = await render(body);
      expect(typeof result.html, body).toBe('string');
      for (const p of result.problems) expect(p.line >= 4 && p.column >= 1, `${body}\n${p.message}`).toBe(true);
    }
    // A `:badge` without brackets or braces is prose.
    expect(await html('Use npm:badge here.\n')).toBe('<p>Use npm:badge here.</p>');
  });
});

describe('writers\' text stays text', () => {
  it('in link cards, badges and file trees: titles, descriptions and labels are escaped, never markup', async () => {
    const body = [
      '::link-card[<img src=x onerror=alert(1)>]{href=/a/ description="<script>alert(2)</script> & <b>bold</b>"}',
      '',
      'A :badge[<i onmouseover=alert(3)>hi</i>]{variant=danger} badge.',
      '',
      ':::file-tree',
      '- `<img src=y onerror=alert(4)>` a comment',
      '- **<svg onload=alert(5)>** highlighted',
      ':::',
    ].join('\n');
    const { html: out, problems: found } = await render(body);
    expect(found.map((p) => p.message)).toEqual([]);
    expect(out).toContain('<span class="link-card-title">&lt;img src=x onerror=alert(1)></span>');
    expect(out).toContain('<span class="link-card-description">&lt;script>alert(2)&lt;/script> &#38; &lt;b>bold&lt;/b></span>');
    expect(out).toContain('<span class="text-badge text-badge-danger">&lt;i onmouseover=alert(3)>hi&lt;/i></span>');
    expect(out).toContain('<span class="tree-name">&lt;img src=y onerror=alert(4)></span> <span class="tree-comment">a comment</span>');
    expect(out).toContain('<span class="tree-name"><strong>&lt;svg onload=alert(5)></strong></span>');
    expect(out).not.toMatch(/<(img|script|svg|i)\b/);
  });

  it('in card titles, card bodies and tree comments: Markdown, whose raw HTML the sanitiser cleans as anywhere else', async () => {
    const out = await html(
      '::::cards\n:::card[A <img src=x onerror=alert(1)> title]\nBody <script>alert(2)</script> <b onclick="alert(3)">bold</b>.\n:::\n::::\n\n:::file-tree\n- a.js <img src=z onerror=alert(4)>\n:::\n',
    );
    expect(out).not.toMatch(/onerror|onclick|<script/);
    // (The image's address waits, as every image of the site, for the link check: a placeholder here.)
    expect(out).toContain('<p class="card-title">A <img src="&#0;docs-link:0&#0;"> title</p>');
    expect(out).toContain('<b>bold</b>');
  });

  it('as options: {.class} and {#id} are problems, not classes or ids of the page', async () => {
    const { html: out, problems: found } = await render(':badge[x]{.evil #top variant=tip}\n');
    expect(found.map((p) => p.message)).toEqual(['unknown option ".…" of a :badge (expected variant)', 'unknown option "#…" of a :badge (expected variant)']);
    expect(out).toBe('<p><span class="text-badge text-badge-tip">x</span></p>');
  });
});
