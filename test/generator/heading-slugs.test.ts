import type { Root } from 'mdast';
import type { Element, Root as HastRoot } from 'hast';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import rehypeSlug from 'rehype-slug';
import { unified } from 'unified';
import { VFile } from 'vfile';
import { toString } from 'hast-util-to-string';
import { describe, expect, it } from 'vitest';
import { CHROME_IDS, headingId, rehypeHeadingIds } from '../../src/content/slug.js';
import { walk } from '../../src/content/walk.js';
import { pageBodies } from '../helpers/content.js';

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkDirective);
const parse = (text: string) => processor.parse(text) as Root;

describe('heading ids', () => {
  const toHast = (remarkRehype as unknown as (options: object) => (tree: Root, file: VFile) => HastRoot)({ allowDangerousHtml: true });
  it('slugs headings as rehype-slug does (numbering those whose slug is taken), on every page of the site and a page of duplicate headings', () => {
    const duplicates = Array.from({ length: 50 }, (_, i) => `## Same title\n\n### ${i % 3 ? 'Other' : 'Same title'} \`code\` *em*\n\n<h2>Raw</h2>\n`).join('\n');
    let headings = 0;
    for (const [name, body] of [...pageBodies(), ['duplicates.md', duplicates] as [string, string]]) {
      const file = new VFile({ value: body, data: { ctx: { file: name, lineOffset: 0, problems: [] } as never } });
      const hast = toHast(parse(body), file);
      const theirs = structuredClone(hast);
      // rehype-slug on the whole page; then each heading it slugged that had no id gets the first free one from its slug (headingId).
      const taken = new Set(CHROME_IDS);
      const unnamed: Element[] = [];
      walk<Element>(theirs, 'element', (node) => {
        if (typeof node.properties.id === 'string') taken.add(node.properties.id);
        else if (/^h[1-6]$/.test(node.tagName)) unnamed.push(node);
      });
      (rehypeSlug() as (tree: HastRoot) => void)(theirs);
      for (const node of unnamed) node.properties.id = headingId(String(node.properties.id), toString(node), taken);
      // (rehypeHeadingIds gives rehype-slug only the headings, and changes nothing else of the tree.)
      rehypeHeadingIds()(hast, file);
      expect(hast, name).toStrictEqual(theirs);
      walk<Element>(hast, 'element', (node) => void (/^h[1-6]$/.test(node.tagName) && headings++));
    }
    expect(headings).toBeGreaterThan(1000);
  });
});
