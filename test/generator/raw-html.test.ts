import { describe, expect, it } from 'vitest';
import { loadHighlighter } from '../../src/content/highlight.js';
import { renderMarkdown } from '../../src/content/markdown.js';

/*
 * The sanitiser of a writer's raw HTML (src/content/plugins/raw-html.ts), through the Markdown
 * pipeline in this process: what a page keeps and what it loses, element by element. (The same
 * probes are opened in Chromium in test/robustness/raw-html.browser.test.ts.)
 */

const render = (body: string) => renderMarkdown(body, { file: 'content/x.md', lineOffset: 3, highlighter: loadHighlighter });
const html = async (body: string) => (await render(body)).html;
const problems = async (body: string) => (await render(body)).problems.map((p) => `${p.line}:${p.column} ${p.message}`);

describe('the sanitiser of raw HTML', () => {
  it('drops script, style, iframe, object, embed, form, base, meta, input and template elements, with their content where it is code', async () => {
    const out = await html(
      [
        '<script>alert(1)</script>',
        '<style>body{color:red}</style>',
        '<iframe src="/"></iframe>',
        '<object data="x"></object>',
        '<embed src="x">',
        '<form action="/"><button>Send</button></form>',
        '<base href="https://evil.example/">',
        '<meta http-equiv="refresh" content="0;url=https://evil.example">',
        '<input autofocus>',
        '<template><p>t</p></template>',
        '<noscript>n</noscript>',
        '<textarea>ta</textarea>',
        '<title>tt</title>',
        '',
        'After.',
      ].join('\n\n'),
    );
    for (const tag of ['script', 'style', 'iframe', 'object', 'embed', 'form', 'base', 'meta', 'input', 'template', 'noscript', 'textarea', 'title']) {
      expect(out, tag).not.toMatch(new RegExp(`<${tag}\\b`, 'i'));
    }
    expect(out).not.toContain('alert(1)');
    expect(out).not.toContain('color:red');
    expect(out).toContain('<p>After.</p>');
  });

  it('drops every event handler, style attribute and script URL, and keeps the element', async () => {
    const out = await html(
      '<div id="a" onclick="alert(1)" style="color:red" onmouseover="x()">d</div>\n\n<img src="/x.png" alt="i" onerror="alert(2)">\n\n<a href="javascript:alert(3)">j</a> <a href="vbscript:x">v</a>\n\n<details open ontoggle="alert(4)"><summary>s</summary>b</details>\n',
    );
    expect(out).not.toMatch(/\son[a-z]+=/i);
    expect(out).not.toContain('style=');
    expect(out).not.toMatch(/javascript:|vbscript:/i);
    expect(out).toContain('<div id="a">d</div>');
    expect(out).toMatch(/<details open[^>]*><summary>s<\/summary>b<\/details>/);
  });

  it('keeps what GitHub keeps: ids and classes as written, tables, kbd, details, sub and sup, and static SVG shapes', async () => {
    const out = await html(
      '<div class="note wide" id="legacy">x</div>\n\n<table><tr><th>h</th></tr><tr><td>c</td></tr></table>\n\n<kbd>Ctrl</kbd> H<sub>2</sub>O x<sup>2</sup>\n\n<svg viewBox="0 0 1 1" role="img" aria-label="dot"><circle cx="0.5" cy="0.5" r="0.5" fill="red"></circle></svg>\n',
    );
    expect(out).toContain('<div class="note wide" id="legacy">x</div>');
    expect(out).toContain('<table><tbody><tr><th>h</th></tr><tr><td>c</td></tr></tbody></table>');
    expect(out).toContain('<kbd>Ctrl</kbd> H<sub>2</sub>O x<sup>2</sup>');
    expect(out).toMatch(/<svg viewBox="0 0 1 1" role="img" aria-label="dot"><circle cx="0.5" cy="0.5" r="0.5" fill="red"><\/circle><\/svg>/);
  });

  it('gives the ids of raw HTML, inline or a block of its own, as targets of #fragment links', async () => {
    const { ids } = await render('Text <a id="legacy-name"></a> and <span id="inline">s</span>.\n\n<div id="block"><p id="inner">p</p></div>\n');
    expect([...ids].sort()).toEqual(['block', 'inline', 'inner', 'legacy-name']);
  });

  it('keeps img srcset, width and height, and name on links only', async () => {
    const out = await html('<img src="/a.png" srcset="/a.png 1x, /b.png 2x" width="10" height="20" alt="a" name="querySelector">\n\n<a name="old-anchor">old</a>\n');
    expect(out).toMatch(/<img src="[^"]*" srcset="[^"]*" width="10" height="20" alt="a">/);
    expect(out).not.toContain('querySelector');
    expect(out).toContain('<a name="old-anchor">old</a>');
  });

  it('drops a srcset candidate that would run script, with a problem at its image, and keeps the other candidates as written', async () => {
    const body = '<img src="/a.png" srcset="javascript:alert(1) 2x, ftp://example.org/a.png  3x, /b.png 4x" alt="a">\n';
    expect(await problems(body)).toEqual(['4:1 image source "javascript:alert(1)" would run script; use the address of an image']);
    expect(await html(body)).toMatch(/ srcset="ftp:\/\/example.org\/a.png  3x, &#0;docs-link:\d&#0; 4x"/);
  });

  it('treats a writer\'s copy of the pipeline\'s own marker attribute like any other attribute', async () => {
    const out = await html(
      '<script data-docs-own>alert(1)</script>\n\n<div data-docs-own dataDocsOwn data-docs-own0123456789abcdef onclick="alert(2)">d</div>\n\n<img data-docs-own src="/x.png" alt="" onerror="alert(3)">\n',
    );
    expect(out).not.toContain('<script');
    expect(out).not.toMatch(/onclick|onerror|data-docs-own/i);
    expect(out).toContain('<div>d</div>');
  });

  it('does not treat a writer\'s footnote markers and heading as the pipeline\'s own', async () => {
    const out = await html('<a href="#x" data-footnote-backref="" data-footnote-ref="" aria-label="Back">b</a>\n\n<section data-footnotes="" class="footnotes">s</section>\n');
    expect(out).not.toMatch(/data-footnote/);
    expect(out).toContain('aria-label="Back"');
  });

  it('keeps the pipeline\'s own markup untouched around raw HTML (asides, code blocks, headings)', async () => {
    const out = await html(':::note\nA note with <kbd>k</kbd>.\n:::\n\n```js\nconst a = 1;\n```\n\n## Heading <em>raw</em>\n');
    expect(out).toContain('class="aside aside-note"');
    expect(out).toContain('data-aside-default="note"');
    expect(out).toContain('<pre class="code" data-lang="js"');
    expect(out).toMatch(/<h2 id="heading-raw">Heading <em>raw<\/em><\/h2>/);
  });

  it('keeps an HTML comment out of the page', async () => {
    expect(await html('<!-- a secret note -->\n\nText.\n')).toBe('\n<p>Text.</p>');
  });

  it('keeps every SVG shape and attribute of its allow-list, and drops the others', async () => {
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" preserveAspectRatio="none" role="img" aria-label="shapes" aria-hidden="false" focusable="false">' +
      '<g transform="translate(1 1)" opacity="0.5">' +
      '<path d="M0 0h1" fill="red" fill-rule="evenodd" fill-opacity="0.5" clip-rule="evenodd" stroke="blue" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" stroke-opacity="0.5"></path>' +
      '<rect x="1" y="2" rx="1" ry="1"></rect><circle cx="1" cy="2" r="3"></circle><ellipse cx="1" cy="1" rx="2" ry="3"></ellipse>' +
      '<line x1="0" y1="1" x2="2" y2="3"></line><polyline points="0,0 1,1"></polyline><polygon points="0,0 1,1 2,0"></polygon>' +
      '<use href="#x"></use><animate attributeName="x"></animate><foreignObject><p>f</p></foreignObject>' +
      '</g></svg>';
    const out = await html(`${svg}\n`);
    for (const tag of ['svg', 'g', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon']) expect(out, tag).toMatch(new RegExp(`<${tag}[ >]`));
    for (const attribute of [
      'xmlns="http://www.w3.org/2000/svg"', 'viewBox="0 0 10 10"', 'preserveAspectRatio="none"', 'role="img"', 'aria-label="shapes"', 'aria-hidden="false"', 'focusable="false"',
      'transform="translate(1 1)"', 'opacity="0.5"', 'd="M0 0h1"', 'fill="red"', 'fill-rule="evenodd"', 'fill-opacity="0.5"', 'clip-rule="evenodd"', 'stroke="blue"',
      'stroke-width="2"', 'stroke-linecap="round"', 'stroke-linejoin="round"', 'stroke-opacity="0.5"', 'x="1"', 'y="2"', 'rx="1"', 'ry="1"', 'cx="1"', 'cy="2"', 'r="3"',
      'x1="0"', 'y1="1"', 'x2="2"', 'y2="3"', 'points="0,0 1,1"',
    ]) {
      expect(out, attribute).toContain(attribute);
    }
    for (const tag of ['use', 'animate', 'foreignObject', 'foreignobject']) expect(out, tag).not.toMatch(new RegExp(`<${tag}[ >]`));
  });

  it('keeps the content of an element it does not allow, as text and allowed elements', async () => {
    expect(await html('<custom-box><b>bold</b> text</custom-box>\n')).toContain('<b>bold</b> text');
    expect(await html('<font color="red">old</font>\n')).toBe('<p>old</p>');
  });

  it('reports a comment never closed, at its place, and not one that is closed', async () => {
    expect(await problems('Text.\n\n<!-- open\nstill open\n')).toEqual(['6:1 this HTML comment is never closed with "-->": it hides the rest of the page']);
    expect(await problems('Text.\n\n<!-- closed -->\n\n<!-- over\ntwo lines -->\n')).toEqual([]);
    expect(await problems('<div>\n<p>a</p><!-- late\n')).toContain('5:9 this HTML comment is never closed with "-->": it hides the rest of the page');
  });

  it('reports an element never closed, at its opening tag, but not the end tags HTML lets a writer leave out', async () => {
    const never = (tag: string, line: number, column: number) =>
      `${line}:${column} <${tag}> is opened here and never closed: add </${tag}> where it ends (the rest of the page is inside it until then)`;
    expect(await problems('<div class="box">\n\nText.\n')).toEqual([never('div', 4, 1)]);
    expect(await problems('Intro.\n\n<details><summary>s</summary>\n\n## Inside\n')).toEqual([never('details', 6, 1)]);
    expect(await problems('<section>\n<div>\n</section>\n')).toEqual([]);
    expect(await problems('<table><tr><td>a<td>b\n<tr><td>c</table>\n')).toEqual([]);
    expect(await problems('<ul><li>one<li>two</ul>\n\n<p>para\n\n<dl><dt>t<dd>d</dl>\n')).toEqual([]);
    expect(await problems('<br><img src="/x.png" alt=""><hr/><span/>\n\n<div><span>x</span></div>\n')).toEqual([]);
    expect(await problems('<DIV>\n\ntext\n\n</div>\n')).toEqual([]);
  });

  it('reports a footnote reference without a definition at its place, whatever the case of its label', async () => {
    const missing = (label: string, at: string) => `${at} the footnote [^${label}] has no definition: add a line "[^${label}]: …" below (the reference shows as text until then)`;
    expect(await problems('See this[^note].\n')).toEqual([missing('note', '4:9')]);
    expect(await problems('A line,\nthen [^gone] on the second.\n')).toEqual([missing('gone', '5:6')]);
    expect(await problems('See this[^Note].\n\n[^note]: The note.\n')).toEqual([]);
    expect(await problems('See [^a] and [^b].\n\n[^a]: A.\n')).toEqual([missing('b', '4:14')]);
    expect(await problems('Text [^ spaced] and [^].\n')).toEqual([]);
  });

  it('drops the content of each element it strips, not only the element', async () => {
    // (<input> is void: the text after it is not its content.)
    for (const tag of ['script', 'style', 'template', 'noscript', 'title', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes']) {
      const out = await html(`Before <${tag}>SECRET-${tag}</${tag}> after.\n\n<div><${tag}>HIDDEN-${tag}</${tag}></div>\n`);
      expect(out, tag).not.toContain(`SECRET-${tag}`);
      expect(out, tag).not.toContain(`HIDDEN-${tag}`);
    }
  });

  it('asks for no end tag of a void element, nor of one whose end tag HTML lets a writer leave out, and for every other', async () => {
    for (const tag of ['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']) {
      expect(await problems(`<div><${tag}></div>\n`), tag).toEqual([]);
    }
    for (const tag of ['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'option', 'optgroup', 'colgroup', 'caption', 'rb', 'rt', 'rp', 'rtc']) {
      expect(await problems(`<div><${tag}>x</div>\n`), tag).toEqual([]);
    }
    for (const tag of ['span', 'section', 'table', 'ul', 'details', 'blockquote']) {
      expect(await problems(`<div></div><${tag}>x\n`), tag).toEqual([`4:12 <${tag}> is opened here and never closed: add </${tag}> where it ends (the rest of the page is inside it until then)`]);
    }
  });
});
