import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { splitSource } from '../../src/content/frontmatter.js';
import { loadHighlighter } from '../../src/content/highlight.js';
import { renderableInParts, renderInPartsStats, renderMarkdown, type RenderedMarkdown } from '../../src/content/markdown.js';
import { cutPoints, type Cut } from '../../src/content/split-parse.js';
// @ts-expect-error: a plain script of the benchmark, without types.
import { shapeMarkdown } from '../../scripts/bench-shapes.mjs';

/*
 * A page cut in parts is rendered part by part (renderInParts in
 * markdown.ts). Whatever the parts, the result must be the whole page's:
 * the same HTML byte for byte, the same anchors, headings, ids, links with
 * their positions, problems with their positions, and code blocks.
 */
const ROOT = join(import.meta.dirname, '..', '..');
let highlighter: Awaited<ReturnType<typeof loadHighlighter>>;
beforeAll(async () => {
  highlighter = await loadHighlighter();
});

/** A result to compare: problems in the order they are shown (InputError sorts them), ids and code blocks as sets. */
const comparable = ({ hast: _hast, ...r }: RenderedMarkdown) => ({
  ...r,
  problems: [...r.problems].sort((a, b) => a.line - b.line || a.column - b.column || a.message.localeCompare(b.message)),
  ids: [...r.ids].sort(),
  codeBlocks: [...r.codeBlocks.keys()].sort(),
});

/** A body sink that keeps what it is given, and counts its resets. */
function sinkOf() {
  const sunk: string[] = [];
  const counts = { resets: 0 };
  const bodySink = {
    write: (piece: string) => void sunk.push(piece),
    reset: () => {
      sunk.length = 0;
      counts.resets++;
    },
  };
  return { sunk, counts, bodySink };
}

/** Renders `body` whole and in the parts `cuts` make; expects the same, and that it was rendered in parts. */
async function expectSameInParts(body: string, cuts: Cut[], file = 'page.md'): Promise<RenderedMarkdown> {
  const options = { file, lineOffset: 3, highlighter };
  const whole = await renderMarkdown(body, { ...options, cuts, whole: true });
  const before = { ...renderInPartsStats };
  const parts = await renderMarkdown(body, { ...options, cuts });
  expect(renderInPartsStats.tried - before.tried, file).toBe(1);
  expect(renderInPartsStats.whole - before.whole, `${file} was rendered whole after all`).toBe(0);
  expect(comparable(parts), file).toEqual(comparable(whole));
  expect(parts.html, file).toBe(whole.html);
  // Asked for in pieces (as a build does), the HTML is the pieces' concatenation.
  const inPieces = await renderMarkdown(body, { ...options, cuts, htmlInPieces: true });
  expect(inPieces.html, file).toBe('');
  expect(inPieces.htmlPieces!.join(''), file).toBe(whole.html);
  // Given a sink (as the thread of a very large page is), the HTML goes there instead, as it is made; a render again starts it over.
  const { sunk, bodySink } = sinkOf();
  const inSink = await renderMarkdown(body, { ...options, cuts, htmlInPieces: true, bodySink });
  expect([inSink.htmlInSink, inSink.html, inSink.htmlPieces], file).toEqual([true, '', []]);
  expect(sunk.join(''), file).toBe(whole.html);
  expect(comparable({ ...inSink, htmlInSink: undefined, htmlPieces: inPieces.htmlPieces }), file).toEqual(comparable(inPieces));
  return parts;
}

