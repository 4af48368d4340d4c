import { mayHoldAutolinks, parser, parserWithoutAutolinks, textMayHoldAutolinks } from './mdast-parse.js';
import type { Element, Root as HastRoot } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import { toHtml } from 'hast-util-to-html';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import type { Node } from 'unist';
import { walk } from './walk.js';
import { VFile } from 'vfile';
import type { SourceProblem } from '../shared/errors.js';
import { EXTERNAL, SCHEME } from './link-kinds.js';
import { report, type PageContext, type RenderOptions } from './context.js';
import { remarkCodeBlocks } from './plugins/code-blocks.js';
import { remarkDiagrams } from './plugins/diagrams.js';
import { remarkDirectives } from './plugins/directives.js';
import { rehypeSafeRawHtml, remarkFootnotesDefined, remarkRawHtmlClosed } from './plugins/raw-html.js';
import { nestingProblem, weightProblem } from './nesting.js';
import { rehypeHeadings } from './plugins/headings.js';
import { rehypeTaskListLabels } from './plugins/task-lists.js';
import { rehypeHeadingIds } from './slug.js';

export interface RawLink {
  /** The href as written. */
  href: string;
  /**
   * Where the link starts in the body (what a broken link's message names), when known. One flat
   * object per link: a page of 10 MB has up to 200,000 links, each kept until the build ends.
   */
  line?: number;
  column?: number;
  /** The source of an image (a file of static/), not a link. */
  image?: true;
}

/**
 * Internal links are written into the body HTML as placeholders, `href="&#0;docs-link:N&#0;"`
 * (images as `src=…`, and inside `srcset`), and filled in once every page's ids are known, so that
 * pages are kept as strings, not trees, between the two passes (memory stays proportional to the
 * output, not to the syntax trees of every page). A placeholder is the link's number between two
 * NUL characters, which the serialiser writes as `&#0;` in an attribute. No writer can make
 * that: Markdown and HTML parsing turn NUL into U+FFFD, collect() does the same to anything left
 * (see noNul), and a typed `&#0;` is text, serialised as `&amp;#0;`. So the fill cannot touch
 * a writer's text, whatever it holds.
 */
/** URLs that run script when followed; tested on the URL as browsers read it (see plainUrl). */
const SCRIPT_URL = /^(?:javascript|vbscript):/;
/** A URL as a browser's URL parser sees its scheme: without leading spaces and controls, tabs and line breaks, in lower case. */
const plainUrl = (url: string) => url.replace(/^[\u0000-\u0020]+/, '').replace(/[\t\n\r]/g, '').toLowerCase();

/** A link's placeholder as collect() puts it into the tree (NUL is what no writer's text keeps). */
const placeholderOf = (n: number) => `\u0000docs-link:${n}\u0000`;
/** A placeholder as the serialiser writes it in an attribute. */
const SERIALISED = /&#x?0;docs-link:(\d+)&#x?0;/g;
const LINK_PLACEHOLDER = / (href|src)="&#x?0;docs-link:(\d+)&#x?0;"| srcset="([^"]*?&#x?0;docs-link:\d+&#x?0;[^"]*)"/g;

/** Fills in the placeholders of body HTML (LINK_PLACEHOLDER) with `hrefs`, each escaped by `escape` for an attribute. */
export function fillLinks(html: string, hrefs: readonly string[], escape: (value: string) => string): string {
  return html.replace(LINK_PLACEHOLDER, (_, attr: string | undefined, i: string | undefined, srcset: string | undefined) =>
    srcset !== undefined
      ? ` srcset="${srcset.replace(SERIALISED, (_m, j: string) => escape(hrefs[Number(j)] ?? ''))}"`
      : ` ${attr}="${escape(hrefs[Number(i)] ?? '')}"`,
  );
}

/** Text without NUL: each becomes U+FFFD, as HTML parsing does (a NUL is what marks the build's own placeholders). */
const noNul = (value: string) => (value.includes('\u0000') ? value.replace(/\u0000/g, '\uFFFD') : value);

/** A page's body as rendered, with what its PageContext collected. */
export interface RenderedMarkdown extends Pick<PageContext, 'anchors' | 'headings' | 'problems'> {
  /** Body HTML with internal link placeholders (see LINK_PLACEHOLDER). */
  html: string;
  /** Every id present in the rendered body (targets for #fragment links). */
  ids: Set<string>;
  links: RawLink[];
}

/**
 * The largest page, in bytes of Markdown: a longer one is a problem at its file, to be split. The
 * parser holds every token of a page at once, and parts of its work grow faster than the page.
 */
const MAX_PAGE_BYTES = 1024 * 1024;

/*
 * The plugin list, in order, as one declarative pipeline (parsing is in mdast-parse.ts): the mdast
 * transforms, then the page's tree as HTML elements, with heading ids and self-links. Each page's
 * collectors are in its PageContext.
 */
const pipeline = unified()
  .use(remarkDirectives)
  .use(remarkDiagrams)
  .use(remarkCodeBlocks)
  .use(remarkRawHtmlClosed)
  .use(remarkFootnotesDefined)
  .use(remarkRehype, { allowDangerousHtml: true })
  // Raw HTML is parsed and sanitised before anything reads ids or links (see plugins/raw-html.ts).
  .use(rehypeSafeRawHtml)
  .use(rehypeHeadingIds)
  .use(rehypeHeadings)
  .use(rehypeTaskListLabels);

