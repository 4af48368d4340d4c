// First (in mdast-parse.ts): the parser's quadratic step is fixed before any page is parsed.
import { parseMarkdown, parser, parserWithoutAutolinks, type ParserKind } from './mdast-parse.js';
import type { Element, Root as HastRoot } from 'hast';
import type { Root as MdastRoot } from 'mdast';
import { toHtml } from 'hast-util-to-html';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import type { Node } from 'unist';
import { holds, walk } from './walk.js';
import { VFile } from 'vfile';
import type { SourceProblem } from '../errors.js';
import { EXTERNAL, SCHEME } from '../site/link-kinds.js';
import type { PageContext } from './context.js';
import type { HighlighterSource, TokenLine } from './highlight.js';
import { remarkCodeBlocks } from './plugins/code-blocks.js';
import { remarkDirectives } from './plugins/directives.js';
import { rehypeSafeRawHtml, remarkFootnotesDefined, remarkRawHtmlClosed } from './plugins/raw-html.js';
import { report, type PartsState } from './context.js';
import { nestingProblem, weightProblem } from './nesting.js';
import { cutPoints, PartReader, partTexts, SPLIT_MIN_CHARS, type Cut } from './split-parse.js';
import { parseLargePage } from './parse-thread.js';
import { mayHoldAutolinks, textMayHoldAutolinks } from './plugins/gfm-without-autolinks.js';
import { rehypeHeadings, selfLinkDepthFor, type Anchor } from './plugins/headings.js';
import { rehypeHeadingSlugs } from './heading-slugs.js';
import { CHROME_IDS, rehypeReserveIds, rehypeUniqueIds } from './slug.js';

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
export const LINK_PLACEHOLDER = / (href|src)="&#x?0;docs-link:(\d+)&#x?0;"| srcset="([^"]*?&#x?0;docs-link:\d+&#x?0;[^"]*)"/g;

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
  /**
   * With RenderOptions.htmlInPieces, the body HTML of a page rendered in parts, as the pieces whose
   * concatenation it is (`html` is then ''): a very large page's HTML need never be one string.
   */
  htmlPieces?: string[];
  /** With RenderOptions.bodySink, whether the body HTML went there (`html` is '' and `htmlPieces` empty). */
  htmlInSink?: boolean;
}

/** Where a page rendered in parts writes its HTML as it is made (see RenderOptions.bodySink). */
export interface BodySink {
  write(piece: string): void;
  /** Forgets what was written: the page is rendered again. */
  reset(): void;
}

// The plugin list, in order, as one declarative pipeline. Parsing (mdast-parse.ts) and the mdast
// stage are shared; the hast stage runs per page with that page's collectors.
const mdastTransforms = unified().use(remarkDirectives).use(remarkCodeBlocks).use(remarkRawHtmlClosed).use(remarkFootnotesDefined);