describe('rendering a large page in parts', () => {
  it('gives the whole page’s result for every page of the site it applies to, cut at every boundary', async () => {
    const dir = join(ROOT, 'content');
    let compared = 0;
    for (const file of (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).sort()) {
      const body = splitSource(readFileSync(join(dir, file), 'utf8'), file).body;
      const cuts = cutPoints(body, 0, 0);
      if (!cuts.length || !renderableInParts(body)) continue;
      await expectSameInParts(body, cuts, file);
      compared++;
    }
    // Most of the site's pages: those without raw HTML.
    expect(compared).toBeGreaterThan(100);
  }, 300_000);

  it('gives the whole page’s result for each benchmark shape, tables and lists cut between rows and items', async () => {
    for (const shape of ['prose', 'lists', 'tables']) {
      const body = shapeMarkdown(shape, 120_000) as string;
      const cuts = cutPoints(body, 0, 4_000);
      expect(cuts.length, shape).toBeGreaterThan(10);
      await expectSameInParts(body, cuts, `${shape}.md`);
    }
  });

  /** Pieces whose state crosses parts: duplicate and chrome-like headings, problems, links, tables and lists, code. */
  const PIECES = [
    '## Same title\n\nText with a [link](/concepts/#same-title) and `code`.\n',
    '## Same title\n\n### Same title\n\n#### Deeper\n',
    '## Content\n\nThe chrome has an element with this id.\n',
    '## Same title 1\n\nA heading whose slug is a numbered duplicate’s.\n',
    '#### Skips a level\n\nText.\n',
    '# An h1 in the body\n\nText.\n',
    'A [script link](javascript:alert(1)) and ![an image](javascript:x).\n',
    '```js\nconst a = 1;\n```\n',
    '```js\nconst a = 1;\n```\n\n```nolang\nx\n```\n',
    '| a | b |\n| :- | -: |\n| `1` | [x](/a/) |\n| 2 | 3 |\n| 4 | 5 |\n',
    '| a |\n| - |\n',
    '- one\n- two [x](#same-title)\n- three\n- four\n',
    '- a\n- b\n\n- loose\n',
    'Visit www.example.com or https://example.com/path today.\n',
    ':::note\nA note with **strong** text.\n:::\n',
    '> [!TIP]\n> An alert.\n',
    'Text with a footnote-like [^1] reference and an escaped \\* star.\n',
    'Setext\n---\n\nAfter.\n',
    '::::tabs\n:::tab[npm]\n```bash\nnpm install webpack\n```\n:::\n:::tab[yarn]\nText in a tab.\n:::\n::::\n',
    '## Tabs 1 1 tab\n\nA heading named like the first tab of the page.\n',
  ];

  it('gives the whole page’s result for pages of pieces that carry state across parts, cut at every boundary', async () => {
    let seed = 11;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let tables = 0;
    let lists = 0;
    let problems = 0;
    for (let round = 0; round < 120; round++) {
      const body = Array.from({ length: 10 }, () => PIECES[Math.floor(random() * PIECES.length)]!).join('\n');
      const cuts = cutPoints(body, 0, 0);
      tables += cuts.filter((cut) => cut.table).length;
      lists += cuts.filter((cut) => cut.list).length;
      problems += (await expectSameInParts(body, cuts)).problems.length;
    }
    // The pages did cut tables and lists, and did carry problems (with their positions) across parts.
    expect(tables).toBeGreaterThan(20);
    expect(lists).toBeGreaterThan(20);
    expect(problems).toBeGreaterThan(100);
  }, 120_000);

  it('gives h3s no self-link when the whole page has more than the limit, found only in a late part', async () => {
    const body = `## Start\n\nText.\n\n${Array.from({ length: 320 }, (_, i) => `### Flag ${i}\n\nWhat flag ${i} does.\n`).join('\n')}`;
    const cuts = cutPoints(body, 0, 2_000);
    const rendered = await expectSameInParts(body, cuts);
    expect(rendered.html).toContain('aria-labelledby="section-titled start"');
    expect(rendered.html).not.toContain('aria-labelledby="section-titled flag-0"');
    // A sink had the first render's parts, and starts over for the second.
    const { sunk, counts, bodySink } = sinkOf();
    await renderMarkdown(body, { file: 'page.md', lineOffset: 0, highlighter, cuts, htmlInPieces: true, bodySink });
    expect(counts.resets).toBe(1);
    expect(sunk.join('')).toBe(rendered.html);
  });

  it('renders a page whole when raw HTML turns up in a part though the text did not look like it', async () => {
    // An escaped backtick leaves the tag outside code, which the first look at the text takes for a code span.
    const body = `## A\n\nText \\\`<b>bold</b>\\\` more.\n\n## B\n\nText.\n`;
    const cuts = cutPoints(body, 0, 0);
    expect(renderableInParts(body)).toBe(true);
    const before = { ...renderInPartsStats };
    const options = { file: 'page.md', lineOffset: 0, highlighter, cuts };
    const parts = await renderMarkdown(body, options);
    expect(renderInPartsStats.whole - before.whole).toBe(1);
    expect(parts.html).toContain('<b>bold</b>');
    expect(comparable(parts)).toEqual(comparable(await renderMarkdown(body, { ...options, whole: true })));
    // A sink is started over, and not used for the page rendered whole.
    const { sunk, counts, bodySink } = sinkOf();
    const whole = await renderMarkdown(body, { ...options, htmlInPieces: true, bodySink });
    expect([whole.htmlInSink, counts.resets, sunk]).toEqual([undefined, 1, []]);
    expect(whole.html).toBe(parts.html);
    // Pages with raw HTML outside code are not rendered in parts at all.
    expect(renderableInParts('Some <span>raw</span> HTML.\n')).toBe(false);
    expect(renderableInParts('Code: `Array<string>` and\n\n```ts\nconst a: Map<string, number>;\n```\n')).toBe(true);
  });

  it('never gives a heading the id of a tab, wherever the tabs are', async () => {
    // The tabs come after the heading: a page rendered in parts slugs the heading before it reads them.
    const body = '## Tabs 1 1 tab\n\nText.\n\n## Tabs 1 2 panel\n\n::::tabs\n:::tab[npm]\nOne.\n:::\n:::tab[yarn]\nTwo.\n:::\n::::\n';
    const rendered = await expectSameInParts(body, cutPoints(body, 0, 0));
    expect(rendered.anchors.map((anchor) => anchor.id)).toEqual(['tabs-1-1-tab-1', 'tabs-1-2-panel-1']);
    expect(rendered.html).toContain('id="tabs-1-1-tab"');
    expect(rendered.html).toContain('id="tabs-1-2-panel"');
  });
});
