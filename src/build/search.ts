import { readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import type { Site } from '../site/model.js';

/*
 * The local search index. Pagefind indexes the rendered HTML (only the
 * elements marked data-pagefind-body: the article, not the chrome) and writes
 * a chunked index: a reader downloads the small entry file plus the chunks
 * their words fall in, never the whole index. Pages are fed from memory while
 * they are rendered, so indexing overlaps rendering instead of re-reading the
 * written files.
 */

export interface SearchIndexer {
  /** Adds a page; `html` needs only its searchable part (see searchDocument). */
  add(url: string, html: string): void;
  /** The index files (paths relative to the pagefind/ folder), once every page is added. */
  files(): Promise<Array<{ path: string; content: Uint8Array }>>;
  /**
   * Writes the index files into `dir` (the same files as `files`), once every
   * page is added; returns how many. The indexer writes them itself, which
   * saves passing megabytes through its pipe.
   */
  writeTo(dir: string): Promise<number>;
  /** Stops the indexer without writing anything (a build that failed). */
  close(): Promise<void>;
}

const UNUSED = /^pagefind-(component-ui|modular-ui|ui|highlight)\./;

export async function createSearchIndexer(language: string): Promise<SearchIndexer> {
  const { index, errors } = await pagefind.createIndex({
    forceLanguage: language,
    // Option names and other identifiers are written with dots and underscores.
    includeCharacters: '._$',
    // Heading self-links ("#") and copy buttons are not content.
    excludeSelectors: ['.anchor', '.copy'],
  });
  if (!index) throw new Error(`search index: ${errors.join('; ')}`);
  const pending: Array<Promise<unknown>> = [];
  const allAdded = async () => {
    for (const result of (await Promise.all(pending)) as Array<{ errors: string[] }>) {
      if (result.errors.length) throw new Error(`search index: ${result.errors.join('; ')}`);
    }
  };
  return {
    add(url, html) {
      pending.push(index.addHTMLFile({ url, content: html }));
    },
    async close() {
      await Promise.allSettled(pending);
      await pagefind.close();
    },
    async writeTo(dir) {
      await allAdded();
      const { errors: writeErrors } = await index.writeFiles({ outputPath: dir });
      if (writeErrors.length) throw new Error(`search index: ${writeErrors.join('; ')}`);
      await pagefind.close();
      let count = 0;
      for (const file of readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!file.isFile()) continue;
        if (UNUSED.test(file.name) && file.parentPath === dir) rmSync(join(dir, file.name));
        else count++;
      }
      return count;
    },
    async files() {
      await allAdded();
      const { files, errors: fileErrors } = await index.getFiles();
      if (fileErrors.length) throw new Error(`search index: ${fileErrors.join('; ')}`);
      await pagefind.close();
      // Pagefind also ships ready-made UIs; the site has its own, so only the index and its runtime are kept.
      return files.filter((f) => !UNUSED.test(f.path)).map((f) => ({ path: f.path, content: f.content }));
    },
  };
}

/**
 * The words of every title and heading, for correcting typos in queries
 * ("splitchuncks" → "splitchunks"): the chunked index only matches words and
 * prefixes, so the client finds the closest known word when a query finds nothing.
 */
export function searchTerms(site: Site): string[] {
  const terms = new Set<string>();
  const add = (text: string) => {
    for (const word of text.toLowerCase().split(/[^a-z0-9._$-]+/)) {
      const clean = word.replace(/^[._-]+|[._-]+$/g, '');
      if (clean.length >= 4 && clean.length <= 40) terms.add(clean);
      for (const part of clean.split(/[._-]/)) if (part.length >= 4) terms.add(part);
    }
  };
  for (const page of site.pages) {
    if (page.id === '404') continue;
    add(page.title);
    for (const heading of page.headings) add(heading);
  }
  return [...terms].sort();
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/**
 * The part of a page the index reads, as a small document: title, section and
 * body. It holds exactly what the page's data-pagefind-body element holds,
 * without the navigation around it, so indexing does not parse every page's
 * menus again.
 */
export function searchDocument(language: string, title: string, section: string | undefined, body: string): string {
  const meta = section ? ` data-pagefind-meta="section:${escapeHtml(section)}"` : '';
  return `<!DOCTYPE html><html lang="${escapeHtml(language)}"><head><title>${escapeHtml(title)}</title></head><body><div data-pagefind-body=""${meta}><h1>${escapeHtml(title)}</h1><div class="markdown">${body}</div></div></body></html>`;
}
