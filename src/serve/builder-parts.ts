import { createHash } from 'node:crypto';
import { join, relative, resolve, sep } from 'node:path';
import { searchInputs, searchOrder } from '../build/build.js';
import { createSearchIndexer } from '../build/search.js';
import { InputError, type SourceProblem } from '../shared/errors.js';
import type { Site } from '../site/model.js';
import type { BuildResult, FileList } from './protocol.js';

/* Small pieces of the incremental build of `docs serve` (src/serve/builder.ts). */

/** The preview serves the site at the root. */
export const BASE = '/';

export const digest = (value: unknown) => createHash('sha1').update(typeof value === 'string' ? value : JSON.stringify(value)).digest('base64url');

/** "guides/index.html" or "/assets/x.js" → "/guides/index.html", "/assets/x.js". */
export function urlPath(path: string): string {
  return '/' + path.split(sep).join('/').replace(/^\/+/, '');
}

/** Contents the builder does not know (files served before this worker started); never equal to anything. */
export const UNKNOWN = new Uint8Array(0);

export function sameContents(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (a === UNKNOWN || b === UNKNOWN) return false;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return Buffer.compare(a, b) === 0;
}

/** esbuild's errors (a syntax error in a client script or stylesheet) as located problems. */
export function esbuildProblems(e: unknown, root: string, templatesDir: string): SourceProblem[] {
  const errors = (e as { errors?: Array<{ text: string; location?: { file: string; line: number; column: number } | null }> }).errors;
  if (!Array.isArray(errors) || !errors.length) throw e;
  return errors.map((m) => ({
    file: m.location ? relative(root, resolve(m.location.file)).split(sep).join('/') : relative(root, templatesDir),
    line: m.location?.line ?? 1,
    column: (m.location?.column ?? 0) + 1,
    message: m.text,
  }));
}

/** The search index of the pages, as `docs build` writes it (no files when search is hosted). */
export async function searchIndexFiles(site: Site): Promise<FileList> {
  if (site.config.search.provider !== 'local') return [];
  const indexer = createSearchIndexer();
  const inputOf = searchInputs(site.config, BASE);
  for (const page of searchOrder(site)) {
    const input = inputOf(page);
    if (input) indexer.add(input);
  }
  return indexer.files().map(({ path, content }): [string, Uint8Array] => [urlPath(join('search-index', path)), content]);
}

export function failed(problems: SourceProblem[]): BuildResult {
  const error = new InputError(problems);
  return { ok: false, problems: error.problems, message: error.message };
}
