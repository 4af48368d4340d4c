import { describe, expect, it } from 'vitest';

/*
 * The edges of the raw-HTML sanitiser and of the checks of raw HTML and footnotes
 * (src/content/plugins/raw-html.ts), through the Markdown pipeline in this process: the
 * attributes its schema keeps per element, the end tags it does not ask for, and the
 * places it names. (The pipeline is imported in each test, so that a sanitiser that cannot
 * even load fails every test here rather than none.)
 */

async function render(body: string) {
  const [{ renderMarkdown }, { loadHighlighter }] = await Promise.all([import('../../src/content/markdown.js'), import('../../src/content/highlight.js')]);
  return renderMarkdown(body, { file: 'content/x.md', lineOffset: 3, highlighter: loadHighlighter });
}
const html = async (body: string) => (await render(body)).html;
const problems = async (body: string) => (await render(body)).problems.map((p) => `${p.line}:${p.column} ${p.message}`);
const never = (tag: string, line: number, column: number) => `${line}:${column} <${tag}> is opened here and never closed: add </${tag}> where it ends (the rest of the page is inside it until then)`;
const missing = (label: string, at: string) => `${at} the footnote [^${label}] has no definition: add a line "[^${label}]: …" below (the reference shows as text until then)`;

describe('what the sanitiser keeps of an element', () => {
  it('keeps the attributes GitHub allows on each element (cite, aria labels, microdata)', async () => {
    const out = await html(
      '<blockquote cite="https://example.org/">q</blockquote>\n\n<table aria-label="t"><tr><td>c</td></tr></table>\n\n<div itemscope itemtype="https://schema.org/Thing">d</div>\n\n<q cite="https://example.org/q">w</q> <del cite="https://example.org/d">x</del>\n',
    );
    expect(out).toContain('<blockquote cite="https://example.org/">q</blockquote>');
    expect(out).toContain('<table aria-label="t">');
    expect(out).toContain('<div itemscope itemtype="https://schema.org/Thing">d</div>');
    expect(out).toContain('<q cite="https://example.org/q">w</q>');
    expect(out).toContain('<del cite="https://example.org/d">x</del>');
  });

  it('keeps any class a writer gives a link, and the class of a list item only when it is a task list\'s', async () => {
    const out = await html('<a href="/x/" class="btn primary">a</a>\n\n<ul><li class="fancy task-list-item">x</li></ul>\n');
    expect(out).toMatch(/<a href="[^"]*" class="btn primary">a<\/a>/);
    expect(out).toContain('<li class="task-list-item">x</li>');
  });

  it('drops the footnote markers a writer copies onto a link or a section, and keeps the rest of it', async () => {
    const out = await html('<a href="#a" data-footnote-backref="" data-footnote-ref="" aria-label="l">b</a>\n\n<section data-footnotes class="footnotes">s</section>\n');
    expect(out).not.toContain('data-footnote');
    expect(out).toMatch(/<a href="[^"]*" aria-label="l">b<\/a>/);
    expect(out).toContain('<section class="footnotes">s</section>');
  });

  it('keeps the position and opacity of an SVG shape', async () => {
    const out = await html('<svg viewBox="0 0 10 10"><rect x="1" y="2" opacity="0.5" width="3" height="4"/></svg>\n');
    expect(out).toContain('<rect x="1" y="2" opacity="0.5" width="3" height="4"></rect>');
  });

  it('drops a checkbox a writer writes, and the text after <plaintext>', async () => {
    const out = await html('<input type="checkbox" disabled>\n\n<plaintext>secret words</plaintext>\n');
    expect(out).not.toContain('<input');
    expect(out).not.toContain('secret');
  });
});

describe('the end tags the check of raw HTML asks for', () => {
  it('asks for none of a void element left at the end of the page', async () => {
    for (const tag of ['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']) {
      expect(await problems(`<div></div><${tag}>x\n`), tag).toEqual([]);
    }
  });

  it('asks for none of an element whose end tag HTML lets a writer leave out, left open at the end of the page', async () => {
    for (const tag of ['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'option', 'optgroup', 'colgroup', 'caption', 'rb', 'rt', 'rp', 'rtc']) {
      expect(await problems(`<div></div><${tag}>x\n`), tag).toEqual([]);
    }
  });

  it('reads a quoted ">" inside an attribute as part of the tag', async () => {
    expect(await problems("<div title='a>b'>\n\nText.\n")).toEqual([never('div', 4, 1)]);
    expect(await problems('<div title="a>b">\n\nText.\n')).toEqual([never('div', 4, 1)]);
  });

  it('does not take an end tag nothing opened for the end of the element still open', async () => {
    expect(await problems('<div>\n</span>\n\nText.\n')).toEqual([never('div', 4, 1)]);
  });

  it('names the place of an element opened after other text on its line, in an HTML block of several lines', async () => {
    expect(await problems('<div>\n</div>\nxx <section>\n')).toEqual([never('section', 6, 4)]);
  });

  it('names the column of an element opened inside a paragraph', async () => {
    expect(await problems('Some text <span>never closed\n')).toEqual([never('span', 4, 11)]);
  });

  it('names the place of a comment never closed after other markup of its HTML block', async () => {
    expect(await problems('Intro.\n\n<div></div> <!-- never closed\nmore\n')).toEqual(['6:13 this HTML comment is never closed with "-->": it hides the rest of the page']);
  });
});

describe('footnote references without a definition', () => {
  it('are not asked for when the label is defined, even written as text', async () => {
    expect(await problems('An escaped \\[^a] here.\n\n[^a]: The note.\n')).toEqual([]);
    expect(await problems('An escaped \\[^A] here.\n\n[^a]: The note.\n')).toEqual([]);
  });

  it('are named at their line and column, on the third line of a paragraph', async () => {
    expect(await problems('line one\nline two\nab [^x]\n')).toEqual([missing('x', '6:4')]);
  });
});
