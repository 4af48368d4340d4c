import { randomBytes } from 'node:crypto';
import type { Element, ElementContent, Nodes, Root } from 'hast';
import type { FootnoteDefinition, Html, Root as MdastRoot, Text } from 'mdast';
import { report } from '../context.js';
import { defaultSchema, sanitize, type Schema } from 'hast-util-sanitize';
import rehypeRaw from 'rehype-raw';
import type { Point, Position } from 'unist';
import type { VFile } from 'vfile';
import { holds, walk } from '../walk.js';

/*
 * Raw HTML in Markdown (`<details>`, `<kbd>`, a table written by hand) is
 * parsed into the page's tree and sanitised the way GitHub sanitises README
 * files (hast-util-sanitize's schema, which follows GitHub's), so that no
 * script, event handler, `javascript:`/`data:` URL, frame, object, form,
 * `<base>`, `<meta>` or style reaches a page (static SVG shapes are kept), whatever the host does with
 * the Content-Security-Policy. Differences from GitHub's schema: ids and
 * classes are kept as written (no `user-content-` prefix, so `#anchors` to
 * them work), and style and template content is dropped rather than shown.
 *
 * Only the elements the writer wrote are sanitised: the markup of the
 * pipeline itself (code blocks, asides, tabs) is trusted. Each of those
 * carries a marker attribute through the HTML parse, named with a random
 * part made at start, which a writer cannot guess.
 */
const MARK = `dataDocsOwn${randomBytes(8).toString('hex')}`;

