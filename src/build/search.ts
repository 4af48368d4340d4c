import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { MAX_TERM, termsOf, words, writeVarint } from '../../templates/client/search-text.js';
import { codeVersion, flushCacheWrites, readCache, readCached, writeCached } from '../content/cache.js';
import { workerEntry } from '../paths.js';
import { contentKey } from './output.js';
import { sectionsOf, type SearchSection } from './search-sections.js';
import type { Site } from '../site/model.js';

/*
 * The local search index, written by the build and read by the search engine
 * in the browser (templates/client/search-engine.ts). It is cut so that a
 * query downloads little whatever the size of the site:
 *
 *   search-index/index.json    the entry: the index's key, page count and the
 *                              first term of each term shard (a few KB)
 *   search-index/{key}/s{i}.bin  term shards: the sorted terms from one first
 *                              term to the next, each with its pages and a
 *                              score per page (about SHARD_BYTES before gzip)
 *   search-index/{key}/p{n}.bin  one document per page: URL, title, section and
 *                              the text of each heading's part, for the result
 *                              line, the matching heading and the excerpt
 *
 * A query fetches index.json, the shard of each of its words and the documents
 * of the few pages it shows. Shards and documents are gzipped by the build and
 * unpacked in the browser, so any static host serves them small. Every file
 * other than the entry lives under the key (a hash of the whole index), so a
 * reader's cached files never mix two builds.
 *
 * Scores: per page and term, BM25 over the body with heading words counted
 * HEADING_WEIGHT times, plus a bonus when the term is in the page's title or
 * URL slug; quantised to a byte. The engine multiplies by the term's IDF.
 */

/** A page as the index gets it. */
export interface SearchInput {
  url: string;
  title: string;
  /** The title of the page's section, shown beside the result. */
  section?: string;
  /** The last segment of the page's path ("csp" for /guides/csp/), searched like the title. */
  slug: string;
  /**
   * The rendered Markdown body (HTML; headings carry their ids). It may be
   * left out when `sourceKey` is given: the indexer then takes it from the
   * render cache, and only if its own cache has no entry for the page.
   */
  html?: string;
  /** The render cache key of the page's Markdown (SourcePage.sourceKey): it stands for the body in the entry's key. */
  sourceKey?: string;
}

export interface SearchIndexer {
  /** Adds a page; pages are numbered in the order they are added. */
  add(page: SearchInput): void;
  /** The index files (paths relative to the search-index/ folder), once every page is added. */
  files(): Array<{ path: string; content: Uint8Array }>;
  /** The same files' paths, with a hash of their bytes (a key for OutputWriter) and their sizes. */
  list(): Array<[path: string, key: string, size: number]>;
  /**
   * Writes the index files into `dir`, but for those `options.keep` says the
   * output already holds (`key` is a hash of the bytes); returns how many it wrote.
   */
  writeTo(dir: string, options?: IndexFileOptions): Promise<number>;
}

export interface IndexFileOptions {
  /** Whether the output already holds the file (path relative to search-index/) with these bytes: then it is not written. */
  keep?: (path: string, key: string) => boolean;
  /** Told of each file written. */
  written?: (path: string, key: string, size: number) => void;
}

/** Raw size a term shard grows to before the next one starts. */
const SHARD_BYTES = 48 * 1024;
/** How much more a word of a heading counts than a word of the body. */
const HEADING_WEIGHT = 3;
/** Score bonus of a term that is (part of) the title or slug, shared out over the title's terms. */
const TITLE_BONUS = 3;
/** Longest text kept per heading's part in a page document (its excerpt comes from there). */
const SECTION_TEXT = 6000;
const K1 = 1.2;
const B = 0.75;
/** The highest score a posting can have (title bonus included), the top of the quantised byte. */
const MAX_SCORE = K1 + 1 + TITLE_BONUS;

/** Changes when the layout of the index files changes (readers can tell the index's format by it). */
const SEARCH_FORMAT = 1;


/**
 * A term's pages, and per page (packed in one number to keep a 10,000-page
 * index small in memory): 4 × (body count + HEADING_WEIGHT × heading count)
 * + the term's place in the title (0 none, 1 part of a title word, 2 a title word).
 */
interface Posting {
  pages: number[];
  values: number[];
}

const TITLE_PLACE = [0, 0.5, 1];

