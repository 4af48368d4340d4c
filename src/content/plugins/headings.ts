import type { Element, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import { h, walk } from '../walk.js';
import type { VFile } from 'vfile';
import { report } from '../context.js';

/** Id of the element, once per page, whose text starts the name of every heading self-link. */
export const ANCHOR_LABEL_ID = 'section-titled';

/** Pages with more h3 headings than this give self-links to their h2s only. */
const SELF_LINK_H3_LIMIT = 300;

/**
 * Checks the heading outline (no h1 in the body: the title is the page's h1;
 * no skipped levels), gives h2 and h3 a self-link, and returns the h2 anchors
 * that the sidebars list.
 */
export function rehypeHeadings() {
  return (tree: Root, file: VFile) => {
    const ctx = file.data.ctx!;
    let previous = 1;
    // A reference page with hundreds of h3s (one per CLI flag) keeps its h3 ids but
    // gives only its h2s a self-link: the links would be most of the page's weight.
    let h3Count = 0;
    walk<Element>(tree, 'element', (node) => {
      if (node.tagName === 'h3') h3Count++;
    });
    const selfLinkDepth = h3Count > SELF_LINK_H3_LIMIT ? 2 : 3;
    walk<Element>(tree, 'element', (node, index, parent) => {
      const level = /^h([1-6])$/.exec(node.tagName)?.[1];
      if (!level) return;
      const depth = Number(level);
      if (depth === 1) report(ctx, node.position, 'the page title is its only h1: use "##" for sections (the title comes from the frontmatter)');
      else if (depth > previous + 1) report(ctx, node.position, `heading level skips from h${previous} to h${depth}`);
      previous = depth;
      const id = node.properties.id as string | undefined;
      if (!id || depth > 3) return;
      const title = toString(node).trim();
      ctx.headings.push(title);
      if (depth === 2) ctx.anchors.push({ title, id });
      if (depth > selfLinkDepth) return;
      // Named "Section titled <heading>" by reference: the words live once per page
      // (ANCHOR_LABEL_ID in the layout), so reference pages with a thousand headings stay small.
      const properties = { className: ['anchor'], href: `#${id}`, ariaLabelledby: `${ANCHOR_LABEL_ID} ${id}` };
      parent.children[index] = h('div', { className: ['heading'] }, [node, h('a', properties, ['#'])]);
    });
  };
}
