import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { chapterHtml } from '../../src/build/render.js';
import { OutputWriter } from '../../src/build/output.js';
import { createEntryReader } from '../../src/build/search-entry.js';
import { sectionPartsOfPieces, sectionsOf, type SearchSection, type SectionPart } from '../../src/build/search-sections.js';
// @ts-expect-error: a plain script of the benchmark, without types.
import { shapeMarkdown } from '../../scripts/bench-shapes.mjs';
import { CacheBodyFile, flushCacheWrites, readCache, readCachedBody, writeCache, type CachedMarkdown } from '../../src/content/cache.js';
import { splitSource } from '../../src/content/frontmatter.js';
import { loadHighlighter } from '../../src/content/highlight.js';
import { renderMarkdown } from '../../src/content/markdown.js';
import { linePieces, setPieceSize } from '../../src/content/pieces.js';
import { scratchDir } from '../helpers/content.js';
import { withCacheDir } from '../helpers/site.js';

/*
 * A very large page's body is read from the render cache, filled in,
 * indexed and written in pieces that end at line breaks (src/content/pieces.ts).
 * Wherever the pieces are cut, the result must be the whole body's.
 */
const ROOT = join(import.meta.dirname, '..', '..');

/** Every page body of the site as rendered (with link placeholders). */
const bodies: Array<{ file: string; html: string }> = [];
beforeAll(async () => {
  const highlighter = await loadHighlighter();
  const dir = join(ROOT, 'content');
  for (const file of (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).sort()) {
    const { body, bodyLineOffset } = splitSource(readFileSync(join(dir, file), 'utf8'), file);
    bodies.push({ file, html: (await renderMarkdown(body, { file, lineOffset: bodyLineOffset, highlighter })).html });
  }
}, 300_000);
afterEach(() => setPieceSize());

/** Expects `pieces` to be `text` cut after line breaks: each but the last ends with one. */
function expectLinePieces(pieces: string[], text: string, label: string): void {
  expect(pieces.join(''), label).toBe(text);
  for (const piece of pieces.slice(0, -1)) expect(piece.endsWith('\n'), label).toBe(true);
}

const meta = (html: string, padding = ''): CachedMarkdown => ({ html, anchors: [], headings: [padding], ids: [], links: [], tokenClasses: {} });

