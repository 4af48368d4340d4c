import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { colorStylesheet, contrastProblems, contrastRatio, themeColors } from '../../src/theme/colors.js';
import { UI_EN } from '../../src/theme/ui.js';
import UI_ZH from '../../src/theme/ui/zh.json' with { type: 'json' };
import { DESCRIPTION_MAX, firstParagraph } from '../../templates/description.js';
import { tocEntries, TOC_H3_LIMIT } from '../../templates/toc.js';
import { ROOT } from '../helpers/content.js';
import { editFile, runDocs } from '../helpers/site.js';

/*
 * Issue #38 in the built output: the link-preview tags of every page (site.image, the frontmatter's image),
 * site.printable, the logo's forms (light, dark, alt, replacesTitle), the dark-scheme header colours and
 * their contrast checks, breadcrumbs, the "On this page" column and where the edit links went; every
 * problem with its file, line and column.
 */

const FIXTURE = join(ROOT, 'test/fixtures/sharing');
const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the sharing fixture to change and build. */
function copy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-sharing-'));
  temps.push(dir);
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

const build = (dir: string, ...args: string[]) => runDocs(['build', '--root', dir, '--quiet', ...args]);
const page = (dir: string, path: string) => readFileSync(join(dir, 'dist', path), 'utf8');
const meta = (html: string) => [...html.matchAll(/<meta (?:property|name)="((?:og|twitter):[a-z_:]+)" content="([^"]*)"\/>/g)].map((m) => [m[1], m[2]]);

/** "file:line:column" of the first line of a file that starts with `start` (after spaces), the column where `value` first comes in it from there. */
function at(dir: string, file: string, start: string, value: string): string {
  const lines = readFileSync(join(dir, file), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.trimStart().startsWith(start));
  expect(line, `${start} in ${file}`).toBeGreaterThanOrEqual(0);
  const column = lines[line]!.indexOf(value, lines[line]!.indexOf(start));
  expect(column).toBeGreaterThanOrEqual(0);
  return `${file}:${line + 1}:${column + 1}`;
}

