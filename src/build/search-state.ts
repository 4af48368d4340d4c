import { createHash } from 'node:crypto';
import { codeVersion, readCache } from '../io/cache.js';
import type { PageEntry, SearchPlace } from '../content/search-sections.js';

/*
 * What the index writer (search-indexer.ts) is given per page, and what it keeps between builds: its
 * pages' entry keys and the head of its saved state. (A page's entry is made by entryOf in
 * src/content/search-sections.ts where the page renders, or by the indexer from its HTML.)
 */

/** A page as the index gets it. */
export interface SearchInput extends SearchPlace {
  title: string;
  /**
   * The rendered Markdown body (HTML; headings carry their ids). It may be
   * left out when `sourceKey` is given: the indexer then takes it from the
   * render cache, and only if its own cache has no entry for the page.
   */
  html?: string;
  /** The render cache key of the page's Markdown (SourcePage.sourceKey): it stands for the body in the entry's key. */
  sourceKey?: string;
  /** The page's entry, when it was made where the page was rendered: then `html` is not read. */
  entry?: PageEntry;
}

let entryVersion: string | undefined;
const indexerVersion = () => (entryVersion ??= codeVersion(['src/build/search-indexer.ts', 'src/build/search-state.ts', 'src/build/search-encoding.ts', 'src/content/search-sections.ts', 'templates/client/search-text.ts']));
export const pageKey = (input: SearchInput) =>
  createHash('sha256')
    .update(indexerVersion())
    .update(JSON.stringify([input.url, input.title, input.section ?? '', input.slug]))
    // The body HTML is a function of the Markdown's render cache key: hashing that is cheaper.
    .update(input.sourceKey !== undefined ? `source:${input.sourceKey}` : `html:${input.html ?? ''}`)
    .digest('hex');

/** The body HTML of a page, from the input or else from the render cache (an earlier build's render). */
export function htmlOf(input: SearchInput): string {
  if (input.html !== undefined) return input.html;
  const cached = input.sourceKey === undefined ? undefined : readCache(input.sourceKey)?.html;
  if (!cached) throw new Error(`search index: no HTML for ${input.url} (the render cache lost it during the build; build again)`);
  return cached;
}

/*
 * The state of the last build's index, a part of the record of the last build
 * (src/io/record.ts), so that a rebuild does not merge every page's entry
 * again: when no page's entry changed, the files are those of the last build;
 * when some did, only their postings are taken out and put in again. The
 * head is in the record's JSON; the postings (large, read only when a page
 * changed or a file must be written again) are a file of the record beside it.
 */

export interface StateHead {
  /** The pages' entry keys in order: what the state is a function of, with the indexer's version (the record part's key). */
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
export const stateVersion = () => `${indexerVersion()} ${process.version}`;

export const listKey = (keys: readonly string[]) => {
  const hash = createHash('sha256').update(indexerVersion());
  for (const key of keys) hash.update(key);
  return hash.digest('hex');
};
