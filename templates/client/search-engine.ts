import { stemmer } from 'stemmer';
import type { SearchResult } from './search-logic.js';
import { isUnspaced, queryWords, readVarint, termsOf, wordStarts, words } from './search-text.js';

/*
 * The search engine of the local index (written by src/build/search-encoding.ts). It is
 * its own small script, loaded when the search box is first used; it fetches
 * the index entry, then per query only the term shards its words fall in and
 * the documents of the pages it shows.
 *
 * A query word matches a term that is the word itself (full weight), a term of
 * the same stem ("caching" → "cache", "cached"), or, less strongly, a term the
 * word is the start of ("optimiz" → "optimization"). A page scores, per word,
 * its best matching term's stored score times the term's IDF; pages matching
 * every word come first.
 */


interface Entry {
  format: number;
  key: string;
  pages: number;
  shards: string[];
}

interface TermData {
  pages: Uint32Array;
  scores: Uint8Array;
}

interface PageDocument {
  url: string;
  title: string;
  section: string;
  sections: Array<[anchor: string, heading: string, text: string]>;
  /** The words of each section's text, cut once when the document first arrives. */
  words?: string[][];
}

/** Fetches a file of the index as bytes (relative to the folder of index.json); `fresh` skips the HTTP cache. */
export type Fetcher = (path: string, fresh?: boolean) => Promise<Uint8Array>;

const SAME_STEM = 0.9;
const PREFIX = 0.5;
/** Shards a word's prefix may reach into (a one- or two-letter prefix would reach into many). */
const MAX_SHARDS_PER_WORD = 3;
/** Words of a query that are searched (each costs a shard); a bit each in Matcher. */
const MAX_QUERY_WORDS = 10;
const EXCERPT_WORDS = 26;
const EXCERPT_LEAD = 6;

const textDecoder = new TextDecoder();

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  // A host that served the file with Content-Encoding: gzip has unpacked it already.
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The terms of a shard; a term's pages are decoded when first asked for. */
function decodeShard(bytes: Uint8Array): Map<string, () => TermData> {
  const terms = new Map<string, () => TermData>();
  const at = { pos: 0 };
  const count = readVarint(bytes, at);
  let previous = '';
  for (let t = 0; t < count; t++) {
    const shared = readVarint(bytes, at);
    const length = readVarint(bytes, at);
    const term = previous.slice(0, shared) + textDecoder.decode(bytes.subarray(at.pos, at.pos + length));
    at.pos += length;
    const df = readVarint(bytes, at);
    const size = readVarint(bytes, at);
    const start = at.pos;
    at.pos += size;
    let data: TermData | undefined;
    terms.set(term, () => (data ??= decodePages(bytes, start, df)));
    previous = term;
  }
  return terms;
}

function decodePages(bytes: Uint8Array, start: number, df: number): TermData {
  const at = { pos: start };
  const pages = new Uint32Array(df);
  const scores = new Uint8Array(df);
  let page = 0;
  for (let i = 0; i < df; i++) {
    page += readVarint(bytes, at);
    pages[i] = page;
    scores[i] = bytes[at.pos++]!;
  }
  return { pages, scores };
}