describe('link previews', () => {
  let dir: string;
  beforeAll(async () => {
    dir = copy();
    const { code, err } = await build(dir);
    expect(err).toBe('');
    expect(code).toBe(0);
  });

  it('gives a page og:title, og:description, og:url, og:type, og:site_name, and its own picture as og:image with a large card', () => {
    expect(meta(page(dir, 'guide/tour/index.html'))).toEqual([
      ['og:type', 'website'],
      ['og:site_name', 'Lumen'],
      ['og:title', 'The tour'],
      ['og:description', 'A walk through Lumen, &quot;start&quot; to &lt;finish&gt; &amp; back.'],
      ['og:url', 'https://lumen.example.org/guide/tour/'],
      ['og:image', 'https://lumen.example.org/images/tour.png'],
      ['twitter:card', 'summary_large_image'],
      ['twitter:title', 'The tour'],
      ['twitter:description', 'A walk through Lumen, &quot;start&quot; to &lt;finish&gt; &amp; back.'],
      ['twitter:image', 'https://lumen.example.org/images/tour.png'],
    ]);
  });

  it('takes the description as text: quotes and angle brackets are escaped in the attribute, never markup', () => {
    const html = page(dir, 'guide/tour/index.html');
    expect(html).not.toContain('<finish>');
    expect(html).toContain('<meta name="description" content="A walk through Lumen, &quot;start&quot; to &lt;finish&gt; &amp; back."/>');
  });

  it('gives a page without a picture of its own site.image, and without a description its first paragraph (the home page: site.description)', () => {
    const tags = Object.fromEntries(meta(page(dir, 'guide/short/index.html')));
    expect(tags['og:description']).toBe('A short page with one section.');
    expect(page(dir, 'guide/short/index.html')).toContain('<meta name="description" content="A short page with one section."/>');
    // Its text only: the links of the paragraph are words.
    expect(Object.fromEntries(meta(page(dir, 'guide/index.html')))['og:description']).toBe('The guide of Lumen: the tour and a short page.');
    expect(Object.fromEntries(meta(page(dir, 'index.html')))['og:description']).toBe('Lumen lights up your build.');
    expect(tags['og:image']).toBe('https://lumen.example.org/social.png');
    expect(tags['twitter:image']).toBe('https://lumen.example.org/social.png');
    expect(tags['twitter:card']).toBe('summary_large_image');
    expect(tags['og:url']).toBe('https://lumen.example.org/guide/short/');
    // The home page is titled by the site.
    expect(Object.fromEntries(meta(page(dir, 'index.html')))['og:url']).toBe('https://lumen.example.org/');
  });

  it('writes a small card and no og:image without any picture', async () => {
    const bare = copy();
    editFile(join(bare, 'site.config.yaml'), '  image: static/social.png\n', '');
    editFile(join(bare, 'content/guide/tour.md'), 'image: /images/tour.png\n', '');
    expect((await build(bare)).code).toBe(0);
    const tags = Object.fromEntries(meta(page(bare, 'guide/tour/index.html')));
    expect(tags['twitter:card']).toBe('summary');
    expect(tags['og:image']).toBeUndefined();
    expect(tags['twitter:image']).toBeUndefined();
    expect(tags['og:title']).toBe('The tour');
  });

  it('keeps an absolute picture URL as written, and puts the base path into the addresses of the site', async () => {
    const other = copy();
    editFile(join(other, 'site.config.yaml'), 'image: static/social.png', 'image: https://cdn.example.org/lumen/card.png?v=2&size=large');
    expect((await build(other, '--base', '/docs/')).code).toBe(0);
    const short = Object.fromEntries(meta(page(other, 'guide/short/index.html')));
    expect(short['og:image']).toBe('https://cdn.example.org/lumen/card.png?v=2&amp;size=large');
    expect(short['og:url']).toBe('https://lumen.example.org/docs/guide/short/');
    expect(Object.fromEntries(meta(page(other, 'guide/tour/index.html')))['og:image']).toBe('https://lumen.example.org/docs/images/tour.png');
  });

  it('reports a missing, wrongly typed or broken site.image at its place in the config', async () => {
    const broken = copy();
    editFile(join(broken, 'site.config.yaml'), 'image: static/social.png', 'image: static/missing.png');
    let run = await build(broken);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${at(broken, 'site.config.yaml', 'image:', 'static/')} site.image: there is no file static/missing.png in the site folder\n`);

    editFile(join(broken, 'site.config.yaml'), 'image: static/missing.png', 'image: static/logo.svg');
    run = await build(broken);
    expect(run.err).toContain(`${at(broken, 'site.config.yaml', 'image:', 'static/')} site.image: expected a PNG, JPEG, WebP or GIF file: link previews do not show SVG\n`);

    editFile(join(broken, 'site.config.yaml'), 'image: static/logo.svg', 'image: social.png');
    run = await build(broken);
    expect(run.err).toContain(`${at(broken, 'site.config.yaml', 'image:', 'social')} site.image: expected a file under static/ (such as static/social.png) or an absolute https:// URL\n`);

    editFile(join(broken, 'site.config.yaml'), 'image: social.png', 'image: static/social.png');
    writeFileSync(join(broken, 'static/social.png'), 'not a picture');
    run = await build(broken);
    expect(run.err).toContain(`${at(broken, 'site.config.yaml', 'image:', 'static/')} site.image: static/social.png is not a PNG image (it does not start with the PNG signature and header)\n`);
  });

  it('reports a frontmatter image that is no file of static/, or no picture path, at its line and column', async () => {
    const broken = copy();
    editFile(join(broken, 'content/guide/tour.md'), 'image: /images/tour.png', 'image: /images/missing.png');
    let run = await build(broken);
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `${at(broken, 'content/guide/tour.md', 'image:', '/images')} frontmatter.image: image "/images/missing.png" is not a file of static/ (put the picture there and write its path from it, such as /images/social.png)\n`,
    );
    editFile(join(broken, 'content/guide/tour.md'), 'image: /images/missing.png', 'image: images/tour.svg');
    run = await build(broken);
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `${at(broken, 'content/guide/tour.md', 'image:', 'images')} frontmatter.image: expected a PNG, JPEG, WebP or GIF file of static/ written from there (such as /images/social.png), or an absolute https:// URL\n`,
    );
  });
});

