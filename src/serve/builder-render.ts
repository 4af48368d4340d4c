import { join, relative, sep } from 'node:path';
import type { RenderContext } from '../../templates/types.js';
import type { Asset, ClientAsset } from '../build/assets.js';
import { renderContext, siteFiles } from '../build/parts.js';
import { treeFiles, treeViews } from '../build/trees.js';
import { pageFile, type SidebarSection, type Site, type SitePage } from '../site/model.js';
import type { loadComponents } from '../theme/components.js';
import { outputKeys } from '../build/keys.js';
import { BASE, urlPath, type Source } from './builder-parts.js';
import type { FileList } from './protocol.js';

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

/** What the builder keeps between builds that rendering reads (and, for printables, updates). */
export interface RenderState {
  renderer: Renderer;
  templatesDir: string;
  root: string;
  contentDir: string;
  js: ClientAsset;
  updated: Map<string, string>;
  /** The pages the last build rendered, by id. */
  pages: ReadonlyMap<string, Rendered>;
  search: FileList;
  printables: Map<string, Rendered>;
  sources: ReadonlyMap<string, Source>;
  /** During the first build: lets a page asked for meanwhile be rendered. */
  pause?: () => Promise<void>;
}

export async function renderOutput(state: RenderState, site: Site, css: Asset, own: ReturnType<typeof loadComponents>) {
  const { renderer, templatesDir } = state;
  // One render context per language and version (see src/build/trees.ts).
  const contexts = treeViews(site).map((view) => renderContext(view, BASE, { js: state.js, css }, state.updated, own));
  const { ctx } = contexts[0]!;
  const output = new Map<string, string | Uint8Array>();
  for (const [path, contents] of contexts.flatMap((c) => c.files)) output.set(urlPath(path), contents);

  // The same keys as `docs build` (src/build/keys.ts): a page is rendered again exactly when a build would; one set per tree.
  const allKeys = contexts.map((c) => outputKeys(c.ctx));
  const keys = allKeys[0]!;
  const pages = new Map<string, Rendered>();
  let rendered = 0;
  for (const page of site.pages) {
    const tree = page.tree ?? 0;
    const key = allKeys[tree]!.page(page);
    let entry = state.pages.get(page.id);
    if (entry?.key !== key) {
      entry = { key, html: renderer.page(contexts[tree]!.ctx, page) };
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
  // The text the pages were made from, not what is on disk now (a save may be waiting for the next build).
  const markdownOf = (page: SitePage) => state.sources.get(relative(state.contentDir, join(state.root, page.sourcePath)).split(sep).join('/'))?.markdown ?? '';
  for (const [path, contents] of siteFiles(ctx, state.root, templatesDir, printable, markdownOf)) output.set(urlPath(path), contents);
  // (The other trees' printable sections and llms.txt, made again at each build: only a site in several languages or versions has them.)
  for (const [path, contents] of treeFiles(contexts.map((c) => c.ctx), markdownOf, allKeys.map((k) => ({ keys: k, keep: () => false })))) output.set(urlPath(path), contents);
  return { output, ctx, rendered, stalePrintables, pages };
}
