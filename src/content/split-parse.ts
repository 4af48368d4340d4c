import type { List, Root, RootContent, Table } from 'mdast';

/*
 * Very large pages are parsed in parts. The parser keeps every event of a
 * document alive until the end of the parse, so a page of megabytes holds
 * a gigabyte and spends most of its time collecting garbage; and parts can
 * be parsed on two threads at once (see parse-thread.ts). A page is cut only
 * where a new top-level block must start whatever came before, outside a
 * fenced code block and outside a directive container:
 * - a `## ` heading after a blank line;
 * - a line starting with a letter after a blank line (a paragraph: after a
 *   blank line, nothing before can take in a line that starts at the margin
 *   with a letter);
 * - between two items of a bullet list at the margin, each on one line, while
 *   the list is tight (a blank line between any of its items or blocks, and
 *   its cuts are taken back): the items after the cut are added to the list;
 * - between two body rows of a table that starts at the margin with `|`
 *   after a blank line: the rows after the cut are parsed after a copy of the
 *   table's head (its first two lines) and added to the rows before, since
 *   each row is read on its own, knowing only the head.
 * A page is cut only when nothing in it can refer across parts (link
 * reference or footnote definitions, HTML blocks that may span blank lines).
 * Each part is parsed alone and its positions shifted to the whole page's,
 * which gives the tree the whole page would give (tested by parsing every
 * page of the site both ways, and generated hostile pages). When the parts
 * do not join as expected (a table cut where the parser saw no table), the
 * page is parsed whole.
 */

/** Pages shorter than this are parsed whole. */
export const SPLIT_MIN_CHARS = 128 * 1024;
/**
 * Parts are cut at the first boundary past this many characters. Small parts parse faster: the
 * parser's events for a part die before they are promoted to the old generation of the heap
 * (1 MB of short lists, parse alone: 3.5-3.8 s and 290 MB in parts of 2-8 KB, 4.2 s and 360-410 MB
 * in parts of 64 KB, 4.1 s and 970 MB whole).
 */
const PART_CHARS = 8 * 1024;

/**
 * Where a page is cut: the offset of a line start; for a cut between table rows, the table's head
 * and where the table starts; for a cut between list items, `list`.
 */
export interface Cut {
  at: number;
  table?: { head: string; start: number };
  list?: true;
}