describe('the description of a page without one', () => {
  const of = (html: string) => firstParagraph({ html, htmlInCache: false, sourceKey: 'none', sourcePath: 'content/x.md' });
  it('is its first paragraph of its own (not one of an aside, a list or a table), as text, cut at a word before DESCRIPTION_MAX characters', () => {
    expect(
      of('<div class="aside aside-note" role="note" aria-label="Note"><p class="aside-title">Note</p>\n<p>Inside.</p></div>\n<ul>\n<li>\n<p>Item.</p>\n</li>\n</ul>\n<p>Own <em>words</em>.</p>\n<p>Second.</p>'),
    ).toBe('Own words.');
    expect(of('<h2 id="a">A</h2>\n<p>First <a href="/x/">link</a> &amp; <code>&lt;code&gt;</code>,\nover two lines.</p>\n<p>Second.</p>')).toBe('First link & <code>, over two lines.');
    const long = 'word '.repeat(100).trim();
    const cut = of(`<p>${long}</p>`)!;
    expect(cut.length).toBeLessThanOrEqual(DESCRIPTION_MAX);
    expect(cut).toMatch(/^(word )+word…$/);
    expect(of(`<p>${'x'.repeat(DESCRIPTION_MAX)}</p>`)).toBe('x'.repeat(DESCRIPTION_MAX));
    expect(of('<ul>\n<li>No paragraph.</li>\n</ul>')).toBeUndefined();
    expect(of('')).toBeUndefined();
  });
});

