import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { parseLocatedYaml, yamlValue } from '../config/yaml-positions.js';
import type { SourcePage, UnbuiltPage } from '../content/load.js';
import { listStatic, staticWarnings } from '../io/sources.js';
import type { SourceProblem } from '../shared/errors.js';
import { checkRelated, checkUnbuiltLinks, resolveLinks, type LinkTargets } from '../site/links.js';
import { GENERATED, OUTPUT_MARKER, pageFile, routeOf, type Site, type SitePage } from '../site/model.js';
import { themeProblems } from '../theme/theme.js';
import { linkBlog, prepareBlog } from '../site/blog.js';
import { isBlogIndex, postAt } from '../site/blog-types.js';
import { heroImages } from '../site/hero-image.js';
import { buildTrees } from '../site/trees.js';
import { fallbackHrefs, linkingView, treeFiles } from '../site/tree-links.js';

/*
 * The checks of a site that `docs build`, `docs check` and `docs serve` share: the site model
 * made of the config and the pages, with every problem of its links, theme and static files.
 */

/** How the links of the pages are resolved: resolveLinks, or a build's cached version of it. */
export type LinkResolver = (site: Site, base: string, targets: LinkTargets) => SourceProblem[];

/**
 * The site of a valid config and its pages, with every problem found in it: the model's, the
 * theme's, static files that the build would overwrite, and every link (the pages', the related
 * ones, and those of pages that could not be built). `failed`: pages that exist but did not load.
 */
export function checkSite(
  root: string,
  config: LoadedConfig,
  pages: SourcePage[],
  failed: ReadonlySet<string>,
  unbuilt: UnbuiltPage[],
  base: string,
  resolve: LinkResolver = resolveLinks,
): { site: Site; problems: SourceProblem[] } {
  // The blog's posts under their addresses, and its index pages (see src/site/blog.ts).
  const blog = prepareBlog(config, pages, failed, base);
  const { site, problems } = buildTrees(config, blog.pages, failed);
  linkBlog(site, blog.blog);
  if (site.trees) site.trees[0]!.site.blog = site.blog;
  problems.push(...blog.problems);
  // (static/ listed once, for both.)
  const statics = listStatic(join(root, 'static'));
  const targets = linkTargets(site, failed, statics);
  if (site.blog?.feedUrl) targets.files.add(site.blog.feedUrl);
  problems.push(...themeProblems(root, config), ...staticCollisions(site, statics), ...heroImages(root, site, new Set(statics)));
  // (A page copied into a language that lacks it has its links checked once, in its own language: see src/site/tree-links.ts.)
  const linking = linkingView(site);
  problems.push(...resolve(linking, base, targets), ...checkRelated(linking, targets), ...checkUnbuiltLinks(site, targets, unbuilt));
  fallbackHrefs(site, base);
  return { site, problems };
}

/**
 * The link problems of the pages when the config is not valid, so that they come with the config's
 * at once: each link is checked against the pages, the files of static/ and the generated files. What
 * only the config can say is taken as it is written (redirect sources, read from the file whatever
 * else is wrong in it) or given the benefit of the doubt (any folder's printable document, images
 * of other hosts).
 */
export async function linksWithoutConfig(root: string, configPath: string, sourcePages: SourcePage[], failed: ReadonlySet<string>, unbuilt: UnbuiltPage[]): Promise<SourceProblem[]> {
  const pages: SitePage[] = sourcePages.map((p) => ({ ...p, url: routeOf(p.id), title: p.frontmatter.title, group: p.frontmatter.group, section: -1, hrefs: p.links.map((l) => l.href) }) as SitePage);
  const files = new Set<string>([...GENERATED, ...listStatic(join(root, 'static'))]);
  for (const page of pages) files.add(`${page.url.replace(/[^/]*\/$/, '')}printable/`).add(`${page.url}printable/`);
  try {
    const written = yamlValue(parseLocatedYaml(readFileSync(configPath, 'utf8'), configPath).located) as { redirects?: unknown } | null;
    if (written?.redirects && typeof written.redirects === 'object') for (const from of Object.keys(written.redirects)) files.add(from).add(from.endsWith('/') ? from : `${from}/`);
  } catch {
    // A config that is not YAML at all: no redirects to know of.
  }
  const site = { pages, byUrl: new Map(pages.map((p) => [p.url, p])) } as unknown as Site;
  const targets = { files, unchecked: new Set([...failed].map(routeOf)) };
  return [...resolveLinks(site, '/', targets), ...checkUnbuiltLinks(site, targets, unbuilt)];
}

