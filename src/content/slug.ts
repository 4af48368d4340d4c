import { slug } from 'github-slugger';
import type { Element, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import rehypeSlug from 'rehype-slug';
import type { VFile } from 'vfile';
import { report } from './context.js';
import { walk } from './walk.js';

/*
 * Heading ids. A heading's id is its text slugged as GitHub does (rehype-slug),
 * with "-1", "-2"… added when the id is taken: by an earlier heading, by an id the
 * page body already holds (raw HTML), by the page chrome around the body
 * (templates/), or by tabs (any id of their form). A link to "#banner" must land
 * on one element only.
 */

/** Every fixed id the page chrome writes (Layout, Printable and their components). */
export const CHROME_IDS: readonly string[] = [
  'section-titled', 'banner', 'notification', 'search-input', 'search-panel', 'search-status', 'search-results', 'lang-menu',
  'mobile-menu', 'page', 'sidebar', 'content', 'further-reading', 'contributors', 'footer', 'chat-button',
];

/** Ids the chrome numbers: the sidebar's lists of anchors, the search results (made by the client script). */
const NUMBERED_CHROME_ID = /^(?:sidebar-anchors|search-result)-\d+$/;

const chromeIds = new Set(CHROME_IDS);

/** The id of the footnotes' heading (remark-rehype's). */
const FOOTNOTE_LABEL_ID = 'footnote-label';

/**
 * The ids tabs take (see tabsNode in plugins/directives.ts), whichever tabs a page has: a heading
 * never takes one, so that its id does not depend on the tabs further down the page.
 */
const TAB_ID = /^tabs-\d+-\d+-(?:tab|panel)$/;

/** Whether a heading may not take this id whatever the page holds: the chrome's ids and the tabs'. */
function isReservedForHeading(id: string): boolean {
  return isChromeId(id) || TAB_ID.test(id);
}

/** Whether the page chrome may write an element with this id. */
export function isChromeId(id: string): boolean {
  return chromeIds.has(id) || NUMBERED_CHROME_ID.test(id);
}

const HEADING = /^h[1-6]$/;
/** The id of a heading whose text slugs to nothing (numbered on as duplicates are). */
const EMPTY_SLUG = 'section';

/*
 * rehype-slug finds the headings by visiting every element of the page, which on a page of a
 * megabyte of lists was a quarter of a second. It runs here on a root that holds just the headings
 * rehypeHeadingIds found, in the same order: the same ids from the same code (tested against
 * rehype-slug on the whole page for every page of the site).
 */
const slugHeadings = rehypeSlug() as (tree: Root) => void;

/**
 * Heading ids in three steps: the ids the page already holds (tabs, raw HTML,
 * headings with an id of their own) are noted, and those the chrome uses
 * reported; then rehype-slug slugs every heading without an id, as GitHub
 * does; then a heading whose slug is taken — by the chrome, by the body or by
 * an earlier heading — gets the next free "-1", "-2"… suffix, as duplicate
 * headings get.
 */
export function rehypeHeadingIds() {
  return (tree: Root, file: VFile) => {
    const ctx = file.data.ctx!;
    /** The headings given a free id once slugged: those whose id is not a string. */
    const slugged: Element[] = [];
    /** Where each id of this tree was first given, to name it when the id comes again. */
    const given = new Map<string, Element['position']>();
    let pipelineFootnotes = false;
    /** The headings rehype-slug slugs: those without an id (id="" included, though it counts as given). */
    const headings: Element[] = [];
    walk<Element>(tree, 'element', (node) => {
      const id = node.properties.id;
      if (!id && HEADING.test(node.tagName)) headings.push(node);
      if (typeof id === 'string') {
        if (isChromeId(id)) report(ctx, node.position, `the id "${id}" is used by the page chrome: choose another`);
        else if (given.has(id)) {
          // Written twice, or written as one the page makes itself (a tab panel's, the footnotes' heading: those have no position).
          const first = given.get(id);
          const why = 'an id names one element of a page (a link to it would find the first); choose another';
          if (!node.position && first) report(ctx, first, `the id "${id}" is one the page makes itself too (for a tab or the footnotes): ${why}`);
          else if (!first) report(ctx, node.position, `the id "${id}" is one the page makes itself (for a tab or the footnotes): ${why}`);
          else report(ctx, node.position, `the id "${id}" is given on line ${first.start.line + ctx.lineOffset} already: ${why}`);
        }
        if (id === FOOTNOTE_LABEL_ID && !node.position) pipelineFootnotes = true;
        given.set(id, given.get(id) ?? node.position);
      } else if (HEADING.test(node.tagName)) slugged.push(node);
    });
    // The build writes the footnotes' heading in the site's language by its id, so a writer's element with that id
    // would be taken for it, even on a page without footnotes (where the check above has nothing to compare it with).
    const footnoteLabel = given.get(FOOTNOTE_LABEL_ID);
    if (footnoteLabel && !pipelineFootnotes) report(ctx, footnoteLabel, `the id "${FOOTNOTE_LABEL_ID}" is the footnotes' heading's: choose another`);
    // (The headings stay where they are in the page: this root only lists them.)
    slugHeadings({ type: 'root', children: headings });
    const taken = new Set(given.keys());
    for (const node of slugged) node.properties.id = headingId(String(node.properties.id), toString(node), taken);
  };
}

/**
 * The id of a heading (whose text is `text`), which is then taken: `slugged`, the slug rehype-slug gave it, unless that
 * is taken or reserved. Then it is numbered from the heading's own slug, as GitHub numbers duplicates: a second "Content"
 * after the chrome's "content" and a first heading's "content-1" is "content-2". A heading with nothing to slug (only
 * emoji or punctuation; rehype-slug gives the first "", the next ones "-1", "-2"…) is a "section", numbered on.
 */
export function headingId(slugged: string, text: string, taken: Set<string>): string {
  const own = slug(text);
  const free = own && !taken.has(slugged) && !isReservedForHeading(slugged);
  return takeId(free ? slugged : own || EMPTY_SLUG, taken, isReservedForHeading);
}

/** Takes and returns `base`, or the first of `base`-1, `base`-2… that is neither taken nor `reserved`. */
function takeId(base: string, taken: Set<string>, reserved: (id: string) => boolean): string {
  let id = base;
  for (let n = 1; taken.has(id) || reserved(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

/** Unique ids for a document's parts, none of them one of the chrome's (the chapters of a printable section). */
export function uniqueIds(): (base: string) => string {
  const used = new Set<string>();
  return (base) => takeId(base, used, isChromeId);
}
