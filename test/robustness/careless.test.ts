import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { docsIn, expectNoStack, expectRejected, goodBuild, notCache, put, scratchSite, serveProblems, treeHash, type Scratch } from './harness.js';

/*
 * What a careless user types: a --base that is not a path of the site's own
 * host, an empty --host, an anchor with a stray "%", a link to a section's
 * printable document, headings with nothing to slug. Each is either a clear
 * message (exit 2 for the command line, 1 for the sources) or works.
 */

let s: Scratch;
/** The files the probes change, put back as they were after each. */
const FIRST = 'content/guides/first.md';
const SECOND = 'content/guides/second.md';
const CONFIG = 'site.config.yaml';
const originals = new Map<string, string>();
let first: string;
let second: string;
let config: string;

beforeAll(async () => {
  s = scratchSite();
  for (const file of [FIRST, SECOND, CONFIG]) originals.set(file, readFileSync(join(s.site, file), 'utf8'));
  [first, second, config] = [originals.get(FIRST)!, originals.get(SECOND)!, originals.get(CONFIG)!];
  await goodBuild(s);
});

afterEach(() => {
  for (const [file, text] of originals) put(s, file, text);
});
afterAll(() => s?.remove());

/** Line of the fixture page's body where text added at its end starts. */
const addedLine = () => first.split('\n').length + 1;

