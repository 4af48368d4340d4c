import type { Element, Root } from 'hast';
import { h, walk } from '../walk.js';

/*
 * The checkbox of a task list item (`- [x] Done`) gets the item's text as its name: the checkbox and
 * the text after it, up to the first block (a nested list, a code block), go into a <label>. A checkbox
 * without a name is a WCAG failure (Lighthouse's "label" audit). A control or a label of its own cannot
 * stand in that text: the sanitiser of raw HTML (raw-html.ts) lets none of a writer's through.
 */

/** Elements that may stand in a label's text (phrasing content that is not a control). */
const PHRASING = new Set(['a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'i', 'img', 'ins', 'kbd', 'mark', 'q', 's', 'samp', 'small', 'span', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr']);

export function rehypeTaskListLabels() {
  return (tree: Root) => {
    walk<Element>(tree, 'element', (li) => {
      if (li.tagName !== 'li' || !String(li.properties.className ?? '').includes('task-list-item')) return;
      // The checkbox is the item's first child, or its first paragraph's (a loose list).
      const holder = li.children.find((child): child is Element => child.type === 'element') ?? li;
      const parent = holder.type === 'element' && holder.tagName === 'p' ? holder : li;
      const at = parent.children.findIndex((child) => child.type === 'element' && child.tagName === 'input' && child.properties.type === 'checkbox');
      if (at < 0) return;
      const checkbox = parent.children[at] as Element;
      let end = at + 1;
      while (end < parent.children.length) {
        const next = parent.children[end]!;
        if (next.type === 'element' && !PHRASING.has(next.tagName)) break;
        end++;
      }
      // (GFM makes a task item only of a box followed by text, so the label always has some.)
      parent.children.splice(at, end - at, h('label', {}, [checkbox, ...parent.children.slice(at + 1, end)]));
    });
  };
}
