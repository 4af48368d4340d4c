import { OUTPUT_MARKER, OUTPUT_MARKER_TEXT } from './out-guard.js';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { headScript } from '../../templates/head-script.js';
import { createNavCache } from '../../templates/nav.js';
import type { RenderContext } from '../../templates/types.js';
import type { SiteConfig } from '../config/schema.js';
import type { SourcePage } from '../content/load.js';
import { withBase } from '../site/links.js';
import { hasContributors, routeOf, type SidebarSection, type Site, type SitePage } from '../site/model.js';
import { bundleClient, bundleCss, contentHash, type Asset, type ClientAsset } from './assets.js';
import { searchTerms, type SearchInput } from './search.js';
import { redirectPage, redirectsFile, robots, sitemap } from './files.js';
import type { OutputKeys } from './keys.js';
import type { Contents } from './output.js';
import { renderNotFound, renderPrintable } from './render.js';
import { listStatic } from '../io/sources.js';
import { llmsFullTxt, llmsTxt, markdownFromDisk } from './llms.js';
import { cspSources, hasStaticFavicon, resolveTheme } from '../theme/theme.js';
import type { Components } from '../theme/components.js';

/*
 * The parts of a build, exported so that `docs serve` renders exactly what
 * `docs build` writes while re-rendering only the pages a change affects.
 */

/**
 * What the search index gets for a page (nothing for the 404 page). It needs
 * only the config, so pages can be indexed before the site model exists; the
 * body keeps its link placeholders, since the index holds text, not links.
 */
export function searchInputs(config: SiteConfig, base: string): (page: SourcePage) => SearchInput | null {
  const sectionOf = new Map<string, string>();
  for (const section of config.sections) for (const id of [section.url, ...section.pages]) sectionOf.set(id, section.title);
  return (page) =>
    page.id === '404'
      ? null
      : {
          url: withBase(base, routeOf(page.id)),
          title: page.frontmatter.title,
          section: sectionOf.get(page.id),
          slug: page.id.slice(page.id.lastIndexOf('/') + 1),
          html: page.html,
          sourceKey: page.sourceKey,
        };
}

/**
 * The order pages go into the search index (its bytes depend on it): the
 * order of their files, in which `docs build` hands them over as they render.
 */
export function searchOrder(site: Site): SitePage[] {
  return [...site.pages].sort((a, b) => (a.sourcePath < b.sourcePath ? -1 : a.sourcePath > b.sourcePath ? 1 : 0));
}


/** The interaction script and the stylesheet, bundled from the templates folder. */
export async function bundleAssets(templatesDir: string): Promise<{ js: ClientAsset; css: Asset }> {
  const [js, css] = await Promise.all([bundleClient(templatesDir), bundleCss(templatesDir)]);
  return { js, css };
}

/**
 * What every page of a build shares: the render context, and the asset files
 * it points to (script, stylesheet, search terms) in the order they are written.
 */
export function renderContext(
  site: Site,
  base: string,
  assets: { js: ClientAsset; css: Asset },
  updated: Map<string, string>,
  own: { components: Components; key: string; logoRatio: number } = { components: {}, key: '', logoRatio: 1 },
): { ctx: RenderContext; files: Array<[string, string]> } {
  const { js, css } = assets;
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
  const theme = { ...resolveTheme(site.config), logoRatio: own.logoRatio };
  const csp = contentSecurityPolicy(site.config, head, false, hasContributors(site));
  const ctx: RenderContext = {
    site,
    base,
    assets: { css: css.url, js: js.url, headScript: head, csp, searchTerms: terms, searchEngine: js.engine.url, components: own.key || undefined },
    lastUpdated: updated,
    nav: createNavCache(site, (url) => withBase(base, url), theme.ui),
    theme,
    components: own.components,
  };
  return { ctx, files };
}

/**
 * The files written after the pages and the search index, in order: printable
 * sections, the default 404 page (when the site has no content/404.md), llms.txt, redirects, headers, sitemap, robots, favicon, static files;
 * each made when asked for.
 */
export function* siteFiles(
  ctx: RenderContext,
  root: string,
  templatesDir: string,
  printable: (section: SidebarSection) => string = (section) => renderPrintable(ctx, ctx.site, section),
  markdownOf: (page: SitePage) => string = markdownFromDisk(root),
  kept?: { keys: OutputKeys; keep: (path: string, key: string) => boolean },
): Generator<[path: string, contents: Contents, key?: string]> {
  const { site, base } = ctx;
  for (const section of site.sections) {
    if (!section.pages.length || site.config.site.printable === false) continue;
    const path = join(section.url, 'printable', 'index.html');
    const key = kept?.keys.printable(section);
    if (!key || !kept!.keep(path, key)) yield [path, printable(section), key];
  }
  if (!site.byId.has('404')) yield ['404.html', renderNotFound(ctx)];
  yield ['llms.txt', llmsTxt(site, base)];
  const fullKey = kept?.keys.everyPage();
  if (!fullKey || !kept!.keep('llms-full.txt', fullKey)) yield ['llms-full.txt', llmsFullTxt(site, base, markdownOf), fullKey];
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
  if (!hasStaticFavicon(root)) yield ['favicon.svg', readFileSync(join(templatesDir, 'favicon.svg'))];
  const staticDir = join(root, 'static');
  for (const file of listStatic(staticDir)) yield [file, readFileSync(join(staticDir, file))];
}


/** Whether a page lists contributors (their avatars are images from GitHub). */

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
