// First (in mdast-parse.ts): the parser's quadratic step is fixed before any page is parsed.
import { parser, parserWithoutAutolinks, type ParserKind } from './mdast-parse.js';
import type { Element, Root as HastRoot } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import { toHtml } from 'hast-util-to-html';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import type { Node, Position } from 'unist';
import { walk } from './walk.js';
import { VFile } from 'vfile';
import type { SourceProblem } from '../errors.js';
import { EXTERNAL, SCHEME } from '../site/link-kinds.js';
import type { PageContext } from './context.js';
import type { HighlighterSource, TokenLine } from './highlight.js';
import { remarkCodeBlocks } from './plugins/code-blocks.js';
import { remarkDirectives } from './plugins/directives.js';
import { rehypeSafeRawHtml } from './plugins/raw-html.js';
import { report } from './context.js';
import { nestingProblem } from './nesting.js';
import { cutPoints } from './split-parse.js';
import { parseLargePage } from './parse-thread.js';
import { mayHoldAutolinks, textMayHoldAutolinks } from './plugins/gfm-without-autolinks.js';
import { rehypeHeadings, type Anchor } from './plugins/headings.js';
import { rehypeHeadingSlugs } from './heading-slugs.js';
import { rehypeReserveIds, rehypeUniqueIds } from './slug.js';

export interface RawLink {
  /** The href as written. */
  href: string;
  position?: Position;
}

/**
 * Internal links are written into the body HTML as `href="docs-link:N"`
 * placeholders and filled in once every page's ids are known, so that pages
 * are kept as strings, not trees, between the two passes (memory stays
 * proportional to the output, not to the syntax trees of every page).
 */
/** URLs that run script when followed; tested on the URL as browsers read it (see plainUrl). */
const SCRIPT_URL = /^(?:javascript|vbscript):/;
/** A URL as a browser's URL parser sees its scheme: without leading spaces and controls, tabs and line breaks, in lower case. */
const plainUrl = (url: string) => url.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '').toLowerCase();

export const LINK_PLACEHOLDER = /href="docs-link:(\d+)"/g;

export interface RenderedMarkdown {
  /** Body HTML with internal link placeholders (see LINK_PLACEHOLDER). */
  html: string;
  /** The hast tree, only when asked for (tests and tools). */
  hast?: HastRoot;
  anchors: Anchor[];
  /** Text of every h2 and h3 (for search and typo correction). */
  headings: string[];
  /** Every id present in the rendered body (targets for #fragment links). */
  ids: Set<string>;
  links: RawLink[];
  problems: SourceProblem[];
  /** Highlighted tokens of the page's code blocks, by codeBlockKey (to reuse at its next render). */
  codeBlocks: Map<string, TokenLine[]>;
}

// The plugin list, in order, as one declarative pipeline. Parsing (mdast-parse.ts) and the mdast
// stage are shared; the hast stage runs per page with that page's collectors.
const mdastTransforms = unified().use(remarkDirectives).use(remarkCodeBlocks);

export interface RenderOptions {
  file: string;
  lineOffset: number;
  /** Loaded only when a code block needs highlighting and is not in `codeBlocks`. */
  highlighter: HighlighterSource;
  /** Highlighted code blocks of the page's last render, by codeBlockKey. */
  codeBlocks?: ReadonlyMap<string, TokenLine[]>;
  keepTree?: boolean;
}

