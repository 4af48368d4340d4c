import { parsers } from '../config/parsers.js';
import type { Frontmatter, SplitSource } from '../config/frontmatter-schema.js';

export type { Frontmatter, SplitSource };
export { splitSource } from '../config/split-source.js';

/**
 * Places of frontmatter fields, for problems found later (a related link): the
 * YAML is parsed again when one is asked for (rare), so that no page keeps
 * its parsed document, and a page whose frontmatter came from the cache was
 * never parsed at all.
 */
export function lazyLocateField(yaml: string, file: string): SplitSource['locateField'] {
  return (path) => parsers().locate(parsers().parseLocatedYaml(yaml, file, 1).located, path);
}

/** Reads and validates the frontmatter of a cut source; throws InputError with positions in `file` (and ParsersNotLoaded, see src/config/parsers.ts). */
export function readFrontmatter(yaml: string, file: string): Pick<SplitSource, 'frontmatter' | 'locateField'> {
  return { frontmatter: parsers().readFrontmatter(yaml, file), locateField: lazyLocateField(yaml, file) };
}

