import { readFileSync, rmSync, mkdtempSync, cpSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { svgToHast } from '../../src/content/diagram-svg.js';
import { loadHighlighter } from '../../src/content/highlight.js';
import { renderMarkdown } from '../../src/content/markdown.js';
import { listFiles, ROOT } from '../helpers/content.js';
import { hasJava, nuHtmlErrors } from '../helpers/nu-html.js';
import { runDocs } from '../helpers/site.js';

/* Diagrams (src/content/plugins/diagrams.ts): a ```mermaid block becomes an SVG figure at build time; its mistakes are problems at their line. */

/** Whether the diagram renderer has been imported in this test's process: the module as it is, noted on its first import. */
const renderer = vi.hoisted(() => ({ loaded: false }));
vi.mock('beautiful-mermaid', async (importOriginal) => {
  renderer.loaded = true;
  return importOriginal();
});

let dir: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docs-diagrams-'));
  cpSync(join(ROOT, 'test/fixtures/diagrams'), dir, { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const render = (body: string) => renderMarkdown(body, { file: 'content/x.md', lineOffset: 3, highlighter: loadHighlighter });
const problems = async (body: string) => (await render(body)).problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`);
const block = (text: string, meta = '') => `\`\`\`mermaid${meta ? ' ' + meta : ''}\n${text}\n\`\`\`\n`;

describe('a mermaid block', () => {
  it('loads the renderer only for a page that has a diagram', async () => {
    // (First in this file: nothing before it has drawn a diagram in this process.)
    await render('## Code\n\n```js\nlet a = 1;\n```\n');
    expect(renderer.loaded).toBe(false);
    await render(block('flowchart LR\n  A --> B'));
    expect(renderer.loaded).toBe(true);
  });

  it('becomes a figure with an SVG drawing: role img, a title and a description, the caption of its title, its text under a disclosure', async () => {
    const { html, problems } = await render(block('flowchart LR\n  entry[Entry] --> graph{Dependency graph}', 'title="How a build runs"'));
    expect(problems).toEqual([]);
    expect(html).toMatch(/^<figure class="diagram"><figcaption>How a build runs<\/figcaption><div class="diagram-view" tabindex="0"><svg viewBox="[\d. ]+" width="[\d.]+" height="[\d.]+" role="img" aria-labelledby="diagram-1-title" aria-describedby="diagram-1-desc"><title id="diagram-1-title">How a build runs<\/title><desc id="diagram-1-desc">Flowchart of Entry, Dependency graph<\/desc>/);
    expect(html).toContain('</svg></div><details class="diagram-source"><summary data-diagram-source="">Diagram source</summary><pre class="code" data-lang="mermaid" tabindex="0"><code>flowchart LR\n  entry[Entry] --> graph{Dependency graph}</code></pre></details></figure>');
    expect(html).toMatch(/<text [^>]*fill="var\(--_text\)"[^>]*>Entry<\/text>/);
  });

  it('draws under the Content-Security-Policy: no style attribute or element, nothing loaded, no script', async () => {
    const { html } = await render(block('sequenceDiagram\n  Alice->>Bob: Hello\n  Bob-->>Alice: Hi') + '\n' + block('classDiagram\n  Animal <|-- Duck\n  Animal: +int age'));
    expect(html.match(/<svg /g)).toHaveLength(2);
    expect(html).not.toMatch(/ style=|<style|@import|<script|<foreignObject|https?:\/\/| on[a-z]+=/i);
  });

  it('gives each diagram of a page its own ids, and its references point to them', async () => {
    const { html, ids } = await render(block('flowchart LR\n  A --> B') + '\n' + block('flowchart TD\n  C --> D'));
    const all = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!);
    expect(new Set(all).size).toBe(all.length);
    expect(all).toContain('diagram-1-arrowhead');
    expect(all).toContain('diagram-2-arrowhead');
    for (const [, ref] of html.matchAll(/url\(#([^)]+)\)/g)) expect(all).toContain(ref);
    expect(ids.has('diagram-2-title')).toBe(true);
  });

  it('draws flowcharts, sequence, state, class and entity relationship diagrams', async () => {
    const kinds = [
      ['flowchart TD\n  A --> B', 'Flowchart'],
      ['graph\n  A --> B', 'Flowchart'],
      ['sequenceDiagram\n  A->>B: hi', 'Sequence diagram'],
      ['stateDiagram-v2\n  [*] --> Idle', 'State diagram'],
      ['classDiagram\n  Animal <|-- Duck', 'Class diagram'],
      ['erDiagram\n  CUSTOMER ||--o{ ORDER : places', 'Entity relationship diagram'],
    ];
    for (const [text, name] of kinds) {
      const { html, problems } = await render(block(text!));
      expect(problems, text).toEqual([]);
      expect(html, text).toContain(`<title id="diagram-1-title">${name}</title>`);
    }
  });

  it('is named and described by accTitle, accDescr (on one line or in braces) and the title of its frontmatter', async () => {
    const one = (await render(block('flowchart LR\n  accTitle: The build\n  accDescr: From entry to output.\n  A --> B'))).html;
    expect(one).toContain('<title id="diagram-1-title">The build</title><desc id="diagram-1-desc">From entry to output.</desc>');
    const braces = (await render(block('---\ntitle: "From frontmatter"\n---\nsequenceDiagram\n  accDescr {\n    Alice greets\n    Bob.\n  }\n  Alice->>Bob: hi'))).html;
    expect(braces).toContain('<title id="diagram-1-title">From frontmatter</title><desc id="diagram-1-desc">Alice greets Bob.</desc>');
    // Neither is drawn as a box of the diagram.
    expect(braces).not.toMatch(/<text[^>]*>[^<]*(?:accDescr|Alice greets)/);
  });

  it('keeps a writer\'s words as text: markup in a label is never an element', async () => {
    const { html } = await render(block('flowchart LR\n  A["<img src=x onerror=alert(1)>"] --> B["<script>alert(2)</script>"]\n  B -->|"<b>x</b>"| C'));
    expect(html).not.toMatch(/<(?:img|script|b)[\s>]/);
    expect(html).toContain('>&lt;img src=x onerror=alert(1)></text>');
    expect(html).toContain('>&lt;script>alert(2)&lt;/script></text>');
  });

  it('is a problem at its line and column when it cannot be drawn, and is shown as its text', async () => {
    const body = [
      block('flowchart TD\n  A[Entry --> B'),
      block('pie\n  "a": 1'),
      block('graph TD\n  A -->'),
      block('flowchart TD\n  A --> B', 'wrap'),
      block(''),
      block('flowchart sideways\n  A --> B'),
      block('flowchart LR\n  A(one] --> B'),
      block('---\ntitle: x\nflowchart LR'),
      block('sequenceDiagram\n  accDescr {\n  never closed'),
    ].join('\n');
    expect(await problems(body)).toEqual([
      'content/x.md:6:4 this "[" is not closed on its line',
      'content/x.md:10:1 "pie" diagrams are not drawn: the kinds drawn are flowchart (or graph), sequenceDiagram, stateDiagram-v2, classDiagram and erDiagram',
      'content/x.md:16:5 this arrow points to nothing: name a node after it',
      'content/x.md:19:1 unknown diagram option "wrap" (a mermaid block takes only title="…", its caption)',
      'content/x.md:25:1 the diagram is empty: start it with its kind (flowchart (or graph), sequenceDiagram, stateDiagram-v2, classDiagram and erDiagram)',
      'content/x.md:29:1 "flowchart sideways": a flowchart\'s direction is TD, TB, LR, BT or RL',
      'content/x.md:35:8 this "]" closes the "(" of column 4, which ")" closes',
      'content/x.md:39:1 the diagram\'s frontmatter has no closing "---"',
      'content/x.md:46:3 accDescr { has no closing }',
    ]);
    const { html } = await render(block('pie\n  "a": 1'));
    expect(html).toBe('<div class="code-block"><pre class="code" data-lang="text" tabindex="0"><code><span class="line">pie</span>\n<span class="line">  "a": 1</span></code></pre><button type="button" class="copy" data-copy="">Copy</button></div>');
  });

  it('is a problem of the build, at its file, line and column, not a crash', async () => {
    const page = join(dir, 'content/guide/plain.md');
    const { readFileSync: read, writeFileSync } = await import('node:fs');
    writeFileSync(page, read(page, 'utf8') + '\n```mermaid\nflowchart LR\n  A --> B{oops\n```\n');
    try {
      const { code, err } = await runDocs(['build', '--root', dir, '--out', 'dist', '--quiet']);
      expect(code).toBe(1);
      expect(err).toContain('content/guide/plain.md:14:10 this "{" is not closed on its line');
      expect(err).not.toMatch(/\n\s+at /);
    } finally {
      cpSync(join(ROOT, 'test/fixtures/diagrams/content/guide/plain.md'), page);
    }
  });
});

describe('careless diagrams', () => {
  it('never crash the build: 300 blocks of Mermaid pieces in random order each become a drawing or a problem', async () => {
    let seed = 38;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = <T,>(list: readonly T[]) => list[Math.floor(next() * list.length)]!;
    const headers = ['flowchart LR', 'graph TD', 'sequenceDiagram', 'stateDiagram-v2', 'classDiagram', 'erDiagram', 'flowchart', 'pie', '', '---'];
    const pieces = ['A', 'B[Box]', 'C{Choice}', 'D((Round))', '-->', '-.->', '==>', '---', '|label|', '"quoted"', '[', ']', '(', ')', '{', '}', ':', ';', 'subgraph S', 'end', '[*]', '->>', '-->>', 'Alice', 'Bob', '||--o{', 'accTitle:', 'accDescr {', '%%', '&', '<b>', '&amp;', '#quot;', 'note over A', 'class A', 'x'.repeat(200)];
    const counts = { drawn: 0, problems: 0 };
    for (let i = 0; i < 300; i++) {
      const lines = [pick(headers)];
      for (let l = Math.floor(next() * 6); l > 0; l--) lines.push('  ' + Array.from({ length: 1 + Math.floor(next() * 6) }, () => pick(pieces)).join(' '));
      const text = lines.join('\n');
      const { html, problems } = await render(block(text));
      const drawn = html.startsWith('<figure class="diagram">');
      expect(drawn !== problems.length > 0, `${text}\n${problems.map((p) => p.message).join('\n')}`).toBe(true);
      if (drawn) expect(html).not.toMatch(/<(?:script|b|foreignObject)[\s>]| style=/);
      counts[drawn ? 'drawn' : 'problems']++;
    }
    // Both ends are reached: many drawings, many problems.
    expect(counts.drawn).toBeGreaterThan(50);
    expect(counts.problems).toBeGreaterThan(50);
  }, 120_000);
});

describe('the SVG of the renderer', () => {
  it('is read with an allowlist: an element that could load or run something is refused, attributes outside the list are left out', () => {
    expect(() => svgToHast('<svg><script>alert(1)</script></svg>', 'd')).toThrow(/^unexpected <script>$/);
    expect(() => svgToHast('<svg><foreignObject></foreignObject></svg>', 'd')).toThrow(/^unexpected <foreignObject>$/);
    expect(() => svgToHast('<svg><text>&nbsp;</text></svg>', 'd')).toThrow(/^unknown character reference &nbsp;$/);
    expect(() => svgToHast('<svg><g></svg>', 'd')).toThrow(/^unexpected <\/svg>$/);
    const svg = svgToHast('<svg style="--bg:red" onload="x()"><style>svg { --a: 1 }</style><rect href="x" fill="url(https://e.org/a)" stroke="url(#m)" id="m" width="2"/><text>a &amp; &lt;b&gt;</text></svg>', 'd');
    expect(svg).toEqual({
      type: 'element',
      tagName: 'svg',
      properties: {},
      children: [
        { type: 'element', tagName: 'rect', properties: { stroke: 'url(#d-m)', id: 'd-m', width: '2' }, children: [] },
        { type: 'element', tagName: 'text', properties: {}, children: [{ type: 'text', value: 'a & <b>' }] },
      ],
    });
  });
});

describe('a built site with diagrams', () => {
  it('has the drawings on the page with diagrams, and no diagram markup on the page without', async () => {
    const { code, err } = await runDocs(['build', '--root', dir, '--out', 'dist', '--quiet']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const page = readFileSync(join(dir, 'dist/guide/diagrams/index.html'), 'utf8');
    const plain = readFileSync(join(dir, 'dist/guide/plain/index.html'), 'utf8');
    expect(page.match(/<figure class="diagram">/g)).toHaveLength(3);
    expect(plain).not.toMatch(/class="diagram|<svg[^>]*role="img"/);
    // The same scripts on both pages: diagrams bring none.
    const scripts = (html: string) => [...html.matchAll(/<script[^>]*>/g)].map((m) => m[0]);
    expect(scripts(page)).toEqual(scripts(plain));
  });

  it("names the source's disclosure in the site's language; a writer's copy of its markup stays as written", async () => {
    const site = mkdtempSync(join(tmpdir(), 'docs-diagrams-fr-'));
    try {
      cpSync(join(ROOT, 'test/fixtures/diagrams'), site, { recursive: true });
      const config = join(site, 'site.config.yaml');
      writeFileSync(config, readFileSync(config, 'utf8').replace('  description: Mermaid blocks drawn at build time.\n', '  description: Mermaid blocks drawn at build time.\n  language: fr\n'));
      const plain = join(site, 'content/guide/plain.md');
      writeFileSync(plain, `${readFileSync(plain, 'utf8')}\n<details><summary data-diagram-source="">Diagram source</summary>Mine.</details>\n`);
      const { code, err } = await runDocs(['build', '--root', site, '--out', 'dist', '--quiet']);
      expect(err).toBe('');
      expect(code).toBe(0);
      const page = readFileSync(join(site, 'dist/guide/diagrams/index.html'), 'utf8');
      expect(page.match(/<summary data-diagram-source="">Source du diagramme<\/summary>/g)).toHaveLength(3);
      expect(page).not.toContain('Diagram source');
      expect(readFileSync(join(site, 'dist/guide/plain/index.html'), 'utf8')).toContain('<details><summary>Diagram source</summary>Mine.</details>');
    } finally {
      rmSync(site, { recursive: true, force: true });
    }
  });

  it('keeps every reference of a drawing to its parts in the section\'s printable page, where ids get the chapter\'s prefix', () => {
    const printable = readFileSync(join(dir, 'dist/guide/printable/index.html'), 'utf8');
    const ids = new Set([...printable.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]!));
    const refs = [...printable.matchAll(/url\(#([^)]+)\)|aria-(?:labelledby|describedby)="([^"]+)"/g)].flatMap((m) => (m[1] ?? m[2]!).split(' '));
    // Each drawing is named and described; its lines point to their arrowheads.
    expect(refs.filter((r) => /diagram-\d+-(?:title|desc)$/.test(r))).toHaveLength(6);
    expect(refs.filter((r) => r.includes('arrow')).length).toBeGreaterThanOrEqual(9);
    for (const ref of refs) expect(ids, ref).toContain(ref);
  });

  it.runIf(hasJava)('passes the Nu HTML Checker on every page', async () => {
    const dist = join(dir, 'dist');
    const files = listFiles(dist).filter((f) => f.endsWith('.html'));
    expect(files).toContain('guide/diagrams/index.html');
    const errors = await nuHtmlErrors(dist, files.map((f) => join(dist, f)));
    expect(errors, errors.join('\n')).toEqual([]);
  }, 120_000);
});