/** What a page gives the index: kept in the cache, so that a rebuild indexes only the pages whose text changed. */
interface PageEntry {
  /** Body words. */
  length: number;
  /** Title bonus of a term that is a whole title word. */
  share: number;
  /** The page's terms, and per term its packed value (see Posting). */
  terms: string[];
  values: number[];
  /** The page document, gzipped, as base64. */
  doc: string;
}

/** Where the index's per-page entries are cached; they change with the indexer's code. */
const CACHE_KIND = 'search-pages';
let entryVersion: string | undefined;
const pageKey = (input: SearchInput) =>
  createHash('sha256')
    .update((entryVersion ??= codeVersion(['src/build/search.ts', 'src/build/search-sections.ts', 'templates/client/search-text.ts'])))
    .update(JSON.stringify([input.url, input.title, input.section ?? '', input.slug]))
    // The body HTML is a function of the Markdown's render cache key: hashing that is cheaper.
    .update(input.sourceKey !== undefined ? `source:${input.sourceKey}` : `html:${input.html ?? ''}`)
    .digest('hex');

/** The body HTML of a page, from the input or else from the render cache. */
function htmlOf(input: SearchInput): string {
  if (input.html !== undefined) return input.html;
  const cached = input.sourceKey === undefined ? undefined : readCache(input.sourceKey);
  if (!cached) throw new Error(`search index: no HTML for ${input.url} (the render cache lost it during the build; build again)`);
  return cached.html;
}

