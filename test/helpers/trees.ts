import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { parser } from '../../src/content/mdast-parse.js';

/*
 * What the patched packages (patches/) take part in, for one
 * document: the tree the full parser gives, and the HTML tree remark-rehype
 * makes of it, as JSON. The patches test compares these with the same made by
 * the packages as installed (trees-child.ts).
 */
const toHast = unified().use(remarkRehype, { allowDangerousHtml: true });

export function treesOf(text: string): string {
  const mdast = parser.parse(text);
  const json = JSON.stringify(mdast);
  return `[${json},${JSON.stringify(toHast.runSync(mdast))}]`;
}
