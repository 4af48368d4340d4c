import type { RenderContext } from '../types.js';
import { href } from '../types.js';
import { SearchIcon } from './Icons.js';

/**
 * The header search box: an ARIA combobox with a listbox of results (a text
 * input, as in the ARIA Authoring Practices' combobox: HTML allows the
 * combobox role and aria-expanded on type="text", not on type="search"). Which
 * backend it queries is in data attributes; nothing of search is downloaded
 * before the box is first focused (or "/" pressed).
 */
export function Search({ ctx }: { ctx: RenderContext }) {
  const search = ctx.site.config.search;
  const { ui } = ctx.theme;
  const data: Record<string, string> =
    search.provider === 'local'
      ? {
          'data-provider': 'local',
          'data-engine': href(ctx, ctx.assets.searchEngine ?? ''),
          'data-index': href(ctx, `/${ctx.site.trees?.[ctx.site.tree ?? 0]!.prefix ?? ''}search-index/`),
          'data-terms': href(ctx, ctx.assets.searchTerms ?? ''),
        }
      : {
          'data-provider': 'algolia',
          'data-app-id': search.appId,
          'data-api-key': search.apiKey,
          'data-index-name': search.indexName,
          'data-host': search.host ?? `https://${search.appId.toLowerCase()}-dsn.algolia.net`,
        };
  return (
    <div className="search" role="search">
      <label className="sr-only" htmlFor="search-input">{ui.searchLabel}</label>
      <input
        id="search-input"
        className="search-input"
        type="text"
        enterKeyHint="search"
        placeholder={ui.searchPlaceholder}
        autoComplete="off"
        spellCheck={false}
        role="combobox"
        aria-expanded="false"
        aria-controls="search-results"
        aria-autocomplete="list"
        aria-keyshortcuts="/ Control+K Meta+K"
        {...data}
      />
      <button type="button" className="icon-button search-toggle" aria-label={ui.searchButton} aria-controls="search-input">
        <SearchIcon />
      </button>
      <div className="search-panel" id="search-panel" hidden>
        <p className="search-status" id="search-status" role="status" aria-live="polite" />
        <ul className="search-results" id="search-results" role="listbox" aria-label={ui.searchResults} />
      </div>
    </div>
  );
}
