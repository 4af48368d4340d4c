import type { Site, SitePage } from '../src/site/model.js';
import type { NavCache } from './nav.js';

/** Everything a page template needs; built once per build except `page`. */
export interface RenderContext {
  site: Site;
  /** Base path the site is served under, ending in "/" (usually "/"). */
  base: string;
  assets: {
    css: string;
    js: string;
    /** The inline head script (decides banner and theme before first paint). */
    headScript: string;
    csp: string;
    /** Title and heading words for correcting typos in local search queries. */
    searchTerms?: string;
    /** The search engine of the local index (a module the interaction script imports when needed). */
    searchEngine?: string;
  };
  /** Last change of each source file, from git (ISO date), when known. */
  lastUpdated: Map<string, string>;
  /** Navigation lists built once per build (see templates/nav.ts). */
  nav: NavCache;
}

export interface PageProps {
  ctx: RenderContext;
  page: SitePage;
  /** Rendered body HTML. */
  body: string;
}

/**
 * A link as written in the output: a path of this site gets the base path, and
 * so does an absolute URL into this site (under site.url, such as the language
 * entry of the site itself), which becomes a path; other URLs stay as they are.
 */
export function href(ctx: RenderContext, url: string): string {
  const own = ctx.site.config.site.url.replace(/\/$/, '');
  if (url === own || url.startsWith(own + '/')) url = url.slice(own.length) || '/';
  else if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(url)) return url;
  return ctx.base === '/' ? url : ctx.base.replace(/\/$/, '') + url;
}

export function isExternal(url: string): boolean {
  return /^(https?:)?\/\//i.test(url);
}
