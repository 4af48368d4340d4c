import type { Root } from 'mdast';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it, onTestFinished } from 'vitest';
import '../../src/content/micromark-fix.js';
import { cutPoints, joinParts, parseInParts, partTexts } from '../../src/content/split-parse.js';
import { rehypeHeadingSlugs } from '../../src/content/heading-slugs.js';
import { walk } from '../../src/content/walk.js';
import rehypeSlug from 'rehype-slug';
import remarkRehype from 'remark-rehype';
import { VFile } from 'vfile';
import type { Element, Root as HastRoot } from 'hast';
import { PARSE_THREAD_MIN_CHARS, parseLargePage, parseThreadStats, setParseThreadMinChars } from '../../src/content/parse-thread.js';
// @ts-expect-error: a plain script of the benchmark, without types.
import { shapeMarkdown } from '../../scripts/bench-shapes.mjs';
import { pageBodies } from '../helpers/content.js';
// @ts-expect-error: the package has no types.
import commonmarkSpec from 'commonmark-spec';

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkDirective);
const parse = (text: string) => processor.parse(text) as Root;


describe('parsing a large page in parts', () => {
  it('gives the tree of the whole page, positions included, for every page of the site cut at every boundary', () => {
    let cut = 0;
    for (const [file, body] of pageBodies()) {
      const cuts = cutPoints(body, 0, 0);
      cut += cuts.length;
      expect(JSON.stringify(parseInParts(body, parse, cuts)), file).toBe(JSON.stringify(parse(body)));
    }
    // The site's pages have boundaries to cut at (or the test would compare nothing).
    expect(cut).toBeGreaterThan(500);
  });

  it('gives the same tree for each benchmark shape', () => {
    for (const shape of ['prose', 'lists', 'tables']) {
      const body = shapeMarkdown(shape, 200_000) as string;
      const cuts = cutPoints(body, 0, 16_000);
      expect(cuts.length, shape).toBeGreaterThan(5);
      expect(JSON.stringify(parseInParts(body, parse, cuts)), shape).toBe(JSON.stringify(parse(body)));
    }
  });

  /** Pieces of Markdown that are hard to cut around; joined in many orders below. */
  const HOSTILE = [
    '| a | b |\n| --- | :-: |\n| `x|y` | c \\| d |\n| e | `f\\|g` |\n|h|i|\n| j | k | extra |\n| only one |\n',
    '| a | b |\n|---|---|\n| 1 | 2 |\nlazy row without a pipe\n| 3 | 4 |\n',
    '| a | b |\n| --- | --- |\n| 1 | 2 |   \n| 3 | 4 |\t\n| 5 |\n',
    // Not tables: the head has more cells than the delimiter row, or the rows come after a paragraph.
    '| a | b | c |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n',
    'Some text\n| a | b |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n',
    '| a |\n| - |\n| [link](/x/) *em* |\n| **strong\n| still a row** |\n',
    '- one\n- two\n\n- three, loose\n\nAfter the list.\n',
    '- tight\n- list\nlazy continuation of the item\n\nParagraph.\n',
    '1. one\n\n   indented paragraph\n\n2. two\n\nText again.\n',
    '> quote\nlazy line\n\nOutside.\n',
    'Setext\n===\n\nUnder it\n---\n\nText.\n',
    '    indented code\n\n    more code\n\nText after code.\n',
    '<div>\nhtml\n\nText after html.\n',
    '- | a | b |\n  | - | - |\n  | 1 | 2 |\n\n| a |\n| - |\n| 1 |\n',
    '> | a |\n> | - |\n> | 1 |\n| 2 |\n',
    ':::note\n| a |\n| - |\n| 1 |\n\nText in a note.\n:::\n',
    '```\n| a |\n| - |\n\nText in code.\n```\n',
    'A paragraph\nover two lines with `code` and *emphasis\n\nthat does not close*.\n',
    '- a\n- b with `code`\n- [ ] task\n- [x] done\n- c\n',
    '- a\n- b\n\n- loose from here\n- c\n',
    '- a\n- b\n- c\n\n  a paragraph of c: the list is loose\n',
    '- a\n- b\nlazy line of b\n- c\n- d\n',
    '- a\n  - nested\n  - nested\n- b\n- c\n',
    '- a\n- - -\n- b\n* * *\n- c\n',
    '- a\n* other bullet, another list\n* d\n+ e\n+ f\n',
    '- a\n- ```\n  code\n\n  ```\n- b\n- c\n',
    '- a\n- b\n## Heading\n- c\n- d\n',
    '- a\n-\n- \n- b\n',
    '* a\n* b\n\n\n* c\n',
    // Paragraphs that start with a link, an image, a code span, emphasis, a number, a quote or a letter of another script.
    '[a link](/x/) starts this paragraph\n\n![an image](/i.png) starts this one\n',
    '`code` starts it\n\n*emphasis* starts it\n\n_this too_\n',
    '2024 was a year\n\n"Quoted" words\n\n(in brackets)\n',
    '中文的段落。\n\nЛатиница нет.\n',
    // A loose ordered list whose numbers run past 9, and one that starts at 10: no cut before 10.
    '9. nine\n\n10. ten\n\n11. eleven\n',
    '10) ten\n\n11) eleven\n',
    '**strong** is not a cut point\n\n***\n\n*** bold italic\n',
  ];

  it('gives the same tree for hostile pages cut at every boundary, tables between rows and lists between items', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let tableCuts = 0;
    let listCuts = 0;
    for (let round = 0; round < 300; round++) {
      const pieces: string[] = [];
      for (let i = 0; i < 6; i++) pieces.push(HOSTILE[Math.floor(random() * HOSTILE.length)]!);
      // Pieces run together without a blank line a quarter of the time.
      const body = pieces.map((piece) => (random() < 0.25 ? piece : `${piece}\n`)).join('');
      const cuts = cutPoints(body, 0, 0);
      tableCuts += cuts.filter((cut) => cut.table).length;
      listCuts += cuts.filter((cut) => cut.list).length;
      expect(JSON.stringify(parseInParts(body, parse, cuts)), body).toBe(JSON.stringify(parse(body)));
    }
    expect(tableCuts).toBeGreaterThan(100);
    expect(listCuts).toBeGreaterThan(100);
  });

  it('gives the same tree for pages made of the CommonMark specification\'s examples, cut at every boundary', () => {
    const examples = (commonmarkSpec as { tests: Array<{ markdown: string }> }).tests.map((t) => t.markdown);
    let seed = 11;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let cut = 0;
    for (let round = 0; round < 2_000; round++) {
      const pieces = Array.from({ length: 8 }, () => examples[Math.floor(random() * examples.length)]!);
      const body = pieces.map((piece) => (random() < 0.2 ? piece : `${piece}\n`)).join('');
      const cuts = cutPoints(body, 0, 0);
      cut += cuts.length;
      expect(JSON.stringify(parseInParts(body, parse, cuts)), body).toBe(JSON.stringify(parse(body)));
    }
    // (Many examples hold a link reference definition, which leaves their page whole.)
    expect(cut).toBeGreaterThan(600);
  });

  it('cuts a long tight list between its items, and not a loose one', () => {
    const tight = Array.from({ length: 3_000 }, (_, i) => `- item ${i} with \`code\` and a [link](/x/)\n`).join('');
    const tightCuts = cutPoints(tight, 0, 5_000);
    expect(tightCuts.length).toBeGreaterThan(10);
    expect(tightCuts.every((cut) => cut.list)).toBe(true);
    const joined = joinParts(tight, tightCuts, partTexts(tight, tightCuts).map(parse))!;
    expect(joined.children.map((child) => child.type)).toEqual(['list']);
    expect(JSON.stringify(joined)).toBe(JSON.stringify(parse(tight)));
    // One blank line between two items, at the end, makes the whole list loose: none of it is cut.
    const loose = `${tight}\n- the last item\n`;
    expect(cutPoints(loose, 0, 5_000)).toEqual([]);
    expect(JSON.stringify(parseInParts(loose, parse, cutPoints(loose, 0, 5_000)))).toBe(JSON.stringify(parse(loose)));
  });

  it('cuts a long table between its rows, and joins the rows into one table', () => {
    const body = shapeMarkdown('tables', 50_000) as string;
    const cuts = cutPoints(body, 0, 5_000);
    expect(cuts.length).toBeGreaterThan(5);
    expect(cuts.every((cut) => cut.table && body.slice(cut.table.start).startsWith(cut.table.head))).toBe(true);
    const parts = partTexts(body, cuts).map(parse);
    expect(parts.every((part) => part.children[0]?.type === 'table' || part.children[0]?.type === 'heading')).toBe(true);
    const joined = joinParts(body, cuts, parts)!;
    expect(joined.children.map((child) => child.type)).toEqual(['heading', 'table']);
    expect(JSON.stringify(joined)).toBe(JSON.stringify(parse(body)));
  });

  it('parses the page whole when the parts do not join as the cuts expect', () => {
    // Cut as if the rows were a table's, though its head has more cells than its delimiter row: a paragraph.
    const body = '| a | b | c |\n| --- | --- |\n| 1 | 2 |\n| 3 | 4 |\n';
    const cuts = [{ at: body.indexOf('| 3'), table: { head: body.slice(0, body.indexOf('| 1')), start: 0 } }];
    expect(joinParts(body, cuts, partTexts(body, cuts).map(parse))).toBeUndefined();
    expect(JSON.stringify(parseInParts(body, parse, cuts))).toBe(JSON.stringify(parse(body)));
  });

  it('gives the same tree on two threads as on one, for each benchmark shape and a hostile page', async () => {
    const hostile = Array.from({ length: 6_000 }, (_, i) => HOSTILE[(i * 7) % HOSTILE.length]).join('\n');
    const before = { ...parseThreadStats };
    setParseThreadMinChars(256 * 1024);
    onTestFinished(() => setParseThreadMinChars());
    for (const body of [...['prose', 'lists', 'tables'].map((shape) => shapeMarkdown(shape, 300_000) as string), hostile]) {
      expect(body.length).toBeGreaterThanOrEqual(PARSE_THREAD_MIN_CHARS);
      const cuts = cutPoints(body);
      expect(cuts.length).toBeGreaterThan(1);
      // Strictly equal: the trees that come back from the thread as JSON lose no property.
      expect(await parseLargePage(body, cuts, 'full')).toStrictEqual(parse(body));
    }
    expect(parseThreadStats.used - before.used).toBe(4);
    expect(parseThreadStats.failed).toBe(before.failed);
  });

  it('does not cut inside a fenced code block, a directive or a page with reference definitions', () => {
    const fenced = 'Intro.\n\n```md\n\n## Not a heading\n```\n\n## Real\n\nText.\n';
    expect(cutPoints(fenced, 0, 0)).toEqual([{ at: fenced.indexOf('## Real') }, { at: fenced.indexOf('Text.') }]);
    const directive = ':::note\n\n## Inside\n\n:::\n\n## Outside\n';
    expect(cutPoints(directive, 0, 0)).toEqual([{ at: directive.indexOf('## Outside') }]);
    expect(cutPoints('[x]: /a/\n\n## One\n\n[x]\n', 0, 0)).toEqual([]);
    // Definitions in list items and quotes, and labels over two lines, count too.
    for (const definition of ['- [x]: /a/', '> [x]: /a/', '1. [x]: /a/', '- > [^n]: note', '[two\nlines]: /a/', '  * 2) [x]: /a/']) {
      const body = `${definition}\n\n## One\n\nText [x] [two lines] [^n]\n`;
      expect(cutPoints(body, 0, 0), definition).toEqual([]);
      expect(JSON.stringify(parseInParts(body, parse, [{ at: body.indexOf('## One') }])), definition).not.toBe(JSON.stringify(parse(body)));
    }
    // Brackets that are no definition leave the page cut.
    expect(cutPoints('[link](/a/) and [x]\n\n## One\n\n- [ ] task\n', 0, 0)).toHaveLength(1);
    // Unclosed labels and long indentation are read in one pass (a quadratic reading would outlast the test's time limit).
    expect(cutPoints('['.repeat(200_000) + '\n' + `${' '.repeat(100_000)}- > [a\n`.repeat(20) + '\n## A\n', 0, 0)).toHaveLength(1);
    // An unclosed fence: nothing after it is a boundary, so the page is parsed whole.
    expect(cutPoints('```\n\n## A\n\n## B\n', 0, 0)).toEqual([]);
  });

  it('leaves small pages whole', () => {
    expect(cutPoints('## A\n\ntext\n\n## B\n')).toEqual([]);
  });
});

describe('work after parsing a large page', () => {
  const toHast = (remarkRehype as unknown as (options: object) => (tree: Root, file: VFile) => HastRoot)({ allowDangerousHtml: true });
  it('slugs headings as rehype-slug does, on every page of the site and a page of duplicate headings', () => {
    const duplicates = Array.from({ length: 50 }, (_, i) => `## Same title\n\n### ${i % 3 ? 'Other' : 'Same title'} \`code\` *em*\n\n<h2>Raw</h2>\n`).join('\n');
    let headings = 0;
    for (const [file, body] of [...pageBodies(), ['duplicates.md', duplicates] as [string, string]]) {
      const hast = toHast(parse(body), new VFile(body));
      const theirs = structuredClone(hast);
      (rehypeSlug() as (tree: HastRoot) => void)(theirs);
      rehypeHeadingSlugs()(hast);
      expect(hast, file).toStrictEqual(theirs);
      walk<Element>(hast, 'element', (node) => void (/^h[1-6]$/.test(node.tagName) && headings++));
    }
    expect(headings).toBeGreaterThan(1000);
  });
});