describe('--base that is not a path on the site\'s own host: exit 2, nothing touched', () => {
  const hostRule = 'it must be a path on the site\'s own host, such as /docs/ or /project/v2/: letters, digits and - . _ ~ between single slashes, no "..", no scheme or host';
  for (const [base, why] of [
    ['//evil.example/', hostRule],
    ['https://evil.example/', hostRule],
    ['/a b/', hostRule],
    ['/docs/../x/', hostRule],
    // A browser reads %2e%2e as "..": /x/%2e%2e/ is the site's parent.
    ['/x/%2e%2e/', hostRule],
    ['/proj%20ect/', hostRule],
    ['/a"onload="x/', hostRule],
    ['--quiet', 'it looks like an option: give the path after --base, such as --base /docs/'],
  ] as const) {
    for (const command of ['build']) {
      it(`docs ${command} --base ${base}`, async () => {
        const before = treeHash(s.dir, notCache);
        const run = await docsIn(s, [command, `--base=${base}`]);
        expectNoStack(run);
        expect(run.stderr).toBe(`--base ${base}: ${why}. Nothing was written.\n`);
        expect(run.code).toBe(2);
        expect(treeHash(s.dir, notCache)).toEqual(before);
      });
    }
  }

  it('a base without its slashes is completed, and every link of the site gets it', async () => {
    const run = await docsIn(s, ['build', '-q', '--base', 'docs/v2', '--out', 'base-out']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const html = readFileSync(join(s.site, 'base-out', 'guides', 'first', 'index.html'), 'utf8');
    expect(html).toMatch(/<link rel="stylesheet" href="\/docs\/v2\/assets\//);
    expect(html).not.toMatch(/(?:href|src)="\/(?!docs\/v2\/)[^"]/);
    // The host sees the paths with their base: the rule for the hashed assets names them so.
    const headers = readFileSync(join(s.site, 'base-out', '_headers'), 'utf8');
    expect(headers).toContain('\n/docs/v2/assets/*\n  Cache-Control: public, max-age=31536000, immutable\n');
    expect(headers).not.toContain('\n/assets/*');
  });
});

describe('serve --host', () => {
  for (const host of ['', '  ']) {
    it(`--host "${host}": exit 2`, async () => {
      const run = await docsIn(s, ['serve', '--port', '0', `--host=${host}`]);
      expectNoStack(run);
      expect(run.stderr).toBe(`--host must name an address to listen on, such as 127.0.0.1 (the default) or 0.0.0.0 (got "${host}").\n`);
      expect(run.code).toBe(2);
    });
  }
});

describe('links', () => {
  it('an anchor holding a "%" that starts no escape is a problem with its position, not a bug', async () => {
    put(s, FIRST, `${first}\nSee [here](#%zz), [there](/guides/second/#%E0) and [fine](#%25zz-not-here).\n`);
    const line = addedLine();
    await expectRejected(s, ['build'], [
      `${FIRST}:${line}:5 links to "#%zz", whose anchor holds a "%" that starts no escape; write the heading's id as it is (#my-heading), or "%" as %25`,
      `${FIRST}:${line}:19 links to "/guides/second/#%E0", whose anchor holds a "%" that starts no escape; write the heading's id as it is (#my-heading), or "%" as %25`,
      `${FIRST}:${line}:52 links to "#%zz-not-here", but /guides/first/ has no such anchor`,
    ]);
  });

  it("a link to a section's printable document is a link to a page of the site", async () => {
    put(s, FIRST, `${first}\nRead the [whole section](/guides/printable/) or [its start](../printable/).\n`);
    const run = await docsIn(s, ['build', '-q']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const html = readFileSync(join(s.site, 'dist', 'guides', 'first', 'index.html'), 'utf8');
    // (In the text: the page's own "Printable section" link follows it.)
    expect(html.split('<div class="markdown">')[1]!.split('<div class="article-tools">')[0]!.match(/href="\/guides\/printable\/"/g)).toHaveLength(2);
    // A section that has no such document is still a broken link.
    put(s, FIRST, `${first}\nRead [nothing](/nowhere/printable/).\n`);
    await expectRejected(s, ['build'], [`${FIRST}:${addedLine()}:6 links to "/nowhere/printable/", which is not a page of this site`]);
  });
});

describe('headings with nothing to slug (only emoji or punctuation)', () => {
  it('get the ids section, section-1…, a self-link and a sidebar entry; a link to them is checked', async () => {
    put(s, FIRST, `${first}\n## 🎉\n\nParty.\n\n## !!!\n\nAgain, see [the first](#section) and [the second](#section-1).\n`);
    const run = await docsIn(s, ['build', '-q']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const html = readFileSync(join(s.site, 'dist', 'guides', 'first', 'index.html'), 'utf8');
    expect(html).not.toContain('id=""');
    expect(html).toContain('<h2 id="section">🎉</h2><a class="anchor" href="#section"');
    expect(html).toContain('<h2 id="section-1">!!!</h2><a class="anchor" href="#section-1"');
    expect(html).toContain('<ul class="sidebar-anchors" id="sidebar-anchors-1"><li><a href="#install">Install</a></li><li><a href="#configure">Configure</a></li><li><a href="#upgrade">Upgrade</a></li><li><a href="#section">🎉</a></li><li><a href="#section-1">!!!</a></li></ul>');
    put(s, FIRST, `${first}\n## 🎉\n\nSee [the third](#section-2).\n`);
    await expectRejected(s, ['build'], [`${FIRST}:${addedLine() + 2}:5 links to "#section-2", but /guides/first/ has no such anchor (did you mean #section?)`]);
  });
});

describe('images', () => {
  it('an image of static/ is checked like a link and gets the base path; a missing one is a problem with its position', async () => {
    put(s, 'static/images/diagram.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n');
    put(s, CONFIG, `${config.trimEnd()}\ncsp:\n  img: [https://example.org]\n`);
    try {
      put(s, FIRST, `${first}\n![Diagram](/images/diagram.svg) ![Relative](../images/diagram.svg) ![Remote](https://example.org/x.png) ![Inline](data:image/gif;base64,R0lGODlhAQABAAAAACw=)\n`);
      const run = await docsIn(s, ['build', '-q', '--base', '/docs/', '--out', 'images-out']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const body = readFileSync(join(s.site, 'images-out', 'guides', 'first', 'index.html'), 'utf8').split('<div class="markdown">')[1]!;
      expect(body).toContain('<img src="/docs/images/diagram.svg" alt="Diagram"> <img src="/docs/images/diagram.svg" alt="Relative"> <img src="https://example.org/x.png" alt="Remote"> <img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="Inline">');
      put(s, FIRST, `${first}\n![Gone](/images/gone.png) and <img src="/raw-gone.png" alt="raw">\n`);
      const image = (src: string) => `shows the image "${src}", which is not a file of static/ (put the image there and write its path from it, such as /images/diagram.png)`;
      await expectRejected(s, ['build'], [`${FIRST}:${addedLine()}:1 ${image('/images/gone.png')}`, `${FIRST}:${addedLine()}:31 ${image('/raw-gone.png')}`]);
    } finally {
      rmSync(join(s.site, 'static'), { recursive: true, force: true });
    }
  });

  it("every candidate of a srcset (a <picture>'s <source>, an <img>) is checked and gets the base path as src does", async () => {
    put(s, 'static/images/diagram.svg', '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>\n');
    put(s, CONFIG, `${config.trimEnd()}\ncsp:\n  img: [https://example.org]\n`);
    try {
      const picture = (dark: string) =>
        `<picture>\n<source media="(prefers-color-scheme: dark)" srcset="${dark} 1x, /images/diagram.svg 2x">\n<img src="/images/diagram.svg" srcset="../images/diagram.svg 2x, https://example.org/x.png 3x" alt="Diagram">\n</picture>\n`;
      put(s, FIRST, `${first}\n${picture('/images/diagram.svg')}`);
      const run = await docsIn(s, ['build', '-q', '--base', '/docs/', '--out', 'images-out']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const body = readFileSync(join(s.site, 'images-out', 'guides', 'first', 'index.html'), 'utf8').split('<div class="markdown">')[1]!;
      expect(body).toContain(
        '<picture>\n<source media="(prefers-color-scheme: dark)" srcset="/docs/images/diagram.svg 1x, /docs/images/diagram.svg 2x">\n' +
          '<img src="/docs/images/diagram.svg" srcset="/docs/images/diagram.svg 2x, https://example.org/x.png 3x" alt="Diagram">\n</picture>',
      );
      put(s, FIRST, `${first}\n${picture('/images/dark.svg')}`);
      const image = (src: string) => `shows the image "${src}", which is not a file of static/ (put the image there and write its path from it, such as /images/diagram.png)`;
      await expectRejected(s, ['check'], [`${FIRST}:${addedLine() + 1}:1 ${image('/images/dark.svg')}`]);
    } finally {
      rmSync(join(s.site, 'static'), { recursive: true, force: true });
    }
  });
});

describe('images from other hosts', () => {
  it('show only where the Content-Security-Policy lets them load: one it does not is a problem naming what to add to csp.img', async () => {
    put(s, CONFIG, `${config.trimEnd()}\ncsp:\n  img: [https://img.example.org, https://*.cdn.example.com, https://static.example.net/pictures/]\n`);
    const allowed = '![a](https://img.example.org/a.png) ![b](//img.example.org/b.png) ![c](https://eu.cdn.example.com/c.png) ![d](https://static.example.net/pictures/d.png)';
    put(s, FIRST, `${first}\n${allowed}\n\n![e](https://elsewhere.example/e.png) ![f](https://static.example.net/other/f.png)\n`);
    const refused = (url: string, origin: string) =>
      `shows the image "${url}", which the Content-Security-Policy does not let load (pages load images from the site and from csp.img); add ${origin} to csp.img in the config`;
    await expectRejected(s, ['check'], [
      `${FIRST}:${addedLine() + 2}:1 ${refused('https://elsewhere.example/e.png', 'https://elsewhere.example')}`,
      `${FIRST}:${addedLine() + 2}:39 ${refused('https://static.example.net/other/f.png', 'https://static.example.net')}`,
    ]);
  });
});

describe('csp sources that would change the policy itself', () => {
  it('X4 a comma (a second policy), a semicolon (a new directive), a space (a second source) or a quote (a keyword) in a source is refused at its place', async () => {
    const base = config.trimEnd();
    const at = base.split('\n').length + 3;
    put(s, CONFIG, `${base}\ncsp:\n  img:\n    - https://a.example/,script-src\n    - "https://b.example/x;script-src 'unsafe-inline'"\n    - https://c.example/images/\n    - "https://d.example/x 'unsafe-eval'"\n    - "https://e.example/'unsafe-eval'"\n`);
    const rule = 'expected a source such as https://img.example.com, https://*.example.com or data: (a path may not hold spaces, commas or semicolons)';
    await expectRejected(s, ['build'], [`${CONFIG}:${at}:7 csp.img[0]: ${rule}`, `${CONFIG}:${at + 1}:7 csp.img[1]: ${rule}`, `${CONFIG}:${at + 3}:7 csp.img[3]: ${rule}`, `${CONFIG}:${at + 4}:7 csp.img[4]: ${rule}`]);
  });
});

describe('rules no schema holds, each given a failing input, in build, check and serve alike', () => {
  it("a related: link of a page's frontmatter to a missing page, a missing anchor or a script URL is a problem at its place", async () => {
    put(
      s,
      FIRST,
      first.replace(
        '    url: /guides/second/\n',
        '    url: /guides/secnd/\n  - title: An anchor\n    url: /guides/second/#no-such-heading\n  - title: Script\n    url: "javascript:alert(1)"\n  - title: Fine\n    url: /guides/long/\n',
      ),
    );
    const problems = [
      `${FIRST}:11:10 frontmatter.related[0].url: links to "/guides/secnd/", which is not a page of this site (did you mean /guides/second/?)`,
      `${FIRST}:13:10 frontmatter.related[1].url: links to "#no-such-heading", but /guides/second/ has no such anchor`,
      `${FIRST}:15:10 frontmatter.related[2].url: links to "javascript:alert(1)": javascript:, vbscript: and data: links are not allowed (they run script or hide content); link to a page or an https:// address`,
    ];
    await expectRejected(s, ['build'], problems);
    await expectRejected(s, ['check'], problems);
    const out = await serveProblems(s);
    for (const problem of problems) expect(out).toContain(problem);
  });

  it("a section's own index page listed again in its pages:, and a section listed twice, are problems at their places", async () => {
    const lines = config.split('\n');
    const pagesAt = lines.indexOf('      - guides/first') + 1;
    put(s, CONFIG, config.replace('      - guides/first\n', '      - guides/first\n      - guides\n').replace('redirects:\n', '  - title: Guides again\n    url: guides\nredirects:\n'));
    const sectionAt = lines.indexOf('redirects:') + 3;
    const problems = [
      `${CONFIG}:${pagesAt + 1}:9 sections[1].pages[1]: page "guides" is the section's own index page; do not list it again`,
      `${CONFIG}:${sectionAt}:10 sections[3].url: section "guides" is listed twice (first at sections[1])`,
    ];
    await expectRejected(s, ['build'], problems);
    await expectRejected(s, ['check'], problems);
    const out = await serveProblems(s);
    for (const problem of problems) expect(out).toContain(problem);
  });
});

describe('files of static/ that the build writes itself', () => {
  it('are problems naming each (a page, _headers, the search index…), in build, check and serve alike; static/favicon.svg is the favicon', async () => {
    const files = [
      'index.html',
      'guides/first/index.html',
      'guides/printable/index.html',
      'old-first/index.html',
      '_headers',
      'sitemap.xml',
      '404.html',
      'search-index/meta.json',
      // (P4: the names of the built script and stylesheet, whatever their hash: a file by one of them replaced the site's script.)
      'assets/main.cdb3ed46a7.js',
      'assets/style.0123456789.css',
    ];
    for (const file of [...files, 'favicon.svg', 'images/fine.png', 'assets/photo.png']) put(s, `static/${file}`, 'x\n');
    try {
      const why: Record<string, string> = {
        'index.html': 'the page built from content/index.md',
        'guides/first/index.html': 'the page built from content/guides/first.md',
        'guides/printable/index.html': 'the printable document of /guides/',
        'old-first/index.html': 'the redirect page of /old-first/',
        _headers: 'a file it generates',
        'sitemap.xml': 'a file it generates',
        '404.html': 'the page built from content/404.md',
        'search-index/meta.json': 'the search index',
        'assets/main.cdb3ed46a7.js': 'the name of its script, stylesheet or search files',
        'assets/style.0123456789.css': 'the name of its script, stylesheet or search files',
      };
      const problems = files
        .map((file) => `static/${file}: the build writes ${file} itself (${why[file]}), and this file would replace it; remove or rename it`)
        .sort();
      await expectRejected(s, ['build'], problems);
      await expectRejected(s, ['check'], problems);
      // serve reports them too, and serves once they are fixed.
      const out = await serveProblems(s);
      for (const problem of problems) expect(out).toContain(problem);
    } finally {
      rmSync(join(s.site, 'static'), { recursive: true, force: true });
    }
    put(s, 'static/favicon.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
    try {
      const run = await docsIn(s, ['build', '-q', '--out', 'favicon-out']);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(readFileSync(join(s.site, 'favicon-out', 'favicon.svg'), 'utf8')).toBe('<svg xmlns="http://www.w3.org/2000/svg"/>\n');
    } finally {
      rmSync(join(s.site, 'static'), { recursive: true, force: true });
    }
  });
});

describe('titles and names of only spaces', () => {
  it('a title or description over several lines is one line everywhere; a title cannot add a link to llms.txt', async () => {
    put(s, FIRST, first.replace(/^title: .*$/m, 'title: |\n  Line one\n  Line two](https://evil.example/) [x').replace(/^description: .*$/m, 'description: >-\n  First half,\n\n  ## Injected heading'));
    const run = await docsIn(s, ['build', '-q', '--out', 'lines-out']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const html = readFileSync(join(s.site, 'lines-out', 'guides', 'first', 'index.html'), 'utf8');
    expect(html).toContain('<title>Line one Line two](https://evil.example/) [x | fixture</title>');
    const llms = readFileSync(join(s.site, 'lines-out', 'llms.txt'), 'utf8');
    expect(llms).toContain('- [Line one Line two\\](https://evil.example/) \\[x](https://docs.example.org/guides/first/): First half, ## Injected heading\n');
  });


  it('a site title of spaces and a language that is no language tag are problems with their positions', async () => {
    put(s, CONFIG, config.replace(/^  title: fixture$/m, '  title: "   "\n  language: ""'));
    await expectRejected(s, ['check'], [
      `${CONFIG}:2:10 site.title: expected text, not only spaces`,
      `${CONFIG}:3:13 site.language: expected a language tag, such as en, zh-CN or pt-BR`,
    ]);
  });

  it('a page title of spaces is a problem with its position; an empty description is one too', async () => {
    put(s, FIRST, first.replace(/^title: .*$/m, 'title: "   "').replace(/^description: .*$/m, 'description: ""'));
    await expectRejected(s, ['check'], [`${FIRST}:2:8 frontmatter.title: expected text, not only spaces`, `${FIRST}:4:14 frontmatter.description: expected a non-empty string`]);
  });
});

describe('careless footnotes and tabs', () => {
  it('a footnote with no definition, and two tabs of one label, are problems at their places', async () => {
    put(s, FIRST, `${first}\nA claim[^source] and a note[^1].\n\n[^1]: The note.\n\n::::tabs\n:::tab[npm]\na\n:::\n:::tab[npm]\nb\n:::\n::::\n`);
    await expectRejected(s, ['check'], [
      `${FIRST}:${addedLine()}:8 the footnote [^source] has no definition: add a line "[^source]: …" below (the reference shows as text until then)`,
      `${FIRST}:${addedLine() + 8}:1 two tabs of this block are labelled "npm": give each its own label`,
    ]);
  });
});

describe('raw HTML that is never closed', () => {
  it('an element whose end tag never comes, or a comment without "-->", is a problem at its opening; closed ones and left-out </td> are not', async () => {
    const fine = '<details><summary>More</summary>\n\nInside.\n\n</details>\n\nPress <kbd>Ctrl</kbd>, then<br> go on.\n\n<table><tr><td>cell</table>\n\n';
    put(s, FIRST, `${first}\n${fine}<div class="note">\n\n## Swallowed\n\n<!-- a note to self\n\n## Hidden\n`);
    const at = addedLine() + fine.split('\n').length - 1;
    await expectRejected(s, ['check'], [
      `${FIRST}:${at}:1 <div> is opened here and never closed: add </div> where it ends (the rest of the page is inside it until then)`,
      `${FIRST}:${at + 4}:1 this HTML comment is never closed with "-->": it hides the rest of the page`,
    ]);
  });
});

describe('a directive block that is never closed', () => {
  it('inside a block of as many colons, the message says to give the outer block more', async () => {
    put(s, FIRST, `${first}\n:::note\nOuter.\n:::tip\nInner.\n:::\nMore.\n:::\n`);
    await expectRejected(s, ['check'], [
      `${FIRST}:${addedLine() + 2}:1 the :::tip block opened here is never closed, so it takes in the rest of the page: add a line of ::: where it ends (it is inside the :::note block of line ${addedLine()}, which has as many colons, so that a line of ::: cannot close the inner block alone: give the outer block more colons, ::::note … ::::)`,
    ]);
  });

  it('is a problem at its opening line; closed ones (in a list item, in a quote, nested) are not', async () => {
    const closed = '- item\n\n  :::tip\n  inside\n  :::\n\n> :::warning\n> quoted\n> :::\n\n::::tabs\n:::tab[npm]\na\n:::\n:::tab[yarn]\nb\n:::\n::::\n';
    put(s, FIRST, `${first}\n${closed}`);
    const run = await docsIn(s, ['check']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    put(s, FIRST, `${first}\n${closed}\n:::note\nThe rest.\n\n## Later\n\nMore.\n`);
    await expectRejected(s, ['check'], [
      `${FIRST}:${addedLine() + 19}:1 the :::note block opened here is never closed, so it takes in the rest of the page: add a line of ::: where it ends`,
    ]);
  });
});

describe('links of the config (navigation, footer)', () => {

  it('an anchor is checked against the page; a printable document is a page', async () => {
    const footer = '    - title: Guides\n      url: /guides/\n';
    expect(config).toContain(footer);
    put(s, CONFIG, config.replace(footer, `${footer}    - title: Install\n      url: /guides/first/#install\n    - title: Print\n      url: /guides/printable/\n`));
    const run = await docsIn(s, ['check']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    put(s, CONFIG, config.replace(footer, `${footer}    - title: Nowhere\n      url: /guides/first/#nope\n    - title: Bad escape\n      url: /guides/first/#%zz\n`));
    await expectRejected(s, ['check'], [
      `${CONFIG}:44:12 footer.links[1].url: links to "/guides/first/#nope", but /guides/first/ has no such anchor`,
      `${CONFIG}:46:12 footer.links[2].url: links to "/guides/first/#%zz", but /guides/first/ has no such anchor`,
    ]);
  });
});

describe('text of the config inside the head script', () => {
  it('a banner version holding "</script>" or "<!--" stays a string of the script', async () => {
    put(s, CONFIG, config.replace(/^  version: 2$/m, '  version: "</script><!--<script>alert(1)</script>"'));
    const run = await docsIn(s, ['build', '-q', '--out', 'script-out']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const html = readFileSync(join(s.site, 'script-out', 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/<script\b[^>]*>([^]*?)<\/script>/g)];
    // One inline script, the page's own; every other script is a file.
    expect(scripts.filter((m) => !/^<script[^>]*\ssrc=/.test(m[0])).map((m) => m[0].slice(0, 20))).toEqual(['<script>(function(){']);
    expect(scripts[0]![1]).toContain('"\\u003c/script>\\u003c!--\\u003cscript>alert(1)\\u003c/script>"');
    expect(html).not.toContain('alert(1)</script>');
  });
});

describe('a site in another language', () => {
  it('gets the words of alerts and footnotes in its language too (they were English)', async () => {
    put(s, CONFIG, config.replace(/^  title: fixture$/m, '  title: fixture\n  language: zh'));
    put(s, FIRST, `${first}\n> [!IMPORTANT]\n> Read this.\n\n> [!CAUTION]\n> Mind this.\n\nA claim[^1].\n\n[^1]: Its source.\n`);
    const run = await docsIn(s, ['build', '-q', '--out', 'zh-out']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const html = readFileSync(join(s.site, 'zh-out', 'guides', 'first', 'index.html'), 'utf8');
    expect(html).toContain('<div class="aside aside-note" role="note" aria-label="重要"><p class="aside-title" data-aside-default="important">重要</p>');
    expect(html).toContain('<div class="aside aside-danger" role="note" aria-label="小心"><p class="aside-title" data-aside-default="caution">小心</p>');
    expect(html).toContain('<h2 class="sr-only" id="footnote-label">脚注</h2>');
    expect(html).toContain('aria-label="返回引用 1"');
    expect(html).not.toMatch(/>Important<|>Caution<|>Footnotes<|Back to reference/);
  });
});

describe('ids given twice on a page', () => {
  it('by the writer, or as one the page makes itself (a tab panel, the footnotes), are problems at the writer\'s element', async () => {
    // (The fixture page has a group of tabs above: tabs-1; the one added here is tabs-2.)
    const raw = '<p id="dup">a</p>\n\n<p id="dup">b</p>\n\n<div id="footnote-label">c</div>\n\n<p id="tabs-2-1-panel">d</p>\n\n<p id="tabs-1-1-panel">e</p>\n\n';
    const generated = '::::tabs\n:::tab[A]\na\n:::\n:::tab[B]\nb\n:::\n::::\n\nNoted[^1].\n\n[^1]: The note.\n';
    put(s, FIRST, `${first}\n${raw}${generated}`);
    const why = 'an id names one element of a page (a link to it would find the first); choose another';
    await expectRejected(s, ['check'], [
      `${FIRST}:${addedLine() + 2}:1 the id "dup" is given on line ${addedLine()} already: ${why}`,
      `${FIRST}:${addedLine() + 4}:1 the id "footnote-label" is one the page makes itself too (for a tab or the footnotes): ${why}`,
      `${FIRST}:${addedLine() + 6}:1 the id "tabs-2-1-panel" is one the page makes itself too (for a tab or the footnotes): ${why}`,
      `${FIRST}:${addedLine() + 8}:1 the id "tabs-1-1-panel" is one the page makes itself (for a tab or the footnotes): ${why}`,
    ]);
  });
});

describe('links as written', () => {
  it('keep their query, and "#" alone stays the top of the page', async () => {
    put(s, FIRST, `${first}\n[q](./second.md?tab=npm#setup) [r](/guides/second/?x=1) [top](#)\n`);
    const run = await docsIn(s, ['build', '-q', '--base', '/docs/', '--out', 'links-out']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const html = readFileSync(join(s.site, 'links-out', 'guides', 'first', 'index.html'), 'utf8');
    expect(html).toContain('<a href="/docs/guides/second/?tab=npm#setup">q</a> <a href="/docs/guides/second/?x=1">r</a> <a href="#">top</a>');
  });

  it('are absolute URLs in llms-full.txt (a reader there has no page to resolve them from); code blocks stay as written', async () => {
    put(s, FIRST, `${first}\n[q](./second.md#setup), [top](#), [r][ref] and [s](</guides/second/>).\n\n[ref]: ../second/\n\n\`\`\`md\n[kept](./second.md)\n\`\`\`\n`);
    const run = await docsIn(s, ['build', '-q', '--base', '/docs/', '--out', 'llms-out']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const full = readFileSync(join(s.site, 'llms-out', 'llms-full.txt'), 'utf8');
    expect(full).toContain(
      '[q](https://docs.example.org/docs/guides/second/#setup), [top](https://docs.example.org/docs/guides/first/), [r][ref] and [s](<https://docs.example.org/docs/guides/second/>).\n\n' +
        '[ref]: https://docs.example.org/docs/guides/second/\n\n```md\n[kept](./second.md)\n```\n',
    );
  });

  it('a near miss of a page or an anchor (a letter left out, swapped, or in the wrong case) comes with what was meant', async () => {
    put(s, FIRST, `${first}\n[a](/guides/secnod/) [b](/Guides/Second/) [c](./second.md#stup) [d](#nothing-like-it)\n`);
    await expectRejected(s, ['check'], [
      `${FIRST}:${addedLine()}:1 links to "/guides/secnod/", which is not a page of this site (did you mean /guides/second/?)`,
      `${FIRST}:${addedLine()}:22 links to "/Guides/Second/", which is not a page of this site (did you mean /guides/second/?)`,
      `${FIRST}:${addedLine()}:43 links to "#stup", but /guides/second/ has no such anchor (did you mean #setup?)`,
      `${FIRST}:${addedLine()}:65 links to "#nothing-like-it", but /guides/first/ has no such anchor`,
    ]);
  });
});

describe('every problem at once', () => {

  it('a page with a problem still has its links checked', async () => {
    put(s, FIRST, `${first}\n#### Skipped\n\nSee [nothing](/nope/) and [no anchor](#nope).\n`);
    await expectRejected(s, ['check'], [
      `${FIRST}:${addedLine()}:1 heading level skips from h2 to h4`,
      `${FIRST}:${addedLine() + 2}:5 links to "/nope/", which is not a page of this site`,
      `${FIRST}:${addedLine() + 2}:27 links to "#nope", but /guides/first/ has no such anchor`,
    ]);
  });

  it("a problem of the config comes with the pages' own problems, in build, check and serve", async () => {
    const lines = config.split('\n').length;
    put(s, CONFIG, `${config.trimEnd()}\nbogus: 1\n`);
    // (P7: the links too, checked against the pages while the config is not valid; a redirect's source is known from the file.)
    put(s, FIRST, `${first}\n#### Skipped\n\nSee [nothing](/nope/), [no anchor](/guides/long/#nope), [the old address](/old-first/) and [the printable section](/guides/printable/).\n`);
    put(s, SECOND, second.replace(/^title: .*$/m, 'title: ['));
    const problems = [
      `${FIRST}:${addedLine()}:1 heading level skips from h2 to h4`,
      `${FIRST}:${addedLine() + 2}:5 links to "/nope/", which is not a page of this site`,
      `${FIRST}:${addedLine() + 2}:24 links to "#nope", but /guides/long/ has no such anchor`,
      `${SECOND}:3:1 YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]`,
      `${CONFIG}:${lines}:1 bogus: unknown key "bogus"`,
    ];
    await expectRejected(s, ['check'], problems);
    await expectRejected(s, ['build'], problems);
    const out = await serveProblems(s);
    for (const problem of problems) expect(out).toContain(problem);
  });

  it("a page whose frontmatter fails still has its body's problems and links reported, in build, check and serve", async () => {
    const added = second.split('\n').length + 1;
    put(s, SECOND, `${second.replace(/^title: .*$/m, 'title: [')}\n#### Skipped\n\nSee [nothing](/nope/).\n`);
    const problems = [
      `${SECOND}:3:1 YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]`,
      `${SECOND}:${added}:1 heading level skips from h2 to h4`,
      `${SECOND}:${added + 2}:5 links to "/nope/", which is not a page of this site`,
    ];
    await expectRejected(s, ['check'], problems);
    await expectRejected(s, ['build'], problems);
    const out = await serveProblems(s);
    for (const problem of problems) expect(out).toContain(problem);
  });
});
