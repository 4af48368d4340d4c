import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { TOOL_ROOT } from '../shared/paths.js';
import { headScript } from '../../templates/head-script.js';
import { createNavCache } from '../../templates/nav.js';
import type { RenderContext } from '../../templates/types.js';
import type { SiteConfig } from '../config/schema.js';
import { withBase } from '../site/links.js';
import { hasContributors, OUTPUT_MARKER, OUTPUT_MARKER_TEXT, type SidebarSection, type Site, type SitePage } from '../site/model.js';
import { contentHash, type Asset, type ClientAsset } from './assets.js';
import { MAX_TERM } from '../../templates/client/search-text.js';
import { atomFeed, redirectPage, redirectsFile, robots, sitemap } from './files.js';
import type { OutputKeys } from './keys.js';
import type { Contents } from './output.js';
import { renderNotFound, renderPrintable } from './render.js';
import { listStatic } from '../io/sources.js';
import { llmsFullTxt, llmsTxt } from './llms.js';
import { cspSources, resolveTheme } from '../theme/theme.js';
import type { Components } from '../theme/components.js';

/** The templates shipped with the tool (top-level templates/ of this package). */
export const TEMPLATES_DIR = join(TOOL_ROOT, 'templates') + sep;

/*
 * The parts of a build, exported so that `docs serve` renders exactly what
 * `docs build` writes while re-rendering only the pages a change affects.
 */

/**
 * What every page of a build shares: the render context, and the asset files
 * it points to (script, stylesheet, search terms) in the order they are written.
 */
export function renderContext(
  site: Site,
  base: string,
  { js, css }: { js: ClientAsset; css: Asset },
  updated: Map<string, string>,
  own: { components: Components; key: string; logoRatio: number },
): { ctx: RenderContext; files: Array<[string, string]> } {
  const files: Array<[string, string]> = [
    [js.url, js.contents],
    [css.url, css.contents],
  ];
  let terms: string | undefined;
  if (site.config.search.provider === 'local') {
    files.push([js.engine.url, js.engine.contents]);
    const json = JSON.stringify(searchTerms(site));
    terms = `/assets/terms.${contentHash(json)}.json`;
    files.push([terms, json]);
  }
  const head = headScript(site.config);
  const csp = contentSecurityPolicy(site.config, head, false, hasContributors(site));
  const data: ContextData = {
    base,
    assets: { css: css.url, js: js.url, headScript: head, csp, searchTerms: terms, searchEngine: js.engine.url, components: own.key || undefined },
    lastUpdated: updated,
    theme: { ...resolveTheme(site.config), logoRatio: own.logoRatio },
  };
  return { ctx: contextOf(site, data, own.components), files };
}

/**
 * The words of every title and heading, for correcting typos in queries
 * ("splitchuncks" → "splitchunks"): the index matches words and prefixes,
 * so the engine finds the closest known word when a query finds nothing.
 */
function searchTerms(site: Site): string[] {
  const terms = new Set<string>();
  const add = (text: string) => {
    for (const word of text.toLowerCase().split(/[^a-z0-9._$-]+/)) {
      const clean = word.replace(/^[._-]+|[._-]+$/g, '');
      if (clean.length >= 4 && clean.length <= MAX_TERM) terms.add(clean);
      for (const part of clean.split(/[._-]/)) if (part.length >= 4) terms.add(part);
    }
  };
  for (const page of site.pages) {
    if (page.id === '404') continue;
    add(page.title);
    for (const heading of page.headings) add(heading);
  }
  return [...terms].sort();
}

/** What a render context holds besides the site, its navigation lists and the site's components: plain data, which a worker thread can be sent. */
type ContextData = Omit<RenderContext, 'site' | 'nav' | 'components'>;

/** A render context from its data, for the site (or a view of it) and with the site's own components. */
export function contextOf(site: Site, data: ContextData, components: Components): RenderContext {
  return { site, ...data, nav: createNavCache(site, (url) => withBase(data.base, url), data.theme.ui), components };
}

/** The printable sections of a site (or a view of it): each section's index and the path of its file. */
export function printables(site: Site): Array<[index: number, path: string]> {
  if (site.config.site.printable === false) return [];
  return site.sections.flatMap((section, i) => (section.pages.length ? [[i, join(section.url, 'printable', 'index.html')] as [number, string]] : []));
}

/** What the output holds as it would be made (OutputWriter.keep), and the keys of a tree's files to ask it with. */
export type Kept = { keys: OutputKeys; keep: (path: string, key: string) => boolean };

/**
 * A tree's printable sections and, for a tree with its own llms files (`prefix`: "" for the first tree, "zh/"
 * for a language of the current version), its llms.txt and llms-full.txt; each unless `kept` says the output has it.
 */