/** An HTML block that may hold blank lines (so a blank line in it is no boundary). */
const SPANNING_HTML = /^ {0,3}<(?:script|pre|style|textarea|!--|\?|![A-Za-z]|!\[CDATA\[)/im;

/**
 * Whether the page holds what may refer across parts: an HTML block that may
 * hold blank lines, or a link reference or footnote definition — at the
 * margin or in list items and block quotes, its label on one line or more.
 * Read in one pass (each line's container marks, then a label up to the next
 * bracket), so that no page makes it slow.
 */
export function mayReferAcross(body: string): boolean {
  if (SPANNING_HTML.test(body)) return true;
  for (let start = 0; start < body.length; ) {
    let i = start;
    // Container marks: `>`, and list bullets or numbers followed by a space or tab.
    for (;;) {
      while (body[i] === ' ' || body[i] === '\t') i++;
      const c = body[i];
      if (c === '>') i++;
      else if ((c === '-' || c === '*' || c === '+') && (body[i + 1] === ' ' || body[i + 1] === '\t')) i++;
      else {
        let d = i;
        while (d - i < 9 && body.charCodeAt(d) >= 48 && body.charCodeAt(d) <= 57) d++;
        if (d > i && (body[d] === '.' || body[d] === ')') && (body[d + 1] === ' ' || body[d + 1] === '\t')) i = d + 1;
        else break;
      }
    }
    let next = body.indexOf('\n', start);
    if (next < 0) next = body.length;
    if (body[i] === '[') {
      // A label: up to the first unescaped bracket, without a blank line; a definition when `]:` closes it.
      for (let j = i + 1; j < body.length; j++) {
        const c = body[j];
        if (c === '\\') j++;
        else if (c === '[') break;
        else if (c === ']') {
          if (body[j + 1] === ':' && j > i + 1) return true;
          break;
        } else if (c === '\n') {
          let end = body.indexOf('\n', j + 1);
          if (end < 0) end = body.length;
          if (body.slice(j + 1, end).trim() === '') break;
        }
      }
    }
    start = next + 1;
  }
  return false;
}

const FENCE = /^( {0,3}(?:[-*+>] {1,4}|\d{1,9}[.)] {1,4})*)(`{3,}|~{3,})/;
const DIRECTIVE = /^ {0,3}(:{3,})(.*)$/;
/** An item of a bullet list at the margin, on one line (not a thematic break such as `- - -`). */
const LIST_ITEM = /^([-*+])[ \t]+\S/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
/** The delimiter row of a table written with a leading pipe: `| --- | :-: |`. */
const DELIMITER_ROW = /^\|(?:[ \t]*:?-+:?[ \t]*\|)*[ \t]*:?-+:?[ \t]*\|?[ \t]*$/;

/**
 * A line after a blank line, at the margin, that starts a paragraph whatever the lines before
 * were: a letter of any script, or a link, an image, a code span, emphasis, a quote or a bracket
 * (a link reference definition, which `[` might start, is ruled out for the whole page by
 * mayReferAcross). Not a list item, a number that starts one, a block quote, a table, HTML, a
 * heading, a thematic break or indented code.
 */
const PARAGRAPH_START = /^(?:\p{L}|\d+(?![\d.)])|\[|!\[|`(?!``)|[*_](?=[^\s*_])|[("'])/u;

/** Where the page may be cut, or none when it must be parsed whole. */
export function cutPoints(body: string, minChars = SPLIT_MIN_CHARS, partChars = PART_CHARS): Cut[] {
  if (body.length < minChars || mayReferAcross(body)) return [];
  const cuts: Cut[] = [];
  let fence: string | undefined;
  /** Where the open fence is: in a block quote, in a list item (the indent its lines need), or at the margin (0). */
  let fenceContainer: 'quote' | number = 0;
  let directives = 0;
  let lastCut = 0;
  let previousBlank = true;
  /** The table whose rows the lines are, while every line of it starts with `|`. */
  let table: { head: string; start: number; delimiterEnd: number } | undefined;
  /**
   * The bullet list that started at the margin after a blank line, while it lasts: its bullet,
   * the index of its first cut, whether the line before was one of its items on one line,
   * whether a blank line came since, and whether it may still be cut (it is tight so far).
   */
  let list: { bullet: string; firstCut: number; afterItem: boolean; blank: boolean; tight: boolean } | undefined;
  for (let start = 0; start < body.length; ) {
    let end = body.indexOf('\n', start);
    if (end < 0) end = body.length;
    const line = body.slice(start, end);
    const fenceMatch = FENCE.exec(line);
    const far = start > 0 && start - lastCut >= partChars;
    if (table && start > table.delimiterEnd) {
      if (line.startsWith('|')) {
        if (far) {
          cuts.push({ at: start, table: { head: table.head, start: table.start } });
          lastCut = start;
        }
      } else table = undefined;
    }
    if (list) {
      const item = fence === undefined && !fenceMatch && !table && directives === 0 && !THEMATIC_BREAK.test(line) ? LIST_ITEM.exec(line) : null;
      const same = item?.[1] === list.bullet;
      if (line.trim() === '') {
        list.blank = true;
        list.afterItem = false;
      } else if (list.blank) {
        list.blank = false;
        if (same || /^[ \t]/.test(line)) {
          // The list goes on after a blank line: it is loose, and a part of it would be tight.
          if (list.tight) cuts.splice(list.firstCut);
          list.tight = false;
          list.afterItem = same;
        } else list = undefined;
      } else if (same) {
        if (list.afterItem && list.tight && far) {
          cuts.push({ at: start, list: true });
          lastCut = start;
        }
        list.afterItem = true;
      } else list.afterItem = false;
    }
    if (table) {
      // A row of the table (or its delimiter row).
    } else if (fence !== undefined) {
      // A fence opened in a block quote or a list item ends with its container: a line that does not go on
      // in the container (a lazy line, the next block) ends it where this reading cannot follow. The page is parsed whole.
      if (fenceContainer === 'quote' ? !/^ {0,3}>/.test(line) : fenceContainer > 0 && line.trim() !== '' && /^ */.exec(line)![0].length < fenceContainer) return [];
      // (A closing fence is in the fence's own container: a list bullet or a quote mark before it is code.)
      const closingPrefix = fenceMatch?.[1] ?? '';
      const inContainer = fenceContainer === 'quote' ? /^[ >]*$/.test(closingPrefix) : /^ *$/.test(closingPrefix);
      if (fenceMatch && inContainer && fenceMatch[2]![0] === fence[0] && fenceMatch[2]!.length >= fence.length && line.slice(fenceMatch[0].length).trim() === '') fence = undefined;
    } else if (fenceMatch) {
      fence = fenceMatch[2];
      const prefix = fenceMatch[1]!;
      // (Indented by spaces alone, it may be in a list item too: its lines are asked for as much indent.)
      fenceContainer = prefix.includes('>') ? 'quote' : prefix.length;
    } else {
      const directive = DIRECTIVE.exec(line);
      if (directive) {
        if (directive[2]!.trim() === '') directives = Math.max(0, directives - 1);
        else directives++;
      } else if (directives === 0 && previousBlank) {
        if (far && (line.startsWith('## ') || PARAGRAPH_START.test(line))) {
          cuts.push({ at: start });
          lastCut = start;
        }
        const item = !list && !THEMATIC_BREAK.test(line) ? LIST_ITEM.exec(line) : null;
        if (item) list = { bullet: item[1]!, firstCut: cuts.length, afterItem: true, blank: false, tight: true };
        if (line.startsWith('|') && end < body.length) {
          let next = body.indexOf('\n', end + 1);
          if (next < 0) next = body.length;
          if (DELIMITER_ROW.test(body.slice(end + 1, next))) table = { head: body.slice(start, next) + '\n', start, delimiterEnd: next };
        }
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

/** The text each part is parsed from: the page between two cuts, after a copy of the table head where the cut is between rows. */
export function partTexts(body: string, cuts: Cut[]): string[] {
  const bounds = [0, ...cuts.map((cut) => cut.at), body.length];
  return bounds.slice(0, -1).map((from, i) => (cuts[i - 1]?.table?.head ?? '') + body.slice(from, bounds[i + 1]));
}

/** The last block of the parts read so far: what the next part may continue. */
interface LastBlock {
  type: string;
  ordered?: boolean | null;
  spread?: boolean | null;
  start: number;
  end: number;
}

/**
 * Reads the trees of a page's parts (parsed from partTexts) one at a time,
 * in order: shifts each to the page's positions and says whether its first
 * block continues the last block of the part before (the rows of a table or
 * the items of a list cut in two). `next` returns undefined when a part does
 * not join as its cut expects (a table cut where the parser saw no table):
 * the page is then parsed whole. The trees are changed.
 */
export class PartReader {
  private lines = 0;
  private from = 0;
  private index = 0;
  private last: LastBlock | undefined;

  constructor(
    private readonly body: string,
    private readonly cuts: Cut[],
  ) {}

  next(tree: Root): { children: RootContent[]; continues?: 'table' | 'list' } | undefined {
    const { body, cuts } = this;
    const i = this.index++;
    const from = this.from;
    const to = cuts[i]?.at ?? body.length;
    const cut = cuts[i - 1];
    const children = tree.children;
    const last = this.last;
    const first = children[0];
    // (The block before a cut ends on the line before it.)
    const lastLine = body.lastIndexOf('\n', from - 2) + 1;
    const endsBefore = (block: LastBlock) => block.end > lastLine && block.end < from;
    let continues: 'table' | 'list' | undefined;
    if (cut?.table) {
      // The rows after the cut continue the table that ended the part before; the copied head is the head of a table in both.
      if (last?.type !== 'table' || last.start !== cut.table.start || !endsBefore(last)) return undefined;
      const headEnd = first?.type === 'table' ? first.children[0]?.position?.end.offset : undefined;
      if (first?.type !== 'table' || first.position?.start.offset !== 0 || headEnd === undefined || headEnd > cut.table.head.indexOf('\n') || first.children[1]?.position?.start.offset !== cut.table.head.length) return undefined;
      const headLines = 2;
      for (const child of children) shift(child as Positioned, this.lines - headLines, from - cut.table.head.length);
      continues = 'table';
    } else if (cut?.list) {
      // The items after the cut continue the list that ended the part before: both tight, as the whole list then is.
      if (last?.type !== 'list' || last.ordered || last.spread || !endsBefore(last)) return undefined;
      if (first?.type !== 'list' || first.ordered || first.spread || first.position?.start.offset !== 0 || first.children.some((item) => item.spread)) return undefined;
      for (const child of children) shift(child as Positioned, this.lines, from);
      continues = 'list';
    } else {
      for (const child of children) shift(child as Positioned, this.lines, from);
    }
    const end = children[children.length - 1];
    if (end) {
      const start = continues && children.length === 1 ? last!.start : end.position!.start.offset!;
      this.last = { type: end.type, ordered: (end as { ordered?: boolean | null }).ordered, spread: (end as { spread?: boolean | null }).spread, start, end: end.position!.end.offset! };
    }
    for (let at = body.indexOf('\n', from); at >= 0 && at < to; at = body.indexOf('\n', at + 1)) this.lines++;
    this.from = to;
    return { children, continues };
  }

  /** The position of the whole page (the root's). */
  position(): NonNullable<Root['position']> {
    const lastBreak = this.body.lastIndexOf('\n');
    return { start: { line: 1, column: 1, offset: 0 }, end: { line: this.lines + 1, column: this.body.length - lastBreak, offset: this.body.length } };
  }
}

/**
 * Joins the trees of the parts (parsed from partTexts, in order) into the
 * page's tree; undefined when they do not join as the cuts expect (the page
 * is then parsed whole). The parts' trees are changed and taken over.
 */
export function joinParts(body: string, cuts: Cut[], parts: Root[]): Root | undefined {
  const root: Root = { type: 'root', children: [] };
  const reader = new PartReader(body, cuts);
  for (const part of parts) {
    const read = reader.next(part);
    if (!read) return undefined;
    const { children, continues } = read;
    if (continues) {
      // The rows or items join the table or list that ended the part before, as its last child.
      const last = root.children[root.children.length - 1] as Table | List;
      const first = children[0] as Table | List;
      if (continues === 'table') (last as Table).children.push(...(first as Table).children.slice(1));
      else (last as List).children.push(...(first as List).children);
      last.position!.end = first.position!.end;
    }
    pushAll(root.children, children, continues ? 1 : 0);
  }
  root.position = reader.position();
  return root;
}

function pushAll(to: RootContent[], from: RootContent[], start: number): void {
  for (let i = start; i < from.length; i++) to.push(from[i]!);
}

/** Parses `body` with `parse`, in parts where cutPoints allows; the same tree as parsing it whole. */
export function parseInParts(body: string, parse: (text: string) => Root, cuts = cutPoints(body)): Root {
  if (!cuts.length) return parse(body);
  return joinParts(body, cuts, partTexts(body, cuts).map(parse)) ?? parse(body);
}
