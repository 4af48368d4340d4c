import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureSite, runDocs } from '../helpers/site.js';

/*
 * The build fills in parts of a page after its Markdown is rendered: the links' and images' final
 * addresses, the interface's words for asides and footnotes, and the printable page's chapter ids.
 * A writer who types the markup or the placeholders those steps look for, in Markdown text, in
 * code, or as raw HTML, gets that text back as written (or as the sanitiser leaves raw HTML), never
 * a filled-in link, never the interface's words, and never markup that comes out of a text node.
 * (A NUL character, which marks the build's own placeholders, is refused in a page: see errors tests.)
 */

/** Every form of placeholder and filled-in markup the build's code uses, and lookalikes of it. */
const FORMS = [
  'href="docs-link:0"',
  'src="docs-link:1"',
  'srcset="docs-link:0 2x"',
  'href="&#0;docs-link:0&#0;"',
  'href="&#x0;docs-link:1&#x0;"',
  ' id="setup" href="#setup" aria-labelledby="setup"',
  '<div class="aside aside-note" role="note" aria-label="Note"><p class="aside-title" data-aside-default="note">Note</p></div>',
  '<h2 class="sr-only" id="footnote-label">Footnotes</h2>',
  '<a href="#setup" data-footnote-backref="" aria-label="Back to reference 1">back</a>',
];

const PAGE = `---
title: Second
---

Links that the build fills in: [first](../first/) and ![a logo](/img/logo.svg).

<a href="/guides/first/?<img src=x onerror=alert(1)>">a link with a query</a>

${FORMS.map((form, i) => `Typed ${i}: ${form.replace(/&/g, '&amp;').replace(/</g, '&lt;')}\n\nIn code ${i}: \`${form}\`\n\n\`\`\`text\n${form}\n\`\`\``).join('\n\n')}

<p title='href="docs-link:0"'>raw title</p>

<a href="docs-link:0">raw placeholder link</a>

<img src="docs-link:1" alt="raw placeholder image">

<p title="&#0;docs-link:0&#0;">raw with a character reference of NUL</p>

<div class="aside aside-note" role="note" aria-label="Note"><p class="aside-title" data-aside-default="note">Note</p></div>

<h2 class="sr-only">Footnotes</h2>

<p><a href="#setup" data-footnote-backref="" aria-label="Back to reference 1">raw back link</a></p>

<img name="querySelector" src="/img/logo.svg" alt="named">

## Setup

Text.
`;

let site: string;
let page: string;
let printable: string;

beforeAll(async () => {
  site = fixtureSite();
  writeFileSync(join(site, 'content/guides/second.md'), PAGE);
  mkdirSync(join(site, 'static/img'), { recursive: true });
  writeFileSync(join(site, 'static/img/logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"/>');
  // Interface words that differ from the English defaults, so that a filled-in word shows.
  const config = readFileSync(join(site, 'site.config.yaml'), 'utf8');
  writeFileSync(join(site, 'site.config.yaml'), `${config}ui:\n  asideNote: NOTE-WORD\n  footnotes: FOOTNOTES-WORD\n  footnoteBack: BACK-WORD {n}\n`);
  const result = await runDocs(['build', '--root', site, '--quiet']);
  expect(result.err).toBe('');
  expect(result.code).toBe(0);
  page = readFileSync(join(site, 'dist/guides/second/index.html'), 'utf8');
  printable = readFileSync(join(site, 'dist/guides/printable/index.html'), 'utf8');
}, 120_000);

afterAll(() => rmSync(site, { recursive: true, force: true }));

/** Text as the serialiser writes it in a text node. */
const asText = (s: string) => s.replace(/&/g, '&#38;').replace(/</g, '&lt;');

describe('placeholders a writer types', () => {
  it('fills in the real links and images', () => {
    expect(page).toContain('<a href="/guides/first/">first</a>');
    expect(page).toContain('src="/img/logo.svg"');
  });

  it('keeps the query of a raw link inside its attribute, escaped', () => {
    expect(page).toContain('href="/guides/first/?&lt;img src=x onerror=alert(1)&gt;"');
    expect(page).not.toMatch(/<img src=x/);
  });

  for (const [i, form] of FORMS.entries()) {
    it(`keeps "${form}" as written, in text, in inline code and in a code block`, () => {
      expect(page).toContain(`Typed ${i}: ${asText(form)}`);
      expect(page).toContain(`In code ${i}: <code>${asText(form)}</code>`);
      // The code block's text, whatever the highlighter's spans around it.
      const block = page.split(`In code ${i}: `)[1]!.split('</pre>')[0]!;
      expect(block.replace(/<[^>]+>/g, '').split('\n').join('')).toContain(asText(form).replace(/"/g, '"'));
    });
  }

  it('fills in no link and no interface word anywhere the writer typed them', () => {
    for (const html of [page, printable]) {
      expect(html).not.toContain('NOTE-WORD');
      expect(html).not.toContain('FOOTNOTES-WORD');
      expect(html).not.toContain('BACK-WORD');
      expect(html).not.toMatch(/&#x?0;docs-link|\u0000/);
    }
    // The raw placeholders reach no filled-in address: the placeholder link goes nowhere, the image is dropped or unresolved.
    expect(page).toContain('raw placeholder link</a>');
    expect(page).not.toMatch(/<a href="\/guides\/first\/">raw placeholder link/);
    expect(page).toContain(`<p title="href=&#34;docs-link:0&#34;">raw title</p>`);
  });

  it('leaves the printable page’s chapter prefix out of the writer’s text', () => {
    expect(printable).toContain(`Typed 5: ${asText(FORMS[5]!)}`);
    expect(printable).toMatch(/ id="guides-second--setup"/);
  });

  it('refuses the footnotes\' heading id on a writer\'s element, at its place', async () => {
    const other = fixtureSite();
    try {
      writeFileSync(join(other, 'content/guides/second.md'), '---\ntitle: Second\n---\n\nText.\n\n<h2 class="sr-only" id="footnote-label">Footnotes</h2>\n');
      const result = await runDocs(['check', '--root', other]);
      expect(result.code).toBe(1);
      expect(result.err).toContain(`content/guides/second.md:7:1 the id "footnote-label" is the footnotes' heading's: choose another`);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('keeps no `name` on an image, where it would shadow a property of document', () => {
    expect(page).toMatch(/<img src="\/img\/logo.svg" alt="named">/);
    expect(page).not.toContain('name="querySelector"');
  });
});
