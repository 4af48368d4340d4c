import type { SourceProblem } from '../shared/errors.js';

/**
 * How deep lists and block quotes may nest in a page. Real documentation
 * stays under ten; the parser and the tree walks after it recurse once per
 * level, so a page of thousands of levels (`- - - - …` or `> > > …`) would
 * exhaust the stack instead of being reported.
 */
const MAX_NESTING = 100;

/** One container marker at the start of what is left of a line: `>`, or a list bullet or number followed by a space. */
const MARKER = /^[ \t]{0,3}(?:>[ \t]?|(?:[-*+]|\d{1,9}[.)])(?:[ \t]+|$))/;
const FENCE = /^[ \t]*(?:>[ \t]?)*[ \t]*(`{3,}|~{3,})/;
/** More emphasis marks in a row than MAX_NESTING levels of emphasis could use (two per level). */
const EMPHASIS_RUN = new RegExp(`\\*{${2 * MAX_NESTING + 1},}|_{${2 * MAX_NESTING + 1},}`);
/** A line of only *, - or _ (and spaces) is a horizontal rule, however long. */
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1)*[ \t]*$/;

/**
 * The first line whose lists and quotes nest deeper than MAX_NESTING, as a
 * problem; found by reading line starts, before the parser sees the page.
 * Each level counts once per marker on the line, and nested lists written
 * one per line count by their indentation (two columns a level). Lines of
 * fenced code blocks count only their markers.
 */
export function nestingProblem(body: string, file: string, lineOffset: number): SourceProblem | undefined {
  let fence: string | undefined;
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const mark = fenceMatch[1]!;
      if (fence === undefined) fence = mark[0]!.repeat(mark.length);
      else if (mark[0] === fence[0] && mark.length >= fence.length) fence = undefined;
    }
    let rest = line;
    let depth = 0;
    for (let m = MARKER.exec(rest); m && depth <= MAX_NESTING; m = MARKER.exec(rest)) {
      depth++;
      rest = rest.slice(m[0].length);
    }
    if (fence === undefined || fenceMatch) {
      let indent = 0;
      for (const ch of line) {
        if (ch === ' ') indent++;
        else if (ch === '\t') indent += 4 - (indent % 4);
        else break;
      }
      depth += Math.floor(indent / 2);
    }
    if (fence === undefined && !fenceMatch) {
      // A run of emphasis marks nests emphasis once per pair, and the parser pairs them in time that grows with the square of the run.
      // (Code spans hold text, not emphasis: blanked out with their length kept, for the column.)
      const run = EMPHASIS_RUN.exec(line.replace(/(`+)[^`]*?\1/g, (span) => ' '.repeat(span.length)));
      if (run && !THEMATIC_BREAK.test(line)) {
        const message = `a run of ${run[0].length} "${run[0][0]}" characters nests emphasis more than ${MAX_NESTING} levels deep; shorten it, or put it in a code span`;
        return { file, line: i + 1 + lineOffset, column: run.index + 1, message };
      }
    }
    if (depth > MAX_NESTING) {
      const message = `lists and quotes nest more than ${MAX_NESTING} levels deep here; flatten them (a page this deep cannot be read anyway)`;
      return { file, line: i + 1 + lineOffset, column: 1, message };
    }
  }
  return undefined;
}

/*
 * How much markup a page may hold. Parsing holds every token of a page at once (the parser's
 * events), so memory follows its markup. Measured on this tool's build: about 270 bytes of memory
 * per character of text, and about 2 KB more per character that starts markup ([ ] ( ) & < > * _ `
 * \ ! |). A page whose estimate exceeds WEIGHT_LIMIT would take the build past about 1 GB: it is a
 * problem at its first line, not a build that runs out of memory.
 */
const WEIGHT_LIMIT = 650_000_000;
const MARKUP_CHAR = /[[\]()&<>*_`\\!|]/g;

/** A body that weighs too much (estimated as above), as a problem at its first line that is not blank. */
export function weightProblem(body: string, file: string, lineOffset: number): SourceProblem | undefined {
  if (body.length * 270 <= WEIGHT_LIMIT / 8 && body.length < 64 * 1024) return undefined;
  let markup = 0;
  MARKUP_CHAR.lastIndex = 0;
  while (MARKUP_CHAR.exec(body)) markup++;
  if (body.length * 270 + markup * 2000 <= WEIGHT_LIMIT) return undefined;
  const line = /^\s*\n/.exec(body)?.[0].split('\n').length ?? 1;
  const message = `this page's ${Math.round(body.length / 1024)} KB hold too much markup to be rendered within the memory a build may use; move part of it to a page of its own`;
  return { file, line: lineOffset + line, column: 1, message };
}
