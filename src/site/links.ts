import { posix } from 'node:path';
import { formatPath, type SourceProblem } from '../shared/errors.js';
import { EXTERNAL, SCHEME } from '../content/link-kinds.js';
import type { UnbuiltPage } from '../content/load.js';
import { decodeAnchor, hasContributors, routeOf, type Site, type SitePage } from './model.js';
import { cspSources } from '../theme/theme.js';

/*
 * Internal links are checked against the pages and the ids actually present in
 * their rendered HTML, then rewritten to root-absolute URLs (with the base
 * path), so that every accepted spelling works wherever the page is served.
 * Accepted spellings: /guides/caching/, ../guides/caching/ (relative to the
 * page URL or to the source folder), ./caching.md and ../guides/caching.md.
 */

export interface LinkTargets {
  /** Non-page files served at the root (sitemap.xml, static files), as URL paths. */
  files: Set<string>;
  /** URLs of pages that failed to load: links to them are accepted unchecked. */
  unchecked?: Set<string>;
}

/** What checking a page's links reads of it (a page of the site, or one whose render had problems: see UnbuiltPage). */
type LinkingPage = Pick<SitePage, 'url' | 'sourcePath' | 'links' | 'bodyLineOffset' | 'ids' | 'hrefs'>;

export function resolveHref(site: Site, page: LinkingPage, href: string, targets: LinkTargets): { url: string; page?: LinkingPage; hash: string; query: string } | string {
  const hashAt = href.indexOf('#');
  const rawPath = hashAt < 0 ? href : href.slice(0, hashAt);
  const hash = hashAt < 0 ? '' : decodeAnchor(href.slice(hashAt + 1));
  if (hash === undefined) {
    return `links to "${href}", whose anchor holds a "%" that starts no escape; write the heading's id as it is (#my-heading), or "%" as %25`;
  }
  const at = (target: LinkingPage, query: string) =>
    hash && !target.ids.has(hash) ? `links to "#${hash}", but ${target.url} has no such anchor${suggest(hash, target.ids)}` : { url: target.url, page: target, hash, query };
  if (rawPath === '') return at(page, '');
  const queryAt = rawPath.indexOf('?');
  const path = queryAt < 0 ? rawPath : rawPath.slice(0, queryAt);
  // (Kept as written: a page may read it, a tab or a search for instance.)
  const query = queryAt < 0 ? '' : rawPath.slice(queryAt);
  const candidates = path.startsWith('/') ? [path] : path.endsWith('.md') ? [mdRoute(page, path)] : [posix.resolve(page.url, path), posix.resolve(sourceFolder(page), path)];
  for (const candidate of candidates) {
    const normal = candidate.endsWith('/') || posix.extname(candidate) ? candidate : `${candidate}/`;
    const target = site.byUrl.get(normal) ?? (normal.endsWith('/index.html') ? site.byUrl.get(normal.slice(0, -'index.html'.length)) : undefined);
    if (target) return at(target, query);
    if (targets.files.has(candidate)) return { url: candidate, hash, query };
    // (A generated page such as a section's printable document, named without its last slash.)
    if (normal !== candidate && targets.files.has(normal)) return { url: normal, hash, query };
    if (targets.unchecked?.has(normal)) return { url: normal, hash, query };
  }
  const close = nearest(candidates[0]!.endsWith('/') || posix.extname(candidates[0]!) ? candidates[0]! : `${candidates[0]}/`, site.byUrl.keys(), false);
  return `links to "${rawPath}", which is not a page of this site${close.length ? ` (did you mean ${close.join(', ')}?)` : ''}`;
}

