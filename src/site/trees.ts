import type { LoadedConfig } from '../config/load.js';
import type { NavEntry, SiteConfig } from '../config/schema.js';
import type { SourcePage } from '../content/load.js';
import type { SourceProblem } from '../shared/errors.js';
import { hasTrees } from '../theme/trees-css.js';
import { isRtl } from '../theme/ui.js';
import { buildSite, routeOf, type Site, type SitePage, type SiteTree, type TreeLanguage, type TreeSpec } from './model.js';

/*
 * A site in several languages or versions is a list of content trees. A tree is one language of
 * one version: its folder under content/ (which is also its URL prefix), its language, its sections
 * and navigation. The default language of the current version is tree 0, at the root; then come
 * the current version's other languages ("zh/"), then each older version with its languages
 * ("4.x/", "4.x/zh/"). Each tree is made into a Site by the same buildSite as a one-tree site, and
 * the trees' pages are put together in one Site (links and ids are checked across all of them).
 * A page that a language lacks is a copy of its default language's page (`fallback`), with a notice.
 *
 * A site without `languages:` of its own (with a code) and without `versions:` has no trees: it is
 * built exactly as before.
 */

/** The trees of a config, or undefined for a site of one tree (no languages of its own, no versions). */
export function treeSpecs(config: SiteConfig): TreeSpec[] | undefined {
  if (!hasTrees(config)) return undefined;
  const own = config.languages.filter((entry): entry is Extract<typeof entry, { code: string }> => 'code' in entry);
  const languages: TreeLanguage[] = own.length
    ? own.map((entry, i) => ({ code: entry.code, label: entry.label, dir: entry.dir ?? (isRtl(entry.code) ? 'rtl' : 'ltr'), titles: entry.titles ?? {}, ui: { ...(i === 0 ? config.ui : {}), ...entry.ui } }))
    : [{ code: config.site.language, label: config.site.language, dir: isRtl(config.site.language) ? 'rtl' : 'ltr', titles: {}, ui: config.ui }];
  const versions = config.versions.length ? config.versions : [undefined];
  return versions.flatMap((version, v) =>
    languages.map((language, l): TreeSpec => ({
      index: v * languages.length + l,
      prefix: (v > 0 ? `${version!.name}/` : '') + (l > 0 ? `${language.code.toLowerCase()}/` : ''),
      language,
      defaultLanguage: l === 0,
      version: version && { name: version.name, label: version.label ?? version.name, current: v === 0 },
      versionIndex: v,
    })),
  );
}

/** A page path of the tree: '' (the tree's home) is 'zh', 'guides' is 'zh/guides'. */
const idIn = (prefix: string, id: string) => (prefix + id).replace(/\/$/, '');
/** A path of the site as seen from the tree: '/guides/' is '/zh/guides/'; other URLs stay as they are. */
const pathIn = (prefix: string, url: string) => (url.startsWith('/') && !url.startsWith('//') ? `/${prefix}${url.slice(1)}` : url);
const navIn = (prefix: string, titles: Record<string, string>, entries: NavEntry[]): NavEntry[] =>
  entries.map((entry) => ({
    ...entry,
    title: titles[entry.title] ?? entry.title,
    url: pathIn(prefix, entry.url),
    ...(entry.children ? { children: navIn(prefix, titles, entry.children) } : {}),
  }));

/** The config as a tree sees it: its language and interface strings, its sections and navigation under its prefix; the blog and redirects belong to tree 0. */
export function treeConfig(config: SiteConfig, spec: TreeSpec): SiteConfig {
  const version = spec.versionIndex > 0 ? config.versions[spec.versionIndex] : undefined;
  const sections = version?.sections ?? config.sections;
  const navigation = version?.navigation ?? config.navigation;
  const first = spec.index === 0;
  const { titles } = spec.language;
  const link = <L extends { title: string }>(entry: L): L => ({ ...entry, title: titles[entry.title] ?? entry.title });
  return {
    ...config,
    site: { ...config.site, language: spec.language.code, title: titles[config.site.title] ?? config.site.title },
    // (The footer's links lead to the same pages from every tree: only their words change.)
    footer: { ...config.footer, links: config.footer.links.map(link), secondary: config.footer.secondary.map(link), copyright: config.footer.copyright && (titles[config.footer.copyright] ?? config.footer.copyright) },
    ui: spec.language.ui as SiteConfig['ui'],
    blog: first ? config.blog : undefined,
    redirects: first ? config.redirects : {},
    navigation: spec.prefix ? navIn(spec.prefix, titles, navigation) : navigation,
    sections: spec.prefix
      ? sections.map((section) => ({
          ...section,
          title: titles[section.title] ?? section.title,
          url: idIn(spec.prefix, section.url),
          pages: section.pages.map((entry) => (typeof entry === 'string' ? idIn(spec.prefix, entry) : { autogenerate: { directory: idIn(spec.prefix, entry.autogenerate.directory) } })),
          ...(section.autogenerate ? { autogenerate: { directory: idIn(spec.prefix, section.autogenerate.directory) } } : {}),
        }))
      : sections,
  };
}

