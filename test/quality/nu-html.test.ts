import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { build } from '../../src/engine/build.js';
import { listFiles, ROOT } from '../helpers/content.js';
import { hasJava, nuHtmlErrors } from '../helpers/nu-html.js';

/*
 * Every HTML file of the built webpack site and of each fixture site (pages,
 * printable sections, the 404 page, redirect pages) passes the Nu HTML Checker
 * with no error. The checker runs once per site over all its files.
 */

const made: string[] = [];
afterAll(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

const SITES: Array<{ name: string; root: string; redirects: boolean }> = [
  { name: 'the webpack site', root: process.env.DOCS_TEST_SITE ? resolve(ROOT, process.env.DOCS_TEST_SITE) : ROOT, redirects: false },
  { name: 'the fixture site', root: join(ROOT, 'test/fixtures/site'), redirects: true },
  { name: 'the fixture of headings named like chrome ids', root: join(ROOT, 'test/fixtures/chrome-ids'), redirects: true },
  { name: 'the themed fixture site (landing home, own footer, Chinese interface)', root: join(ROOT, 'test/fixtures/themed'), redirects: false },
  { name: 'the writers fixture site (a section from a folder, a hero picture)', root: join(ROOT, 'test/fixtures/writers'), redirects: false },
  { name: 'the fixture site in three languages and two versions', root: join(ROOT, 'test/fixtures/trees'), redirects: false },
  { name: 'the fixture site in English and Arabic (right to left)', root: join(ROOT, 'test/fixtures/rtl'), redirects: false },
];

describe.runIf(hasJava)('the Nu HTML Checker', () => {
  it('reports the errors of an invalid document (the search box as it was, a duplicate id)', async () => {
    const dir = tempDir('docs-nu-');
    const file = join(dir, 'invalid.html');
    writeFileSync(
      file,
      '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>x</title></head><body>' +
        '<input type="search" role="combobox" aria-expanded="false" aria-controls="r"><ul id="r" role="listbox"></ul>' +
        '<h2 id="r">Twice</h2></body></html>',
    );
    const errors = await nuHtmlErrors(dir, [file]);
    expect(errors.some((e) => e.includes('invalid.html:1:') && e.includes('element “input”'))).toBe(true);
    expect(errors.some((e) => e.includes('Duplicate ID “r”'))).toBe(true);
  });

  for (const site of SITES) {
    it(`finds no error on any page of ${site.name}`, async () => {
      const out = tempDir('docs-nu-site-');
      await build({ root: site.root, out });
      const files = listFiles(out).filter((f) => f.endsWith('.html'));
      // Every kind of document is there to be checked.
      expect(files).toContain('404.html');
      expect(files).toContain('index.html');
      expect(files.some((f) => f.endsWith('printable/index.html'))).toBe(true);
      if (site.redirects) expect(files.some((f) => f.startsWith('ids/') || f.startsWith('old-first/'))).toBe(true);
      const errors = await nuHtmlErrors(out, files.map((f) => join(out, f)));
      expect(errors, `${errors.length} errors in ${files.length} files:\n${errors.join('\n')}`).toEqual([]);
    }, 300_000);
  }
});