export async function renderMarkdown(body: string, options: RenderOptions): Promise<RenderedMarkdown> {
  const { file, lineOffset } = options;
  const ctx: PageContext = { ...options, problems: [], tabGroups: 0, anchors: [], headings: [] };
  const unrendered = (problem: SourceProblem): RenderedMarkdown => ({ html: '', anchors: [], headings: [], ids: new Set(), links: [], problems: [problem] });
  const problem = sizeProblem(body, file) ?? nestingProblem(body, file, lineOffset) ?? weightProblem(body, file, lineOffset);
  if (problem) return unrendered(problem);
  try {
    return await renderChecked(body, ctx);
  } catch (e) {
    // The parser and the walks recurse per level of nesting; nesting that the line check does not
    // see (inline markup thousands deep) ends here rather than as a crash.
    if (!(e instanceof RangeError) || !/call stack/i.test(e.message)) throw e;
    return unrendered({ file, line: lineOffset + 1, column: 1, message: 'this page nests markup too deeply to be rendered; flatten its lists, quotes or emphasis' });
  }
}

/** A page over MAX_PAGE_BYTES, as a problem at its file. */
function sizeProblem(body: string, file: string): SourceProblem | undefined {
  // (Characters first: a byte is at most one character, at least a third of one.)
  if (body.length * 3 <= MAX_PAGE_BYTES) return undefined;
  const bytes = Buffer.byteLength(body);
  if (bytes <= MAX_PAGE_BYTES) return undefined;
  const kb = (n: number) => `${Math.ceil(n / 1024).toLocaleString('en')} KB`;
  return { file, line: 0, column: 0, message: `this page's Markdown is ${kb(bytes)}, over the limit of ${kb(MAX_PAGE_BYTES)} a page may have; split it into several pages` };
}

async function renderChecked(body: string, ctx: PageContext): Promise<RenderedMarkdown> {
  const vfile = new VFile({ value: body, path: ctx.file, data: { ctx } });
  let mdast = parserWithoutAutolinks.parse(vfile) as MdastRoot;
  // Parsed again, looking for autolink literals, only when its text could hold one.
  if (mayHoldAutolinks(body) && textMayHoldAutolinks(mdast)) mdast = parser.parse(vfile) as MdastRoot;
  const hast = (await pipeline.run(mdast, vfile)) as HastRoot;
  const ids = new Set<string>();
  const links: RawLink[] = [];
  collect(hast, ctx, ids, links);
  const html = toHtml(hast, { allowDangerousHtml: true, characterReferences: { useShortestReferences: true } });
  return { html, anchors: ctx.anchors, headings: ctx.headings, ids, links, problems: ctx.problems };
}

/** Collects the ids and internal links of a rendered tree (links become placeholders), and refuses URLs that run script. */
function collect(hast: HastRoot, ctx: PageContext, ids: Set<string>, links: RawLink[]): void {
  /** Records a link (or an image) of the site at its element's place; its placeholder (see LINK_PLACEHOLDER). */
  const placeholder = (href: string, node: Element, image: boolean): string => {
    const start = node.position?.start;
    links.push({ href, ...(start && { line: start.line, column: start.column }), ...(image && { image: true as const }) });
    return placeholderOf(links.length - 1);
  };
  /** An image's URL as the page gets it: none (a problem) if it would run script; a placeholder if of the site or another host. */
  const imageUrl = (url: string, node: Element): string => {
    if (SCRIPT_URL.test(plainUrl(url))) {
      report(ctx, node.position, `image source "${url.slice(0, 40)}" would run script; use the address of an image`);
      return '';
    }
    // (One from another host is checked against the policy, as a link of the site is checked.)
    return EXTERNAL.test(url) || !SCHEME.test(url) ? placeholder(url, node, true) : url;
  };
  // No NUL of the writer's reaches the HTML, where it would read as a placeholder's mark.
  walk<Node & { value: string }>(hast, 'text', (node) => {
    node.value = noNul(node.value);
  });
  walk<Element>(hast, 'element', (node) => {
    for (const [key, value] of Object.entries(node.properties)) {
      if (typeof value === 'string') node.properties[key] = noNul(value);
      else if (Array.isArray(value)) node.properties[key] = value.map((v) => (typeof v === 'string' ? noNul(v) : v));
    }
    const id = node.properties.id;
    if (typeof id === 'string') ids.add(id);
    const href = node.properties.href;
    const src = node.properties.src;
    // An image of the site is checked and given the base path as a link is.
    if (node.tagName === 'img' && typeof src === 'string' && src !== '') node.properties.src = imageUrl(src, node);
    // The candidates of an image's srcset (in <img> or a <picture>'s <source>): each URL is an image of the site as src is.
    const srcSet = node.properties.srcSet;
    if ((node.tagName === 'img' || node.tagName === 'source') && (typeof srcSet === 'string' || Array.isArray(srcSet))) {
      // (A list of candidates, "url [descriptor]" each; as the sanitiser leaves it, one string of them split by commas.)
      const candidates = (Array.isArray(srcSet) ? srcSet.map(String) : srcSet.split(',')).map((c) => c.trim()).filter(Boolean);
      node.properties.srcSet = candidates.map((candidate) => {
        const [url = '', ...descriptors] = candidate.split(/\s+/);
        const given = imageUrl(url, node);
        return given === url ? candidate : given && [given, ...descriptors].join(' ');
      }).filter(Boolean).join(', ');
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
        node.properties.href = placeholder(href, node, false);
      }
    }
  });
}