export function createSearchIndexer(): SearchIndexer {
  // Terms are numbered in the order first seen; a page's counts live in an array indexed by term.
  const termIds = new Map<string, number>();
  const termNames: string[] = [];
  const postings: Posting[] = [];
  const lengths: number[] = [];
  /** Per page: the title bonus of a term that is a whole word of the title. */
  const titleShares: number[] = [];
  const documents: Buffer[] = [];
  let built: Array<{ path: string; content: Uint8Array }> | undefined;
  let listed: Array<[string, string, number]> | undefined;
  let counts = new Float64Array(1024);
  const touched: number[] = [];

  const idOf = (term: string) => {
    let id = termIds.get(term);
    if (id === undefined) {
      termIds.set(term, (id = postings.length));
      termNames.push(term);
      postings.push({ pages: [], values: [] });
      if (id >= counts.length) {
        const grown = new Float64Array(counts.length * 2);
        grown.set(counts);
        counts = grown;
      }
    }
    return id;
  };
  // Most words recur, on a page and across pages: their terms are worked out once.
  const wordTerms = new Map<string, number[]>();
  const termsOfWord = (word: string) => {
    let ids = wordTerms.get(word);
    if (!ids) {
      ids = [];
      termsOf(word, (term) => ids!.push(idOf(term)));
      if (wordTerms.size < 500_000) wordTerms.set(word, ids);
    }
    return ids;
  };
  const count = (id: number, weight: number) => {
    if (counts[id] === 0) touched.push(id);
    counts[id]! += weight;
  };

  /** Reads a page: its terms with their counts and title places, and its document. */
  const entryOf = (input: SearchInput): PageEntry => {
    const sections = sectionsOf(htmlOf(input));
    let length = 0;
    for (const [, heading, text] of sections) {
      for (const word of words(heading)) for (const id of termsOfWord(word)) count(id, HEADING_WEIGHT);
      for (const word of words(text)) {
        length++;
        for (const id of termsOfWord(word)) count(id, 1);
      }
    }
    // The title's terms share the bonus: a one-word title matching the query is the strongest signal.
    const titleTerms = new Map<number, 1 | 2>();
    const inTitle = (term: string, place: 1 | 2) => {
      const id = idOf(term);
      titleTerms.set(id, Math.max(titleTerms.get(id) ?? 0, place) as 1 | 2);
    };
    for (const text of [input.title, input.slug]) {
      // The pieces of the title in order ("Public Path", "public-path": public, path), and each two
      // neighbours joined as a part, so that "publicPath" finds the page titled "Public Path".
      const pieces: string[] = [];
      for (const word of words(text)) {
        const parts: string[] = [];
        termsOf(word, (term, part) => {
          inTitle(term, part ? 1 : 2);
          if (part) parts.push(term);
        });
        pieces.push(...(parts.length ? parts : [word.toLowerCase()]));
      }
      for (let i = 1; i < pieces.length; i++) if ((pieces[i - 1]! + pieces[i]!).length <= MAX_TERM) inTitle(pieces[i - 1]! + pieces[i]!, 1);
    }
    for (const id of titleTerms.keys()) if (counts[id] === 0) touched.push(id);
    const terms: string[] = [];
    const values: number[] = [];
    for (const id of touched) {
      terms.push(termNames[id]!);
      values.push(counts[id]! * 4 + (titleTerms.get(id) ?? 0));
      counts[id] = 0;
    }
    touched.length = 0;
    const shown = sections.map(([anchor, heading, text]): SearchSection => [anchor, heading, text.length > SECTION_TEXT ? text.slice(0, text.lastIndexOf(' ', SECTION_TEXT)) : text]);
    const doc = { url: input.url, title: input.title, section: input.section ?? '', sections: shown };
    return {
      length,
      share: TITLE_BONUS / Math.sqrt(Math.max(1, [...titleTerms.values()].filter((v) => v === 2).length)),
      terms,
      values,
      doc: gzipSync(JSON.stringify(doc)).toString('base64'),
    };
  };

  const add = (input: SearchInput) => {
    built = listed = undefined;
    const key = pageKey(input);
    let entry = readCached<PageEntry>(CACHE_KIND, key);
    if (!entry) {
      entry = entryOf(input);
      writeCached(CACHE_KIND, key, entry);
    }
    const page = lengths.length;
    entry.terms.forEach((term, i) => {
      const posting = postings[idOf(term)]!;
      posting.pages.push(page);
      posting.values.push(entry.values[i]!);
    });
    lengths.push(entry.length);
    titleShares.push(entry.share);
    documents.push(Buffer.from(entry.doc, 'base64'));
  };

  const build = () => {
    if (built) return built;
    const average = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length) || 1;
    const shards: Buffer[] = [];
    const firstTerms: string[] = [];
    let bytes: number[] = [];
    let inShard = 0;
    let previous = '';
    const flush = () => {
      if (!inShard) return;
      const head: number[] = [];
      writeVarint(head, inShard);
      shards.push(gzipSync(Buffer.concat([Buffer.from(head), Buffer.from(bytes)]), { level: 9 }));
      bytes = [];
      inShard = 0;
      previous = '';
    };
    const encoder = new TextEncoder();
    for (const term of [...termIds.keys()].sort()) {
      if (bytes.length >= SHARD_BYTES) flush();
      if (!inShard) firstTerms.push(term);
      const posting = postings[termIds.get(term)!]!;
      // Front coding: the length shared with the previous term, then the rest.
      let shared = 0;
      while (shared < term.length && shared < previous.length && term.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
      // Never split a surrogate pair.
      if (shared > 0 && /[\uD800-\uDBFF]/.test(term[shared - 1]!)) shared--;
      const rest = encoder.encode(term.slice(shared));
      writeVarint(bytes, shared);
      writeVarint(bytes, rest.length);
      for (const byte of rest) bytes.push(byte);
      // The pages of the term (gaps between page numbers) and a score byte each, preceded by their
      // count and byte length so that a reader can skip the terms it does not need.
      const list: number[] = [];
      let last = 0;
      for (let i = 0; i < posting.pages.length; i++) {
        const page = posting.pages[i]!;
        const value = posting.values[i]!;
        const tf = Math.floor(value / 4);
        const norm = 1 - B + (B * lengths[page]!) / average;
        const score = (tf * (K1 + 1)) / (tf + K1 * norm) + TITLE_PLACE[value % 4]! * titleShares[page]!;
        writeVarint(list, page - last);
        list.push(Math.max(1, Math.min(255, Math.round((score / MAX_SCORE) * 255))));
        last = page;
      }
      writeVarint(bytes, posting.pages.length);
      writeVarint(bytes, list.length);
      for (const byte of list) bytes.push(byte);
      inShard++;
      previous = term;
    }
    flush();
    const hash = createHash('sha256').update(String(SEARCH_FORMAT));
    for (const file of [...shards, ...documents]) hash.update(file);
    const key = hash.digest('hex').slice(0, 12);
    const entry = { format: SEARCH_FORMAT, key, pages: lengths.length, shards: firstTerms };
    built = [
      { path: 'index.json', content: Buffer.from(JSON.stringify(entry)) },
      ...shards.map((content, i) => ({ path: `${key}/s${i}.bin`, content })),
      ...documents.map((content, n) => ({ path: `${key}/p${n}.bin`, content })),
    ];
    return built;
  };

  const list = () => (listed ??= build().map((file): [string, string, number] => [file.path, contentKey(file.content), file.content.length]));

  return {
    add,
    files: build,
    list,
    async writeTo(dir, options = {}) {
      const listed = list();
      const files = build().filter((file, i) => {
        const [, key, size] = listed[i]!;
        if (options.keep?.(file.path, key)) return false;
        options.written?.(file.path, key, size);
        return true;
      });
      await flushCacheWrites();
      for (const folder of new Set(files.map((file) => dirname(file.path)))) await mkdir(join(dir, folder), { recursive: true });
      await Promise.all(files.map((file) => writeFile(join(dir, file.path), file.content)));
      return files.length;
    },
  };
}

