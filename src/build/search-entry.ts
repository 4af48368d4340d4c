import { gzipSync } from 'node:zlib';
import { MAX_TERM, termsOf, words } from '../../templates/client/search-text.js';
import { sectionPartsOf, type SearchSection } from './search-sections.js';

/*
 * What a page gives the search index (its entry, kept in the cache by the
 * indexer: see src/build/search-indexer.ts): the terms of its body, headings,
 * title and slug with their counts, and the document a result shows.
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

/** How much more a word of a heading counts than a word of the body. */
const HEADING_WEIGHT = 3;
/** Score bonus of a term that is (part of) the title or slug, shared out over the title's terms. */
export const TITLE_BONUS = 3;
/** Words whose terms a reader keeps (a site's vocabulary is tens of thousands of words). */
const WORDS_KEPT = 100_000;
/** A reader that learnt more terms than this forgets them all after the page (see createEntryReader). */
const FORGET_AFTER_TERMS = 200_000;
/** Longest text kept per heading's part in a page document (its excerpt comes from there). */
const SECTION_TEXT = 6000;

/** What a page gives the index: kept in the cache, so that a rebuild indexes only the pages whose text changed. */
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
 * A reader of pages into entries (`html` is the page's body). It keeps what
 * it learnt of words (their terms) from page to page: most words recur.
 */
export function createEntryReader(): (input: SearchInput, html: string) => PageEntry {
  /** While a page is read: its count per term (see countIdOf), and the terms it has. */
  let counts = new Float64Array(1024);
  const touched: number[] = [];
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
  const found: number[] = [];
  const termsOfWord = (word: string) => {
    let ids = wordTerms.get(word);
    if (!ids) {
      found.length = 0;
      termsOf(word, (term) => found.push(countIdOf(term)));
      // A copy of its length: an array pushed to from empty takes room for 17 numbers.
      ids = found.slice();
      if (wordTerms.size < WORDS_KEPT) wordTerms.set(word, ids);
    }
    return ids;
  };
  const count = (id: number, weight: number) => {
    if (counts[id] === 0) touched.push(id);
    counts[id]! += weight;
  };

  /** Reads a page: its terms with their counts and title places, and its document. */
  return (input: SearchInput, html: string): PageEntry => {
    // The body's sections come as parts: their words are counted as they come, and of their text only
    // what the document shows is kept.
    const parts = sectionPartsOf(html);
    const shown: SearchSection[] = [];
    let length = 0;
    /** The section being read: its text so far (up to what is shown), and its heading while its words wait to be counted. */
    let open: { anchor: string; heading: string; text: string; uncounted?: string } | undefined;
    const countHeading = (heading: string) => {
      for (const word of words(heading)) for (const id of termsOfWord(word)) count(id, HEADING_WEIGHT);
    };
    const close = () => {
      // (Without text or anchor, it is not a section: see SectionPart.)
      if (open && (open.text || open.anchor)) shown.push([open.anchor, open.heading, open.text.length > SECTION_TEXT ? open.text.slice(0, open.text.lastIndexOf(' ', SECTION_TEXT)) : open.text]);
    };
    for (const [anchor, heading, text, first] of parts) {
      if (first) {
        close();
        open = { anchor, heading, text: '' };
        // A section without anchor counts its heading's words only once it turns out to have text.
        if (anchor) countHeading(heading);
        else open.uncounted = heading;
      }
      if (!text) continue;
      if (open!.uncounted !== undefined) {
        countHeading(open!.uncounted);
        open!.uncounted = undefined;
      }
      for (const word of words(text)) {
        length++;
        for (const id of termsOfWord(word)) count(id, 1);
      }
      if (open!.text.length <= SECTION_TEXT) open!.text = open!.text ? `${open!.text} ${text}` : text;
    }
    close();
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
    // What the reader learnt is worth keeping while it is a site's vocabulary (tens of thousands of
    // terms). A page of hundreds of thousands of words of its own (a generated table of options, say)
    // would keep tens of megabytes for the rest of the build, while the index takes as much again.
    if (countNames.length > FORGET_AFTER_TERMS) {
      countIds.clear();
      countNames.length = 0;
      wordTerms.clear();
      counts = new Float64Array(1024);
    }
    const doc = { url: input.url, title: input.title, section: input.section ?? '', sections: shown };
    return {
      length,
      share: TITLE_BONUS / Math.sqrt(Math.max(1, [...titleTerms.values()].filter((v) => v === 2).length)),
      terms,
      values,
      doc: gzipSync(JSON.stringify(doc)).toString('base64'),
    };
  };
}
