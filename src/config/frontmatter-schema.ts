import { z } from 'zod';
import { nonBlank } from './text.js';
import { InputError, type SourceProblem } from '../shared/errors.js';
import { zodProblems } from './validate.js';
import { yamlValue, locate, parseLocatedYaml } from './yaml-positions.js';
import { splitSource } from './split-source.js';

/* The frontmatter's schema and its reading (loaded with the parsers: see src/config/parsers.ts). */

export const FrontmatterSchema = z.strictObject({
  title: nonBlank().describe('Page title: the h1, the sidebar entry and the <title>.'),
  group: z
    .string()
    .min(1)
    .default('-')
    .describe('Sidebar group heading; "-" (the default) means no heading.'),
  description: nonBlank().optional().describe('Meta description and search summary.'),
  image: z
    .string()
    .regex(/^(https?:\/\/[^\s"'<>\\]+|\/[^\s"'<>\\?#]+\.(png|jpe?g|webp|gif))$/i, 'expected a PNG, JPEG, WebP or GIF file of static/ written from there (such as /images/social.png), or an absolute https:// URL')
    .optional()
    .describe('The picture of link previews of this page (og:image), instead of site.image.'),
  contributors: z.array(z.string().regex(/^[A-Za-z0-9-]+$/, 'expected a GitHub user name')).default([]),
  related: z
    .array(z.strictObject({ title: nonBlank(), url: nonBlank() }))
    .default([])
    .describe('"Further reading" links at the end of the page.'),
  repo: z
    .string()
    .regex(/^https?:\/\//, 'expected an absolute URL')
    .optional()
    .describe('Source repository of the documented package ("Jump to repository").'),
  hero: z
    .strictObject({
      title: nonBlank().optional().describe('The big title; defaults to the page title.'),
      tagline: nonBlank().optional().describe('The sentence under it.'),
      actions: z
        .array(
          z.strictObject({
            text: nonBlank().describe('Button text.'),
            url: nonBlank().describe('Where it goes: a site path or an external URL.'),
            primary: z.boolean().optional().describe('Drawn as the main action.'),
          }),
        )
        .default([])
        .describe('Buttons under the tagline.'),
    })
    .optional()
    .describe('The hero of the landing home page (theme.home: landing; content/index.md only).'),
  features: z
    .array(
      z.strictObject({
        title: nonBlank().describe('Card title.'),
        text: nonBlank().describe('Card text.'),
        url: nonBlank().optional().describe('Where the card title links.'),
      }),
    )
    .optional()
    .describe('Feature cards of the landing home page (theme.home: landing; content/index.md only).'),
});
export type Frontmatter = z.infer<typeof FrontmatterSchema>;

/** A page's source with its frontmatter read. */
export interface SplitSource {
  frontmatter: Frontmatter;
  body: string;
  /** Lines before the body (frontmatter plus its fences); add to body line numbers. */
  bodyLineOffset: number;
  /** 1-based line of the first frontmatter field, for problems found later (e.g. a related link). */
  locateField(path: readonly PropertyKey[]): { line: number; column: number };
}

/** Reads and validates the frontmatter of a cut source; throws InputError with positions in `file`. */
export function readFrontmatter(yaml: string, file: string): Frontmatter {
  const { located, problems } = parseLocatedYaml(yaml, file, 1);
  if (problems.length) throw new InputError(problems);
  const data = yamlValue(located) ?? {};
  const result = FrontmatterSchema.safeParse(data);
  if (!result.success) {
    const list: SourceProblem[] = zodProblems(result.error.issues, located).map((p) => ({
      ...p,
      path: p.path === '(root)' ? 'frontmatter' : `frontmatter.${p.path}`,
    }));
    throw new InputError(list);
  }
  // The parsed document is not kept (it is many times the size of its text): places are looked up again when asked for.
  return result.data;
}

/** Splits and validates a page's frontmatter; throws InputError with positions in `file`. */
export function splitFrontmatter(source: string, file: string): SplitSource {
  const { yaml, body, bodyLineOffset } = splitSource(source, file);
  return { frontmatter: readFrontmatter(yaml, file), locateField: (path) => locate(parseLocatedYaml(yaml, file, 1).located, path), body, bodyLineOffset };
}
