import { join } from 'node:path';
import type { LoadedConfig } from '../config/checked.js';
import type { NavEntry, SiteConfig } from '../config/schema.js';
import type { SourcePage } from '../content/load.js';
import type { Anchor } from '../content/plugins/headings.js';
import type { SourceProblem } from '../shared/errors.js';

/** The file every build leaves in its output folder: the proof that a folder is a build's, which `--out` may replace. */
export const OUTPUT_MARKER = '.docs-output';
export const OUTPUT_MARKER_TEXT = 'Written by `docs build`. Each build replaces everything in this folder.\n';

/*
 * The Site model: built once per build from the config and the pages. Per
 * page, templates only compare the current URL against it (never copy it).
 */

export interface SidebarPage {
  url: string;
  title: string;
  group: string;
  anchors: Anchor[];
}

export interface SidebarSection {
  title: string;
  url: string;
  /** The section's index page first (when it has one), then its pages in order. */
  pages: SidebarPage[];
}

export interface SitePage extends SourcePage {
  url: string;
  title: string;
  group: string;
  /** Index into Site.sections, or -1 for a page listed in no section. */
  section: number;
  prev?: SidebarPage;
  next?: SidebarPage;
  /** Final hrefs of the internal links, in the order of `links` (set by link resolution). */
  hrefs: string[];
}

export interface Site {
  config: SiteConfig;
  /** Pages in a stable order: listed pages in config order, then unlisted ones by path. */
  pages: SitePage[];
  byUrl: Map<string, SitePage>;
  byId: Map<string, SitePage>;
  sections: SidebarSection[];
  navigation: NavEntry[];
}

export function routeOf(id: string): string {
  return id === '' ? '/' : `/${id}/`;
}

/**
 * Builds the model. Problems (missing pages, bad redirects) are returned with
 * it rather than thrown, so that the caller can report them together with the
 * link problems found on the same model.
 */