/** The folder of a page's source as a URL path (/guides for content/guides/caching.md). */
const sourceFolder = (page: LinkingPage) => posix.dirname('/' + page.sourcePath.replace(/^content\//, ''));

/** The page of a link to its Markdown file (../guides/index.md is /guides/). */
function mdRoute(page: LinkingPage, path: string): string {
  return routeOf(posix.resolve(sourceFolder(page), path).slice(1, -3).replace(/(^|\/)index$/, ''));
}

/**
 * Checks every internal link of every page and records its final href in
 * page.hrefs (same order as page.links); returns the problems (all of them).
 */
export function resolveLinks(site: Site, base: string, targets: LinkTargets, pages: Iterable<LinkingPage> = site.pages): SourceProblem[] {
  const problems: SourceProblem[] = [];
  // (Without a valid config there is no policy to check images of other hosts against: they are not checked.)
  const imageSources = site.config ? cspSources(site.config, hasContributors(site)).img : undefined;
  for (const page of pages) {
    page.hrefs = page.links.map((link) => {
      const { href } = link;
      const at = { file: page.sourcePath, line: (link.line ?? 1) + page.bodyLineOffset, column: link.column ?? 1 };
      if (EXTERNAL.test(href)) {
        // An image from another host shows only where the Content-Security-Policy lets it load.
        if (link.image && imageSources && !imageSources.some((source) => sourceAllows(source, href))) {
          problems.push({ ...at, message: `shows the image "${href}", which the Content-Security-Policy does not let load (pages load images from the site and from csp.img); add ${parsedUrl(href)?.origin ?? href} to csp.img in the config` });
        }
        return href;
      }
      const resolved = resolveHref(site, page, href, targets);
      if (typeof resolved === 'string') {
        problems.push({ ...at, message: link.image ? `shows the image "${href}", which is not a file of static/ (put the image there and write its path from it, such as /images/diagram.png)` : resolved });
        return href;
      }
      const fragment = resolved.hash ? `#${encodeURIComponent(resolved.hash)}` : '';
      // ("#" alone is the top of the page: it stays "#", where an empty href would load the page again.)
      return resolved.page === page && href.startsWith('#') ? fragment || '#' : withBase(base, resolved.url) + resolved.query + fragment;
    });
  }
  return problems;
}

/**
 * The links of pages whose render had problems (UnbuiltPage), checked as the
 * site's are: the writer sees a broken link with the page's other problems.
 */
export function checkUnbuiltLinks(site: Site, targets: LinkTargets, unbuilt: Iterable<UnbuiltPage>): SourceProblem[] {
  const pages = [...unbuilt].map((page): LinkingPage => ({ ...page, url: routeOf(page.id), ids: new Set(page.ids), hrefs: [] }));
  return resolveLinks(site, '/', targets, pages);
}

/** Frontmatter `related` links are checked like any other link. */
export function checkRelated(site: Site, targets: LinkTargets): SourceProblem[] {
  const problems: SourceProblem[] = [];
  for (const page of site.pages) {
    const { related, hero, features, image } = page.frontmatter;
    // Every link of the frontmatter: further reading, and the landing page's hero buttons and feature cards.
    const fields: Array<[url: string, path: Array<string | number>]> = [];
    related.forEach((item, i) => fields.push([item.url, ['related', i, 'url']]));
    hero?.actions.forEach((action, i) => fields.push([action.url, ['hero', 'actions', i, 'url']]));
    features?.forEach((feature, i) => feature.url !== undefined && fields.push([feature.url, ['features', i, 'url']]));
    // The picture of link previews: a file of static/ (or of another host).
    if (image?.startsWith('/') && !targets.files.has(image)) {
      problems.push({ file: page.sourcePath, ...page.locateField(['image']), path: 'frontmatter.image', message: `image "${image}" is not a file of static/ (put the picture there and write its path from it, such as /images/social.png)` });
    }
    for (const [url, path] of fields) {
      const bad = frontmatterLinkProblem(site, page, url, targets);
      if (bad) problems.push({ file: page.sourcePath, ...page.locateField(path), path: `frontmatter.${formatPath(path)}`, message: bad });
    }
  }
  return problems;
}

/** What is wrong with a link of a page's frontmatter, or null. */
function frontmatterLinkProblem(site: Site, page: SitePage, url: string, targets: LinkTargets): string | null {
  if (EXTERNAL.test(url)) return null;
  const scheme = /^\s*([a-z][a-z0-9+.-]*):/i.exec(url.replace(/[\t\n\r]/g, ''))?.[1]?.toLowerCase();
  if (scheme === 'javascript' || scheme === 'vbscript' || scheme === 'data') {
    return `links to "${url.slice(0, 40)}": javascript:, vbscript: and data: links are not allowed (they run script or hide content); link to a page or an https:// address`;
  }
  if (SCHEME.test(url)) return null;
  const resolved = resolveHref(site, page, url, targets);
  return typeof resolved === 'string' ? resolved : null;
}

function suggest(hash: string, ids: Iterable<string>): string {
  const close = nearest(hash, ids);
  return close.length ? ` (did you mean ${close.map((c) => `#${c}`).join(', ')}?)` : '';
}

/**
 * Near misses of `word` among `candidates`, best first, at most three: the
 * same but for case; then those a few typing mistakes away (letters left
 * out, added, swapped or changed: one per four characters); then those that
 * hold it or that it holds, when neither is twice the other's length (with
 * `parts`: not for pages, where that would be the folder the page is not in).
 */
export function nearest(word: string, candidates: Iterable<string>, parts = true): string[] {
  const lower = word.toLowerCase();
  const limit = Math.max(1, Math.floor(word.length / 4));
  const found: Array<{ candidate: string; rank: number }> = [];
  for (const candidate of candidates) {
    if (candidate === word) continue;
    const other = candidate.toLowerCase();
    const holds = !parts ? false : other.length >= lower.length ? other.length <= 2 * lower.length && other.includes(lower) : 2 * other.length >= lower.length && lower.includes(other);
    const rank = other === lower ? 0 : (editDistance(lower, other, limit) ?? (holds ? limit + 1 : undefined));
    if (rank !== undefined) found.push({ candidate, rank });
  }
  return found.sort((a, b) => a.rank - b.rank || (a.candidate < b.candidate ? -1 : 1)).slice(0, 3).map((f) => f.candidate);
}

/** The edits (insertions, deletions, changes, swaps of neighbours) from `a` to `b`, when at most `limit`; else undefined. */
function editDistance(a: string, b: string, limit: number): number | undefined {
  if (Math.abs(a.length - b.length) > limit) return undefined;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > limit) return undefined;
    before = previous;
    previous = row;
  }
  const distance = previous[b.length]!;
  return distance <= limit ? distance : undefined;
}

