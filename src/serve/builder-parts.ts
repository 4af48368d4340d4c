import { join, relative, resolve, sep } from 'node:path';
import { searchInputs, searchOrder } from '../build/parts.js';
import { createSearchIndexer } from '../build/search.js';
import { treeViews } from '../build/trees.js';
import { InputError, type SourceProblem } from '../shared/errors.js';
import { duplicatePage, pageIdOf, type SourcePage, type UnbuiltPage } from '../content/load.js';
import type { Site } from '../site/model.js';
import type { BuildResult, FileList } from './protocol.js';

/* Small pieces of the incremental build of `docs serve` (src/serve/builder.ts). */

/** A Markdown file as the builder last read it: its text's hash, and its page or its problems. */
export interface Source {
  hash: string;
  /** The Markdown body as written (for llms-full.txt), read with the page. */
  markdown?: string;
  page?: SourcePage;
  problems: SourceProblem[];
  /** A page rendered with problems: its links are checked all the same. */
  unbuilt?: UnbuiltPage;
}

/** The preview serves the site at the root. */
export const BASE = '/';

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
  // One index per language and version (see src/build/trees.ts), of the pages written in it.
  return treeViews(site).flatMap((view) => {
    const indexer = createSearchIndexer();
    const inputOf = searchInputs(view.config, BASE);
    for (const page of searchOrder(view)) {
      const input = !page.fallback && inputOf(page);
      if (input) indexer.add(input);
    }
    const prefix = view.trees?.[view.tree ?? 0]!.prefix ?? '';
    return indexer.files().map(({ path, content }): [string, Uint8Array] => [urlPath(join(prefix, 'search-index', path)), content]);
  });
}

export function failed(problems: SourceProblem[]): BuildResult {
  const error = new InputError(problems);
  return { ok: false, problems: error.problems, message: error.message };
}

/** The pages of the sources in the order `loadPages` returns them, with the same problems for duplicates and failures. */
export function collectPages(sources: ReadonlyMap<string, Source>, root: string, contentDir: string) {
  const pages: SourcePage[] = [];
  const problems: SourceProblem[] = [];
  const failedIds = new Set<string>();
  const unbuilt: UnbuiltPage[] = [];
  const seen = new Map<string, string>();
  for (const file of [...sources.keys()].sort()) {
    const id = pageIdOf(file)!;
    const displayPath = relative(root, join(contentDir, file)).split(sep).join('/');
    const duplicate = duplicatePage(seen, id, displayPath);
    if (duplicate) {
      problems.push(duplicate);
      continue;
    }
    const source = sources.get(file)!;
    if (source.page) {
      pages.push(source.page);
    } else {
      problems.push(...source.problems);
      failedIds.add(id);
      if (source.unbuilt) unbuilt.push(source.unbuilt);
    }
  }
  return { pages, problems, failed: failedIds, unbuilt };
}