/**
 * What a link may name besides the pages: the generated files, each section's
 * printable document, the files of static/; and the pages that failed to
 * load (accepted unchecked).
 */
export function linkTargets(site: Site, failed: Iterable<string>, statics: string[]): LinkTargets {
  const files = new Set([...GENERATED, ...statics]);
  for (const section of site.sections) if (section.pages.length && site.config.site.printable !== false) files.add(`${section.url}printable/`);
  for (const file of treeFiles(site)) files.add(file);
  return { files, unchecked: new Set([...failed].map(routeOf)) };
}

/** The names of the hashed files the build writes into assets/ (see assets.ts): a file of static/ by such a name could replace one. */
const BUILT_ASSET = /^\/assets\/(?:main|search|style|terms)\.[0-9a-f]{10}\.(?:js|css|json)$/;

/**
 * Files of static/ whose path the build writes itself: a page, a printable
 * document, a redirect page, 404.html, the search index or one of the
 * generated files. Static files are copied last, so such a file would
 * silently replace the build's (a page, or the security headers of
 * _headers): each is a problem. (static/favicon.svg is the site's favicon,
 * written instead of the built-in one.)
 */
function staticCollisions(site: Site, statics: string[]): SourceProblem[] {
  const written = new Map<string, string>();
  for (const page of site.pages) written.set('/' + pageFile(page).split(sep).join('/'), `the page built from ${page.sourcePath}`);
  for (const section of site.sections) if (section.pages.length && site.config.site.printable !== false) written.set(`${section.url}printable/index.html`, `the printable document of ${section.url}`);
  for (const from of Object.keys(site.config.redirects)) written.set(`${from.replace(/\/$/, '')}/index.html`, `the redirect page of ${from}`);
  if (!written.has('/404.html')) written.set('/404.html', 'the page for addresses that lead nowhere');
  for (const file of GENERATED) if (file !== '/favicon.svg' && !written.has(file)) written.set(file, 'a file it generates');
  if (site.blog?.feedUrl) written.set(site.blog.feedUrl, 'the feed of the blog');
  written.set(`/${OUTPUT_MARKER}`, 'the mark of its output folder');
  for (const file of treeFiles(site)) written.set(file.endsWith('/') ? `${file}index.html` : file, 'a file of one of its languages or versions');
  const searchIndexes = (site.trees ?? [{ prefix: '' }]).map((tree) => `/${tree.prefix}search-index/`);
  const problems: SourceProblem[] = [];
  for (const file of statics) {
    const what =
      written.get(file) ??
      (searchIndexes.some((prefix) => file.startsWith(prefix)) ? 'the search index' : BUILT_ASSET.test(file) ? 'the name of its script, stylesheet or search files' : undefined);
    if (what) problems.push({ file: `static${file}`, line: 0, column: 0, message: `the build writes ${file.slice(1)} itself (${what}), and this file would replace it; remove or rename it` });
    // A redirect from the file's own address makes it a folder (of the redirect page).
    else if (written.get(`${file}/index.html`)?.startsWith('the redirect page')) {
      problems.push({ file: `static${file}`, line: 0, column: 0, message: `the redirect of ${file} would make this file's address a folder (for its redirect page); remove the file or the redirect` });
    }
  }
  return problems;
}

/**
 * What a build lets pass but the writer should know: a page in content/ that
 * no section lists and no navigation or footer entry links to (it is built,
 * but no menu leads to it), and what static/ holds that is not copied.
 */
export function siteWarnings(site: Site, root: string, configPath: string): SourceProblem[] {
  const menus = new Set<string>();
  const addMenu = (entries: ReadonlyArray<{ url: string; children?: ReadonlyArray<{ url: string }> }>) => {
    for (const entry of entries) {
      menus.add(entry.url);
      if (entry.children) addMenu(entry.children);
    }
  };
  addMenu(site.config.navigation);
  for (const tree of site.trees ?? []) addMenu(tree.site.config.navigation);
  addMenu([...site.config.footer.links, ...site.config.footer.secondary]);
  const config = relative(root, configPath);
  return [
    ...site.pages
      .filter((page) => page.section === -1 && page.id !== '404' && !menus.has(page.url) && !postAt(site.blog, page.url) && !isBlogIndex(site.blog, page.url))
      .map((page) => ({
        file: page.sourcePath,
        line: 0,
        column: 0,
        message: `this page is in no section of ${config}, nor in the navigation or the footer, so no menu leads to it; list "${page.id}" in a section's pages`,
      })),
    ...staticWarnings(root, join(root, 'static')),
  ];
}

