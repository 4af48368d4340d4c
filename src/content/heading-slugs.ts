import GithubSlugger from 'github-slugger';
import type { Element, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import { walk } from './walk.js';

/*
 * rehype-slug, walked with our walk: every heading without an id gets its
 * text slugged as GitHub does, in document order, duplicates numbered by one
 * slugger per page. rehype-slug does the same with unist-util-visit, whose
 * cost per element (not per heading) was a quarter of a second on a page of
 * a megabyte of lists. Tested against rehype-slug on every page of the site.
 */
const slugs = new GithubSlugger();
/** A heading element, as hast-util-heading-rank (which rehype-slug uses) tells one. */
const HEADING = /^h[1-6]$/;

export function rehypeHeadingSlugs() {
  return (tree: Root) => {
    slugs.reset();
    walk<Element>(tree, 'element', (node) => {
      if (HEADING.test(node.tagName.toLowerCase()) && !node.properties.id) node.properties.id = slugs.slug(toString(node));
    });
  };
}
