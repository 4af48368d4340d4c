import { InputError } from '../shared/errors.js';

const FENCE = /^---[ \t]*\r?\n/;

/** A source cut at its frontmatter fences, before the frontmatter is read. */
export type RawSource = ReturnType<typeof splitSource>;

/**
 * Cuts a page's source at its frontmatter fences (cheap: the YAML is not read) into the YAML between them, the
 * body, and the lines before the body (the frontmatter and its fences: add them to the body's line numbers); throws InputError.
 */
export function splitSource(source: string, file: string) {
  const open = FENCE.exec(source);
  if (!open) {
    throw new InputError([{ file, line: 1, column: 1, message: 'missing frontmatter: the file must start with a "---" line, then at least "title: …", then "---"' }]);
  }
  const rest = source.slice(open[0].length);
  const close = /^---[ \t]*(\r?\n|$)/m.exec(rest);
  if (!close) {
    throw new InputError([{ file, line: 1, column: 1, message: 'frontmatter is not closed: add a "---" line after it' }]);
  }
  const yaml = rest.slice(0, close.index);
  const body = rest.slice(close.index + close[0].length);
  const bodyLineOffset = source.slice(0, source.length - body.length).split('\n').length - 1;
  return { yaml, body, bodyLineOffset };
}
