import type { Site } from '../site/model.js';
import { MAX_TERM } from '../../templates/client/search-text.js';

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
/*
 * The parts: src/content/search-sections.ts reads a page into its entry (terms,
 * counts, document); src/build/search-indexer.ts keeps the postings and
 * src/build/search-state.ts the state between builds; src/build/search-encoding.ts
 * writes the bytes of the files.
 */

export type { SearchInput } from './search-state.js';
export { createSearchIndexer, type SearchIndexer } from './search-indexer.js';

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
