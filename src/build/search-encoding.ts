import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { contentKey } from './output.js';
import { TITLE_BONUS } from '../content/search-sections.js';

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
 *
 * This module writes the bytes of the files, encoded from the postings, and the postings as the
 * indexer saves them in the cache between builds. The other parts: src/content/search-sections.ts
 * reads a page into its entry (terms, counts, document); src/build/search-indexer.ts keeps the
 * postings, and the state between builds.
 */

/** Raw size a term shard grows to before the next one starts. */
const SHARD_BYTES = 48 * 1024;
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
export interface Posting {
  pages: number[] | Uint32Array;
  values: number[] | Uint32Array;
}

const TITLE_PLACE = [0, 0.5, 1];

/** A term shard as the indexer's state keeps it: the content key of its uncompressed bytes, and its file's key and size. */
export type ShardKeys = [raw: string, key: string, size: number];

/** A file of the index: its path under search-index/, key (a hash of its bytes), size and bytes. */
export interface IndexFile {
  path: string;
  key: string;
  size: number;
  content(): Buffer;
}

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
  /** A number as readVarint (templates/client/search-text.ts) reads it in the engine: 7 bits a byte, low bits first. */
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

interface IndexContents {
  /** Every term, in sorted order. */
  terms: string[];
  postingOf(term: string): Posting;
  /** Per page: body words, title bonus, and its document's content key and size. */
  lengths: number[];
  titleShares: number[];
  docKeys: Array<[key: string, size: number]>;
  documentOf(page: number): Buffer;
  /** The last build's shards: a shard with the same bytes is not compressed again. */
  previousShards: ShardKeys[];
}

/** The index files, and the term shards among them. */
export function encodeIndex({ terms, postingOf, lengths, titleShares, docKeys, documentOf, previousShards }: IndexContents): { files: IndexFile[]; shards: ShardKeys[] } {
  const average = lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length) || 1;
  const shards: Array<Omit<IndexFile, 'path'> & { raw: string }> = [];
  const firstTerms: string[] = [];
  const bytes = new ByteWriter();
  const list = new ByteWriter();
  let inShard = 0;
  let previous = '';
  // A shard whose bytes are those of a shard of the last build is not compressed again: its key
  // and size are known, and it is compressed only if it must be written.
  const gzipped = new Map(previousShards.map(([raw, key, size]) => [raw, { key, size }]));
  const flush = () => {
    if (!inShard) return;
    const count = new ByteWriter();
    count.varint(inShard);
    const raw = Buffer.concat([count.view(), bytes.view()]);
    const rawKey = contentKey(raw);
    let gz: Buffer | undefined;
    const compressed = () => (gz ??= gzipSync(raw, { level: 9 }));
    const { key, size } = gzipped.get(rawKey) ?? { key: contentKey(compressed()), size: compressed().length };
    shards.push({ raw: rawKey, key, size, content: compressed });
    bytes.length = 0;
    inShard = 0;
    previous = '';
  };
  const norms = lengths.map((length) => 1 - B + (B * length) / average);
  for (const term of terms) {
    const posting = postingOf(term);
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
      const rest = Buffer.from(term.slice(shared));
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
  const files: IndexFile[] = [
    { path: 'index.json', key: contentKey(entry), size: entry.length, content: () => entry },
    ...shards.map((shard, i): IndexFile => ({ path: `${key}/s${i}.bin`, key: shard.key, size: shard.size, content: shard.content })),
    ...docKeys.map(([docKey, size], n): IndexFile => ({ path: `${key}/p${n}.bin`, key: docKey, size, content: () => documentOf(n) })),
  ];
  return { files, shards: shards.map((shard): ShardKeys => [shard.raw, shard.key, shard.size]) };
}

/** The postings of `terms` as saved in the cache: their list's key and terms (JSON), then per term its page count, then every page, then every value. */
export function packPostings(list: string, live: string[], postingOf: (term: string) => Posting): Buffer {
  let total = 0;
  for (const term of live) total += postingOf(term).pages.length;
  const meta = Buffer.from(JSON.stringify({ list, terms: live }));
  const start = 4 + meta.length + ((4 - ((4 + meta.length) % 4)) % 4);
  const bytes = Buffer.alloc(start + 4 * (live.length + 2 * total));
  bytes.writeUInt32LE(meta.length, 0);
  meta.copy(bytes, 4);
  const words32 = new Uint32Array(bytes.buffer, bytes.byteOffset + start, live.length + 2 * total);
  let at = live.length;
  live.forEach((term, id) => {
    const posting = postingOf(term);
    words32[id] = posting.pages.length;
    words32.set(posting.pages, at);
    words32.set(posting.values, at + total);
    at += posting.pages.length;
  });
  return bytes;
}

/** Postings saved by packPostings for the list `list`; undefined when the bytes are not that. */
export function unpackPostings(bytes: Buffer, list: string): { terms: string[]; postings: Posting[] } | undefined {
  if (bytes.length < 4) return undefined;
  const jsonLength = bytes.readUInt32LE(0);
  let meta: { list: string; terms: string[] };
  try {
    meta = JSON.parse(bytes.subarray(4, 4 + jsonLength).toString('utf8')) as typeof meta;
  } catch {
    return undefined;
  }
  let offset = 4 + jsonLength;
  offset += (4 - (offset % 4)) % 4;
  const n = meta.terms.length;
  if (meta.list !== list || (bytes.length - offset) % 4 || (bytes.length - offset) / 4 < n) return undefined;
  // Typed arrays need aligned memory.
  const aligned = (bytes.byteOffset + offset) % 4 ? Buffer.from(bytes.subarray(offset)) : bytes.subarray(offset);
  const words32 = new Uint32Array(aligned.buffer, aligned.byteOffset, aligned.length / 4);
  const total = words32.length - n;
  let sum = 0;
  for (let id = 0; id < n; id++) sum += words32[id]!;
  if (2 * sum !== total) return undefined;
  const postings: Posting[] = [];
  let at = n;
  for (let id = 0; id < n; id++) {
    const size = words32[id]!;
    postings.push({ pages: words32.subarray(at, at + size), values: words32.subarray(at + total / 2, at + total / 2 + size) });
    at += size;
  }
  return { terms: meta.terms, postings };
}
