import type { Element, ElementContent, Properties } from 'hast';
import type { Node, Parent } from 'unist';

/**
 * Calls `fn` on every node of type `type` below `tree`, in document order
 * (the visit of unist-util-visit, without its per-node cost: it names a
 * function for every node it passes, which is a tenth of a large build).
 * `fn` may replace `parent.children[index]`; the walk then goes on into the
 * node it was called with.
 */
export function walk<T extends Node>(tree: Node, type: T['type'], fn: (node: T, index: number, parent: Parent) => void): void {
  const children = (tree as Partial<Parent>).children;
  if (!children) return;
  for (let i = 0; i < children.length; i++) {
    const child = children[i]!;
    if (child.type === type) fn(child as T, i, tree as Parent);
    walk(child, type, fn);
  }
}

/** A hast element; a string among its children is text. */
export function h(tagName: string, properties: Properties, children: Array<ElementContent | string> = []): Element {
  return { type: 'element', tagName, properties, children: children.map((child) => (typeof child === 'string' ? { type: 'text', value: child } : child)) };
}

/** Whether any node below `tree` has type `type` (stops at the first). */
export function holds(tree: Node, type: string): boolean {
  const children = (tree as Partial<Parent>).children;
  if (!children) return false;
  for (const child of children) if (child.type === type || holds(child, type)) return true;
  return false;
}
