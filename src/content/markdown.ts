import type { Element, Root as HastRoot } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import rehypeSlug from 'rehype-slug';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import type { Highlighter } from 'shiki';
import { unified } from 'unified';
import type { Position } from 'unist';
import { visit } from 'unist-util-visit';
import { VFile } from 'vfile';
import type { SourceProblem } from '../errors.js';
import type { PageContext } from './context.js';
import { remarkCodeBlocks } from './plugins/code-blocks.js';
import { remarkDirectives } from './plugins/directives.js';
import { rehypeHeadings, type Anchor } from './plugins/headings.js';

export interface RawLink {
  /** The `a` element; its href is rewritten once the link is resolved. */
  node: Element;
  href: string;
  position?: Position;
}

export interface RenderedMarkdown {
  hast: HastRoot;
  anchors: Anchor[];
  /** Text of every h2 and h3 (for search and typo correction). */
  headings: string[];
  /** Every id present in the rendered body (targets for #fragment links). */
  ids: Set<string>;
  links: RawLink[];
  problems: SourceProblem[];
}

// The plugin list, in order, as one declarative pipeline. Parsing and the mdast
// stage are shared; the hast stage runs per page with that page's collectors.
const parser = unified().use(remarkParse).use(remarkGfm).use(remarkDirective);
const mdastTransforms = unified().use(remarkDirectives).use(remarkCodeBlocks);

export async function renderMarkdown(
  body: string,
  options: { file: string; lineOffset: number; highlighter: Highlighter },
): Promise<RenderedMarkdown> {
  const ctx: PageContext = { ...options, problems: [], tabGroups: 0 };
  const vfile = new VFile({ value: body, path: options.file, data: { ctx } });
  const mdast = parser.parse(vfile) as MdastRoot;
  await mdastTransforms.run(mdast, vfile);
  const anchors: Anchor[] = [];
  const headings: string[] = [];
  const hast = (await unified()
    .use(remarkRehype, { allowDangerousHtml: true })
    .use(rehypeSlug)
    .use(rehypeHeadings(anchors, headings))
    .run(mdast, vfile)) as HastRoot;

  const ids = new Set<string>();
  const links: RawLink[] = [];
  visit(hast, 'element', (node: Element) => {
    const id = node.properties.id;
    if (typeof id === 'string') ids.add(id);
    if (node.tagName === 'a' && typeof node.properties.href === 'string') {
      links.push({ node, href: node.properties.href, position: node.position });
    }
  });
  // Raw HTML written by the writer may carry ids too (for example <a id="legacy-name"></a>).
  visit(hast, 'raw', (node: { value: string }) => {
    for (const m of node.value.matchAll(/\sid=["']([^"']+)["']/g)) ids.add(m[1]!);
  });
  return { hast, anchors, headings, ids, links, problems: ctx.problems };
}
