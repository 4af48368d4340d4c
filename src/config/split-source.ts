import { InputError } from '../shared/errors.js';

const FENCE = /^---[ \t]*\r?\n/;

/** A source cut at its frontmatter fences, before the frontmatter is read. */
export interface RawSource {
  /** The YAML between the fences. */
  yaml: string;
  body: string;
  /** Lines before the body (frontmatter plus its fences); add to body line numbers. */
  bodyLineOffset: number;
}

/** Cuts a page's source at its frontmatter fences (cheap: the YAML is not read); throws InputError. */
export function splitSource(source: string, file: string): RawSource {
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
