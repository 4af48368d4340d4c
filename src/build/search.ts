import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import * as pagefind from 'pagefind';
import { cacheFolder } from '../content/cache.js';
import { TOOL_ROOT } from '../paths.js';
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
  /**
   * Adds a page; `html` needs only its searchable part (see searchDocument).
   * A function instead of the text is called when the text is needed, so that
   * pages waiting to be sent do not hold a copy of their text meanwhile.
   */
  add(url: string, html: string | (() => string)): void;
  /** The index files (paths relative to the pagefind/ folder), once every page is added. */
  files(): Promise<Array<{ path: string; content: Uint8Array }>>;
  /**
   * Writes the index files into `dir` (the same files as `files`), once every
   * page is added; returns how many. The indexer writes them itself, which
   * saves passing megabytes through its pipe.
   */
  writeTo(dir: string): Promise<number>;
  /** Starts indexing the pages added so far and each one added later (by default they wait for writeTo). */
  sendNow(): void;
  /** Stops the indexer without writing anything (a build that failed). */
  close(): Promise<void>;
}

const UNUSED = /^pagefind-(component-ui|modular-ui|ui|highlight)\./;

/** Index folders kept in the cache (the newest ones): a 10,000-page index is about 60 MB. */
const CACHED_INDEXES = 3;

function pagefindVersion(): string {
  try {
    return (JSON.parse(readFileSync(join(TOOL_ROOT, 'node_modules', 'pagefind', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}

function countFiles(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((f) => f.isFile()).length;
}

export async function createSearchIndexer(language: string): Promise<SearchIndexer> {
  const options = {
    forceLanguage: language,
    // Option names and other identifiers are written with dots and underscores.
    includeCharacters: '._$',
    // Heading self-links ("#") and copy buttons are not content.
    excludeSelectors: ['.anchor', '.copy'],
  };
  // The index depends only on the indexer's version, its options and the documents in order:
  // when none of them changed (a rebuild, a template or style change), the last index is reused.
  const key = createHash('sha256').update(pagefindVersion()).update(JSON.stringify(options));
  // The indexer process starts with the first page sent to it; until sendNow, pages are only held
  // (a build whose pages all come from the cache may need no indexing at all).
  let starting: Promise<pagefind.PagefindIndex> | undefined;
  const start = () =>
    (starting ??= pagefind.createIndex(options).then(({ index, errors }) => {
      if (!index) throw new Error(`search index: ${errors.join('; ')}`);
      return index;
    }));
  const held: Array<[string, string | (() => string)]> = [];
  let eager = false;
  const pending: Array<Promise<{ errors: string[] }>> = [];
  const send = (url: string, html: string | (() => string)) => {
    const content = typeof html === 'string' ? html : html();
    const added = start().then((index) => index.addHTMLFile({ url, content }));
    added.catch(() => undefined); // awaited in writeTo and files
    pending.push(added);
  };
  const sendNow = () => {
    eager = true;
    for (const [url, html] of held.splice(0)) send(url, html);
  };
  const allAdded = async () => {
    for (const result of await Promise.all(pending)) {
      if (result.errors.length) throw new Error(`search index: ${result.errors.join('; ')}`);
    }
  };
  const stop = async () => {
    await Promise.allSettled(pending);
    if (starting) await pagefind.close();
  };
  return {
    add(url, html) {
      key.update(url).update('\0').update(typeof html === 'string' ? html : html()).update('\0');
      if (eager) send(url, html);
      else held.push([url, html]);
    },
    sendNow,
    close: stop,
    async writeTo(dir) {
      const cache = cacheFolder('search');
      const cached = cache && join(cache, key.digest('hex'));
      if (cached && existsSync(join(cached, 'pagefind-entry.json'))) {
        await stop();
        cpSync(cached, dir, { recursive: true });
        const now = new Date();
        utimesSync(cached, now, now); // the newest indexes are the ones kept
        return countFiles(dir);
      }
      sendNow();
      const index = await start();
      await allAdded();
      const { errors: writeErrors } = await index.writeFiles({ outputPath: dir });
      if (writeErrors.length) throw new Error(`search index: ${writeErrors.join('; ')}`);
      await pagefind.close();
      for (const name of readdirSync(dir)) if (UNUSED.test(name)) rmSync(join(dir, name));
      if (cached) storeIndex(cache, cached, dir);
      return countFiles(dir);
    },
    async files() {
      sendNow();
      const index = await start();
      await allAdded();
      const { files, errors: fileErrors } = await index.getFiles();
      if (fileErrors.length) throw new Error(`search index: ${fileErrors.join('; ')}`);
      await pagefind.close();
      // Pagefind also ships ready-made UIs; the site has its own, so only the index and its runtime are kept.
      return files.filter((f) => !UNUSED.test(f.path)).map((f) => ({ path: f.path, content: f.content }));
    },
  };
}

/** Copies a written index into the cache (complete or not at all), keeping the newest few. */
function storeIndex(cache: string, target: string, dir: string): void {
  try {
    mkdirSync(cache, { recursive: true });
    const temp = `${target}.${process.pid}.tmp`;
    cpSync(dir, temp, { recursive: true });
    renameSync(temp, target);
    const entries = readdirSync(cache)
      .map((name) => ({ path: join(cache, name), time: statSync(join(cache, name)).mtimeMs }))
      .sort((a, b) => b.time - a.time);
    for (const old of entries.slice(CACHED_INDEXES)) rmSync(old.path, { recursive: true, force: true });
  } catch {
    // A cache that cannot be written only costs time.
  }
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
 * menus again. Code blocks go without their highlighting: a span per token
 * is most of a code-heavy page's markup and none of its text.
 */
export function searchDocument(language: string, title: string, section: string | undefined, body: string): string {
  const meta = section ? ` data-pagefind-meta="section:${escapeHtml(section)}"` : '';
  const plain = body.replace(CODE_BLOCK, (block) => block.replace(SPAN_TAG, ''));
  return `<!DOCTYPE html><html lang="${escapeHtml(language)}"><head><title>${escapeHtml(title)}</title></head><body><div data-pagefind-body=""${meta}><h1>${escapeHtml(title)}</h1><div class="markdown">${plain}</div></div></body></html>`;
}

/** A highlighted code block of the body (it holds only line and token spans, see highlight.ts). */
const CODE_BLOCK = /<pre class="code"[^>]*><code>[\s\S]*?<\/code><\/pre>/g;
const SPAN_TAG = /<\/?span[^>]*>/g;
