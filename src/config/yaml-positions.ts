import { isMap, isPair, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import { InputError, type SourceProblem } from '../shared/errors.js';

/** A YAML document parsed with enough bookkeeping to turn a data path back into line:column. */
export interface LocatedYaml {
  doc: Document.Parsed;
  lineCounter: LineCounter;
  /** Line added to every position (frontmatter starts below the `---`). */
  lineOffset: number;
  file: string;
}

/** How deep a YAML document may nest: a config needs under ten levels. */
const MAX_YAML_DEPTH = 64;

export function parseLocatedYaml(source: string, file: string, lineOffset = 0): { located: LocatedYaml; problems: SourceProblem[] } {
  const lineCounter = new LineCounter();
  // Merge keys (<<: *defaults) are read as YAML 1.1 has them, as most writers expect.
  const doc = parseDocument(source, { lineCounter, prettyErrors: false, uniqueKeys: true, merge: true, logLevel: 'error' });
  const located = { doc, lineCounter, lineOffset, file };
  const at = (offset: number | undefined) => ({ file, ...position(located, offset ?? 0) });
  // Mappings and lists as keys ({a: 1}: 2) have no place in a config or frontmatter (and the YAML library would turn
  // them into text with a warning on the console); nor has nesting deeper than any config needs, which its
  // readers would follow until the stack runs out.
  const shapes: SourceProblem[] = [];
  if (!doc.errors.length) {
    let tooDeep = false;
    const depthOf = (node: unknown, depth: number): void => {
      if (tooDeep || shapes.length > 20) return;
      if (depth > MAX_YAML_DEPTH) {
        tooDeep = true;
        shapes.push({ ...at((node as Node).range?.[0]), message: `YAML nested more than ${MAX_YAML_DEPTH} levels deep; flatten it` });
        return;
      }
      if (isMap(node)) {
        for (const pair of node.items) {
          if (isMap(pair.key) || isSeq(pair.key)) shapes.push({ ...at((pair.key as Node).range?.[0]), message: `a key must be plain text, not a ${isMap(pair.key) ? 'mapping' : 'list'}` });
          depthOf(pair.value, depth + 1);
        }
      } else if (isSeq(node)) for (const item of node.items) depthOf(item, depth + 1);
    };
    depthOf(doc.contents, 0);
    if (shapes.length) return { located, problems: shapes };
  }
  // After the first syntax error the parser's later errors are mostly echoes of it,
  // so only the first one is reported; the writer fixes it and sees the next.
  const problems: SourceProblem[] = [...doc.errors.slice(0, 1), ...doc.warnings].map((e) => {
    // (Nesting that ran the parser out of stack is placed where it gets too deep, not where the stack ran out.)
    const offset = /call stack/i.test(e.message) ? (tooDeepAt(source) ?? e.pos[0]) : e.pos[0];
    const message =
      e.code === 'MULTIPLE_DOCS'
        ? 'a second YAML document starts here ("---"): the file holds one; remove the line, or join the two'
        : /call stack/i.test(e.message)
          ? `YAML nested too deeply to be read (a config needs under ${MAX_YAML_DEPTH} levels); flatten it`
          : `YAML ${e.name === 'YAMLWarning' ? 'warning' : 'syntax error'}: ${firstLine(e.message)}`;
    return { ...at(offset), message };
  });
  return { located, problems };
}

/**
 * The document's value. The YAML library refuses a document whose aliases
 * expand past its limit (a "billion laughs" bomb): that is a problem of the
 * file, reported at its first alias, not a crash.
 */
export function yamlValue(located: LocatedYaml): unknown {
  try {
    return located.doc.toJS();
  } catch (e) {
    if (!(e instanceof ReferenceError) || !/alias/i.test(e.message)) throw e;
    let first: number | undefined;
    visit(located.doc, {
      Alias(_key, node) {
        first = node.range?.[0];
        return visit.BREAK;
      },
    });
    const message = 'YAML aliases expand to too much data (an alias that repeats other aliases many times over); write the values out instead';
    throw new InputError([{ file: located.file, ...position(located, first ?? 0), message }]);
  }
}

/** Where flow brackets ([ and {, outside quotes) first nest deeper than MAX_YAML_DEPTH, as an offset. */
function tooDeepAt(source: string): number | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (quote) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = undefined;
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '[' || c === '{') {
      if (++depth > MAX_YAML_DEPTH) return i;
    } else if ((c === ']' || c === '}') && depth > 0) depth--;
  }
  return undefined;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

/**
 * Line and column of the value at `path`; when `key` is set, of the key itself
 * (an unknown key is reported where its name is written). Falls back to the
 * deepest ancestor that exists, so a missing field points at its parent.
 */
export function locate(y: LocatedYaml, path: readonly PropertyKey[], key = false): { line: number; column: number } {
  let node: unknown = y.doc.contents;
  let best: { range?: [number, number, number] | null } | null = node as Node;
  for (let i = 0; i < path.length; i++) {
    const part = path[i];
    const last = i === path.length - 1;
    if (isMap(node)) {
      const pair = node.items.find((p) => isPair(p) && isScalar(p.key) && p.key.value === part);
      if (!pair) break;
      // The key itself when asked for, or when its value has no place in the text (an empty value).
      node = pair.value;
      if ((last && key) || !(node as Node | null)?.range) {
        best = pair.key as Node;
        break;
      }
      best = node as Node;
    } else if (isSeq(node) && typeof part === 'number') {
      const item = node.items[part];
      if (!item) break;
      node = item;
      if ((item as Node).range) best = item as Node;
    } else break;
  }
  return position(y, best?.range?.[0] ?? 0);
}

/** Line (below the document's first, see lineOffset) and column of an offset in the source. */
function position(y: Pick<LocatedYaml, 'lineCounter' | 'lineOffset'>, offset: number): { line: number; column: number } {
  const { line, col } = y.lineCounter.linePos(offset);
  return { line: line + y.lineOffset, column: col };
}
