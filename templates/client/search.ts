import { setSearchMode } from './header.js';
import { correctQuery, fromHosted, moveActive, type SearchResult } from './search-logic.js';
import { t } from './strings.js';

/** The shortest time between two searches while typing (ms). */
const SEARCH_INTERVAL_MS = 40;

/*
 * The search box. Nothing is downloaded until the box is focused or "/" (or
 * Ctrl/Cmd+K) is pressed; then either the chunked local index or the hosted
 * service answers as the reader types.
 */

type Backend = ((query: string) => Promise<SearchResult[]>) & { preload?(query: string): void };

/**
 * Results shown. Each local result fetches its page's document; six is what a
 * browser fetches at once from an HTTP/1.1 host, so the results come in one round
 * (measured in Chromium on the real site: 8 results took a fifth longer).
 */
const MAX_RESULTS = 6;

function localBackend(input: HTMLInputElement): () => Promise<Backend> {
  return async () => {
    // A computed specifier keeps the bundler from trying to include the engine.
    const specifier = input.dataset.engine!;
    const { createSearchEngine } = (await import(specifier)) as typeof import('./search-engine.js');
    const folder = new URL(input.dataset.index!, window.location.href);
    const engine = createSearchEngine(async (path, fresh) => {
      const response = await fetch(new URL(path, folder), fresh ? { cache: 'reload' } : undefined);
      if (!response.ok) throw Object.assign(new Error(`search index: ${response.status} for ${path}`), { status: response.status });
      return new Uint8Array(await response.arrayBuffer());
    });
    let terms: Promise<string[]> | undefined;
    const backend = async (query: string): Promise<SearchResult[] & { corrected?: string }> => {
      const results = await engine.search(query, MAX_RESULTS);
      if (results.length) return results;
      terms ??= fetch(input.dataset.terms!).then((r) => r.json() as Promise<string[]>);
      const corrected = correctQuery(query, await terms);
      if (!corrected) return results;
      return Object.assign(await engine.search(corrected, MAX_RESULTS), { corrected });
    };
    // The index entry is fetched at once; the shards of the words typed so far start loading even while a burst of typing waits.
    void engine.preload('').catch(() => undefined);
    return Object.assign(backend, { preload: (query: string) => void engine.preload(query).catch(() => undefined) });
  };
}

function hostedBackend(input: HTMLInputElement): () => Promise<Backend> {
  const { appId, apiKey, indexName, host } = input.dataset;
  return async () => async (query: string) => {
    const response = await fetch(`${host}/1/indexes/${encodeURIComponent(indexName!)}/query`, {
      method: 'POST',
      headers: { 'X-Algolia-Application-Id': appId!, 'X-Algolia-API-Key': apiKey!, 'Content-Type': 'application/json' },
      body: JSON.stringify({ query, hitsPerPage: MAX_RESULTS, attributesToSnippet: ['content:24'], highlightPreTag: '<mark>', highlightPostTag: '</mark>' }),
    });
    if (!response.ok) throw new Error(`search service answered ${response.status}`);
    const body = (await response.json()) as { hits: Array<Parameters<typeof fromHosted>[0]> };
    return body.hits.map(fromHosted);
  };
}

/** Copies only text and <mark> from an excerpt: whatever else it holds never reaches the page. */
function appendExcerpt(target: HTMLElement, html: string): void {
  const doc = new DOMParser().parseFromString(`<body>${html}</body>`, 'text/html');
  const walk = (node: Node) => {
    for (const child of node.childNodes) {
      if (child.nodeType === Node.TEXT_NODE) target.append(child.textContent ?? '');
      else if (child.nodeName === 'MARK') {
        const mark = document.createElement('mark');
        mark.textContent = child.textContent;
        target.append(mark);
      } else walk(child);
    }
  };
  walk(doc.body);
}