describe('site.printable', () => {
  it('builds the printable section and links to it after the text by default', async () => {
    const dir = copy();
    expect((await build(dir)).code).toBe(0);
    expect(existsSync(join(dir, 'dist/guide/printable/index.html'))).toBe(true);
    expect(page(dir, 'guide/tour/index.html')).toContain('<a href="/guide/printable/">Printable section</a>');
  });

  it('false: no printable documents, no links to them, and a link to one is a problem of its page', async () => {
    const dir = copy();
    editFile(join(dir, 'site.config.yaml'), '  image: static/social.png\n', '  image: static/social.png\n  printable: false\n');
    let run = await build(dir);
    expect(run.err).toBe('');
    expect(readdirSync(join(dir, 'dist/guide'))).not.toContain('printable');
    const tour = page(dir, 'guide/tour/index.html');
    expect(tour).not.toContain('printable');
    expect(tour).not.toContain(UI_EN.printableSection);
    // The edit link stays, after the text.
    expect(tour).toMatch(/<div class="article-tools"><a href="https:\/\/codeberg.org\/lumen\/docs\/src\/branch\/main\/content\/guide\/tour.md" target="_blank" rel="noopener noreferrer">Edit this page/);
    writeFileSync(join(dir, 'content/guide/short.md'), readFileSync(join(dir, 'content/guide/short.md'), 'utf8') + '\nPrint [the guide](/guide/printable/).\n');
    run = await build(dir);
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/^content\/guide\/short\.md:\d+:\d+ .*links to "\/guide\/printable\/", which is not a page of this site/m);
  });

  it('is a boolean', async () => {
    const dir = copy();
    editFile(join(dir, 'site.config.yaml'), '  image: static/social.png\n', '  image: static/social.png\n  printable: no-thanks\n');
    const run = await build(dir);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${at(dir, 'site.config.yaml', 'printable:', 'no-thanks')} site.printable: expected boolean, received string "no-thanks"`);
  });
});

describe('the article', () => {
  let dir: string;
  beforeAll(async () => {
    dir = copy();
    expect((await build(dir)).code).toBe(0);
  });

  it('has breadcrumbs above the title: a "Breadcrumb" navigation with an ordered list, the page last and current', () => {
    expect(page(dir, 'guide/tour/index.html')).toContain(
      '<nav class="breadcrumbs" aria-label="Breadcrumb"><ol><li><a href="/guide/">Guide</a></li><li><a href="/guide/tour/" aria-current="page">The tour</a></li></ol></nav><h1>The tour</h1>',
    );
    // A section's own page has none.
    expect(page(dir, 'guide/index.html')).not.toContain('class="breadcrumbs"');
  });

  it('lists the h2s and, under each, the h3s in the "On this page" column after the main content', () => {
    const html = page(dir, 'guide/tour/index.html');
    expect(html).toContain(
      '<nav class="toc" aria-label="On this page"><div class="toc-inner"><p class="toc-title" aria-hidden="true">On this page</p><ul>' +
        '<li><a href="#arrive">Arrive</a></li>' +
        '<li><a href="#look-around">Look around</a><ul><li><a href="#windows">Windows</a></li><li><a href="#doors">Doors</a></li></ul></li>' +
        '<li><a href="#configure">Configure</a></li>' +
        '<li><a href="#build">Build</a><ul><li><a href="#fast-builds">Fast builds</a></li><li><a href="#slow-builds">Slow builds</a></li></ul></li>' +
        '<li><a href="#ship">Ship</a></li><li><a href="#leave">Leave</a></li></ul></div></nav>',
    );
    expect(html.indexOf('</main>')).toBeLessThan(html.indexOf('<nav class="toc"'));
    // The phone list is still there, under the title.
    expect(html).toMatch(/<h1>The tour<\/h1><details class="toc-phone"><summary>Contents<\/summary>/);
    // A page of one section has no column; the landing home has none either.
    expect(page(dir, 'guide/short/index.html')).not.toContain('class="toc"');
    expect(page(dir, 'index.html')).not.toContain('class="toc"');
  });

  it('puts "Edit this page" and "Printable section" after the text and further reading, before the previous and next pages', () => {
    const html = page(dir, 'guide/tour/index.html');
    const [text, tools, pagination] = ['<div class="markdown">', '<div class="article-tools">', '<nav class="pagination"'].map((s) => html.indexOf(s)) as [number, number, number];
    expect(text).toBeGreaterThan(html.indexOf('<h1>'));
    expect(tools).toBeGreaterThan(text);
    expect(pagination).toBeGreaterThan(tools);
    expect(html.slice(tools, pagination)).toContain('Edit this page');
    expect(html.slice(tools, pagination)).toContain('Printable section');
  });

  it('has the interface words of the column and the breadcrumbs in English and Chinese', () => {
    expect([UI_EN.onThisPage, UI_EN.breadcrumb]).toEqual(['On this page', 'Breadcrumb']);
    expect([UI_ZH.onThisPage, UI_ZH.breadcrumb]).toEqual(['本页内容', '页面路径']);
  });

  it('lists the h2s only on a page of more than TOC_H3_LIMIT h3s, and when the body cannot be read', () => {
    const anchors = [{ id: 'a', title: 'A' }, { id: 'b', title: 'B' }];
    const html = '<h2 id="a">A</h2>\n' + Array.from({ length: TOC_H3_LIMIT + 1 }, (_, i) => `<h3 id="x${i}">X ${i}</h3>`).join('\n') + '\n<h2 id="b">B</h2>\n';
    const headings = ['A', ...Array.from({ length: TOC_H3_LIMIT + 1 }, (_, i) => `X ${i}`), 'B'];
    const base = { anchors, html, htmlInCache: false, sourceKey: 'none', sourcePath: 'content/x.md' };
    expect(tocEntries({ ...base, headings }).every((entry) => entry.children.length === 0)).toBe(true);
    // At the limit the h3s are listed, their text read from the markup (tags dropped, references decoded).
    const limited = html.replace(`<h3 id="x${TOC_H3_LIMIT}">X ${TOC_H3_LIMIT}</h3>\n`, '').replace('<h3 id="x0">X 0</h3>', '<h3 id="x0"><code>a &amp;&lt;b&gt;</code> &#x26; c</h3>');
    const entries = tocEntries({ ...base, html: limited, headings: headings.slice(0, -2).concat('B') });
    expect(entries[0]!.children).toHaveLength(TOC_H3_LIMIT);
    expect(entries[0]!.children[0]).toEqual({ id: 'x0', title: 'a &<b> & c' });
    // A body that says otherwise than the anchors (or none at all): the anchors alone.
    expect(tocEntries({ ...base, html: '<h2 id="z">Z</h2>\n<h3 id="y">Y</h3>', headings: ['A', 'Y', 'B'] })).toEqual(anchors.map((a) => ({ ...a, children: [] })));
  });
});

describe('the logo', () => {
  it('takes a file for each scheme, alt text, and hides the title from sight but not from the link name', async () => {
    const dir = copy();
    expect((await build(dir)).code).toBe(0);
    const html = page(dir, 'guide/tour/index.html');
    expect(html).toContain(
      '<a class="logo" href="/" aria-label="Lumen home"><span class="logo-image"><img class="logo-light" src="/logo.svg" alt="Lumen" width="96" height="32"><img class="logo-dark" src="/logo-dark.svg" alt="Lumen" width="96" height="32"></span><span class="logo-text sr-only" aria-hidden="true">Lumen</span></a>',
    );
    // The footer's logo too.
    expect(html).toContain('<img class="logo-dark" src="/logo-dark.svg" alt="Lumen" width="108" height="36">');
  });

  it('is still a file name alone (or { src }), drawn in both schemes with the title beside it', async () => {
    const dir = copy();
    editFile(join(dir, 'site.config.yaml'), /  logo:\n(    .*\n){4}/, '  logo: static/logo.svg\n');
    expect((await build(dir)).code).toBe(0);
    expect(page(dir, 'guide/tour/index.html')).toContain(
      '<a class="logo" href="/" aria-label="Lumen home"><span class="logo-image"><img src="/logo.svg" alt="" width="96" height="32"></span><span class="logo-text" aria-hidden="true">Lumen</span></a>',
    );
    editFile(join(dir, 'site.config.yaml'), '  logo: static/logo.svg\n', '  logo:\n    src: static/logo-dark.svg\n');
    expect((await build(dir)).code).toBe(0);
    expect(page(dir, 'guide/tour/index.html')).toContain('<img src="/logo-dark.svg" alt="" width="96" height="32">');
  });

  it('reports a missing dark file, a logo without its file and an unknown key at their places', async () => {
    const dir = copy();
    editFile(join(dir, 'site.config.yaml'), 'dark: static/logo-dark.svg', 'dark: static/night.svg');
    let run = await build(dir);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${at(dir, 'site.config.yaml', 'dark:', 'static/')} theme.logo.dark: there is no file static/night.svg in the site folder\n`);

    editFile(join(dir, 'site.config.yaml'), '    light: static/logo.svg\n', '');
    editFile(join(dir, 'site.config.yaml'), 'dark: static/night.svg', 'dark: static/logo-dark.svg');
    run = await build(dir);
    expect(run.code).toBe(1);
    expect(run.err).toContain(`${at(dir, 'site.config.yaml', 'dark:', 'dark')} theme.logo: expected light: the logo file under static/ (such as static/logo.svg)\n`);

    editFile(join(dir, 'site.config.yaml'), '    dark: static/logo-dark.svg\n', '    light: static/logo.svg\n    darkness: static/logo-dark.svg\n');
    run = await build(dir);
    expect(run.err).toContain(`${at(dir, 'site.config.yaml', 'darkness:', 'darkness')} theme.logo.darkness: unknown key "darkness"\n`);

    editFile(join(dir, 'site.config.yaml'), '    darkness: static/logo-dark.svg\n', '');
    editFile(join(dir, 'site.config.yaml'), 'replacesTitle: true', 'replacesTitle: "yes"');
    run = await build(dir);
    expect(run.err).toContain(`${at(dir, 'site.config.yaml', 'replacesTitle:', '"yes"')} theme.logo.replacesTitle: expected boolean, received string "yes"\n`);
  });
});

