import { InputError } from '../errors.js';
import { parsers } from '../parsers.js';
import type { Frontmatter } from './frontmatter-schema.js';

export type { Frontmatter };

export interface SplitSource {
  frontmatter: Frontmatter;
  body: string;
  /** Lines before the body (frontmatter plus its fences); add to body line numbers. */
  bodyLineOffset: number;
  /** 1-based line of the first frontmatter field, for problems found later (e.g. a related link). */
  locateField(path: readonly PropertyKey[]): { line: number; column: number };
}

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

/**
 * Places of frontmatter fields, for problems found later (a related link): the
 * YAML is parsed again when one is asked for (rare), so that no page keeps
 * its parsed document, and a page whose frontmatter came from the cache was
 * never parsed at all.
 */
export function lazyLocateField(yaml: string, file: string): SplitSource['locateField'] {
  return (path) => parsers().locate(parsers().parseLocatedYaml(yaml, file, 1).located, path);
}

/** Reads and validates the frontmatter of a cut source; throws InputError with positions in `file` (and ParsersNotLoaded, see src/parsers.ts). */
export function readFrontmatter(yaml: string, file: string): Pick<SplitSource, 'frontmatter' | 'locateField'> {
  return { frontmatter: parsers().readFrontmatter(yaml, file), locateField: lazyLocateField(yaml, file) };
}