/** The start every term matching `word` shares: the word and its stem's common part ("librari" also covers "library"). */
function scanPrefix(word: string, stem: string): string {
  let n = 0;
  while (n < word.length && n < stem.length && word[n] === stem[n]) n++;
  let prefix = word.slice(0, n);
  if (prefix.length > 3 && prefix.endsWith('i')) prefix = prefix.slice(0, -1);
  return prefix.length >= 2 ? prefix : word;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function createSearchEngine(fetchFile: Fetcher) {
  let entry: Promise<Entry> | undefined;
  const shards = new Map<number, Promise<Map<string, () => TermData>>>();
  const documents = new Map<number, Promise<PageDocument>>();

  const load = () =>
    (entry ??= fetchFile('index.json').then((bytes) => JSON.parse(textDecoder.decode(bytes)) as Entry).catch((e: unknown) => {
      entry = undefined;
      throw e;
    }));

  /** A file of the current index; when it is gone (a newer build was deployed), the entry is fetched again. */
  const indexFile = async (name: string): Promise<Uint8Array> => {
    const { key } = await load();
    try {
      return await gunzip(await fetchFile(`${key}/${name}`));
    } catch (e) {
      entry = fetchFile('index.json', true).then((bytes) => JSON.parse(textDecoder.decode(bytes)) as Entry);
      const fresh = await entry.catch((reason: unknown) => {
        entry = undefined; // the next query tries again
        throw reason;
      });
      shards.clear();
      documents.clear();
      if (fresh.key === key) throw e;
      return gunzip(await fetchFile(`${fresh.key}/${name}`));
    }
  };

  const shard = (i: number) => {
    let found = shards.get(i);
    if (!found) {
      found = indexFile(`s${i}.bin`).then(decodeShard);
      found.catch(() => shards.delete(i));
      shards.set(i, found);
    }
    return found;
  };

  const documentOf = (page: number) => {
    let found = documents.get(page);
    if (!found) {
      found = indexFile(`p${page}.bin`).then((bytes) => {
        const doc = JSON.parse(textDecoder.decode(bytes)) as PageDocument;
        doc.words = doc.sections.map(([, , text]) => words(text));
        return doc;
      });
      found.catch(() => documents.delete(page));
      documents.set(page, found);
    }
    return found;
  };

  /** Indexes of the shards holding terms that start with `prefix`. */
  const shardsFor = (first: string[], prefix: string): number[] => {
    // The last shard starting at or before the prefix, then every later one whose first term still has it.
    let lo = 0;
    let hi = first.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (first[mid]! <= prefix) lo = mid;
      else hi = mid - 1;
    }
    const found = [lo];
    for (let i = lo + 1; i < first.length && first[i]!.startsWith(prefix) && found.length < MAX_SHARDS_PER_WORD; i++) found.push(i);
    return found;
  };

  interface Candidate {
    term: string;
    factor: number;
    data: TermData;
  }

  /** The terms a query word matches, with their weights. */
  const candidates = async (word: string): Promise<Candidate[]> => {
    const { shards: first } = await load();
    if (!first.length) return [];
    const stem = stemmer(word);
    const prefix = scanPrefix(word, stem);
    const found: Candidate[] = [];
    for (const terms of await Promise.all(shardsFor(first, prefix).map(shard))) {
      for (const [term, data] of terms) {
        if (!term.startsWith(prefix)) continue;
        // (One Chinese or Japanese character is already a word to start from.)
        const factor = term === word ? 1 : stemmer(term) === stem ? SAME_STEM : (word.length >= 2 || isUnspaced(word)) && term.startsWith(word) ? PREFIX : 0;
        if (factor) found.push({ term, factor, data: data() });
      }
    }
    return found;
  };

  /** Starts fetching what a query needs (entry and shards), without searching. */
  const preload = async (query: string) => {
    const { shards: first } = await load();
    for (const word of queryWords(query).slice(0, MAX_QUERY_WORDS)) {
      if (first.length) for (const i of shardsFor(first, scanPrefix(word, stemmer(word)))) void shard(i).catch(() => undefined);
    }
  };

  const search = async (query: string, limit = 8): Promise<SearchResult[]> => {
    const queryTerms = queryWords(query).slice(0, MAX_QUERY_WORDS);
    if (!queryTerms.length) return [];
    const { pages: total } = await load();
    const matched = await Promise.all(queryTerms.map(candidates));
    const scores = new Map<number, { words: number; score: number }>();
    matched.forEach((list) => {
      // The word's terms count as one: the best of them per page, weighed by how rare the word is on
      // the site (the pages any of them is on), so that a rare longer word sharing a typed prefix
      // does not outweigh the word itself.
      const best = new Map<number, number>();
      for (const { factor, data } of list) {
        for (let i = 0; i < data.pages.length; i++) {
          const page = data.pages[i]!;
          const score = factor * data.scores[i]!;
          if (score > (best.get(page) ?? 0)) best.set(page, score);
        }
      }
      const idf = Math.log(1 + (total - best.size + 0.5) / (best.size + 0.5));
      for (const [page, score] of best) {
        const sum = scores.get(page);
        if (sum) {
          sum.words++;
          sum.score += idf * score;
        } else scores.set(page, { words: 1, score: idf * score });
      }
    });
    const ranked = [...scores]
      .sort(([pa, a], [pb, b]) => b.words - a.words || b.score - a.score || pa - pb)
      .slice(0, limit)
      .map(([page]) => page);
    const matcher = new Matcher(matched.map((list) => new Set(list.map((c) => c.term))));
    return Promise.all(ranked.map(async (page) => hitOf(await documentOf(page), matcher)));
  };

  return { search, preload };
}

