import { gzipSync } from 'node:zlib';
import { MAX_TERM, termsOf, words } from '../../templates/client/search-text.js';
import { createBodyReader, type SearchBody } from '../content/search-sections.js';

/*
 * What a page gives the search index (its entry: see src/build/search-indexer.ts): the terms of
 * its body, headings, title and slug with their counts, and the document a result shows.
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
  /** What the body gives the index, when it was read where the page was rendered: then `html` is not read again. */
  body?: SearchBody;
}

/** Score bonus of a term that is (part of) the title or slug, shared out over the title's terms. */
export const TITLE_BONUS = 3;

/** What a page gives the index. */
export interface PageEntry {
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

/**
 * A reader of pages into entries (`html` is the page's body), for pages whose body was not read
 * where they were rendered. It keeps what it learnt of words from page to page.
 */
export function createEntryReader(): (input: SearchInput, html: string) => PageEntry {
  const readBody = createBodyReader();
  return (input, html) => entryOf(input, readBody(html));
}

/** A page's entry: its body's terms and sections (see SearchBody) with its title's terms and its address. */
export function entryOf(input: SearchInput, body: SearchBody): PageEntry {
  // The title's terms share the bonus: a one-word title matching the query is the strongest signal.
  const titleTerms = new Map<string, 1 | 2>();
  const inTitle = (term: string, place: 1 | 2) => titleTerms.set(term, Math.max(titleTerms.get(term) ?? 0, place) as 1 | 2);
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
  // The body's terms in the order first seen, then the title's that the body does not have.
  const terms = [...body.terms];
  const inBody = new Set<string>();
  const values = body.counts.map((count, i) => {
    const place = titleTerms.get(body.terms[i]!);
    if (place) inBody.add(body.terms[i]!);
    return count * 4 + (place ?? 0);
  });
  for (const [term, place] of titleTerms) {
    if (inBody.has(term)) continue;
    terms.push(term);
    values.push(place);
  }
  const doc = { url: input.url, title: input.title, section: input.section ?? '', sections: body.sections };
  return {
    length: body.length,
    share: TITLE_BONUS / Math.sqrt(Math.max(1, [...titleTerms.values()].filter((v) => v === 2).length)),
    terms,
    values,
    doc: gzipSync(JSON.stringify(doc)).toString('base64'),
  };
}