/** The indexer on a worker thread: what `docs build` uses, so that indexing runs beside the rendering. */
export interface SearchWorker {
  add(page: SearchInput): void;
  /** Writes the index files into `dir` once every page is added (see SearchIndexer.writeTo), then ends the thread. */
  writeTo(dir: string, options?: IndexFileOptions): Promise<number>;
  /** Ends the thread without writing (a build that failed). */
  close(): Promise<void>;
}

/**
 * Pages sent to the thread and not yet indexed. Pages wait on the main thread
 * (where the build holds them anyway) rather than as copies in the thread's
 * queue, which would grow by the whole site when pages come from the cache
 * faster than they are indexed.
 */
const SEARCH_BATCH = 16;
const SEARCH_BATCHES_IN_FLIGHT = 4;

export function createSearchWorker(): SearchWorker {
  const worker = new Worker(workerEntry('search'));
  let failed: Error | undefined;
  const crashed = new Promise<never>((_, reject) => {
    worker.once('error', (e) => reject((failed = e)));
    worker.once('exit', (code) => reject((failed ??= new Error(`search index thread exited (${code})`))));
  });
  crashed.catch(() => undefined);
  const waiting: SearchInput[] = [];
  let inFlight = 0;
  let answer: ((message: SearchWorkerReply) => void) | undefined;
  let writeDir: string | undefined;
  const pump = () => {
    while (!failed && inFlight < SEARCH_BATCHES_IN_FLIGHT && waiting.length) {
      worker.postMessage({ add: waiting.splice(0, SEARCH_BATCH) } satisfies SearchWorkerMessage);
      inFlight++;
    }
    // The index is made once every page is in.
    if (writeDir !== undefined && !inFlight && !waiting.length) {
      worker.postMessage({ list: true } satisfies SearchWorkerMessage);
      writeDir = undefined;
    }
  };
  worker.on('message', (message: SearchWorkerReply) => {
    if ('added' in message) {
      inFlight--;
      pump();
    } else answer?.(message);
  });
  const reply = async () => {
    const message = await Promise.race([new Promise<SearchWorkerReply>((resolve) => (answer = resolve)), crashed]);
    if ('error' in message) throw new Error(`search index: ${message.error}`);
    return message;
  };
  return {
    add(page) {
      waiting.push(page);
      if (waiting.length >= SEARCH_BATCH) pump();
    },
    async writeTo(dir, options = {}) {
      try {
        const listed = reply();
        writeDir = dir;
        pump();
        // The thread lists the files with their keys; those the output already holds are not sent back to write.
        const { listed: files } = (await listed) as { listed: Array<[string, string, number]> };
        const paths = files.filter(([path, key]) => !options.keep?.(path, key));
        for (const [path, key, size] of paths) options.written?.(path, key, size);
        const wrote = reply();
        worker.postMessage({ write: dir, paths: paths.map(([path]) => path) } satisfies SearchWorkerMessage);
        return ((await wrote) as { files: number }).files;
      } finally {
        await worker.terminate();
      }
    },
    async close() {
      await worker.terminate();
    },
  };
}

/** Messages to the search thread, and its replies. */
export type SearchWorkerMessage = { add: SearchInput[] } | { list: true } | { write: string; paths: string[] };
export type SearchWorkerReply = { added: number } | { listed: Array<[path: string, key: string, size: number]> } | { files: number } | { error: string };

/**
 * The words of every title and heading, for correcting typos in queries
 * ("splitchuncks" → "splitchunks"): the index matches words and prefixes,
 * so the engine finds the closest known word when a query finds nothing.
 */
export function searchTerms(site: Site): string[] {
  const terms = new Set<string>();
  const add = (text: string) => {
    for (const word of text.toLowerCase().split(/[^a-z0-9._$-]+/)) {
      const clean = word.replace(/^[._-]+|[._-]+$/g, '');
      if (clean.length >= 4 && clean.length <= MAX_TERM) terms.add(clean);
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
