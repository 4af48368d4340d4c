import type { Element, Root } from 'hast';
import rehypeSlug from 'rehype-slug';
import { walk } from './walk.js';

/*
 * rehype-slug, given the headings only. It slugs every heading without an
 * id as GitHub does, in document order, duplicates numbered; it finds them
 * by visiting every element of the page, which on a page of a megabyte of
 * lists was a quarter of a second. Here our walk collects the headings and
 * rehype-slug runs on a root that holds just them, in the same order: the
 * same ids from the same code (tested against rehype-slug on the whole page
 * for every page of the site).
 */
const slug = rehypeSlug() as (tree: Root) => void;
const HEADING = /^h[1-6]$/i;

export function rehypeHeadingSlugs() {
  return (tree: Root) => {
    const headings: Element[] = [];
    walk<Element>(tree, 'element', (node) => {
      if (HEADING.test(node.tagName)) headings.push(node);
    });
    // The headings stay where they are in the page: this root only lists them.
    slug({ type: 'root', children: headings });
  };
}
