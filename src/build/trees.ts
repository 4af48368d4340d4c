import type { RenderContext } from '../../templates/types.js';
import type { SiteConfig } from '../config/schema.js';
import type { PageHooks } from '../content/load.js';
import { isCurrent } from '../site/tree-links.js';
import type { Site, SitePage } from '../site/model.js';
import { treeConfig, treeOfId, treeSpecs } from '../site/trees.js';
import { searchInputs, searchPlaces, treeOwnFiles, type Kept } from './parts.js';
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

/** A search indexer per tree, each fed the pages of its tree (a language's copies of missing pages are not indexed). */
export function treeSearch(config: SiteConfig, base: string, make: (prefix: string) => SearchIndexer): { hooks: PageHooks; indexers: Indexers } {
  const specs = treeSpecs(config);
  const indexers = (specs?.map((spec) => spec.prefix) ?? ['']).map((prefix) => ({ prefix, indexer: make(prefix) }));
  const configs = specs ? specs.map((spec) => treeConfig(config, spec)) : [config];
  const places = configs.map((c) => searchPlaces(c, base));
  const inputs = places.map((placeOf) => searchInputs(placeOf));
  const treeOf = (id: string) => (specs ? treeOfId(specs, id) : 0);
  return {
    indexers,
    hooks: {
      page(page, fromCache, entry) {
        const tree = treeOf(page.id);
        const input = inputs[tree]!(page);
        if (!input) return;
        // A page from the render cache goes without its body: the indexer reads it from there if it needs it.
        if (fromCache) delete input.html;
        input.entry = entry;
        indexers[tree]!.indexer.add(input);
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