/** Which query words (a bit each) a word of the text matches; worked out once per word and query. */
class Matcher {
  private readonly masks = new Map<string, number>();
  constructor(private readonly sets: Array<Set<string>>) {}
  mask(word: string): number {
    let mask = this.masks.get(word);
    if (mask === undefined) {
      mask = 0;
      for (const term of cachedTerms(word)) {
        for (let i = 0; i < this.sets.length; i++) if (this.sets[i]!.has(term)) mask |= 1 << i;
      }
      this.masks.set(word, mask);
    }
    return mask;
  }
}

/** The index terms of a word, kept across queries (the same words recur in every result). */
const termCache = new Map<string, string[]>();
function cachedTerms(word: string): string[] {
  let terms = termCache.get(word);
  if (!terms) {
    terms = [];
    termsOf(word, (term) => terms!.push(term));
    if (termCache.size > 100_000) termCache.clear();
    termCache.set(word, terms);
  }
  return terms;
}

/** Which query words a text matches (a bit each), and where: the positions of the words holding a match. */
function matchesIn(text: string, matcher: Matcher, list = words(text)): { found: number; at: number[]; words: string[] } {
  let found = 0;
  const at: number[] = [];
  for (let position = 0; position < list.length; position++) {
    const mask = matcher.mask(list[position]!);
    if (mask) {
      found |= mask;
      at.push(position);
    }
  }
  return { found, at, words: list };
}

const bits = (mask: number) => {
  let n = 0;
  for (; mask; mask &= mask - 1) n++;
  return n;
};

/** A result: the page, its best-matching part (heading) and an excerpt around the first match there. */
function hitOf(doc: PageDocument, matcher: Matcher): SearchResult {
  let best = -1;
  let bestScore = 0;
  let bestMatch: ReturnType<typeof matchesIn> | undefined;
  doc.sections.forEach(([anchor, heading, text], i) => {
    // The text before the first heading stands under the page title.
    const inHeading = matchesIn(anchor ? heading : doc.title, matcher).found;
    const inText = matchesIn(text, matcher, doc.words?.[i]);
    // The page's start wins a tie with a later heading (and, under a matching title, with any heading).
    const score = bits(inHeading | inText.found) * 10 + bits(inHeading) * 4 + (anchor ? Math.min(inText.at.length, 5) / 10 : 1);
    if (score > bestScore) {
      best = i;
      bestScore = score;
      bestMatch = inText;
    }
  });
  const section = doc.sections[best] ?? doc.sections[0];
  const match = bestMatch ?? matchesIn(section?.[2] ?? '', matcher);
  const heading = section?.[0] ? section[1] : undefined;
  const whole = (text: string) => {
    const m = matchesIn(text, matcher);
    return markWords(text, m, 0, m.words.length);
  };
  return {
    url: section?.[0] ? `${doc.url}#${section[0]}` : doc.url,
    title: doc.title,
    section: doc.section || undefined,
    heading,
    excerpt: excerptOf(section?.[2] ?? '', match),
    label: whole(doc.title) + (heading ? ` › ${whole(heading)}` : ''),
  };
}

/** About EXCERPT_WORDS words of the text from a little before its first match, matches marked. */
function excerptOf(text: string, match: ReturnType<typeof matchesIn>): string {
  if (!match.words.length) return escapeHtml(text.slice(0, 200));
  const start = Math.max(0, (match.at[0] ?? 0) - EXCERPT_LEAD);
  const end = Math.min(match.words.length, start + EXCERPT_WORDS);
  return markWords(text, match, start, end);
}

/** Words start to end of the text (with the punctuation between them) as escaped HTML, the matched ones in <mark>. */
function markWords(text: string, match: ReturnType<typeof matchesIn>, start: number, end: number): string {
  if (!match.words.length) return escapeHtml(text);
  const positions = wordStarts(text);
  const marked = new Set(match.at);
  let html = start > 0 ? '…' : escapeHtml(text.slice(0, positions[0]));
  let cursor = positions[start]!;
  for (let i = start; i < end; i++) {
    const from = positions[i]!;
    const word = match.words[i]!;
    html += escapeHtml(text.slice(cursor, from));
    html += marked.has(i) ? `<mark>${escapeHtml(word)}</mark>` : escapeHtml(word);
    cursor = from + word.length;
  }
  if (end < match.words.length) html += escapeHtml(text.slice(cursor, positions[end]!).replace(/\s+$/, '')) + ' …';
  else html += escapeHtml(text.slice(cursor));
  return html;
}
