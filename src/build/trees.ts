import type { RenderContext } from '../../templates/types.js';
import type { SiteConfig } from '../config/schema.js';
import type { PageHooks } from '../content/load.js';
import type { SearchPlace } from '../content/search-sections.js';
import { sectionOfPage } from '../site/autogenerate.js';
import { siteIdOf } from '../site/blog.js';
import { withBase } from '../site/links.js';
import { isCurrent } from '../site/tree-links.js';
import { routeOf, type Site, type SitePage } from '../site/model.js';
import { treeConfig, treeOfId, treeSpecs } from '../site/trees.js';
import { treeOwnFiles, type Kept } from './parts.js';
import type { SearchIndexer } from './search-indexer.js';

/*
 * The build of a site in several languages or versions (see src/site/trees.ts): one search index
 * per tree (under its prefix: /zh/search-index/), one render context per tree (its language, its
 * sections and navigation), and the files each tree has of its own. A site of one tree has one of
 * each, as before.
 */

/** The views of the site to render, one per tree (the site itself when it has one tree). */
export const treeViews = (site: Site): Site[] => site.trees?.map((tree) => tree.site) ?? [site];

/** The search indexers of a site, one per tree, by the tree's prefix. */
export type Indexers = Array<{ prefix: string; indexer: SearchIndexer }>;

/**
 * Where the search index shows a page, by its id (nothing for the 404 page). It needs only the
 * config, so pages can be indexed before the site model exists, and on the thread that renders them.
 */
function searchPlaces(config: SiteConfig, base: string): (id: string) => SearchPlace | null {
  const sectionOf = sectionOfPage(config);
  return (pageId) => {
    if (pageId === '404') return null;
    // A blog post is at /<path>/<slug>/, not at the address of its file (see src/site/blog.ts).
    const id = siteIdOf(config, pageId);
    return {
      url: withBase(base, routeOf(id)),
      section: id !== pageId ? config.blog!.title : config.sections[sectionOf(pageId)]?.title,
      slug: id.slice(id.lastIndexOf('/') + 1),
    };
  };
}

/** A search indexer per tree, each fed the pages of its tree (a language's copies of missing pages are not indexed). */
export function treeSearch(config: SiteConfig, base: string, make: (prefix: string) => SearchIndexer): { hooks: PageHooks; indexers: Indexers } {
  const specs = treeSpecs(config);
  const indexers = (specs?.map((spec) => spec.prefix) ?? ['']).map((prefix) => ({ prefix, indexer: make(prefix) }));
  const configs = specs ? specs.map((spec) => treeConfig(config, spec)) : [config];
  const places = configs.map((c) => searchPlaces(c, base));
  const treeOf = (id: string) => (specs ? treeOfId(specs, id) : 0);
  return {
    indexers,
    hooks: {
      page(page, fromCache, entry) {
        const tree = treeOf(page.id);
        const place = places[tree]!(page.id);
        if (!place) return;
        // The body keeps its link placeholders (the index holds text, not links). A page from the render cache
        // goes without it: the indexer reads it from there if it needs it.
        const html = fromCache ? undefined : page.html;
        indexers[tree]!.indexer.add({ ...place, title: page.frontmatter.title, html, sourceKey: page.sourceKey, entry });
      },
      searchPlace: (id) => places[treeOf(id)]!(id),
    },
  };
}

/**
 * The files of each tree but the first (whose files are siteFiles'): its printable sections, and
 * for a language of the current version its llms.txt and llms-full.txt.
 */
export function* treeFiles(contexts: RenderContext[], markdownOf: (page: SitePage) => string, kept: Kept[]) {
  for (let i = 1; i < contexts.length; i++) {
    const tree = contexts[i]!.site.trees![i]!;
    yield* treeOwnFiles(contexts[i]!, markdownOf, kept[i], isCurrent(tree) ? tree.prefix : undefined);
  }
}
