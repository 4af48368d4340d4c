import type { Element, ElementContent } from 'hast';
import { decodeReferences } from '../shared/html.js';

/*
 * The SVG text of the diagram renderer, read into hast with an allowlist: the
 * elements and attributes of drawings, nothing that loads or runs anything.
 * What the renderer adds for a page without a Content-Security-Policy is left
 * out: the <style> element (with its web font @import) and the style
 * attribute; the site's stylesheet gives the same custom properties instead
 * (templates/styles/32-diagrams.css). A writer's words reach the page only as
 * text and attribute values of this tree, which the serialiser escapes. Ids
 * get a prefix of the diagram's own, so that two diagrams of a page do not
 * share their markers' ids.
 */

const ELEMENTS = new Set(['svg', 'g', 'defs', 'marker', 'polygon', 'polyline', 'path', 'rect', 'circle', 'ellipse', 'line', 'text', 'tspan']);
const ATTRIBUTES = new Set([
  'class', 'id', 'viewBox', 'width', 'height', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'd', 'points', 'transform',
  'dx', 'dy', 'fill', 'fill-opacity', 'stroke', 'stroke-width', 'stroke-dasharray', 'stroke-linejoin', 'stroke-linecap', 'stroke-opacity', 'opacity',
  'marker-start', 'marker-mid', 'marker-end', 'markerWidth', 'markerHeight', 'refX', 'refY', 'orient',
  'text-anchor', 'dominant-baseline', 'font-size', 'font-weight', 'font-style', 'text-decoration', 'letter-spacing',
]);
/** Attributes whose value may name another element of the drawing: url(#id) only. */
const REFERENCE = /url\(\s*#([\w-]+)\s*\)/g;

const TOKEN = /<!--[^]*?-->|<\/([a-zA-Z]+)\s*>|<([a-zA-Z]+)((?:\s+[\w:.-]+\s*=\s*"[^"]*")*)\s*(\/?)>|([^<]+)/y;
const ATTRIBUTE = /([\w:.-]+)\s*=\s*"([^"]*)"/g;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

const decode = (text: string) =>
  decodeReferences(text, ENTITIES, (ref) => {
    throw new Error(`unknown character reference ${ref}`);
  });

/** The <svg> element of `svg` as hast, ids prefixed with `prefix`; throws on SVG this reader does not take (the renderer changed). */
export function svgToHast(svg: string, prefix: string): Element {
  const root: Element = { type: 'element', tagName: '#root', properties: {}, children: [] };
  const open: Element[] = [root];
  /** Inside an element left out (<style>), with its content: how deep. */
  let skipping = 0;
  TOKEN.lastIndex = 0;
  while (TOKEN.lastIndex < svg.length) {
    const at = TOKEN.lastIndex;
    const m = TOKEN.exec(svg);
    if (!m) throw new Error(`unreadable SVG at character ${at}`);
    const [, close, name, attrs, selfClosing, text] = m; // (none of them: a comment, left out)
    const parent = open[open.length - 1]!;
    if (text !== undefined) {
      if (!skipping && text.trim() && parent.tagName !== '#root') parent.children.push({ type: 'text', value: decode(text) });
    } else if (close !== undefined) {
      if (skipping) skipping--;
      else if (close === parent.tagName && open.length > 1) open.pop();
      else throw new Error(`unexpected </${close}>`);
    } else if (name !== undefined) {
      if (skipping || !ELEMENTS.has(name)) {
        if (name !== 'style' && !skipping) throw new Error(`unexpected <${name}>`);
        if (!selfClosing) skipping++;
        continue;
      }
      const element: Element = { type: 'element', tagName: name, properties: {}, children: [] };
      for (const [, key, raw] of attrs!.matchAll(ATTRIBUTE)) {
        if (!ATTRIBUTES.has(key!)) continue;
        let value = decode(raw!);
        if (key === 'id') value = `${prefix}-${value}`;
        else if (value.includes('url(')) {
          value = value.replace(REFERENCE, (_, id: string) => `url(#${prefix}-${id})`);
          // Anything but a reference into the drawing (another file, a data: URL) is left out.
          if (/url\(\s*[^#\s]/.test(value)) continue;
        }
        element.properties[key!] = value;
      }
      (parent.children as ElementContent[]).push(element);
      if (!selfClosing) open.push(element);
    }
  }
  const svgElement = root.children[0];
  if (open.length !== 1 || root.children.length !== 1 || svgElement?.type !== 'element' || svgElement.tagName !== 'svg') {
    throw new Error('the SVG is not one <svg> element');
  }
  return svgElement;
}