export function initSearch(): void {
  const input = document.querySelector<HTMLInputElement>('#search-input');
  const panel = document.querySelector<HTMLElement>('#search-panel');
  const list = document.querySelector<HTMLUListElement>('#search-results');
  const status = document.querySelector<HTMLElement>('#search-status');
  if (!input || !panel || !list || !status) return;
  const load = input.dataset.provider === 'algolia' ? hostedBackend(input) : localBackend(input);
  let backend: Promise<Backend> | undefined;
  const ready = () => (backend ??= load());
  let active = -1;
  let returnFocus: HTMLElement | null = null;
  let seq = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const options = () => [...list.querySelectorAll<HTMLAnchorElement>('[role="option"]')];
  const setOpen = (open: boolean) => {
    panel.hidden = !open;
    input.setAttribute('aria-expanded', String(open));
    if (!open) setActive(-1);
  };
  const setActive = (index: number) => {
    active = index;
    options().forEach((option, i) => option.setAttribute('aria-selected', String(i === index)));
    const current = options()[index];
    if (current) {
      input.setAttribute('aria-activedescendant', current.id);
      current.scrollIntoView({ block: 'nearest' });
    } else input.removeAttribute('aria-activedescendant');
  };

  const render = (query: string, results: SearchResult[] & { corrected?: string }) => {
    list.replaceChildren(
      ...results.map((result, i) => {
        // The links themselves are the options: an option must not contain interactive content.
        const li = document.createElement('li');
        li.setAttribute('role', 'none');
        const link = document.createElement('a');
        link.id = `search-result-${i}`;
        link.setAttribute('role', 'option');
        link.setAttribute('aria-selected', 'false');
        link.href = result.url;
        link.tabIndex = -1;
        const title = document.createElement('span');
        title.className = 'search-result-title';
        if (result.label) appendExcerpt(title, result.label);
        else title.textContent = result.heading ? `${result.title} › ${result.heading}` : result.title;
        link.append(title);
        if (result.section) {
          const section = document.createElement('span');
          section.className = 'search-result-section';
          section.textContent = result.section;
          link.append(section);
        }
        const excerpt = document.createElement('span');
        excerpt.className = 'search-result-excerpt';
        appendExcerpt(excerpt, result.excerpt);
        link.append(excerpt);
        li.append(link);
        return li;
      }),
    );
    if (!results.length) status.textContent = t('searchNone', { query });
    else {
      const count = results.length === 1 ? t('searchOne') : t('searchMany', { count: results.length });
      status.textContent = results.corrected ? t('searchCorrected', { count, corrected: results.corrected, query }) : count;
    }
    list.dataset.query = query;
    setOpen(true);
    setActive(-1);
  };

  const runSearch = async () => {
    const query = input.value.trim();
    const mine = ++seq;
    if (!query) {
      list.replaceChildren();
      status.textContent = '';
      setOpen(false);
      return;
    }
    try {
      const results = await (await ready())(query);
      if (mine === seq) render(query, results);
    } catch (e) {
      if (mine !== seq) return;
      list.replaceChildren();
      // 503: the preview (docs serve) is still building the index; the same search runs again shortly.
      const building = (e as { status?: number }).status === 503;
      status.textContent = t(building ? 'searchBuilding' : 'searchUnavailable');
      setOpen(true);
      if (building) setTimeout(() => mine === seq && void runSearch(), 1000);
    }
  };

  input.addEventListener('focus', () => void ready(), { once: true });
  // At most one search per SEARCH_INTERVAL_MS while typing: a keystroke after a pause searches at
  // once, a fast burst searches again for its last text when the interval is over.
  let lastRun = -Infinity;
  const searchNow = () => {
    lastRun = performance.now();
    void runSearch();
  };
  input.addEventListener('input', () => {
    clearTimeout(timer);
    const query = input.value.trim();
    if (query) void ready().then((b) => b.preload?.(query));
    const wait = lastRun + SEARCH_INTERVAL_MS - performance.now();
    if (wait <= 0) searchNow();
    else timer = setTimeout(searchNow, wait);
  });
  input.addEventListener('keydown', (e) => {
    const next = moveActive(e.key, active, options().length);
    if (next !== null && !panel.hidden) {
      e.preventDefault();
      setActive(next);
    } else if (e.key === 'Enter') {
      const link = options()[active < 0 ? 0 : active];
      if (link) {
        e.preventDefault();
        window.location.assign(link.href);
      }
    } else if (e.key === 'Escape') {
      e.preventDefault();
      if (!panel.hidden) setOpen(false);
      else {
        input.value = '';
        (returnFocus ?? input).focus();
        if (returnFocus) setSearchMode(false);
        returnFocus = null;
      }
    }
  });
  // Keep focus in the box while a result is clicked, so blur does not close it first.
  list.addEventListener('mousedown', (e) => e.preventDefault());
  input.addEventListener('blur', () => setTimeout(() => setOpen(false), 150));
  input.addEventListener('focus', () => {
    if (input.value.trim() && list.children.length) setOpen(true);
  });

  document.addEventListener('keydown', (e) => {
    const target = e.target as HTMLElement;
    const typing = target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName);
    const shortcut = (e.key === '/' && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) || ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k');
    if (!shortcut || target === input) return;
    e.preventDefault();
    returnFocus = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
    setSearchMode(true);
    input.focus();
    void ready();
  });
}
