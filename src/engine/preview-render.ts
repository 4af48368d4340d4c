import { join, sep } from 'node:path';
import type { RenderContext } from '../../templates/types.js';
import { searchInputs, searchOrder, searchPlaces } from '../build/parts.js';
import { createSearchIndexer } from '../build/search-indexer.js';
import { treeViews } from '../build/trees.js';
import type { Site, SitePage } from '../site/model.js';

/** Output files as URL paths ("/guides/index.html") with their contents. */
export type FileList = Array<[path: string, contents: string | Uint8Array]>;

/** The preview serves the site at the root. */
export const BASE = '/';

/** "guides/index.html" or "/assets/x.js" → "/guides/index.html", "/assets/x.js". */
export function urlPath(path: string): string {
  return '/' + path.split(sep).join('/').replace(/^\/+/, '');
}

/** Contents the preview does not know (files served before this worker started); never equal to anything. */
export const UNKNOWN = new Uint8Array(0);

export function sameContents(a: string | Uint8Array, b: string | Uint8Array): boolean {
  if (a === UNKNOWN || b === UNKNOWN) return false;
  if (typeof a === 'string' || typeof b === 'string') return a === b;
  return Buffer.compare(a, b) === 0;
}

/** The search index of the pages, as `docs build` writes it (no files when search is hosted). */
export function searchIndexFiles(site: Site): FileList {
  if (site.config.search.provider !== 'local') return [];
  // One index per language and version (see src/build/trees.ts), of the pages written in it.
  return treeViews(site).flatMap((view) => {
    const indexer = createSearchIndexer();
    const inputOf = searchInputs(searchPlaces(view.config, BASE));
    for (const page of searchOrder(view)) {
      const input = !page.fallback && inputOf(page);
      if (input) indexer.add(input);
    }
    const prefix = view.trees?.[view.tree ?? 0]!.prefix ?? '';
    return indexer.files().map(({ path, content }): [string, Uint8Array] => [urlPath(join(prefix, 'search-index', path)), content]);
  });
}

/** A page's document in its chrome (renderPage, with the Layout of the templates folder). */
export type PageRenderer = (ctx: RenderContext, page: SitePage) => string;