export function* treeOwnFiles(
  ctx: RenderContext,
  markdownOf: (page: SitePage) => string,
  kept: Kept | undefined,
  prefix: string | undefined,
  printable = (section: SidebarSection) => renderPrintable(ctx, ctx.site, section),
): Generator<[path: string, contents: Contents, key?: string]> {
  const { site, base } = ctx;
  for (const [i, path] of printables(site)) {
    const key = kept?.keys.printable(site.sections[i]!);
    if (!key || !kept!.keep(path, key)) yield [path, printable(site.sections[i]!), key];
  }
  if (prefix === undefined) return;
  yield [`${prefix}llms.txt`, llmsTxt(site, base, prefix)];
  const fullKey = kept?.keys.everyPage();
  const full = `${prefix}llms-full.txt`;
  if (!fullKey || !kept!.keep(full, fullKey)) yield [full, llmsFullTxt(site, base, markdownOf), fullKey];
}

/**
 * The files written after the pages and the search index, in order: printable sections and the llms
 * files, the default 404 page (when the site has no content/404.md), the blog's feed, redirects, headers,
 * sitemap, robots, favicon, static files; each made when asked for.
 */
export function* siteFiles(
  ctx: RenderContext,
  root: string,
  templatesDir: string,
  printable: ((section: SidebarSection) => string) | undefined,
  markdownOf: (page: SitePage) => string,
  kept?: Kept,
): Generator<[path: string, contents: Contents, key?: string]> {
  const { site, base } = ctx;
  yield* treeOwnFiles(ctx, markdownOf, kept, '', printable);
  if (!site.byId.has('404')) yield ['404.html', renderNotFound(ctx)];
  if (site.blog?.feedUrl) yield [site.blog.feedUrl.slice(1), atomFeed(site, site.blog, base)];
  for (const [from, to] of Object.entries(site.config.redirects)) {
    yield [join(from, 'index.html'), redirectPage(site, base, to, ctx.assets.csp)];
  }
  yield ['_redirects', redirectsFile(site, base)];
  // Marks the folder as the output of a build, which a later build may replace (see checkOutputFolder).
  yield [OUTPUT_MARKER, OUTPUT_MARKER_TEXT];
  yield ['_headers', headersFile(contentSecurityPolicy(site.config, ctx.assets.headScript, true, hasContributors(site)), base)];
  yield ['sitemap.xml', sitemap(site, base, ctx.lastUpdated)];
  yield ['robots.txt', robots(site, base)];
  // The built-in mark, unless the site has a favicon.svg of its own in static/ (written below).
  if (!existsSync(join(root, 'static', 'favicon.svg'))) yield ['favicon.svg', readFileSync(join(templatesDir, 'favicon.svg'))];
  const staticDir = join(root, 'static');
  for (const file of listStatic(staticDir)) yield [file, readFileSync(join(staticDir, file))];
}

const sha256 = (s: string) => `'sha256-${createHash('sha256').update(s).digest('base64')}'`;

/**
 * The Content-Security-Policy of every page: no inline code except the head
 * script, allowed by its hash. Images, media, frames, fetches and fonts may
 * also come from the sources of the config's `csp:`, the badge's image host
 * and, when a page lists contributors, their avatars' hosts (see cspSources).
 * `frame-ancestors` only works as a header, so the meta version leaves it out.
 */
export function contentSecurityPolicy(config: SiteConfig, inlineScript: string, header: boolean, hasContributors = false): string {
  const extra = cspSources(config, hasContributors);
  const connect = ["'self'"];
  if (config.search.provider === 'algolia') connect.push(config.search.host ?? `https://${config.search.appId.toLowerCase()}-dsn.algolia.net`);
  const list = (own: string[], more: string[]) => [...own, ...more].join(' ');
  const directives = [
    "default-src 'self'",
    `script-src 'self' ${sha256(inlineScript)}`,
    "style-src 'self'",
    `img-src ${list(["'self'", 'data:'], extra.img)}`,
    ...(extra.media.length ? [`media-src ${list(["'self'"], extra.media)}`] : []),
    ...(extra.frame.length ? [`frame-src ${extra.frame.join(' ')}`] : []),
    `connect-src ${list(connect, extra.connect)}`,
    `font-src ${list(["'self'"], extra.font)}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ];
  if (header) directives.push("frame-ancestors 'none'");
  return directives.join('; ');
}

export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
};

function headersFile(csp: string, base: string): string {
  const lines = ['/*', `  Content-Security-Policy: ${csp}`, ...Object.entries(SECURITY_HEADERS).map(([k, v]) => `  ${k}: ${v}`)];
  // The host sees the site's paths with their base (as the rules of _redirects have it).
  lines.push(`${base}assets/*`, '  Cache-Control: public, max-age=31536000, immutable');
  return lines.join('\n') + '\n';
}
