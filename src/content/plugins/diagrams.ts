import type { Element, ElementContent } from 'hast';
import type { Code, Root } from 'mdast';
import type { Parent, Position } from 'unist';
import type { VFile } from 'vfile';
import { report } from '../context.js';
import { h, walk } from '../walk.js';
import { KIND_NAMES, readDiagram, type DiagramSource } from '../diagram-source.js';
import { svgToHast } from '../diagram-svg.js';

/*
 * `mermaid` code blocks become diagrams: SVG drawn at build time by
 * beautiful-mermaid (pure JavaScript, no DOM, no browser), put into the page
 * as markup. Pages need no script for them, and the SVG's colours are the
 * page's custom properties (templates/styles/32-diagrams.css), so they follow
 * the colour scheme. The renderer is loaded only when a page has a diagram.
 *
 * The figure: an optional caption (the block's title="…"), the drawing
 * (role="img", named by its title and described by its description, or by
 * the words it shows), and the Mermaid text under a disclosure, for those
 * who cannot see the drawing and for copying.
 */

/** The language of the blocks drawn as diagrams. */
const DIAGRAM_LANGUAGE = 'mermaid';

/** What a diagram block's fence may say after `mermaid`: only a title, which becomes its caption. */
function diagramTitle(meta: string | null | undefined): { title?: string } | string {
  const rest = (meta ?? '').trim();
  if (!rest) return {};
  const m = /^title=(?:"([^"]*)"|'([^']*)'|(\S+))$/.exec(rest);
  if (!m) return `unknown diagram option "${rest}" (a mermaid block takes only title="…", its caption)`;
  const title = (m[1] ?? m[2] ?? m[3]!).trim();
  if (!title) return 'the title is empty: give the diagram\'s caption, such as title="How a build runs", or leave the option out';
  return { title };
}

export function remarkDiagrams() {
  return async (tree: Root, file: VFile) => {
    const ctx = file.data.ctx!;
    const found: Array<{ node: Code; index: number; parent: Parent }> = [];
    walk<Code>(tree, 'code', (node, index, parent) => {
      if ((node.lang ?? '').toLowerCase() === DIAGRAM_LANGUAGE) found.push({ node, index: index!, parent: parent! });
    });
    if (!found.length) return;
    const { renderMermaidSVG } = await import('beautiful-mermaid');
    let number = 0;
    for (const { node, index, parent } of found) {
      // A block that cannot be drawn is shown as its text (the page has a problem and is not written, but `docs serve` shows it).
      const asText = (position: Position | undefined, message: string) => {
        report(ctx, position, message);
        node.lang = 'text';
        node.meta = null;
      };
      const options = diagramTitle(node.meta);
      if (typeof options === 'string') {
        asText(node.position, options);
        continue;
      }
      const source = readDiagram(node.value);
      if (!('kind' in source)) {
        // Line 0 of the block is the one after its opening fence.
        const start = node.position?.start ?? { line: 1, column: 1 };
        const point = { line: start.line + 1 + source.line, column: start.column - 1 + source.column };
        asText({ start: point, end: point }, source.message);
        continue;
      }
      const id = `diagram-${++number}`;
      let svg: Element;
      try {
        svg = svgToHast(renderMermaidSVG(source.text, { transparent: true, padding: 16 }), id);
      } catch (e) {
        asText(node.position, `this diagram cannot be drawn: ${e instanceof Error ? e.message : String(e)}`);
        continue;
      }
      parent.children[index] = {
        type: 'diagram',
        data: { hName: 'figure', hProperties: { className: ['diagram'] }, hChildren: figure(svg, source, options.title, node.value, id) },
        position: node.position,
      } as never;
    }
  };
}

/** The words a drawing shows, each once: its description when the writer gives none. Those of its boxes first, then those of its arrows. */
function wordsOf(svg: Element): string[] {
  const [boxes, arrows] = [new Set<string>(), new Set<string>()];
  const visit = (node: Element, onArrow: boolean) => {
    const classes = (node.properties.class as string | undefined)?.split(' ') ?? [];
    const arrow = onArrow || classes.some((c) => /^(?:edge|edge-label|message|relationship|transition)$/.test(c));
    if (node.tagName === 'text') {
      const text = toString(node).replace(/\s+/g, ' ').trim();
      if (text) (arrow ? arrows : boxes).add(text);
      return;
    }
    for (const child of node.children) if (child.type === 'element') visit(child, arrow);
  };
  visit(svg, false);
  return [...boxes, ...[...arrows].filter((w) => !boxes.has(w))];
}

const toString = (node: ElementContent): string => (node.type === 'text' ? node.value : node.type === 'element' ? node.children.map(toString).join(' ') : '');

function figure(svg: Element, source: DiagramSource, caption: string | undefined, text: string, id: string): ElementContent[] {
  const name = source.title ?? caption ?? KIND_NAMES[source.kind];
  const description = source.description ?? `${KIND_NAMES[source.kind]} of ${wordsOf(svg).join(', ')}`;
  svg.properties = { ...svg.properties, role: 'img', ariaLabelledBy: [`${id}-title`], ariaDescribedBy: [`${id}-desc`] };
  svg.children.unshift(h('title', { id: `${id}-title` }, [name]), h('desc', { id: `${id}-desc` }, [description]));
  // (The caption first: a figure's caption is its first or its last child, and the disclosure comes last.)
  return [
    ...(caption ? [h('figcaption', {}, [caption])] : []),
    h('div', { className: ['diagram-view'], tabIndex: 0 }, [svg]),
    h('details', { className: ['diagram-source'] }, [
      // (In English here: the build puts the interface's words in, see bodyHtml in src/build/render.tsx.)
      h('summary', { dataDiagramSource: '' }, ['Diagram source']),
      h('pre', { className: ['code'], dataLang: DIAGRAM_LANGUAGE, tabIndex: 0 }, [h('code', {}, [text])]),
    ]),
  ];
}