export function withBase(base: string, url: string): string {
  if (EXTERNAL.test(url) || SCHEME.test(url)) return url;
  return base === '/' ? url : base.replace(/\/$/, '') + url;
}

/** A URL of an image, or a source of the policy; a URL without a scheme is read as https, as the published site is. */
function parsedUrl(url: string): URL | undefined {
  try {
    return new URL(url, 'https://site.invalid/');
  } catch {
    return undefined;
  }
}

/** Whether a source of the policy (https://host, https://*.host, with a port or a path) lets `url` load. */
function sourceAllows(source: string, url: string): boolean {
  const target = parsedUrl(url);
  const allowed = parsedUrl(source.replace('://*.', '://wildcard.'));
  if (!target || !allowed) return false;
  // http: lets https: load too (CSP reads a secure scheme as allowed where the insecure one is).
  if (!(target.protocol === allowed.protocol || (allowed.protocol === 'http:' && target.protocol === 'https:'))) return false;
  const wildcard = source.includes('://*.');
  const host = wildcard ? allowed.hostname.slice('wildcard'.length) : allowed.hostname;
  if (wildcard ? !target.hostname.endsWith(host) : target.hostname !== host) return false;
  if (allowed.port !== target.port) return false;
  const path = allowed.pathname;
  return path === '/' || (path.endsWith('/') ? target.pathname.startsWith(path) : target.pathname === path);
}
