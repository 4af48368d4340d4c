import { join, sep } from 'node:path';
import type { RenderContext } from '../../templates/types.js';
import { createSearchIndexer } from '../build/search-indexer.js';
import { treeSearch } from '../build/trees.js';
import type { SiteConfig } from '../config/schema.js';
import type { SourcePage } from '../content/load.js';
import type { SitePage } from '../site/model.js';

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

/**
 * The search index, as `docs build` writes it (no files when search is hosted): made of the config as loaded
 * and the pages as read, in file order, which a build feeds its indexers (no blog index page, no copy of a
 * page in a language that lacks it, a blog post under its file's id).
 */
export function searchIndexFiles(config: SiteConfig, pages: SourcePage[]): FileList {
  if (config.search.provider !== 'local') return [];
  const { hooks, indexers } = treeSearch(config, BASE, () => createSearchIndexer());
  for (const page of pages) hooks.page(page, false);
  return indexers.flatMap(({ prefix, indexer }) =>
    indexer.files().map(({ path, content }): [string, Uint8Array] => [urlPath(join(prefix, 'search-index', path)), content]),
  );
}

/** A page's document in its chrome (renderPage, with the Layout of the templates folder). */
export type PageRenderer = (ctx: RenderContext, page: SitePage) => string;