export interface RenderOptions {
  file: string;
  lineOffset: number;
  /** Loaded only when a code block needs highlighting and is not in `codeBlocks`. */
  highlighter: HighlighterSource;
  /** Highlighted code blocks of the page's last render, by codeBlockKey. */
  codeBlocks?: ReadonlyMap<string, TokenLine[]>;
  keepTree?: boolean;
  /** Where to cut the page (tests cut small pages); by default cutPoints'. */
  cuts?: Cut[];
  /** Rendered whole even when cut (tests compare the two). */
  whole?: boolean;
  /**
   * Whether the result lists the tokens of every code block (`codeBlocks`; by default it does).
   * Without, a page rendered in parts forgets them part by part: a build reads a page's tokens
   * back from its markup (see codeBlocksIn), and a page of 10 MB has tens of thousands of blocks.
   */
  keepCodeBlocks?: boolean;
  /** A page rendered in parts gives its HTML as `htmlPieces`, not as `html`. */
  htmlInPieces?: boolean;
  /**
   * A page rendered in parts writes its HTML here as it is made, not into the result (with
   * htmlInPieces): each part's once the next part is rendered (a table or list that goes on in the
   * next part changes the end of the part before). A page rendered whole does not use it.
   */
  bodySink?: BodySink;
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
  // (Small pages are parsed whole and cannot weigh too much.)
  const tooHeavy = body.length >= SPLIT_MIN_CHARS ? weightProblem(body, (options.cuts ?? cutPoints(body)).map((cut) => cut.at), options.file, options.lineOffset) : undefined;
  if (tooHeavy) return { html: '', anchors: [], headings: [], ids: new Set(), links: [], problems: [tooHeavy], codeBlocks: new Map() };
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
  // A very large page is parsed in parts (see split-parse.ts) and, when nothing in it reaches across parts, rendered part by part.
  const cuts = options.cuts ?? cutPoints(body);
  if (cuts.length && !options.keepTree && !options.whole && renderableInParts(body)) {
    renderInPartsStats.tried++;
    const inParts = await renderInParts(body, cuts, ctx, options.keepCodeBlocks ?? true, options.htmlInPieces ?? false, options.bodySink);
    if (inParts) return inParts;
    renderInPartsStats.whole++;
    restart(ctx);
    options.bodySink?.reset();
  }
  const vfile = new VFile({ value: body, path: options.file, data: { ctx } });
  // Parsed in parts on two threads (parse-thread.ts) when it is cut: the same tree, in linear time and memory.
  const parse = async (kind: ParserKind) =>
    cuts.length ? parseLargePage(body, cuts, kind) : ((kind === 'full' ? parser : parserWithoutAutolinks).parse(vfile) as MdastRoot);
  let mdast = await parse('without-autolinks');
  // Parsed again, looking for autolink literals, only when its text could hold one.
  if (mayHoldAutolinks(body) && textMayHoldAutolinks(mdast)) mdast = await parse('full');
  const anchors: Anchor[] = [];
  const headings: string[] = [];
  const hast = await toHast(mdast, vfile, anchors, headings);
  const ids = new Set<string>();
  const links: RawLink[] = [];
  collect(hast, ctx, ids, links);
  const html = toHtml(hast, HTML_OPTIONS);
  return { html, hast: options.keepTree ? hast : undefined, anchors, headings, ids, links, problems: ctx.problems, codeBlocks: ctx.codeBlocks.used };
}

const HTML_OPTIONS = { allowDangerousHtml: true, characterReferences: { useShortestReferences: true } } as const;

/** The mdast transforms and the hast stage: the page's tree as HTML elements, with heading ids and self-links. */
async function toHast(mdast: MdastRoot, vfile: VFile, anchors: Anchor[], headings: string[]): Promise<HastRoot> {
  await mdastTransforms.run(mdast, vfile);
  return (await unified()
    .use(remarkRehype, { allowDangerousHtml: true })
    // Raw HTML is parsed and sanitised before anything reads ids or links (see plugins/raw-html.ts).
    .use(rehypeSafeRawHtml)
    .use(rehypeReserveIds)
    .use(rehypeHeadingSlugs)
    .use(rehypeUniqueIds)
    .use(rehypeHeadings(anchors, headings))
    .run(mdast, vfile)) as HastRoot;
}

