import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { gzipSync } from 'node:zlib';
import { MAX_TERM, termsOf, words } from '../../templates/client/search-text.js';
import { cacheEnabled, codeVersion, flushCacheWrites, readCache, readCached, readCachedFile, writeCached, writeCachedFile } from '../content/cache.js';
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
  /**
   * How the last files listed were made: as the last build's (no page's entry changed), from
   * the last build's postings with the changed pages put in place, or by merging every entry.
   */
  made(): 'unchanged' | 'changed in place' | 'merged';
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
 * Pages are in increasing order. Lists read from the saved state stay typed
 * arrays until a change touches them.
 */
interface Posting {
  pages: number[] | Uint32Array;
  values: number[] | Uint32Array;
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
const indexerVersion = () => (entryVersion ??= codeVersion(['src/build/search.ts', 'src/build/search-sections.ts', 'templates/client/search-text.ts']));
const pageKey = (input: SearchInput) =>
  createHash('sha256')
    .update(indexerVersion())
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

/*
 * The state of the last build's index, saved in the cache (kind STATE_KIND,
 * one per output folder), so that a rebuild does not merge every page's
 * entry again: when no page's entry changed, the files are those of the last
 * build; when some did, only their postings are taken out and put in again.
 * Two files: the head (small) and the postings (large, read only when a page
 * changed or a file must be written again).
 */
const STATE_KIND = 'search-state';

interface StateHead {
  /** The indexer's version and the pages' entry keys in order: what the state is a function of. */
  version: string;
  keys: string[];
  /** The key of the whole list (see listKey); the postings file carries it too. */
  list: string;
  lengths: number[];
  shares: number[];
  /** Per page: its document's content key and size. */
  docs: Array<[key: string, size: number]>;
  /** Per term shard: the content key of its bytes before and after compression, and its compressed size. */
  shards: Array<[raw: string, key: string, size: number]>;
  /** The index files, as SearchIndexer.list gives them. */
  files: Array<[path: string, key: string, size: number]>;
}

/** The indexer's code and Node's version (its zlib compresses the shards). */
const stateVersion = () => `${indexerVersion()} ${process.version}`;

/** A term shard: the content key of its uncompressed bytes, and its file. */
type IndexShard = { raw: string; key: string; size: number; content(): Buffer };

/** Bytes written one by one into a buffer that grows. */
class ByteWriter {
  private buffer = new Uint8Array(1024);
  length = 0;
  private room(more: number) {
    if (this.length + more <= this.buffer.length) return;
    const grown = new Uint8Array(Math.max(this.buffer.length * 2, this.length + more));
    grown.set(this.buffer.subarray(0, this.length));
    this.buffer = grown;
  }
  byte(value: number) {
    this.room(1);
    this.buffer[this.length++] = value;
  }
  /** The same bytes as writeVarint (templates/client/search-text.ts), which the engine reads. */
  varint(value: number) {
    this.room(8);
    while (value >= 0x80) {
      this.buffer[this.length++] = (value % 0x80) | 0x80;
      value = Math.floor(value / 0x80);
    }
    this.buffer[this.length++] = value;
  }
  append(bytes: Uint8Array) {
    this.room(bytes.length);
    this.buffer.set(bytes, this.length);
    this.length += bytes.length;
  }
  view(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

const listKey = (keys: readonly string[]) => {
  const hash = createHash('sha256').update(indexerVersion());
  for (const key of keys) hash.update(key);
  return hash.digest('hex');
};

/** A file of the index: its path under search-index/, key (a hash of its bytes), size and bytes. */
interface IndexFile {
  path: string;
  key: string;
  size: number;
  content(): Uint8Array;
}

export interface SearchIndexerOptions {
  /**
   * Names the saved state of the index (one per output folder, say): with it,
   * the indexer starts from the last build's state under that name and saves
   * its own. The files are the same bytes with or without.
   */
  state?: string;
}

/** Above this many changed pages, the index is merged from every page's entry instead of changed in place. */
const MAX_CHANGED = 1000;

export function createSearchIndexer(options: SearchIndexerOptions = {}): SearchIndexer {
  const stateName = options.state === undefined || !cacheEnabled() ? undefined : createHash('sha256').update(options.state).digest('hex');
  // Terms are numbered in the order first seen (the first `sortedTerms` came sorted from the state);
  // a page's counts live in an array indexed by term.
  const termIds = new Map<string, number>();
  const termNames: string[] = [];
  let sortedTerms = 0;
  const postings: Posting[] = [];
  /** Per page (in the order added): its entry's key, body length, title share and document. */
  const keys: string[] = [];
  const lengths: number[] = [];
  /** Per page: the title bonus of a term that is a whole word of the title. */
  const titleShares: number[] = [];
  const docKeys: Array<[key: string, size: number]> = [];
  const documents: Array<Buffer | undefined> = [];
  /** Pages as given (without their body), to make an entry the cache lost again. */
  const inputs: SearchInput[] = [];
  let built: IndexFile[] | undefined;
  /** While a page is read: its count per term (see countIdOf), and the terms it has. */
  let counts = new Float64Array(1024);
  const touched: number[] = [];

  /*
   * Two ways to get to the postings. Merged: each page's entry is merged as it comes (a first
   * build, or one after the page list changed). From the state: pages whose entry is the one at
   * their place in the last build wait; changed pages' entries are put in place at the end.
   */
  let head: StateHead | undefined;
  if (stateName) {
    const saved = readCachedFile(STATE_KIND, `${stateName}.json`);
    try {
      const parsed = saved && (JSON.parse(saved.toString('utf8')) as StateHead);
      if (parsed && parsed.version === stateVersion()) head = parsed;
    } catch {
      // A damaged state is no state.
    }
  }
  let merged = !head;
  const changed = new Map<number, PageEntry>();
  let made: ReturnType<SearchIndexer['made']> = 'merged';

  /** A term's number in the postings. */
  const idOf = (term: string) => {
    let id = termIds.get(term);
    if (id === undefined) {
      termIds.set(term, (id = postings.length));
      termNames.push(term);
      postings.push({ pages: [], values: [] });
    }
    return id;
  };
  // Reading a page counts its terms in an array indexed by a number of their own (the postings may
  // not be loaded yet when a changed page is read).
  const countIds = new Map<string, number>();
  const countNames: string[] = [];
  const countIdOf = (term: string) => {
    let id = countIds.get(term);
    if (id === undefined) {
      countIds.set(term, (id = countNames.length));
      countNames.push(term);
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
      termsOf(word, (term) => ids!.push(countIdOf(term)));
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
      const id = countIdOf(term);
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
      terms.push(countNames[id]!);
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

  /** A page's entry: from the cache, or made (and cached). */
  const entryAt = (page: number, input = inputs[page]!): PageEntry => {
    let entry = readCached<PageEntry>(CACHE_KIND, keys[page]!);
    if (!entry) {
      entry = entryOf(input);
      writeCached(CACHE_KIND, keys[page]!, entry);
    }
    return entry;
  };

  /** Takes a page's length, share and document from its entry. */
  const describe = (page: number, entry: PageEntry) => {
    const doc = Buffer.from(entry.doc, 'base64');
    lengths[page] = entry.length;
    titleShares[page] = entry.share;
    documents[page] = doc;
    docKeys[page] = [contentKey(doc), doc.length];
  };

  /** Adds a page's terms to the postings (pages in increasing order: a page after every page there is goes at the end). */
  const post = (page: number, entry: PageEntry, atEnd: boolean) => {
    entry.terms.forEach((term, i) => {
      const posting = postings[idOf(term)]!;
      if (atEnd) {
        (posting.pages as number[]).push(page);
        (posting.values as number[]).push(entry.values[i]!);
        return;
      }
      // (The state's postings stay typed arrays: one kind of array keeps the encoding loop fast.)
      const { pages, values } = posting;
      let at = 0;
      for (let end = pages.length; at < end; ) {
        const middle = (at + end) >> 1;
        if (pages[middle]! < page) at = middle + 1;
        else end = middle;
      }
      const grownPages = new Uint32Array(pages.length + 1);
      const grownValues = new Uint32Array(pages.length + 1);
      grownPages.set(pages.slice(0, at));
      grownPages[at] = page;
      grownPages.set(pages.slice(at), at + 1);
      grownValues.set(values.slice(0, at));
      grownValues[at] = entry.values[i]!;
      grownValues.set(values.slice(at), at + 1);
      posting.pages = grownPages;
      posting.values = grownValues;
    });
  };

  /** Leaves the state's way: every page's entry merged, in order. */
  const mergeAll = () => {
    merged = true;
    for (let page = 0; page < keys.length; page++) {
      const entry = changed.get(page) ?? entryAt(page);
      describe(page, entry);
      post(page, entry, true);
    }
    changed.clear();
  };

  const add = (input: SearchInput) => {
    built = undefined;
    const page = keys.length;
    const key = pageKey(input);
    keys.push(key);
    inputs.push(input.html === undefined ? input : { ...input, html: undefined });
    if (!merged && head!.keys[page] === key) return;
    // (With the body as given, when the page was just rendered.)
    const entry = entryAt(page, input);
    if (merged) {
      describe(page, entry);
      post(page, entry, true);
      return;
    }
    changed.set(page, entry);
    // Most of the site changed (a new pipeline, say): merging is then the shorter way, and holds no entries.
    if (changed.size > MAX_CHANGED) mergeAll();
  };

  /** Reads the state's postings, lengths and documents' keys; false when they are not there. */
  const loadState = (): boolean => {
    const bytes = readCachedFile(STATE_KIND, `${stateName}.bin`);
    if (!bytes || bytes.length < 4) return false;
    const jsonLength = bytes.readUInt32LE(0);
    let meta: { list: string; terms: string[] };
    try {
      meta = JSON.parse(bytes.subarray(4, 4 + jsonLength).toString('utf8')) as typeof meta;
    } catch {
      return false;
    }
    let offset = 4 + jsonLength;
    offset += (4 - (offset % 4)) % 4;
    const n = meta.terms.length;
    if (meta.list !== head!.list || (bytes.length - offset) % 4 || (bytes.length - offset) / 4 < n) return false;
    // Typed arrays need aligned memory.
    const aligned = (bytes.byteOffset + offset) % 4 ? Buffer.from(bytes.subarray(offset)) : bytes.subarray(offset);
    const words32 = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4);
    const total = words32.length - n;
    let sum = 0;
    for (let id = 0; id < n; id++) sum += words32[id]!;
    if (2 * sum !== total || head!.lengths.length !== keys.length) return false;
    let at = n;
    for (let id = 0; id < n; id++) {
      const size = words32[id]!;
      termIds.set(meta.terms[id]!, id);
      termNames.push(meta.terms[id]!);
      postings.push({ pages: words32.subarray(at, at + size), values: words32.subarray(at + total / 2, at + total / 2 + size) });
      at += size;
    }
    sortedTerms = n;
    head!.lengths.forEach((length, page) => (lengths[page] = length));
    head!.shares.forEach((share, page) => (titleShares[page] = share));
    head!.docs.forEach((doc, page) => (docKeys[page] = doc));
    return true;
  };

  /** The postings of this build from the state's: the changed pages' terms out, their new ones in. */
  const applyChanges = () => {
    if (keys.length !== head!.keys.length || !loadState()) {
      // Pages came or went (every page after them has a new number), or the postings are gone.
      resetPostings();
      mergeAll();
      return;
    }
    const gone = new Uint8Array(keys.length);
    for (const page of changed.keys()) gone[page] = 1;
    // The postings the changed pages were in: their old entries' terms, or (an entry the cache lost) every posting.
    let touchedTerms: Iterable<Posting> | undefined = new Set<Posting>();
    for (const page of changed.keys()) {
      const old = readCached<PageEntry>(CACHE_KIND, head!.keys[page]!);
      if (!old) {
        touchedTerms = undefined;
        break;
      }
      for (const term of old.terms) {
        const id = termIds.get(term);
        if (id !== undefined) (touchedTerms as Set<Posting>).add(postings[id]!);
      }
    }
    for (const posting of touchedTerms ?? postings) {
      const { pages, values } = posting;
      let hits = 0;
      for (let i = 0; i < pages.length; i++) hits += gone[pages[i]!]!;
      if (!hits) continue;
      const keptPages = new Uint32Array(pages.length - hits);
      const keptValues = new Uint32Array(pages.length - hits);
      for (let i = 0, at = 0; i < pages.length; i++) {
        if (gone[pages[i]!]) continue;
        keptPages[at] = pages[i]!;
        keptValues[at++] = values[i]!;
      }
      posting.pages = keptPages;
      posting.values = keptValues;
    }
    for (const [page, entry] of changed) {
      describe(page, entry);
      post(page, entry, false);
    }
    changed.clear();
    merged = true;
    made = 'changed in place';
  };

  const resetPostings = () => {
    termIds.clear();
    termNames.length = postings.length = sortedTerms = 0;
  };

  /** Every term in sorted order (the state's came sorted; the ones added since are sorted in). */
  const termsInOrder = (): string[] => {
    if (sortedTerms === termNames.length) return termNames;
    const added = termNames.slice(sortedTerms).sort();
    const all: string[] = [];
    let i = 0;
    let j = 0;
    while (i < sortedTerms || j < added.length) {
      if (j >= added.length || (i < sortedTerms && termNames[i]! < added[j]!)) all.push(termNames[i++]!);
      else all.push(added[j++]!);
    }
    return all;
  };

  /** The document of a page, from this build or from its entry. */
  const documentOf = (page: number): Buffer => documents[page] ?? Buffer.from(entryAt(page).doc, 'base64');

  /** The files, from the postings. */
  const build = (): IndexFile[] => {
    if (built) return built;
    if (!merged) applyChanges();
    const average = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length) || 1;
    const shards: IndexShard[] = [];
    const firstTerms: string[] = [];
    const bytes = new ByteWriter();
    const list = new ByteWriter();
    let inShard = 0;
    let previous = '';
    // A shard whose bytes are those of a shard of the last build is not compressed again: its key
    // and size are known, and it is compressed only if it must be written.
    const gzipped = new Map((head?.shards ?? []).map(([raw, key, size]) => [raw, { key, size }]));
    const flush = () => {
      if (!inShard) return;
      const count = new ByteWriter();
      count.varint(inShard);
      const raw = Buffer.concat([count.view(), bytes.view()]);
      const rawKey = contentKey(raw);
      let gz: Buffer | undefined;
      const compressed = () => (gz ??= gzipSync(raw, { level: 9 }));
      const known = gzipped.get(rawKey);
      if (known) shards.push({ raw: rawKey, key: known.key, size: known.size, content: compressed });
      else shards.push({ raw: rawKey, key: contentKey(compressed()), size: compressed().length, content: compressed });
      bytes.length = 0;
      inShard = 0;
      previous = '';
    };
    const encoder = new TextEncoder();
    const order = termsInOrder();
    const norms = lengths.map((length) => 1 - B + (B * length) / average);
    for (const term of order) {
      const posting = postings[termIds.get(term)!]!;
      // A term whose only pages changed and no longer have it.
      if (!posting.pages.length) continue;
      if (bytes.length >= SHARD_BYTES) flush();
      if (!inShard) firstTerms.push(term);
      // Front coding: the length shared with the previous term, then the rest.
      let shared = 0;
      while (shared < term.length && shared < previous.length && term.charCodeAt(shared) === previous.charCodeAt(shared)) shared++;
      // Never split a surrogate pair.
      if (shared > 0 && /[\uD800-\uDBFF]/.test(term[shared - 1]!)) shared--;
      bytes.varint(shared);
      if (/^[\x00-\x7f]*$/.test(term)) {
        // ASCII (most terms): one byte per character.
        bytes.varint(term.length - shared);
        for (let c = shared; c < term.length; c++) bytes.byte(term.charCodeAt(c));
      } else {
        const rest = encoder.encode(term.slice(shared));
        bytes.varint(rest.length);
        bytes.append(rest);
      }
      // The pages of the term (gaps between page numbers) and a score byte each, preceded by their
      // count and byte length so that a reader can skip the terms it does not need.
      list.length = 0;
      let last = 0;
      for (let i = 0; i < posting.pages.length; i++) {
        const page = posting.pages[i]!;
        const value = posting.values[i]!;
        const tf = Math.floor(value / 4);
        const score = (tf * (K1 + 1)) / (tf + K1 * norms[page]!) + TITLE_PLACE[value % 4]! * titleShares[page]!;
        list.varint(page - last);
        list.byte(Math.max(1, Math.min(255, Math.round((score / MAX_SCORE) * 255))));
        last = page;
      }
      bytes.varint(posting.pages.length);
      bytes.varint(list.length);
      bytes.append(list.view());
      inShard++;
      previous = term;
    }
    flush();
    // The key stands for every file's bytes (through their content keys).
    const hash = createHash('sha256').update(String(SEARCH_FORMAT));
    for (const shard of shards) hash.update(shard.key);
    for (const [key] of docKeys) hash.update(key);
    const key = hash.digest('hex').slice(0, 12);
    const entry = Buffer.from(JSON.stringify({ format: SEARCH_FORMAT, key, pages: lengths.length, shards: firstTerms }));
    built = [
      { path: 'index.json', key: contentKey(entry), size: entry.length, content: () => entry },
      ...shards.map((shard, i): IndexFile => ({ path: `${key}/s${i}.bin`, key: shard.key, size: shard.size, content: shard.content })),
      ...docKeys.map(([docKey, size], n): IndexFile => ({ path: `${key}/p${n}.bin`, key: docKey, size, content: () => documentOf(n) })),
    ];
    if (stateName) saveState(order, built, shards);
    return built;
  };

  /** Saves what the next build starts from. */
  const saveState = (order: string[], files: IndexFile[], shards: IndexShard[]) => {
    const list = listKey(keys);
    const live = order.filter((term) => postings[termIds.get(term)!]!.pages.length);
    let total = 0;
    for (const term of live) total += postings[termIds.get(term)!]!.pages.length;
    const meta = Buffer.from(JSON.stringify({ list, terms: live }));
    const start = 4 + meta.length + ((4 - ((4 + meta.length) % 4)) % 4);
    const bytes = Buffer.alloc(start + 4 * (live.length + 2 * total));
    bytes.writeUInt32LE(meta.length, 0);
    meta.copy(bytes, 4);
    const words32 = new Uint32Array(bytes.buffer, bytes.byteOffset + start, live.length + 2 * total);
    let at = live.length;
    live.forEach((term, id) => {
      const posting = postings[termIds.get(term)!]!;
      words32[id] = posting.pages.length;
      words32.set(posting.pages, at);
      words32.set(posting.values, at + total);
      at += posting.pages.length;
    });
    const state: StateHead = {
      version: stateVersion(),
      keys,
      list,
      lengths,
      shares: titleShares,
      docs: docKeys,
      shards: shards.map((shard) => [shard.raw, shard.key, shard.size]),
      files: files.map((f) => [f.path, f.key, f.size]),
    };
    // The postings first: a head is only used with postings of its own list.
    writeCachedFile(STATE_KIND, `${stateName}.bin`, bytes);
    writeCachedFile(STATE_KIND, `${stateName}.json`, JSON.stringify(state));
  };

  /** When every page's entry is the one of the last build, so are the files. */
  const unchanged = () => !merged && !changed.size && head!.keys.length === keys.length;
  const list = (): Array<[string, string, number]> => {
    if (!built && unchanged()) {
      made = 'unchanged';
      return head!.files;
    }
    return build().map((f): [string, string, number] => [f.path, f.key, f.size]);
  };

  return {
    add,
    made: () => made,
    files: () => build().map((f) => ({ path: f.path, content: f.content() })),
    list,
    async writeTo(dir, options = {}) {
      const listed = list();
      const wanted = listed.filter(([path, key, size]) => {
        if (options.keep?.(path, key)) return false;
        options.written?.(path, key, size);
        return true;
      });
      const paths = new Set(wanted.map(([path]) => path));
      const files = wanted.length ? build().filter((file) => paths.has(file.path)) : [];
      for (const folder of new Set(files.map((file) => dirname(file.path)))) await mkdir(join(dir, folder), { recursive: true });
      await Promise.all(files.map((file) => writeFile(join(dir, file.path), file.content())));
      await flushCacheWrites();
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

export function createSearchWorker(options: SearchIndexerOptions = {}): SearchWorker {
  const worker = new Worker(workerEntry('search'), { workerData: options });
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
