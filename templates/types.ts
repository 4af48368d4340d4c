import type { SiteConfig } from '../src/config/schema.js';
import type { HeroImage, Site, SitePage } from '../src/site/model.js';
import type { ResolvedTheme } from '../src/theme/theme.js';
import type { Components } from '../src/theme/components.js';
import type { NavCache } from './nav.js';

export type { ResolvedTheme };

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
    /** A hash of the site's own components (config `components:`), when it has any. */
    components?: string;
  };
  /** Last change of each source file, from git (ISO date), when known. */
  lastUpdated: Map<string, string>;
  /** Navigation lists built once per build (see templates/nav.ts). */
  nav: NavCache;
  /** The look the config asks for: interface strings, colours, icon links, logo and favicon (src/theme/theme.ts). */
  theme: ResolvedTheme;
  /** The site's own components that replace built-in ones (config `components:`). */
  components: Components;
}

export interface PageProps {
  ctx: RenderContext;
  page: SitePage;
  /** Rendered body HTML. */
  body: string;
}

/*
 * The props of each part a site may replace (config `components:`). Every
 * override also gets `Default`, the built-in component, to wrap or fall back to.
 */
export interface HeaderProps {
  ctx: RenderContext;
  /** URL path of the current page ("" on the 404 page). */
  currentUrl: string;
}
export interface FooterProps {
  ctx: RenderContext;
}
export interface BannerProps {
  ctx: RenderContext;
  banner: NonNullable<SiteConfig['banner']>;
}
export interface SidebarProps {
  ctx: RenderContext;
  /** Index of the current section in ctx.site.sections. */
  section: number;
  currentUrl: string;
}
/** The landing home page (theme.home: landing): content/index.md with its hero and features. */
export interface HomeProps extends PageProps {
  hero: HomeHero;
  features: HomeFeature[];
}
export interface HomeHero {
  title: string;
  tagline?: string;
  actions: Array<{ text: string; url: string; primary: boolean }>;
  /** The picture beside the text (frontmatter hero.image), with its size: site paths, given the base by Home. */
  image?: HeroImage;
}
export interface HomeFeature {
  title: string;
  text: string;
  url?: string;
}
/** Head: elements added at the end of <head> of every page (page is undefined on the 404 page and printable sections). */
export interface HeadProps {
  ctx: RenderContext;
  page?: SitePage;
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

/** A path of this site as an absolute URL: site.url, the base path and the path. */
export const absoluteHref = (ctx: RenderContext, url: string) => ctx.site.config.site.url.replace(/\/$/, '') + href(ctx, url);

export function isExternal(url: string): boolean {
  return /^(https?:)?\/\//i.test(url);
}