/** Collects the ids and internal links of a rendered tree (links become placeholders), and refuses URLs that run script. */
function collect(hast: HastRoot, ctx: PageContext, ids: Set<string>, links: RawLink[]): void {
  /** Records a link (or an image) of the site at its element's place; its placeholder (see LINK_PLACEHOLDER). */
  const placeholder = (href: string, node: Element, image: boolean): string => {
    const start = node.position?.start;
    links.push({ href, ...(start && { line: start.line, column: start.column }), ...(image && { image: true as const }) });
    return placeholderOf(links.length - 1);
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
  });
  walk<Element>(hast, 'element', (node) => {
    const id = node.properties.id;
    if (typeof id === 'string') ids.add(id);
    const href = node.properties.href;
    const src = node.properties.src;
    if (node.tagName === 'img' && typeof src === 'string' && SCRIPT_URL.test(plainUrl(src))) {
      report(ctx, node.position, `image source "${src.slice(0, 40)}" would run script; use the address of an image`);
      node.properties.src = '';
    } else if (node.tagName === 'img' && typeof src === 'string' && src !== '' && (EXTERNAL.test(src) || !SCHEME.test(src))) {
      // An image of the site: checked and given the base path as a link is (one from another host: checked against the policy).
      node.properties.src = placeholder(src, node, true);
    }
    // The candidates of an image's srcset (in <img> or a <picture>'s <source>): each URL is an image of the site as src is.
    const srcSet = node.properties.srcSet;
    if ((node.tagName === 'img' || node.tagName === 'source') && (typeof srcSet === 'string' || Array.isArray(srcSet))) {
      // (A list of candidates, "url [descriptor]" each; as the sanitiser leaves it, one string of them split by commas.)
      const candidates = (Array.isArray(srcSet) ? srcSet.map(String) : srcSet.split(',')).map((c) => c.trim()).filter(Boolean);
      node.properties.srcSet = candidates.map((candidate) => {
        const [url = '', ...descriptors] = candidate.split(/\s+/);
        if (SCRIPT_URL.test(plainUrl(url))) {
          report(ctx, node.position, `image source "${url.slice(0, 40)}" would run script; use the address of an image`);
          return '';
        }
        if (SCHEME.test(url) && !EXTERNAL.test(url)) return candidate;
        return [placeholder(url, node, true), ...descriptors].join(' ');
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
  // Raw HTML written by the writer may carry ids too (for example <a id="legacy-name"></a>).
  walk<Node & { value: string }>(hast, 'raw', (node) => {
    for (const m of node.value.matchAll(/\sid=["']([^"']+)["']/g)) ids.add(m[1]!);
  });
}

/*
 * Rendering in parts. A page cut in parts is rendered one part at a time:
 * each part is parsed, transformed and written as HTML, and its trees are
 * let go before the next part is parsed, so that memory follows the size of
 * a part, not of the page (a megabyte of Markdown makes hundreds of
 * megabytes of trees). What a part needs from the parts before it is carried
 * over (PartsState): the ids taken (heading ids stay unique and are numbered
 * as on the whole page), the level of the last heading, the h3 count, the
 * link and tab numbering, the problems, the code blocks' tokens. A table or list cut in two is joined in the HTML:
 * the part before ends without its closing tags, the part after starts at
 * its first row or item. The HTML is the whole page's, byte for byte (tested
 * on every page of the site and generated pages).
 *
 * Not rendered in parts, because something in them reaches across parts:
 * pages that may hold raw HTML (which is parsed as one document, an open tag
 * in one part closing in another, and whose ids must be known before any
 * heading is slugged). Such a page is still parsed in parts. (Tabs take ids
 * of a form no heading takes: see TAB_ID in slug.ts.)
 */

/**
 * Whether the page can be rendered in parts: nothing in it looks like raw
 * HTML outside code (`Array<string>` in a code span is
 * code). This is a first look at the text; a part whose tree holds raw HTML
 * all the same makes the page rendered whole (see renderInParts).
 */
export function renderableInParts(body: string): boolean {
  if (!/<[A-Za-z!?/]/.test(body)) return true;
  const withoutCode = body.replace(/^( {0,3})(`{3,}|~{3,})[^]*?^ {0,3}\2[`~]*[ \t]*$/gm, '').replace(/(`+)[^`]+?\1/g, '');
  return !/<[A-Za-z!?/]/.test(withoutCode);
}

/**
 * Joins the HTML of a part whose first table or list continues the last one
 * of the part before (`previous`): without the closing tags of the one and
 * the opening tags of the other. Undefined when they are not as expected.
 * (A table cut before its first row ends as a head without a body.)
 */
function joinContinued(previous: string, part: string, kind: 'table' | 'list'): [string, string] | undefined {
  if (kind === 'list') return previous.endsWith('\n</ul>') && part.startsWith('<ul>\n') ? [previous.slice(0, -'\n</ul>'.length), part.slice('<ul>\n'.length)] : undefined;
  const head = /^<table>\n<thead>\n[^]*?<\/thead>\n<tbody>\n/.exec(part)?.[0];
  if (!head) return undefined;
  if (previous.endsWith('\n</tbody>\n</table>')) return [previous.slice(0, -'\n</tbody>\n</table>'.length), part.slice(head.length)];
  if (previous.endsWith('\n</thead>\n</table>')) return [previous.slice(0, -'\n</table>'.length), part.slice(head.length - '<tbody>\n'.length)];
  return undefined;
}

/** Forgets what a render of the page left in its context, to render it again. */
function restart(ctx: PageContext): void {
  ctx.problems = [];
  ctx.codeBlocks.used = new Map();
  ctx.tabGroups = 0;
}

/** Pages rendered in parts, and of those how many were rendered whole after all (tests read these). */
export const renderInPartsStats = { tried: 0, whole: 0 };

/** Renders a page in the parts `cuts` make (see above); undefined when the parts do not join as expected (it is then rendered whole). */
async function renderInParts(body: string, cuts: Cut[], ctx: PageContext, keepCodeBlocks: boolean, inPieces: boolean, sink?: BodySink): Promise<RenderedMarkdown | undefined> {
  const texts = partTexts(body, cuts);
  // (A sink is for a body in pieces.)
  sink = inPieces ? sink : undefined;
  let rendered = await renderPartsOnce(body, cuts, texts, ctx, 3, keepCodeBlocks, sink);
  if (rendered === 'too many h3') {
    // Past the limit, the page's h3s get no self-link: the parts are rendered again, knowing it.
    restart(ctx);
    sink?.reset();
    rendered = (await renderPartsOnce(body, cuts, texts, ctx, 2, keepCodeBlocks, sink)) as RenderedMarkdown | undefined;
  }
  if (!rendered || inPieces) return rendered;
  const { htmlPieces, ...result } = rendered;
  return { ...result, html: htmlPieces!.join('') };
}

/** Renders the parts with self-links down to h`selfLinkDepth`; 'too many h3' when the page turns out to have more h3s than allow it. */
async function renderPartsOnce(
  body: string,
  cuts: Cut[],
  texts: string[],
  ctx: PageContext,
  selfLinkDepth: number,
  keepCodeBlocks: boolean,
  sink?: BodySink,
): Promise<RenderedMarkdown | 'too many h3' | undefined> {
  const autolinks = mayHoldAutolinks(body);
  const parts: PartsState = { taken: new Set(CHROME_IDS), previousLevel: 1, h3: 0, selfLinkDepth };
  const reader = new PartReader(body, cuts);
  const anchors: Anchor[] = [];
  const headings: string[] = [];
  const ids = new Set<string>();
  const links: RawLink[] = [];
  const html: string[] = [];
  /** Whether a part went to the sink (the next one is then preceded by a line break). */
  let sunk = false;
  /** Writes the parts' HTML held so far to the sink. */
  const toSink = () => {
    while (sink && html.length) {
      if (sunk) sink.write('\n');
      sink.write(html.shift()!);
      sunk = true;
    }
  };
  for (const text of texts) {
    let tree = parseMarkdown('without-autolinks', text);
    if (autolinks && textMayHoldAutolinks(tree)) tree = parseMarkdown('full', text);
    const read = holds(tree, 'html') ? undefined : reader.next(tree);
    if (!read) return undefined;
    const vfile = new VFile({ value: body, path: ctx.file, data: { ctx, parts } });
    const hast = await toHast({ type: 'root', children: read.children }, vfile, anchors, headings);
    collect(hast, ctx, ids, links);
    let part = toHtml(hast, HTML_OPTIONS);
    if (read.continues) {
      const joined = joinContinued(html[html.length - 1] ?? '', part, read.continues);
      if (!joined) return undefined;
      [html[html.length - 1], part] = joined;
    }
    // (A part of blank lines writes nothing: no line break for it.)
    if (part) {
      // The parts before are done: the next part can change only this one.
      toSink();
      html.push(part);
    }
    if (selfLinkDepth === 3 && selfLinkDepthFor(parts.h3) === 2) return 'too many h3';
    // (A block repeated within a part is still highlighted once.)
    if (!keepCodeBlocks) ctx.codeBlocks.used.clear();
  }
  if (sink) {
    toSink();
    return { html: '', htmlPieces: [], htmlInSink: true, anchors, headings, ids, links, problems: ctx.problems, codeBlocks: ctx.codeBlocks.used };
  }
  // The parts' HTML, a line break between each two.
  const htmlPieces = html.flatMap((part, i) => (i ? ['\n', part] : [part]));
  return { html: '', htmlPieces, anchors, headings, ids, links, problems: ctx.problems, codeBlocks: ctx.codeBlocks.used };
}
