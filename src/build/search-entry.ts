import { createBodyReader, entryOf, type PageEntry, type SearchPlace } from '../content/search-sections.js';

export { TITLE_BONUS, type PageEntry } from '../content/search-sections.js';

/*
 * What a page gives the search index (its entry, made by entryOf in src/content/search-sections.ts
 * where the page renders, or here from its HTML: see src/build/search-indexer.ts).
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

/**
 * A reader of pages into entries (`html` is the page's body), for pages whose body was not read
 * where they were rendered. It keeps what it learnt of words from page to page.
 */
export function createEntryReader(): (input: SearchInput, html: string) => PageEntry {
  const readBody = createBodyReader();
  return (input, html) => entryOf(input, readBody(html));
}

