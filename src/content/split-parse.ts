import type { Root } from 'mdast';


/*
 * Very large pages are parsed in parts. The parser keeps every event of a
 * document alive until the end of the parse, so a page of megabytes holds
 * a gigabyte and spends most of its time collecting garbage. A page is cut
 * only where a new top-level block must start whatever came before — a `## `
 * heading at the start of a line, after a blank line, outside a fenced code
 * block and outside a directive container — and only when nothing in it can
 * refer across parts (link reference or footnote definitions, HTML blocks that
 * may span blank lines). Each part is parsed alone and its positions shifted
 * to the whole page's, which gives the tree the whole page would give (tested
 * by parsing every page of the site both ways).
 */

/** Pages shorter than this are parsed whole. */
export const SPLIT_MIN_CHARS = 128 * 1024;
/** Parts are cut at the first boundary past this many characters. */
const PART_CHARS = 64 * 1024;

const CROSS_REFERENCE = /^ {0,3}\[[^\]\n]+\]:|^ {0,3}<(?:script|pre|style|textarea|!--|\?|![A-Za-z]|!\[CDATA\[)/im;
const FENCE = /^( {0,3}(?:[-*+>] {1,4}|\d{1,9}[.)] {1,4})*)(`{3,}|~{3,})/;
const DIRECTIVE = /^ {0,3}(:{3,})(.*)$/;

/** Offsets where the page may be cut (each the start of a `## ` line), or none when it must be parsed whole. */
export function cutPoints(body: string, minChars = SPLIT_MIN_CHARS, partChars = PART_CHARS): number[] {
  if (body.length < minChars || CROSS_REFERENCE.test(body)) return [];
  const cuts: number[] = [];
  let fence: string | undefined;
  let directives = 0;
  let lastCut = 0;
  let previousBlank = true;
  for (let start = 0; start < body.length; ) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    const line = body.slice(start, end);
    const fenceMatch = FENCE.exec(line);
    if (fence !== undefined) {
      if (fenceMatch && fenceMatch[2]![0] === fence[0] && fenceMatch[2]!.length >= fence.length && line.slice(fenceMatch[0].length).trim() === '') fence = undefined;
    } else if (fenceMatch) {
      fence = fenceMatch[2];
    } else {
      const directive = DIRECTIVE.exec(line);
      if (directive) {
        if (directive[2]!.trim() === '') directives = Math.max(0, directives - 1);
        else directives++;
      } else if (directives === 0 && previousBlank && line.startsWith('## ') && start - lastCut >= partChars) {
        cuts.push(start);
        lastCut = start;
      }
    }
    previousBlank = line.trim() === '';
    start = end + 1;
  }
  return fence === undefined && directives === 0 ? cuts : [];
}

interface Positioned {
  position?: { start: { line: number; column: number; offset?: number }; end: { line: number; column: number; offset?: number } };
  children?: Positioned[];
}

function shift(node: Positioned, lines: number, offset: number): void {
  const stack: Positioned[] = [node];
  while (stack.length) {
    const current = stack.pop()!;
    const position = current.position;
    if (position) {
      position.start.line += lines;
      position.end.line += lines;
      if (position.start.offset !== undefined) position.start.offset += offset;
      if (position.end.offset !== undefined) position.end.offset += offset;
    }
    if (current.children) for (const child of current.children) stack.push(child);
  }
}

/** Parses `body` with `parse`, in parts where cutPoints allows; the same tree as parsing it whole. */
export function parseInParts(body: string, parse: (text: string) => Root, cuts = cutPoints(body)): Root {
  if (!cuts.length) return parse(body);
  const bounds = [0, ...cuts, body.length];
  const root: Root = { type: 'root', children: [] };
  let lines = 0;
  for (let i = 0; i < bounds.length - 1; i++) {
    const from = bounds[i]!;
    const text = body.slice(from, bounds[i + 1]);
    const part = parse(text);
    for (const child of part.children) shift(child as Positioned, lines, from);
    root.children.push(...part.children);
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) lines++;
  }
  const endLine = lines + 1;
  const lastBreak = body.lastIndexOf('\n');
  root.position = { start: { line: 1, column: 1, offset: 0 }, end: { line: endLine, column: body.length - lastBreak, offset: body.length } };
  return root;
}


