import type { SiteConfig } from '../config/schema.js';

/*
 * The styles only a site in several languages or versions needs (see src/site/trees.ts): the version
 * menu (a disclosure, so that it works without the interaction script) and the notices above a page.
 * Added to the site's stylesheet only for such a site, so that a site of one tree keeps its bytes.
 */
export const TREES_CSS = `/* Languages and versions */
.version-menu { position: relative; }
.version-menu > summary {
  display: inline-flex; align-items: center; gap: 6px; height: 40px; padding: 0 10px; list-style: none;
  border-radius: var(--radius); color: var(--header-fg-soft); cursor: pointer; white-space: nowrap;
}
.version-menu > summary::-webkit-details-marker { display: none; }
.version-menu > summary:hover { color: var(--header-fg); }
.version-menu > summary:focus-visible { outline: 3px solid var(--header-accent); outline-offset: -3px; }
.version-menu > summary svg { transform: rotate(90deg); }
.version-menu[open] > summary svg { transform: rotate(-90deg); }
.version-menu > ul {
  position: absolute; inset-inline-end: 0; top: 100%; z-index: 3; min-width: 8rem; margin: 0; padding: 6px;
  list-style: none; background: var(--bg); border: 1px solid var(--border); border-radius: var(--radius);
  box-shadow: 0 8px 24px rgba(0, 0, 0, 0.18);
}
.version-menu a { display: block; padding: 6px 10px; color: var(--fg); text-decoration: none; border-radius: 4px; }
.version-menu a:hover, .version-menu a[aria-current="page"], .lang-menu a[aria-current="page"] { background: var(--bg-soft); }
.version-banner, .fallback-notice { max-width: 50rem; margin: 0 auto 1rem; }
.version-banner { border: 1px solid var(--border); border-radius: var(--radius); }
[dir="rtl"] .lang-menu { right: auto; left: 0; }
`;

/** Whether the config makes a site of several trees: languages of its own or versions. */
export const hasTrees = (config: SiteConfig) => config.versions.length > 0 || config.languages.some((entry) => 'code' in entry);