describe('header colours per scheme', () => {
  it('writes light-dark() pairs of the header properties from the light and dark keys', async () => {
    const dir = copy();
    expect((await build(dir)).code).toBe(0);
    const css = readdirSync(join(dir, 'dist/assets')).filter((f) => f.endsWith('.css')).map((f) => readFileSync(join(dir, 'dist/assets', f), 'utf8')).join('');
    expect(css).toContain('--header-bg: light-dark(#ffffff, #171a20);');
    expect(css).toContain('--header-fg: light-dark(#1f2a30, #ffffff);');
    expect(css).toContain('--header-fg-soft: light-dark(#4a5a63, #d4d8de);');
    expect(css).toContain('--header-accent: light-dark(#3b5bdb, #91a7ff);');
  });

  it('lets a dark key left out follow its light key (a config of one header colour for both schemes keeps its look)', () => {
    const colors = themeColors({ headerText: '#fafafa', headerTextSoft: '#cccccc' });
    expect(colors.headerTextDark).toBe('#fafafa');
    expect(colors.headerTextSoftDark).toBe('#cccccc');
    expect(colors.headerAccentDark).toBe(colors.headerAccent);
    expect(colorStylesheet(colors)).toContain('  --header-fg: #fafafa;');
    // Nothing set: the defaults, the same in both schemes.
    expect(colorStylesheet(themeColors())).toContain('  --header-fg: #ffffff;');
  });

  it('checks every dark key on headerDark: 4.49:1 is refused, 4.50:1 accepted (3:1 for the accent)', () => {
    const cases: Array<[key: 'headerTextDark' | 'headerTextSoftDark' | 'headerAccentDark', refused: string, accepted: string]> = [
      ['headerTextDark', '#0080ff', '#0082f8'],
      ['headerTextSoftDark', '#0080ff', '#0082f8'],
      ['headerAccentDark', '#0053ff', '#0054fe'],
    ];
    for (const [key, refused, accepted] of cases) {
      const min = key === 'headerAccentDark' ? 3 : 4.5;
      expect(contrastRatio(refused, '#261338')).toBeCloseTo(min - 0.01, 2);
      expect(contrastRatio(accepted, '#261338')).toBeGreaterThanOrEqual(min);
      const refusedSet = { headerDark: '#261338', [key]: refused };
      expect(contrastProblems(themeColors(refusedSet), refusedSet).map((p) => [p.key, p.message.replace(/ on .*/, '')])).toEqual([[key, `${key} ${refused}`]]);
      const acceptedSet = { headerDark: '#261338', [key]: accepted };
      expect(contrastProblems(themeColors(acceptedSet), acceptedSet)).toEqual([]);
    }
  });

  it('a white light-scheme header with a light text colour left for the dark one: the problem names the dark key and points at the light one', async () => {
    const dir = copy();
    editFile(join(dir, 'site.config.yaml'), "    headerTextDark: '#ffffff'\n", '');
    editFile(join(dir, 'site.config.yaml'), "    headerDark: '#171a20'\n", '');
    const run = await build(dir);
    expect(run.code).toBe(1);
    expect(run.err).toContain(
      `${at(dir, 'site.config.yaml', 'headerText:', "'")} theme.colors.headerText: headerTextDark (not set, so headerText) #1f2a30 on headerDark #171a20 has a contrast of 1.19:1; header text (dark scheme) needs at least 4.5:1 (WCAG AA): set headerTextDark\n`,
    );
  });
});
