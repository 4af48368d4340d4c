/*
 * The text of a `mermaid` block, read before it is drawn: its kind, its
 * accessible title and description (Mermaid's accTitle and accDescr, or the
 * title of its frontmatter), and the mistakes the renderer would pass over.
 * The renderer reads Mermaid line by line and skips a line it cannot read, so
 * the mistakes writers make most (a bracket left open, an arrow to nothing, a
 * kind of diagram it does not draw) are found here, each at its line.
 */

/** The kinds of diagram drawn, by the name a drawing of the kind is given when its writer gives none. */
export const KIND_NAMES = { flowchart: 'Flowchart', state: 'State diagram', sequence: 'Sequence diagram', class: 'Class diagram', er: 'Entity relationship diagram' };
type DiagramKind = keyof typeof KIND_NAMES;

const SUPPORTED = 'flowchart (or graph), sequenceDiagram, stateDiagram-v2, classDiagram and erDiagram';

export interface DiagramSource {
  kind: DiagramKind;
  /** The text to draw: the same lines, those read here (accTitle, accDescr, frontmatter) made empty. */
  text: string;
  title?: string;
  description?: string;
}

/** A mistake in a diagram: its line in the block (0 is the first line after the fence) and its column (1-based). */
export interface DiagramMistake {
  line: number;
  column: number;
  message: string;
}

const HEADERS: Array<[RegExp, DiagramKind]> = [
  [/^(?:graph|flowchart)(?:\s+(?:TD|TB|LR|BT|RL))?$/i, 'flowchart'],
  [/^stateDiagram(?:-v2)?$/, 'state'],
  [/^sequenceDiagram$/, 'sequence'],
  [/^classDiagram$/, 'class'],
  [/^erDiagram$/, 'er'],
];

const indentOf = (line: string) => line.length - line.trimStart().length;

export function readDiagram(value: string): DiagramSource | DiagramMistake {
  const lines = value.split('\n');
  let title: string | undefined;
  let description: string | undefined;
  let i = 0;
  const blank = (n: number) => (lines[n] = '');
  const skipEmpty = () => {
    while (i < lines.length && (!lines[i]!.trim() || lines[i]!.trim().startsWith('%%'))) i++;
  };
  skipEmpty();
  // Frontmatter, as Mermaid reads it: `---`, `title: …` and other settings, `---`.
  if (lines[i]?.trim() === '---') {
    const start = i;
    blank(i++);
    for (; i < lines.length && lines[i]!.trim() !== '---'; i++) {
      const m = /^\s*title:\s*(.*?)\s*$/.exec(lines[i]!);
      if (m) title = m[1]!.replace(/^(["'])(.*)\1$/, '$2');
      blank(i);
    }
    if (i === lines.length) return { line: start, column: 1, message: 'the diagram\'s frontmatter has no closing "---"' };
    blank(i++);
    skipEmpty();
  }
  if (i === lines.length) return { line: 0, column: 1, message: `the diagram is empty: start it with its kind (${SUPPORTED})` };
  const header = lines[i]!.trim().replace(/;$/, '');
  const kind = HEADERS.find(([re]) => re.test(header))?.[1];
  if (!kind) {
    const word = header.split(/\s/)[0]!;
    const known = /^(?:graph|flowchart)$/i.test(word);
    const message = known ? `"${header}": a flowchart's direction is TD, TB, LR, BT or RL` : `"${word}" diagrams are not drawn: the kinds drawn are ${SUPPORTED}`;
    return { line: i, column: indentOf(lines[i]!) + 1, message };
  }
  // The renderer wants a flowchart's direction; Mermaid's default is top to bottom.
  if (kind === 'flowchart' && !/\s/.test(header)) lines[i] = `${header} TD`;
  for (i++; i < lines.length; i++) {
    const line = lines[i]!;
    const trimmed = line.trim();
    const acc = /^(accTitle|accDescr)\s*:\s*(.*)$/.exec(trimmed);
    if (acc) {
      if (acc[1] === 'accTitle') title = acc[2]!;
      else description = acc[2]!;
      blank(i);
      continue;
    }
    if (/^accDescr\s*\{/.test(trimmed)) {
      const start = i;
      const parts = [trimmed.replace(/^accDescr\s*\{/, '')];
      blank(i);
      while (!parts[parts.length - 1]!.includes('}') && ++i < lines.length) {
        parts.push(lines[i]!.trim());
        blank(i);
      }
      if (!parts[parts.length - 1]!.includes('}')) return { line: start, column: indentOf(line) + 1, message: 'accDescr { has no closing }' };
      description = parts.join(' ').replace(/\}\s*$/, '').trim();
      continue;
    }
    if (kind === 'flowchart' && trimmed && !trimmed.startsWith('%%')) {
      const mistake = flowchartLineMistake(line);
      if (mistake) return { line: i, ...mistake };
    }
  }
  return { kind, text: lines.join('\n'), ...(title ? { title } : {}), ...(description ? { description } : {}) };
}

const CLOSING: Record<string, string> = { '[': ']', '(': ')', '{': '}' };
const ARROW_AT_END = /(?:<?(?:-->|---|-\.->|-\.-|==>|===))(?:\|[^|]*\|)?\s*$/;

/** A bracket of a flowchart line left open or closed by the wrong one, or an arrow at the end of the line. */
function flowchartLineMistake(line: string): { column: number; message: string } | undefined {
  const open: Array<[string, number]> = [];
  let quoted = -1;
  let label = -1;
  for (let c = 0; c < line.length; c++) {
    const ch = line[c]!;
    if (quoted >= 0) {
      if (ch === '"') quoted = -1;
      continue;
    }
    if (ch === '"') quoted = c;
    else if (ch === '|' && !open.length) label = label >= 0 ? -1 : c;
    else if (label >= 0) continue;
    else if (ch in CLOSING) open.push([ch, c]);
    else if (ch === ']' || ch === ')' || ch === '}') {
      const last = open.pop();
      if (!last) return { column: c + 1, message: `this "${ch}" closes no bracket` };
      if (CLOSING[last[0]] !== ch) return { column: c + 1, message: `this "${ch}" closes the "${last[0]}" of column ${last[1] + 1}, which "${CLOSING[last[0]]}" closes` };
    }
  }
  if (quoted >= 0) return { column: quoted + 1, message: 'this quote is not closed on its line' };
  if (label >= 0) return { column: label + 1, message: 'this edge label "|" is not closed on its line' };
  const last = open.pop();
  if (last) return { column: last[1] + 1, message: `this "${last[0]}" is not closed on its line` };
  const arrow = ARROW_AT_END.exec(line);
  if (arrow) return { column: arrow.index + 1, message: 'this arrow points to nothing: name a node after it' };
  return undefined;
}
