import GithubSlugger from 'github-slugger';
import type { Element, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import type { Node } from 'unist';
import type { VFile } from 'vfile';
import { report } from './context.js';
import { walk } from './walk.js';

/*
 * Heading ids. A heading's id is its text slugged as GitHub does (github-slugger),
 * with "-1", "-2"… added when the id is taken: by an earlier heading, by an id the
 * page body already holds (tabs, raw HTML), or by the page chrome around the body
 * (templates/). A link to "#banner" must land on one element only.
 */

/** Every fixed id the page chrome writes (Layout, Printable and their components). */
export const CHROME_IDS: readonly string[] = [
  'section-titled',
  'banner',
  'notification',
  'search-input',
  'search-panel',
  'search-status',
  'search-results',
  'lang-menu',
  'mobile-menu',
  'page',
  'sidebar',
  'content',
  'further-reading',
  'contributors',
  'footer',
  'chat-button',
];

/** Ids the chrome numbers: the sidebar's lists of anchors, the search results (made by the client script). */
const NUMBERED_CHROME_ID = /^(?:sidebar-anchors|search-result)-\d+$/;

const chromeIds = new Set(CHROME_IDS);

/** Whether the page chrome may write an element with this id. */
export function isChromeId(id: string): boolean {
  return chromeIds.has(id) || NUMBERED_CHROME_ID.test(id);
}

const HEADING = /^h[1-6]$/;
const RAW_ID = /\sid=["']([^"']+)["']/g;

/**
 * Gives every heading without an id one (what rehype-slug did, with the ids of
 * the chrome and of the body reserved), and reports ids written in the body
 * that the chrome uses.
 */
export function rehypeSlugs() {
  return (tree: Root, file: VFile) => {
    const ctx = file.data.ctx!;
    const slugger = new GithubSlugger();
    for (const id of CHROME_IDS) slugger.occurrences[id] = 0;
    const taken = (id: string, position: Node['position']) => {
      if (isChromeId(id)) report(ctx, position, `the id "${id}" is used by the page chrome: choose another`);
      slugger.occurrences[id] = 0;
    };
    walk<Element>(tree, 'element', (node) => {
      const id = node.properties.id;
      if (typeof id === 'string') taken(id, node.position);
    });
    walk<Node & { value: string }>(tree, 'raw', (node) => {
      for (const m of node.value.matchAll(RAW_ID)) taken(m[1]!, node.position);
    });
    walk<Element>(tree, 'element', (node) => {
      if (!HEADING.test(node.tagName) || node.properties.id) return;
      let id = slugger.slug(toString(node));
      // "sidebar-anchors-2" is slugged again, which makes it "sidebar-anchors-2-1".
      if (NUMBERED_CHROME_ID.test(id)) id = slugger.slug(id);
      node.properties.id = id;
    });
  };
}

/** Unique ids for a document's parts, none of them one of the chrome's (the chapters of a printable section). */
export function uniqueIds(): (base: string) => string {
  const used = new Set<string>();
  return (base) => {
    let id = base;
    for (let n = 1; used.has(id) || isChromeId(id); n++) id = `${base}-${n}`;
    used.add(id);
    return id;
  };
}
