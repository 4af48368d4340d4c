import { z } from 'zod';
import { InputError, type SourceProblem } from '../errors.js';
import { zodProblems } from '../validate.js';
import { locate, parseLocatedYaml } from '../yaml-positions.js';

export const FrontmatterSchema = z.strictObject({
  title: z.string().min(1).describe('Page title: the h1, the sidebar entry and the <title>.'),
  group: z
    .string()
    .min(1)
    .default('-')
    .describe('Sidebar group heading; "-" (the default) means no heading.'),
  description: z.string().min(1).optional().describe('Meta description and search summary.'),
  contributors: z.array(z.string().regex(/^[A-Za-z0-9-]+$/, 'expected a GitHub user name')).default([]),
  related: z
    .array(z.strictObject({ title: z.string().min(1), url: z.string().min(1) }))
    .default([])
    .describe('"Further reading" links at the end of the page.'),
  repo: z
    .string()
    .regex(/^https?:\/\//, 'expected an absolute URL')
    .optional()
    .describe('Source repository of the documented package ("Jump to repository").'),
});
export type Frontmatter = z.infer<typeof FrontmatterSchema>;

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

/** Reads and validates the frontmatter of a cut source; throws InputError with positions in `file`. */
export function readFrontmatter(yaml: string, file: string): Pick<SplitSource, 'frontmatter' | 'locateField'> {
  const { located, problems } = parseLocatedYaml(yaml, file, 1);
  if (problems.length) throw new InputError(problems);
  const data = located.doc.toJS() ?? {};
  const result = FrontmatterSchema.safeParse(data);
  if (!result.success) {
    const list: SourceProblem[] = zodProblems(result.error.issues, located).map((p) => ({
      ...p,
      path: p.path === '(root)' ? 'frontmatter' : `frontmatter.${p.path}`,
    }));
    throw new InputError(list);
  }
  // The parsed document is not kept (it is many times the size of its text): places are looked up again when asked for.
  return { frontmatter: result.data, locateField: lazyLocateField(yaml, file) };
}

/**
 * Places of frontmatter fields, for problems found later (a related link): the
 * YAML is parsed again when one is asked for (rare), so that no page keeps
 * its parsed document, and a page whose frontmatter came from the cache was
 * never parsed at all.
 */
export function lazyLocateField(yaml: string, file: string): SplitSource['locateField'] {
  return (path) => locate(parseLocatedYaml(yaml, file, 1).located, path);
}

/** Splits and validates a page's frontmatter; throws InputError with positions in `file`. */
export function splitFrontmatter(source: string, file: string): SplitSource {
  const { yaml, body, bodyLineOffset } = splitSource(source, file);
  return { ...readFrontmatter(yaml, file), body, bodyLineOffset };
}
