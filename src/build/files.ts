import { format, uiStrings } from '../theme/ui.js';
import type { Site } from '../site/model.js';
import { withBase } from '../site/links.js';
import { languageLinks } from '../site/trees.js';
import { isCurrent } from '../site/tree-links.js';

/* Small generated files: sitemap, robots, redirects. */

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The absolute URL of a path of the site (site.url, the base path and the path). */
export const absoluteUrl = (site: Site, base: string, url: string) => site.config.site.url.replace(/\/$/, '') + withBase(base, url);

export function sitemap(site: Site, base: string, lastUpdated: Map<string, string>): string {
  const loc = (url: string) => escapeXml(absoluteUrl(site, base, url));
  // A site in several languages lists its current version's pages in each language, with their translations (see src/site/trees.ts).
  const trees = site.trees?.filter(isCurrent);
  const pages = trees ? trees.flatMap((tree) => tree.site.pages.filter((p) => !p.fallback)) : site.pages;
  const urls = pages
    .filter((p) => p.id !== '404')
    .map((p) => {
      const updated = lastUpdated.get(p.sourcePath);
      const alternates = trees ? languageLinks(site, p).filter((link) => link.page && !link.page.fallback) : [];
      const links = alternates.length > 1 ? alternates.map(({ tree, url }) => `<xhtml:link rel="alternate" hreflang="${escapeXml(tree.language.code)}" href="${loc(url)}"/>`).join('') : '';
      return `<url><loc>${loc(p.url)}</loc>${updated ? `<lastmod>${updated}</lastmod>` : ''}${links}</url>`;
    });
  const xhtml = trees ? ' xmlns:xhtml="http://www.w3.org/1999/xhtml"' : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${xhtml}>\n${urls.join('\n')}\n</urlset>\n`;
}

export function robots(site: Site, base: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(site, base, '/sitemap.xml')}\n`;
}

/** Escapes text for an attribute value or element content. */
const escapeAttribute = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * A redirect page: meta refresh plus a canonical link, readable without
 * JavaScript, under the same Content-Security-Policy as every page. The
 * config's schema allows only URL path characters in redirects; the
 * escaping holds even so.
 */
export function redirectPage(site: Site, base: string, to: string, csp: string): string {
  const target = withBase(base, to);
  const t = escapeAttribute(target);
  const ui = uiStrings(site.config.site.language, site.config.ui);
  const [before, after] = escapeAttribute(ui.movedText).split('{link}') as [string, string?];
  return (
    `<!DOCTYPE html><html lang="${escapeAttribute(site.config.site.language)}"><head><meta charset="utf-8">` +
    `<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">` +
    `<title>${escapeAttribute(format(ui.movedTitle, { url: target }))}</title><meta http-equiv="refresh" content="0; url=${t}">` +
    `<link rel="canonical" href="${escapeAttribute(absoluteUrl(site, base, to))}"><meta name="robots" content="noindex"></head>` +
    `<body><p>${before}<a href="${t}">${t}</a>${after ?? ''}</p></body></html>\n`
  );
}

/** One rule per line; a path with whitespace or a line break (which the schema refuses) would add rules of its own. */
export function redirectsFile(site: Site, base: string): string {
  const plain = (path: string) => {
    if (/[\s\u0000-\u001f\u007f]/.test(path)) throw new Error(`redirect path ${JSON.stringify(path)} holds whitespace`);
    return path;
  };
  return Object.entries(site.config.redirects)
    .map(([from, to]) => `${plain(withBase(base, from))} ${plain(withBase(base, to))} 301`)
    .join('\n') + '\n';
}