/** The tree of a page path: the one with the longest prefix it is under. */
export function treeOfId(specs: readonly TreeSpec[], id: string): number {
  let best = 0;
  for (const spec of specs) {
    if (spec.prefix && (id === spec.prefix.slice(0, -1) || id.startsWith(spec.prefix)) && spec.prefix.length > specs[best]!.prefix.length) best = spec.index;
  }
  return best;
}

/**
 * The site model of every tree, put together (see above); a site of one tree is buildSite's.
 * The problems of a language's tree that only repeat its default language's (the same config
 * entries) are left out.
 */
export function buildTrees(loaded: LoadedConfig, sourcePages: SourcePage[], failed: ReadonlySet<string>): { site: Site; problems: SourceProblem[] } {
  const specs = treeSpecs(loaded.config);
  if (!specs) return buildSite(loaded, sourcePages, failed);
  const owned = specs.map((): SourcePage[] => []);
  for (const page of sourcePages) owned[treeOfId(specs, page.id)]!.push(page);
  const problems: SourceProblem[] = [];
  const trees: SiteTree[] = [];
  for (const spec of specs) {
    const pages = owned[spec.index]!;
    // A language's tree shows the pages it lacks from the default language of its version (made before it).
    if (!spec.defaultLanguage) pages.push(...fallbacks(trees.find((tree) => tree.versionIndex === spec.versionIndex)!, spec, pages, failed));
    const version = spec.versionIndex > 0 ? loaded.config.versions[spec.versionIndex] : undefined;
    // A problem of an older version's sections or navigation: at its own, or at the current version's that it takes.
    // The footer's, banner's and notification's links lead to the same pages from every tree: checked once, in tree 0.
    const elsewhere = new Set<SourceProblem>();
    const problemAt: LoadedConfig['problemAt'] = (path, message) => {
      const key = path[0] === 'sections' || path[0] === 'navigation' ? path[0] : undefined;
      if (key && version?.[key]) return loaded.problemAt(['versions', spec.versionIndex, ...path], message);
      if (key && version) return loaded.problemAt(path, `${message} (in version "${version.name}", which takes the current version's ${key})`);
      const problem = loaded.problemAt(path, message);
      if (!key && spec.index > 0) elsewhere.add(problem);
      return problem;
    };
    const built = buildSite({ ...loaded, config: treeConfig(loaded.config, spec), problemAt }, pages, failed);
    if (spec.defaultLanguage) problems.push(...built.problems.filter((problem) => !elsewhere.has(problem)));
    for (const page of built.site.pages) page.tree = spec.index;
    trees.push({ ...spec, site: built.site });
  }
  const pages = trees.flatMap((tree) => tree.site.pages);
  const byUrl = new Map(pages.map((p) => [p.url, p]));
  const byId = new Map(pages.map((p) => [p.id, p]));
  for (const tree of trees) Object.assign(tree.site, { byUrl, byId, trees, tree: tree.index });
  return { site: { ...trees[0]!.site, pages, trees }, problems };
}

/** Copies of the source tree's pages that a language's tree lacks: its home and the pages of its sections. */
function fallbacks(source: SiteTree, spec: TreeSpec, own: SourcePage[], failed: ReadonlySet<string>): SourcePage[] {
  const have = new Set(own.map((p) => p.id));
  return source.site.pages.flatMap((page) => {
    if (page.id === '404' || (page.section < 0 && page.id !== source.prefix.replace(/\/$/, ''))) return [];
    const id = idIn(spec.prefix, page.id.slice(source.prefix.length));
    return have.has(id) || failed.has(id) ? [] : [{ ...page, id, fallback: page.url, prev: undefined, next: undefined }];
  });
}

/** The path of a page inside its tree ('guides/a' for 'zh/guides/a' in the tree 'zh/'). */
const restOf = (tree: TreeSpec, id: string) => (id === tree.prefix.slice(0, -1) ? '' : id.slice(tree.prefix.length));

/** The same page in another tree, or that tree's home when it has no such page. */
export function counterpart(site: Site, page: SitePage | undefined, to: SiteTree): { url: string; page?: SitePage } {
  const from = page?.tree !== undefined ? site.trees?.[page.tree] : undefined;
  const same = page && from ? site.byId.get(idIn(to.prefix, restOf(from, page.id))) : undefined;
  return same ? { url: same.url, page: same } : { url: routeOf(idIn(to.prefix, '')) };
}

/** The other languages of a page's version (itself included), each with the page's URL in it. */
export const languageLinks = (site: Site, page: SitePage | undefined) =>
  linksTo(site, page, (tree, current) => tree.versionIndex === current.versionIndex);

/** The versions of a page's language (itself included), each with the page's URL in it. */
export const versionLinks = (site: Site, page: SitePage | undefined) =>
  linksTo(site, page, (tree, current) => !!current.version && tree.language.code === current.language.code);

/** The trees `keep` takes beside the page's own, each with the page's URL in it. */
function linksTo(site: Site, page: SitePage | undefined, keep: (tree: SiteTree, current: SiteTree) => boolean) {
  const current = site.trees?.[page?.tree ?? site.tree ?? 0];
  return current ? site.trees!.filter((tree) => keep(tree, current)).map((tree) => ({ tree, ...counterpart(site, page, tree) })) : [];
}

/** The tree a site view shows (undefined for a site of one tree). */
export const treeOf = (site: Site): SiteTree | undefined => site.trees?.[site.tree ?? 0];