describe('pieces of a body', () => {
  it('cuts text after line breaks, in pieces of about the size asked for, and leaves short text whole', () => {
    const text = Array.from({ length: 500 }, (_, i) => `<p>line ${i} é😀</p>`).join('\n') + '\nlast line without a break'.repeat(40);
    for (const size of [1, 7, 64, 1000]) {
      const pieces = linePieces(text, size);
      expectLinePieces(pieces, text, `size ${size}`);
      if (size === 1000) expect(pieces.length).toBeGreaterThan(5);
    }
    expect(linePieces(text, text.length)).toEqual([text]);
    expect(linePieces('', 4)).toEqual(['']);
  });

  it('reads a body from the render cache in pieces: past a meta line longer than a piece, lines longer than a piece, characters of several bytes on the cuts', async () => {
    const dir = scratchDir('pieces-cache');
    await withCacheDir(join(dir, 'cache'), async () => {
      const long = 'x'.repeat(300);
      const body = Array.from({ length: 200 }, (_, i) => `<p>${i % 7 ? 'é'.repeat(i % 13) : long}😀</p>`).join('\n') + '\n<p>no break at the end</p>';
      await writeCache('k1', meta(body, 'a meta line longer than a piece '.repeat(20)));
      await writeCache('k2', meta('', 'an empty body'));
      // A body given in pieces is stored as their concatenation.
      await writeCache('k3', meta(''), ['<p>one</p>', '\n', '<p>two</p>']);
      await flushCacheWrites();
      for (const size of [1, 5, 64, 4096, 1 << 20]) {
        const pieces = [...readCachedBody('k1', size)!];
        expectLinePieces(pieces, body, `size ${size}`);
        if (size === 64) expect(pieces.length).toBeGreaterThan(50);
        expect([...readCachedBody('k2', size)!].join('')).toBe('');
        expect([...readCachedBody('k3', size)!].join('')).toBe('<p>one</p>\n<p>two</p>');
      }
      expect(readCache('k3')!.html).toBe('<p>one</p>\n<p>two</p>');
      // Without the body, only the meta line is read, in as many pieces as it takes.
      for (const size of [100, 1 << 16]) {
        setPieceSize(size);
        expect(readCache('k1', false)).toEqual({ ...meta('', 'a meta line longer than a piece '.repeat(20)), html: '' });
        expect(readCache('k1')!.html).toBe(body);
      }
      expect(readCachedBody('missing')).toBeUndefined();
    });
  });

  it('stores a body written as it is made with its meta line, starts it over, and gives it back whole when the cache cannot store it', async () => {
    const dir = scratchDir('pieces-sink');
    const cache = join(dir, 'cache');
    await withCacheDir(cache, async () => {
      const pieces = Array.from({ length: 300 }, (_, i) => `<p>${'é😀'.repeat(i % 17)} ${i}</p>${i % 3 ? '\n' : ''}`);
      const body = pieces.join('');
      const key = 'ab'.repeat(32);
      const file = new CacheBodyFile(key);
      file.write('<p>a first render, started over</p>\n');
      file.reset();
      for (const piece of pieces) file.write(piece);
      const fallback: string[] = [];
      expect(await file.finish(meta('ignored', 'stored'), fallback)).toBe(true);
      expect(fallback).toEqual([]);
      expect(readCache(key)).toEqual({ ...meta('', 'stored'), html: body });
      expect([...readCachedBody(key, 64)!].join('')).toBe(body);
      // Where the page's file cannot go (here a folder is in its place), the body comes back in pieces.
      const other = 'cd'.repeat(32);
      mkdirSync(join(cache, 'pages', 'cd', `${other}.page`), { recursive: true });
      const failing = new CacheBodyFile(other);
      for (const piece of pieces) failing.write(piece);
      const back: string[] = [];
      expect(await failing.finish(meta(''), back)).toBe(false);
      expect(back.join('')).toBe(body);
      // What a build that was killed left (its process is gone) goes when the folder is next written; a running build's stays.
      const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
      const deadTemp = join(cache, 'pages', 'ab', `${'ab'.repeat(32)}.body.${dead}.x1.tmp`);
      const liveTemp = join(cache, 'pages', 'ab', `${'ab'.repeat(32)}.body.${process.pid}.x2.tmp`);
      writeFileSync(deadTemp, 'left by a killed build');
      writeFileSync(liveTemp, 'being written');
      new CacheBodyFile('ab'.repeat(32)).discard();
      expect([existsSync(deadTemp), existsSync(liveTemp)]).toEqual([false, true]);
      rmSync(liveTemp);
      // A body let go leaves nothing; no temporary file is left behind by any of them.
      const dropped = new CacheBodyFile('ef'.repeat(32));
      dropped.write('<p>a page that failed</p>');
      dropped.discard();
      const left = (readdirSync(join(cache, 'pages'), { recursive: true }) as string[]).filter((f) => f.endsWith('.tmp') || f.includes('ef'.repeat(32)));
      expect(left).toEqual([]);
    });
  });

  /** Sections from their parts, as SectionPart says: a section's non-empty texts joined with a space. */
  const sectionsFrom = (parts: Iterable<SectionPart>): SearchSection[] => {
    const sections: SearchSection[] = [];
    for (const [anchor, heading, text, first] of parts) {
      if (first) sections.push([anchor, heading, text]);
      else if (text) sections[sections.length - 1]![2] = [sections[sections.length - 1]![2], text].filter(Boolean).join(' ');
    }
    return sections.filter(([anchor, , text]) => text || anchor);
  };
  const entryOf = (html: string | Iterable<string>) => createEntryReader()({ url: '/page/', title: 'A page', slug: 'page' }, html);

  it('gives every page of the site the same printable chapter, search sections and search entry, whatever the pieces', () => {
    expect(bodies.length).toBeGreaterThan(140);
    let cutInside = 0;
    for (const { file, html } of bodies) {
      const entry = entryOf(html);
      for (const size of [300, 4096]) {
        const pieces = linePieces(html, size);
        if (pieces.length > 1) cutInside++;
        expect(pieces.map((piece) => chapterHtml(piece, 'chapter')).join(''), `${file} (${size})`).toBe(chapterHtml(html, 'chapter'));
        expect(sectionsFrom(sectionPartsOfPieces(pieces, size)), `${file} (${size})`).toEqual(sectionsOf(html));
        // (The entry reader cuts the body in parts of PIECE_SIZE.)
        setPieceSize(size);
        expect(entryOf(pieces), `${file} (${size})`).toEqual(entry);
        setPieceSize();
      }
    }
    // Most pages are cut in many pieces at these sizes.
    expect(cutInside).toBeGreaterThan(250);
  });

  it('never cuts a heading or a left-out element in two, even one that spans many pieces', async () => {
    const highlighter = await loadHighlighter();
    // A heading of 600 lines (a setext heading's text may span lines), a long tab label, then text.
    const lines = Array.from({ length: 600 }, (_, i) => `\`a${i}\` and \`b${i}\``).join('\n');
    const body = `Intro.\n\n${lines}\n---\n\nAfter the long heading.\n\n${Array.from({ length: 300 }, (_, i) => `| \`x${i}\` | y |`).join('\n').replace(/^/, '| A | B |\n| --- | --- |\n')}\n`;
    const { html } = await renderMarkdown(body, { file: 'long-heading.md', lineOffset: 0, highlighter });
    expect(html.length).toBeGreaterThan(30_000);
    for (const size of [200, 1000]) {
      const pieces = linePieces(html, size);
      expect(sectionsFrom(sectionPartsOfPieces(pieces, size)), String(size)).toEqual(sectionsOf(html));
      const whole = entryOf(html);
      setPieceSize(size);
      expect(entryOf(pieces), String(size)).toEqual(whole);
      setPieceSize();
    }
  });

  it('reads a section longer than a piece (a page of one long table) in several parts, with the whole section’s words and text', async () => {
    const highlighter = await loadHighlighter();
    for (const shape of ['tables', 'lists', 'prose']) {
      const { html } = await renderMarkdown(shapeMarkdown(shape, 300_000), { file: `${shape}.md`, lineOffset: 0, highlighter });
      const pieces = linePieces(html, 4096);
      const parts = [...sectionPartsOfPieces(pieces, 4096)];
      if (shape === 'tables') {
        // One section (the table's heading), read in parts: none of them holds the whole text.
        expect(sectionsOf(html).length).toBe(1);
        expect(parts.filter(([, , text, first]) => !first && text).length).toBeGreaterThan(50);
      }
      expect(sectionsFrom(parts), shape).toEqual(sectionsOf(html));
      const whole = entryOf(html);
      setPieceSize(4096);
      expect(entryOf(pieces), shape).toEqual(whole);
      setPieceSize();
    }
  });

  it('writes a file given in pieces with its size in bytes, taking the pieces once, with or without a key', async () => {
    const dir = scratchDir('pieces-output');
    await withCacheDir(join(dir, 'cache'), async () => {
      const out = new OutputWriter(join(dir, 'out'));
      let taken = 0;
      const pieces = (n: number): Iterable<string> => ({
        *[Symbol.iterator]() {
          taken++;
          for (let i = 0; i < n; i++) yield `<p>piece ${i} é😀</p>\n`;
        },
      });
      out.write('keyed.html', pieces(1000), 'a key');
      out.write('hashed.html', pieces(3));
      await out.commit();
      expect(taken).toBe(2);
      const expected = (n: number) => Array.from({ length: n }, (_, i) => `<p>piece ${i} é😀</p>\n`).join('');
      expect(readFileSync(join(dir, 'out/keyed.html'), 'utf8')).toBe(expected(1000));
      expect(readFileSync(join(dir, 'out/hashed.html'), 'utf8')).toBe(expected(3));
      // The manifest holds the sizes in bytes: a second build keeps both files.
      const again = new OutputWriter(join(dir, 'out'));
      expect(again.keep('keyed.html', 'a key')).toBe(true);
      expect(statSync(join(dir, 'out/keyed.html')).size).toBe(Buffer.byteLength(expected(1000)));
      await again.abort();
    });
  });
});