export function buildSite(
  loaded: LoadedConfig,
  sourcePages: SourcePage[],
  failed: ReadonlySet<string> = new Set(),
): { site: Site; problems: SourceProblem[] } {
  const { config } = loaded;
  const problems: SourceProblem[] = [];
  const byId = new Map(sourcePages.map((p) => [p.id, p]));
  const placed = new Map<string, { section: number; order: number }>();
  let order = 0;

  config.sections.forEach((section, s) => {
    if (!byId.has(section.url) && !failed.has(section.url)) {
      problems.push(loaded.problemAt(['sections', s, 'url'], `section "${section.url || '(home)'}" has no index page: create ${contentPathOf(section.url)}`));
    } else placed.set(section.url, { section: s, order: order++ });
    section.pages.forEach((id, p) => {
      if (failed.has(id)) order++;
      else if (!byId.has(id)) {
        problems.push(loaded.problemAt(['sections', s, 'pages', p], `page "${id}" has no file ${contentPathOf(id)}`));
      } else placed.set(id, { section: s, order: order++ });
    });
  });

  const pages: SitePage[] = [...sourcePages]
    .sort((a, b) => {
      const pa = placed.get(a.id)?.order ?? Infinity;
      const pb = placed.get(b.id)?.order ?? Infinity;
      return pa === pb ? (a.id < b.id ? -1 : 1) : pa - pb;
    })
    .map((p) => ({
      ...p,
      url: routeOf(p.id),
      title: p.frontmatter.title,
      group: p.frontmatter.group,
      section: placed.get(p.id)?.section ?? -1,
      hrefs: p.links.map((l) => l.href),
    }));
  const pageById = new Map(pages.map((p) => [p.id, p]));

  const sections: SidebarSection[] = config.sections.map((section) => ({
    title: section.title,
    url: routeOf(section.url),
    pages: [section.url, ...section.pages]
      .map((id) => pageById.get(id))
      .filter((p): p is SitePage => !!p)
      .map((p) => ({ url: p.url, title: p.title, group: p.group, anchors: p.anchors })),
  }));

  for (const page of pages) {
    if (page.section < 0) continue;
    const list = sections[page.section]!.pages;
    const i = list.findIndex((entry) => entry.url === page.url);
    page.prev = list[i - 1];
    page.next = list[i + 1];
  }

  // Redirect targets must be real pages (and anchors of them); sources must not shadow one, nor name the same page as
  // another (/a and /a/), nor a file the build writes, nor be a pattern to a static host.
  const redirectPages = new Map<string, string>();
  const printablePaths = new Set(sections.filter((s) => s.pages.length && config.site.printable !== false).map((s) => `${s.url}printable`));
  for (const [from, to] of Object.entries(config.redirects)) {
    const bare = from.replace(/\/$/, '');
    if (from.split('/').some((segment) => segment.includes('*') || segment.startsWith(':'))) {
      problems.push(loaded.problemAt(['redirects', from], `"${from}" is a pattern to static hosts ("*" and a leading ":" stand for any text in _redirects): name one address`));
    } else if (GENERATED.includes(bare) || bare === `/${OUTPUT_MARKER}` || /^\/(assets|search-index)(\/|$)/.test(bare) || printablePaths.has(bare)) {
      problems.push(loaded.problemAt(['redirects', from], `the build writes ${bare.slice(1)} itself, and a redirect from "${from}" would replace it; choose another address`));
    }
    // A page's own file (/index.html, /guides/first/index.html), or a path under it, which would have to be a folder.
    const fileOf = pages.find((p) => bare === `${p.url}index.html` || bare.startsWith(`${p.url}index.html/`));
    if (fileOf) problems.push(loaded.problemAt(['redirects', from], `the build writes ${fileOf.url.slice(1)}index.html itself (the page ${fileOf.url}), and a redirect from "${from}" would replace it; redirect from ${fileOf.url} or another address`));
    const page = from.endsWith('/') ? from : `${from}/`;
    const other = redirectPages.get(page);
    if (other !== undefined) problems.push(loaded.problemAt(['redirects', from], `"${from}" and "${other}" are the same address to a static host; keep one of the two redirects`));
    else redirectPages.set(page, from);
    const target = to.replace(/[#?].*$/, '');
    const targetPage = pages.find((p) => p.url === target);
    if (!targetPage && ![...failed].some((id) => routeOf(id) === target)) {
      problems.push(loaded.problemAt(['redirects', from], `redirect target "${to}" is not a page`));
    }
    const hash = /#(.*)$/.exec(to)?.[1];
    if (targetPage && hash && !targetPage.ids.has(safeDecode(hash))) {
      problems.push(loaded.problemAt(['redirects', from], `redirect target "${to}": ${target} has no such anchor`));
    }
    if (pages.some((p) => p.url === from || p.url === `${from}/`)) {
      problems.push(loaded.problemAt(['redirects', from], `"${from}" is a page; it cannot also be a redirect`));
    }
  }

  // Internal links of the config (navigation, footer, banner) must reach pages too.
  const printables = new Set(sections.filter((s) => s.pages.length && config.site.printable !== false).map((s) => `${s.url}printable/`));
  const isPage = (url: string) => {
    const path = url.replace(/[#?].*$/, '');
    return pages.some((p) => p.url === path) || printables.has(path) || [...failed].some((id) => routeOf(id) === path) || /\.[a-z0-9]+$/i.test(path);
  };
  const checkLink = (path: PropertyKey[], url: string) => {
    if (!url.startsWith('/') || url.startsWith('//')) return;
    if (!isPage(url)) {
      problems.push(loaded.problemAt([...path, 'url'], `links to "${url}", which is not a page of this site`));
      return;
    }
    // An anchor is checked against the ids of the page, as in the pages' own links.
    const hashAt = url.indexOf('#');
    const target = hashAt < 0 ? undefined : pages.find((p) => p.url === url.slice(0, hashAt).replace(/\?.*$/, ''));
    if (!target || hashAt === url.length - 1) return;
    let id: string | undefined;
    try {
      id = decodeURIComponent(url.slice(hashAt + 1));
    } catch {
      // A "%" that starts no escape: no id is spelled so.
    }
    if (id === undefined || !target.ids.has(id)) problems.push(loaded.problemAt([...path, 'url'], `links to "${url}", but ${target.url} has no such anchor`));
  };
  const walkNav = (entries: NavEntry[], path: PropertyKey[]) =>
    entries.forEach((entry, i) => {
      checkLink([...path, i], entry.url);
      if (entry.children) walkNav(entry.children, [...path, i, 'children']);
    });
  walkNav(config.navigation, ['navigation']);
  config.footer.links.forEach((link, i) => checkLink(['footer', 'links', i], link.url));
  config.footer.secondary.forEach((link, i) => checkLink(['footer', 'secondary', i], link.url));
  config.banner?.links.forEach((link, i) => checkLink(['banner', 'links', i], link.url));
  if (config.notification?.link) checkLink(['notification', 'link'], config.notification.link.url);

  const site: Site = {
    config,
    pages,
    byUrl: new Map(pages.map((p) => [p.url, p])),
    byId: pageById,
    sections,
    navigation: config.navigation,
  };
  return { site, problems };
}

function contentPathOf(id: string): string {
  return id === '' ? 'content/index.md' : `content/${id}.md (or content/${id}/index.md)`;
}

/** Whether a navigation entry is highlighted for `currentUrl` (SPEC §2: the path starts with its section). */
export function isNavActive(entry: NavEntry, currentUrl: string): boolean {
  if (/^(https?:)?\/\//.test(entry.url)) return false;
  if (entry.url === '/') return currentUrl === '/';
  if (currentUrl.startsWith(entry.url)) return true;
  return (entry.children ?? []).some((child) => isNavActive(child, currentUrl));
}

/** Files the build always writes at the root, valid as link targets. */
export const GENERATED = ['/sitemap.xml', '/robots.txt', '/404.html', '/favicon.svg', '/_redirects', '/_headers', '/llms.txt', '/llms-full.txt'];

/** An anchor as written, decoded when it is a valid escape. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Whether a page of the site lists contributors (their avatars come from GitHub's hosts). */
export const hasContributors = (site: Pick<Site, 'pages'>) => site.pages.some((p) => p.frontmatter.contributors.length > 0);

/** Where a page is written, relative to the output folder. */
export function pageFile(page: SitePage): string {
  return page.id === '404' ? '404.html' : join(page.id, 'index.html');
}