export async function renderMarkdown(body: string, options: RenderOptions): Promise<RenderedMarkdown> {
  const ctx: PageContext = {
    file: options.file,
    lineOffset: options.lineOffset,
    highlighter: options.highlighter,
    problems: [],
    tabGroups: 0,
    codeBlocks: { previous: options.codeBlocks ?? new Map(), used: new Map() },
  };
  const tooDeep = nestingProblem(body, options.file, options.lineOffset);
  if (tooDeep) return { html: '', anchors: [], headings: [], ids: new Set(), links: [], problems: [tooDeep], codeBlocks: new Map() };
  try {
    return await renderChecked(body, options, ctx);
  } catch (e) {
    // The parser and the walks recurse per level of nesting; nesting that the line check does not
    // see (inline markup thousands deep) ends here rather than as a crash.
    if (!(e instanceof RangeError) || !/call stack/i.test(e.message)) throw e;
    return {
      html: '',
      anchors: [],
      headings: [],
      ids: new Set(),
      links: [],
      problems: [{ file: options.file, line: options.lineOffset + 1, column: 1, message: 'this page nests markup too deeply to be rendered; flatten its lists, quotes or emphasis' }],
      codeBlocks: new Map(),
    };
  }
}

async function renderChecked(body: string, options: RenderOptions, ctx: PageContext): Promise<RenderedMarkdown> {
  const vfile = new VFile({ value: body, path: options.file, data: { ctx } });
  // A very large page is parsed in parts (see split-parse.ts), on two threads (parse-thread.ts): the same tree, in linear time and memory.
  const cuts = cutPoints(body);
  const parse = async (kind: ParserKind) =>
    cuts.length ? parseLargePage(body, cuts, kind) : ((kind === 'full' ? parser : parserWithoutAutolinks).parse(vfile) as MdastRoot);
  let mdast = await parse('without-autolinks');
  // Parsed again, looking for autolink literals, only when its text could hold one.
  if (mayHoldAutolinks(body) && textMayHoldAutolinks(mdast)) mdast = await parse('full');
  await mdastTransforms.run(mdast, vfile);
  const anchors: Anchor[] = [];
  const headings: string[] = [];
  const hast = (await unified()
    .use(remarkRehype, { allowDangerousHtml: true })
    // Raw HTML is parsed and sanitised before anything reads ids or links (see plugins/raw-html.ts).
    .use(rehypeSafeRawHtml)
    .use(rehypeReserveIds)
    .use(rehypeHeadingSlugs)
    .use(rehypeUniqueIds)
    .use(rehypeHeadings(anchors, headings))
    .run(mdast, vfile)) as HastRoot;

  const ids = new Set<string>();
  const links: RawLink[] = [];
  walk<Element>(hast, 'element', (node) => {
    const id = node.properties.id;
    if (typeof id === 'string') ids.add(id);
    const href = node.properties.href;
    const src = node.properties.src;
    if (node.tagName === 'img' && typeof src === 'string' && SCRIPT_URL.test(plainUrl(src))) {
      report(ctx, node.position, `image source "${src.slice(0, 40)}" would run script; use the address of an image`);
      node.properties.src = '';
    }
    if (node.tagName === 'a' && typeof href === 'string' && (SCRIPT_URL.test(plainUrl(href)) || /^data:/.test(plainUrl(href)))) {
      report(ctx, node.position, `link to "${href.slice(0, 40)}": javascript:, vbscript: and data: links are not allowed (they run script or hide content); link to a page or an https:// address`);
      node.properties.href = '#';
    }
    if (node.tagName === 'a' && typeof href === 'string') {
      if (EXTERNAL.test(href)) {
        node.properties.target = '_blank';
        node.properties.rel = ['noopener', 'noreferrer'];
      } else if (!SCHEME.test(href)) {
        node.properties.href = `docs-link:${links.length}`;
        links.push({ href, position: node.position });
      }
    }
  });
  // Raw HTML written by the writer may carry ids too (for example <a id="legacy-name"></a>).
  walk<Node & { value: string }>(hast, 'raw', (node) => {
    for (const m of node.value.matchAll(/\sid=["']([^"']+)["']/g)) ids.add(m[1]!);
  });
  const html = toHtml(hast, { allowDangerousHtml: true, characterReferences: { useShortestReferences: true } });
  return { html, hast: options.keepTree ? hast : undefined, anchors, headings, ids, links, problems: ctx.problems, codeBlocks: ctx.codeBlocks.used };
}
