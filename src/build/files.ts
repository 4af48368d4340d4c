import { format, uiStrings } from '../theme/ui.js';
import type { Blog } from '../site/blog-types.js';
import type { Site } from '../site/model.js';
import { escapeHtml } from '../shared/html.js';
import { withBase } from '../site/links.js';
import { languageLinks } from '../site/trees.js';
import { isCurrent } from '../site/tree-links.js';

/* Small generated files: sitemap, robots, redirects, the blog's feed. */

/** The absolute URL of a path of the site (site.url, the base path and the path). */
export const absoluteUrl = (site: Site, base: string, url: string) => site.config.site.url.replace(/\/$/, '') + withBase(base, url);

export function sitemap(site: Site, base: string, lastUpdated: Map<string, string>): string {
  const loc = (url: string) => escapeHtml(absoluteUrl(site, base, url));
  // A site in several languages lists its current version's pages in each language, with their translations (see src/site/trees.ts).
  const trees = site.trees?.filter(isCurrent);
  const pages = trees ? trees.flatMap((tree) => tree.site.pages.filter((p) => !p.fallback)) : site.pages;
  const urls = pages
    .filter((p) => p.id !== '404')
    .map((p) => {
      const updated = lastUpdated.get(p.sourcePath);
      const alternates = trees ? languageLinks(site, p).filter((link) => link.page && !link.page.fallback) : [];
      const links = alternates.length > 1 ? alternates.map(({ tree, url }) => `<xhtml:link rel="alternate" hreflang="${escapeHtml(tree.language.code)}" href="${loc(url)}"/>`).join('') : '';
      return `<url><loc>${loc(p.url)}</loc>${updated ? `<lastmod>${updated}</lastmod>` : ''}${links}</url>`;
    });
  const xhtml = trees ? ' xmlns:xhtml="http://www.w3.org/1999/xhtml"' : '';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${xhtml}>\n${urls.join('\n')}\n</urlset>\n`;
}

export function robots(site: Site, base: string): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(site, base, '/sitemap.xml')}\n`;
}

/** Text made safe as escapeHtml makes it, and in a single-quoted attribute value too. */
const escapeAttribute = (s: string) => escapeHtml(s).replace(/'/g, '&#39;');

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

/*
 * The blog's Atom 1.0 feed (RFC 4287), /<path>/atom.xml: every post, newest first, each with its
 * address as id and link, its title, its date as published and updated, its description as summary,
 * its authors and tags. The feed names the site as its author, so that a post without authors still has
 * one. Every URL is absolute (site.url and the base path), every text escaped.
 */

const time = (date: string) => `${date}T00:00:00Z`;

export function atomFeed(site: Site, blog: Blog, base: string): string {
  const absolute = (url: string) => escapeHtml(absoluteUrl(site, base, url));
  const newest = [...blog.posts].reverse();
  const updated = newest[0] ? time(newest[0].date) : '1970-01-01T00:00:00Z';
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${absolute(blog.url)}</id>`,
    `  <title>${escapeHtml(`${blog.title} | ${site.config.site.title}`)}</title>`,
    ...(blog.description ? [`  <subtitle>${escapeHtml(blog.description)}</subtitle>`] : []),
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${absolute(blog.feedUrl ?? `${blog.url}atom.xml`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${absolute(blog.url)}"/>`,
    `  <author><name>${escapeHtml(site.config.site.title)}</name></author>`,
    '  <generator>docs</generator>',
  ];
  for (const post of newest) {
    lines.push(
      '  <entry>',
      `    <id>${absolute(post.url)}</id>`,
      `    <title>${escapeHtml(post.title)}</title>`,
      `    <published>${time(post.date)}</published>`,
      `    <updated>${time(post.date)}</updated>`,
      `    <link rel="alternate" type="text/html" href="${absolute(post.url)}"/>`,
      ...post.authors.map((name) => `    <author><name>${escapeHtml(name)}</name></author>`),
      ...post.tags.map((tag) => `    <category term="${escapeHtml(tag)}"/>`),
      `    <summary>${escapeHtml(post.description)}</summary>`,
      '  </entry>',
    );
  }
  lines.push('</feed>');
  return lines.join('\n') + '\n';
}
