import { join, sep } from 'node:path';
import type { RenderContext } from '../../templates/types.js';
import { searchInputs, searchOrder, searchPlaces, siteFiles } from '../build/parts.js';
import { createSearchIndexer } from '../build/search-indexer.js';
import { treeFiles, treeViews } from '../build/trees.js';
import { pageFile, type SidebarSection, type Site, type SitePage } from '../site/model.js';
import type { Rendering } from './engine.js';

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
export async function searchIndexFiles(site: Site): Promise<FileList> {
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

/*
 * The files of the preview's build: every page rendered again only when its key changed (the keys of
 * `docs build`'s output files), the printable sections, the generated files.
 */

export interface Renderer {
  page(ctx: RenderContext, page: SitePage): string;
  printable(ctx: RenderContext, site: Site, section: SidebarSection): string;
}

export interface Rendered {
  key: string;
  html: string;
}

/** A printable section whose HTML is out of date, with the key to render it for. */
export interface StalePrintable {
  section: SidebarSection;
  key: string;
}

/** What the preview keeps between builds that rendering reads (and, for printables, updates). */
export interface RenderState {
  renderer: Renderer;
  templatesDir: string;
  root: string;
  rendering: Rendering;
  /** The pages the last build rendered, by id. */
  pages: ReadonlyMap<string, Rendered>;
  search: FileList;
  printables: Map<string, Rendered>;
  /** During the first build: lets a page asked for meanwhile be rendered. */
  pause?: () => Promise<void>;
}

export async function renderOutput(state: RenderState, site: Site) {
  const { renderer, templatesDir, rendering } = state;
  const { contexts, markdownOf } = rendering;
  const { ctx, keys } = contexts[0]!;
  const output = new Map<string, string | Uint8Array>();
  for (const [path, contents] of contexts.flatMap((c) => c.files)) output.set(urlPath(path), contents);

  // The same keys as `docs build` (src/build/keys.ts): a page is rendered again exactly when a build would; one set per tree.
  const pages = new Map<string, Rendered>();
  let rendered = 0;
  for (const page of site.pages) {
    const tree = contexts[page.tree ?? 0]!;
    const key = tree.keys.page(page);
    let entry = state.pages.get(page.id);
    if (entry?.key !== key) {
      entry = { key, html: renderer.page(tree.ctx, page) };
      if (++rendered % 16 === 0 && state.pause) await state.pause();
    }
    pages.set(page.id, entry);
    output.set(urlPath(pageFile(page)), entry.html);
  }
  for (const [path, contents] of state.search) output.set(path, contents);

  const stalePrintables: StalePrintable[] = [];
  const printable = (section: SidebarSection) => {
    const key = keys.printable(section);
    const cached = state.printables.get(section.url);
    if (cached?.key === key) return cached.html;
    if (cached) {
      stalePrintables.push({ section, key });
      return cached.html;
    }
    const html = renderer.printable(ctx, site, section);
    state.printables.set(section.url, { key, html });
    return html;
  };
  for (const [path, contents] of siteFiles(ctx, state.root, templatesDir, printable, markdownOf)) output.set(urlPath(path), contents);
  // (The other trees' printable sections and llms.txt, made again at each build: only a site in several languages or versions has them.)
  for (const [path, contents] of treeFiles(contexts.map((c) => c.ctx), markdownOf, contexts.map((c) => ({ keys: c.keys, keep: () => false })))) output.set(urlPath(path), contents);
  return { output, ctx, rendered, stalePrintables, pages };
}
