import { gzipSync } from 'node:zlib';
import { MAX_TERM, termsOf, words } from '../../templates/client/search-text.js';
import { decodeReferences } from '../shared/html.js';

/*
 * The text of a rendered page body as the search index reads it: cut at its
 * h2 and h3 headings, without the markup, the heading self-links and the copy
 * and tab buttons. A tab's label is read once, as the first words of its panel
 * (the `<p class="tab-label">` each panel starts with, shown in print), so that
 * "yarn" finds the section whose yarn tab is not the one shown first.
 */

/** One part of a page under a heading: the anchor ('' for the text before the first heading), the heading and the text. */
export type SearchSection = [anchor: string, heading: string, text: string];

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decode = (text: string) => decodeReferences(text, ENTITIES);

/** Heading self-links and copy and tab buttons (the tab's label is its panel's first paragraph too): not content. */
const NOT_CONTENT = /<a class="anchor"[^>]*>[\s\S]*?<\/a>|<button[^>]*>[\s\S]*?<\/button>/g;
/** Tags inside a word's run (highlighting spans, inline code, emphasis, links) join their text; the others separate it. */
const INLINE = /^<\/?(?:span|code|a|strong|em|b|i|mark|kbd|sub|sup|del|s|abbr|small)\b/i;
const HEADING = /<h([23]) id="([^"]*)"[^>]*>([\s\S]*?)<\/h\1>/g;

const textOf = (html: string) =>
  // Highlighting spans are most of the tags of a code-heavy page: they go first, without a callback each.
  decode(html.replace(/<\/?span\b[^>]*>/g, '').replace(/<[^>]*>/g, (tag) => (INLINE.test(tag) ? '' : ' ')))
    .replace(/[ \t\r\n]+/g, ' ')
    .trim();

/** The text of a page body cut at its h2 and h3 headings; a part with neither text nor anchor (before a first heading) is not a section. */
export function sectionsOf(html: string): SearchSection[] {
  const body = html.replace(NOT_CONTENT, '');
  const sections: SearchSection[] = [];
  let [anchor, heading] = ['', ''];
  let from = 0;
  const push = (to: number) => {
    const text = textOf(body.slice(from, to));
    if (text || anchor) sections.push([anchor, heading, text]);
  };
  for (const m of body.matchAll(HEADING)) {
    push(m.index);
    anchor = decode(m[2]!);
    heading = textOf(m[3]!);
    from = m.index + m[0].length;
  }
  push(body.length);
  return sections;
}

/** How much more a word of a heading counts than a word of the body. */
const HEADING_WEIGHT = 3;
/** Words whose terms a reader keeps (a site's vocabulary is tens of thousands of words). */
const WORDS_KEPT = 100_000;
/** A reader that learnt more terms than this forgets them all after the page (see createBodyReader). */
const FORGET_AFTER_TERMS = 200_000;
/** Longest text kept per section in a page document (its excerpt comes from there). */
const SECTION_TEXT = 6000;

/**
 * What a page's body gives the search index, read where the page is rendered (a worker thread of
 * the pool, in a cold build): the terms of its text and headings with their weighted counts, in the
 * order first seen, and the sections a result shows. The index adds the title's terms and the
 * page's address (entryOf).
 */
export interface SearchBody {
  /** Body words. */
  length: number;
  terms: string[];
  counts: number[];
  sections: SearchSection[];
}

/**
 * A reader of page bodies (rendered HTML) into SearchBody. It keeps what it
 * learnt of words (their terms) from page to page: most words recur.
 */
export function createBodyReader(): (html: string) => SearchBody {
  /** While a page is read: its count per term (see countIdOf), and the terms it has. */
  let counts = new Float64Array(1024);
  const touched: number[] = [];
  // Reading a page counts its terms in an array indexed by a number of their own.
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

  return (html: string): SearchBody => {
    // Of a section's text, only what the document shows is kept.
    const shown: SearchSection[] = [];
    let length = 0;
    for (const [anchor, heading, text] of sectionsOf(html)) {
      for (const word of words(heading)) for (const id of termsOfWord(word)) count(id, HEADING_WEIGHT);
      for (const word of words(text)) {
        length++;
        for (const id of termsOfWord(word)) count(id, 1);
      }
      shown.push([anchor, heading, text.length > SECTION_TEXT ? text.slice(0, text.lastIndexOf(' ', SECTION_TEXT)) : text]);
    }
    const body: SearchBody = { length, terms: touched.map((id) => countNames[id]!), counts: touched.map((id) => counts[id]!), sections: shown };
    for (const id of touched) counts[id] = 0;
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
    return body;
  };
}

/** Where a page is, as the index shows it: its address, its section's title and its slug (its title comes from its frontmatter). */
export interface SearchPlace {
  url: string;
  /** The title of the page's section, shown beside the result. */
  section?: string;
  /** The last segment of the page's path ("csp" for /guides/csp/), searched like the title. */
  slug: string;
}

/** Score bonus of a term that is (part of) the title or slug, shared out over the title's terms. */
export const TITLE_BONUS = 3;

/** What a page gives the index: its body's words (as SearchBody counts them), and the following. */
export interface PageEntry extends Pick<SearchBody, 'length'> {
  /** Title bonus of a term that is a whole title word. */
  share: number;
  /** The page's terms, and per term its packed value (see Posting). */
  terms: string[];
  values: number[];
  /** The page document, gzipped, as base64. */
  doc: string;
}

/** A page's entry: its body's terms and sections (see SearchBody) with its title's terms and its address. */
export function entryOf(input: SearchPlace & { title: string }, body: SearchBody): PageEntry {
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
  const share = TITLE_BONUS / Math.sqrt(Math.max(1, [...titleTerms.values()].filter((v) => v === 2).length));
  // The body's terms in the order first seen, then the title's that the body does not have.
  const values = body.counts.map((count, i) => count * 4 + (titleTerms.get(body.terms[i]!) ?? 0));
  for (const term of body.terms) titleTerms.delete(term);
  const terms = [...body.terms, ...titleTerms.keys()];
  values.push(...titleTerms.values());
  const doc = { url: input.url, title: input.title, section: input.section ?? '', sections: body.sections };
  return { length: body.length, share, terms, values, doc: gzipSync(JSON.stringify(doc)).toString('base64') };
}
