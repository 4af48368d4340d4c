import { withBase } from './links.js';
import type { Site, SiteTree } from './model.js';
import { counterpart } from './trees.js';

/*
 * What the checks of a site in several languages or versions add (see src/site/trees.ts): the
 * files each tree has of its own, and the links of the pages a language copies from its default
 * language, which are checked once, in the page they were written in.
 */

/** The site as the link checker sees it: every page but the copies (the byUrl of all, for the targets). */
export function linkingView(site: Site): Site {
  return site.trees ? { ...site, pages: site.pages.filter((page) => !page.fallback) } : site;
}

/** Whether a tree's pages are in the sitemap and have an llms.txt: those of the current version. */
export const isCurrent = (tree: SiteTree) => !tree.version || tree.version.current;

/** The files each tree but the first has (link targets): its printable sections, and llms.txt for a language of the current version. */
export function treeFiles(site: Site): string[] {
  const files: string[] = [];
  for (const tree of site.trees?.slice(1) ?? []) {
    if (site.config.site.printable !== false) for (const section of tree.site.sections) if (section.pages.length) files.push(`${section.url}printable/`);
    if (isCurrent(tree)) files.push(`/${tree.prefix}llms.txt`, `/${tree.prefix}llms-full.txt`);
  }
  return files;
}

/**
 * The hrefs of each copied page: those of its original, with a link to a page of the original's
 * tree made a link to the same page in the copy's tree when that has one (a reader of /zh/ stays in /zh/).
 */
export function fallbackHrefs(site: Site, base: string): void {
  if (!site.trees) return;
  for (const page of site.pages) {
    const original = page.fallback && site.byUrl.get(page.fallback);
    if (!original) continue;
    const from = site.trees[original.tree ?? 0]!;
    const to = site.trees[page.tree ?? 0]!;
    page.hrefs = original.hrefs.map((href) => moved(site, base, href, from, to) ?? href);
  }
}

function moved(site: Site, base: string, href: string, from: SiteTree, to: SiteTree): string | undefined {
  if (!href.startsWith(base)) return undefined;
  const cut = href.search(/[?#]/);
  const path = '/' + (cut < 0 ? href : href.slice(0, cut)).slice(base.length);
  const target = site.byUrl.get(path);
  if (!target || (target.tree ?? 0) !== from.index) return undefined;
  const same = counterpart(site, target, to).page;
  return same ? withBase(base, same.url) + (cut < 0 ? '' : href.slice(cut)) : undefined;
}
