import { createHash } from 'node:crypto';
import type { RenderContext } from '../../templates/types.js';
import { toolVersion } from '../shared/tool-version.js';
import type { SidebarSection, SitePage } from '../site/model.js';

/*
 * Keys of the files a build makes: a hash of everything a file is made
 * from, so that a file whose key has not changed since the last build can
 * be kept as it is (see OutputWriter.keep) without rendering it again.
 *
 * A page is made from the tool's code, the site as every page sees it (the
 * config, the base path, the asset URLs, the outline of the sections), its own
 * section (anchors, previous and next) and the page itself: its source
 * (through the render cache key of its Markdown), its frontmatter, anchors and
 * resolved links, its last-updated date. A printable
 * section and llms-full.txt are made from their pages. The tests compare a
 * build that kept files with one that made everything, after each kind of edit.
 */

const sha = (...parts: string[]) => {
  const hash = createHash('sha256');
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex');
};

export type OutputKeys = ReturnType<typeof outputKeys>;

/** The keys of one build's files (see above). */
export function outputKeys(ctx: RenderContext) {
  const { site } = ctx;
  // Every page shows the outline of every section (titles and page titles); only the pages of a
  // section show the rest of it (its pages' anchors in the sidebar, previous and next).
  const shared = sha(
    toolVersion(),
    ctx.base,
    JSON.stringify(site.config),
    JSON.stringify(ctx.assets),
    JSON.stringify(site.sections.map((s) => [s.title, s.url, s.pages.map((p) => [p.url, p.title])])),
    // (A site in several languages or versions: its menus and alternates name the pages of every tree.)
    ...(site.trees ? [site.trees.map((tree) => tree.site.pages.map((p) => (p.fallback ? `${p.url}*` : p.url)).join(' ')).join('\n')] : []),
  );
  const sectionKeys = site.sections.map((s) => sha(JSON.stringify(s)));
  const pageKeys = new Map<SitePage, string>();
  const page = (p: SitePage) => {
    let key = pageKeys.get(p);
    if (!key) {
      // Everything of the page but what its source key stands for (the body), what only checks use,
      // and where the body is kept meanwhile.
      // (Left out at the top only: a field of the frontmatter may have any name.)
      const { html: _html, htmlInCache: _inCache, ids: _ids, links: _links, headings: _headings, ...kept } = p;
      key = sha(shared, sectionKeys[p.section] ?? '-', p.sourceKey, JSON.stringify(kept), ctx.lastUpdated.get(p.sourcePath) ?? '');
      pageKeys.set(p, key);
    }
    return key;
  };
  return {
    page,
    printable: (section: SidebarSection) =>
      sha(shared, sectionKeys[site.sections.indexOf(section)] ?? '-', section.url, ...section.pages.map((entry) => page(site.byUrl.get(entry.url)!))),
    /** llms-full.txt: every page's source. */
    everyPage: () => sha(shared, ...site.pages.map(page)),
  };
}
