import type { Element, ElementContent, Root } from 'hast';
import { toString } from 'hast-util-to-string';
import { visit } from 'unist-util-visit';
import type { VFile } from 'vfile';
import { report } from '../context.js';

export interface Anchor {
  title: string;
  id: string;
}

/**
 * Checks the heading outline (no h1 in the body: the title is the page's h1;
 * no skipped levels), gives h2 and h3 a self-link, and returns the h2 anchors
 * that the sidebars list.
 */
export function rehypeHeadings(anchors: Anchor[], headings: string[] = []) {
  return () => (tree: Root, file: VFile) => {
    const ctx = file.data.ctx!;
    let previous = 1;
    visit(tree, 'element', (node: Element, index, parent) => {
      const level = /^h([1-6])$/.exec(node.tagName)?.[1];
      if (!level || !parent || index === undefined) return;
      const depth = Number(level);
      if (depth === 1) {
        report(ctx, node.position, 'the page title is its only h1: use "##" for sections (the title comes from the frontmatter)');
      } else if (depth > previous + 1) {
        report(ctx, node.position, `heading level skips from h${previous} to h${depth}`);
      }
      previous = depth;
      const id = node.properties.id as string | undefined;
      if (!id || depth > 3) return;
      const title = toString(node).trim();
      headings.push(title);
      if (depth === 2) anchors.push({ title, id });
      const link: Element = {
        type: 'element',
        tagName: 'a',
        properties: { className: ['anchor'], href: `#${id}`, dataPagefindIgnore: '' },
        children: [
          { type: 'element', tagName: 'span', properties: { ariaHidden: 'true' }, children: [{ type: 'text', value: '#' }] },
          { type: 'element', tagName: 'span', properties: { className: ['sr-only'] }, children: [{ type: 'text', value: `Section titled “${title}”` }] },
        ],
      };
      const wrapper: Element = {
        type: 'element',
        tagName: 'div',
        properties: { className: ['heading', `heading-h${depth}`] },
        children: [node, link],
      };
      parent.children[index] = wrapper as ElementContent;
      return 'skip';
    });
  };
}