/** Static SVG shapes (a logo drawn in the page): no scripts, links, animation, foreign content or references. */
const SVG_SHAPES = ['svg', 'g', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon'];
const SVG_ATTRIBUTES = [
  'xmlns', 'viewBox', 'preserveAspectRatio', 'fill', 'fillRule', 'fillOpacity', 'clipRule', 'stroke', 'strokeWidth', 'strokeLineCap',
  'strokeLineJoin', 'strokeOpacity', 'opacity', 'transform', 'd', 'x', 'y', 'cx', 'cy', 'r', 'rx', 'ry', 'x1', 'y1', 'x2', 'y2', 'points',
  'role', 'ariaLabel', 'ariaHidden', 'focusable',
];

/*
 * Attributes of GitHub's schema that only the pipeline's own markup may carry: the footnotes'
 * markers and the heading class they use (the build puts the interface's words into that markup),
 * so a writer's copy of it is not taken for the build's.
 */
const PIPELINE_ONLY = new Set(['dataFootnoteBackref', 'dataFootnoteRef', 'dataFootnotes']);
type AttributeList = NonNullable<Schema['attributes']>[string];
const withoutPipelineOnly = (list: AttributeList = []): AttributeList =>
  list.filter((entry) => !PIPELINE_ONLY.has(typeof entry === 'string' ? entry : entry[0]) && !(Array.isArray(entry) && entry[0] === 'className' && entry.includes('data-footnote-backref')));

const SCHEMA: Schema = {
  ...defaultSchema,
  // Ids are kept as written, so that #anchors to them work.
  clobber: [],
  clobberPrefix: '',
  // Checked element by element here, so the ancestry rules (a <td> only inside a <table>) cannot apply.
  ancestors: {},
  tagNames: [...(defaultSchema.tagNames ?? []), ...SVG_SHAPES],
  attributes: {
    ...Object.fromEntries(Object.entries(defaultSchema.attributes ?? {}).map(([tag, list]) => [tag, withoutPipelineOnly(list)])),
    ...Object.fromEntries(SVG_SHAPES.map((tag) => [tag, SVG_ATTRIBUTES])),
    // A heading's classes are the writer's own (sr-only is the footnotes' heading).
    h2: [],
    // `name` only on links (old-style anchors, <a name="x">): on an <img> it would shadow a property
    // of `document` (name="querySelector"), which the page's script and the preview's reload use.
    a: [...withoutPipelineOnly(defaultSchema.attributes?.a), 'name'],
    // Images for other pixel densities: each candidate is checked and given the base as src is (see collect in markdown.ts).
    img: [...(defaultSchema.attributes?.img ?? []), 'srcSet', 'width', 'height'],
    '*': [...(defaultSchema.attributes?.['*'] ?? []).filter((name) => name !== 'name'), 'className'],
  },
  strip: ['script', 'input', 'style', 'template', 'noscript', 'title', 'textarea', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext'],
};
const STRIPPED = new Set(SCHEMA.strip);

/** The rehype plugin: parses raw HTML into the tree and sanitises what the writer wrote. */
export function rehypeSafeRawHtml() {
  const parseRaw = rehypeRaw() as unknown as (tree: Root, file: VFile) => Root;
  return (tree: Root, file: VFile): Root => {
    // Most pages hold no raw HTML, and skip the HTML parse.
    if (!holds(tree, 'raw')) return tree;
    walk<Element>(tree, 'element', (node) => {
      node.properties[MARK] = '';
    });
    const parsed = parseRaw(tree, file);
    parsed.children = parsed.children.flatMap((child) => clean(child)) as Root['children'];
    return parsed;
  };
}

/** A node with what the writer wrote sanitised: 0, 1 or several nodes in its place. */
function clean(node: Nodes): ElementContent[] {
  if (node.type === 'element') {
    const kids = () => node.children.flatMap((child) => clean(child));
    if (MARK in node.properties) {
      delete node.properties[MARK];
      node.children = kids();
      return [node];
    }
    if (STRIPPED.has(node.tagName)) return [];
    // The element alone, without its children (they are cleaned one by one, and may be the pipeline's).
    const alone = sanitize({ ...node, children: [] }, SCHEMA);
    const element = alone.type === 'root' && alone.children.length === 1 ? alone.children[0] : alone;
    if (element?.type === 'element') {
      element.children = kids();
      element.position = node.position;
      return [element];
    }
    // A tag that is not allowed: its content stays, as text and allowed elements.
    return kids();
  }
  if (node.type === 'text') return [node];
  // Comments, doctypes and anything raw that the parse left.
  return [];
}

/** The place of character `offset` of a node's `value`, the node starting at `start`. */
function placeIn(value: string, start: Point, offset: number): Position {
  const lines = value.slice(0, offset).split('\n');
  const at = lines.length === 1 ? { line: start.line, column: start.column + offset } : { line: start.line + lines.length - 1, column: lines.at(-1)!.length + 1 };
  return { start: at, end: at };
}

/** Elements that have no end tag, and those whose end tag HTML lets a writer leave out (the parser closes them). */
const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const END_OPTIONAL = new Set(['p', 'li', 'dt', 'dd', 'tr', 'td', 'th', 'thead', 'tbody', 'tfoot', 'option', 'optgroup', 'colgroup', 'caption', 'rb', 'rt', 'rp', 'rtc']);

/**
 * The mdast plugin that finds raw HTML a writer opened and never closed: an
 * element (a <div>, a <details>, a <table>…) whose end tag is nowhere after
 * it, or a comment without its "-->". Either takes in the rest of the page
 * (headings end up in a table cell, or vanish in the comment) where the
 * writer sees nothing wrong; each is a problem at its opening tag. End tags
 * that HTML lets a writer leave out (</p>, </li>, </td>…) are not asked for.
 */
export function remarkRawHtmlClosed() {
  return (tree: MdastRoot, file: VFile): void => {
    const ctx = file.data.ctx!;
    const open: Array<{ tag: string; at: Position }> = [];
    walk<Html>(tree, 'html', (node) => {
      // (Raw HTML nodes are the parser's, each with its place.)
      const start = node.position!.start;
      for (const m of node.value.matchAll(/<!--[^]*?(?:-->|$)|<(\/?)([A-Za-z][\w-]*)(?:\s(?:[^>"']|"[^"]*"|'[^']*')*)?(\/?)>/g)) {
        if (m[0].startsWith('<!--')) {
          if (!m[0].endsWith('-->')) {
            report(ctx, placeIn(node.value, start, m.index), 'this HTML comment is never closed with "-->": it hides the rest of the page');
          }
          continue;
        }
        const tag = m[2]!.toLowerCase();
        if (VOID.has(tag) || m[3]) continue;
        if (!m[1]) {
          open.push({ tag, at: placeIn(node.value, start, m.index) });
          continue;
        }
        // An end tag closes the last element of its name, and whatever was left open inside it.
        const i = open.map((o) => o.tag).lastIndexOf(tag);
        if (i >= 0) open.splice(i);
      }
    });
    for (const element of open) {
      if (END_OPTIONAL.has(element.tag)) continue;
      report(ctx, element.at, `<${element.tag}> is opened here and never closed: add </${element.tag}> where it ends (the rest of the page is inside it until then)`);
    }
  };
}

/**
 * The mdast plugin that finds a footnote reference with no definition:
 * `[^note]` without a `[^note]: …` line stays as text on the page, where
 * the writer meant a footnote. A problem at the reference.
 */
export function remarkFootnotesDefined() {
  return (tree: MdastRoot, file: VFile): void => {
    const defined = new Set<string>();
    walk<FootnoteDefinition>(tree, 'footnoteDefinition', (node) => {
      defined.add(node.identifier.toLowerCase());
    });
    const ctx = file.data.ctx!;
    walk<Text>(tree, 'text', (node) => {
      if (!node.value.includes('[^')) return;
      for (const m of node.value.matchAll(/\[\^([^\]\s]+)\]/g)) {
        if (defined.has(m[1]!.toLowerCase())) continue;
        const start = node.position?.start;
        report(ctx, start && placeIn(node.value, start, m.index), `the footnote [^${m[1]}] has no definition: add a line "[^${m[1]}]: …" below (the reference shows as text until then)`);
      }
    });
  };
}
