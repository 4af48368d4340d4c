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

export function href(ctx: RenderContext, url: string): string {
  if (/^([a-z][a-z0-9+.-]*:|\/\/)/i.test(url)) return url;
  return ctx.base === '/' ? url : ctx.base.replace(/\/$/, '') + url;
}

export function isExternal(url: string): boolean {
  return /^(https?:)?\/\//i.test(url);
}
