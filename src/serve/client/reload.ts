/*
 * Live reload for `docs serve`, served as /__docs/reload.js (an external
 * script, so the page's Content-Security-Policy allows it as it is). It
 * listens to /__docs/events: `reload` reloads the page keeping the scroll
 * position; `state` shows or clears the build error overlay.
 */

/** The build state, as BuildState in src/serve/events.ts (`note` says what the page behind shows). */
type FailedState = { ok: false; title: string; problems: string[]; detail?: string; note?: string };
type State = { ok: true } | FailedState;

const OVERLAY_ID = 'docs-serve-overlay';
const MONOSPACE = 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace';
const SCROLL_KEY = `docs-serve:scroll:${location.pathname}`;

let dismissed = '';

restoreScroll();
connect();

function restoreScroll(): void {
  let saved: string | null = null;
  try {
    saved = sessionStorage.getItem(SCROLL_KEY);
    sessionStorage.removeItem(SCROLL_KEY);
  } catch {
    return;
  }
  if (!saved) return;
  const { x, y } = JSON.parse(saved) as { x: number; y: number };
  const restore = () => window.scrollTo(x, y);
  restore();
  // Images and fonts can still move things until the load event.
  if (document.readyState !== 'complete') window.addEventListener('load', restore, { once: true });
}

function reload(): void {
  try {
    sessionStorage.setItem(SCROLL_KEY, JSON.stringify({ x: window.scrollX, y: window.scrollY }));
  } catch {
    // Private mode without storage: reload anyway.
  }
  location.reload();
}

function connect(): void {
  // The hash of this document, so that a change made before the connection is not missed.
  const navigation = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined;
  const hash = navigation?.serverTiming?.find((entry) => entry.name === 'docs')?.description ?? '';
  const url = `/__docs/events?path=${encodeURIComponent(location.pathname)}&hash=${encodeURIComponent(hash)}`;
  const source = new EventSource(url);
  source.addEventListener('reload', reload);
  source.addEventListener('state', (event) => {
    const state = JSON.parse((event as MessageEvent<string>).data) as State;
    if (state.ok) hideOverlay('');
    else showOverlay(state);
  });
}

/** A new element with its look and, when given, its text. */
function element<K extends keyof HTMLElementTagNameMap>(tag: K, css: Partial<CSSStyleDeclaration>, text?: string): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  // Through the CSSOM, which the policy's style-src 'self' allows (style attributes in markup it would not).
  Object.assign(made.style, css);
  if (text !== undefined) made.textContent = text;
  return made;
}

/** Removes the overlay; `key` is the state the reader dismissed (not shown again), '' once the build is good. */
function hideOverlay(key: string): void {
  dismissed = key;
  document.getElementById(OVERLAY_ID)?.remove();
}

function showOverlay(state: FailedState): void {
  const key = JSON.stringify(state);
  if (key === dismissed) return;
  document.getElementById(OVERLAY_ID)?.remove();

  const overlay = element('div', {
    position: 'fixed',
    inset: '0 0 auto',
    zIndex: '2147483647',
    maxHeight: '70vh',
    overflow: 'auto',
    boxSizing: 'border-box',
    padding: '16px 20px',
    background: '#1b1b1f',
    color: '#f4f4f5',
    borderBottom: '4px solid #f87171',
    boxShadow: '0 8px 24px rgba(0,0,0,.35)',
    font: '15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif',
    textAlign: 'left',
  });
  overlay.id = OVERLAY_ID;
  overlay.setAttribute('role', 'alert');
  overlay.setAttribute('aria-labelledby', `${OVERLAY_ID}-title`);
  overlay.dataset.key = key;

  const header = element('div', { display: 'flex', alignItems: 'flex-start', justifyContent: 'space-between', gap: '16px' });
  const title = element('h2', { margin: '0 0 4px', fontSize: '18px', lineHeight: '1.3', color: '#fecaca', fontWeight: '700' }, state.title);
  title.id = `${OVERLAY_ID}-title`;
  const close = element('button', {
    flex: 'none',
    font: 'inherit',
    fontSize: '14px',
    padding: '4px 12px',
    color: '#1b1b1f',
    background: '#f4f4f5',
    border: '0',
    borderRadius: '4px',
    cursor: 'pointer',
  }, 'Dismiss');
  close.type = 'button';
  close.setAttribute('aria-label', 'Dismiss the build errors');
  close.addEventListener('click', () => hideOverlay(key));
  header.append(title, close);

  const note = element('p', { margin: '0 0 12px', color: '#d4d4d8' }, state.note ?? 'Fix the files below; this message goes away by itself.');
  const list = element('ul', { margin: '0', padding: '0', listStyle: 'none' });
  for (const line of state.problems) {
    const item = element('li', { margin: '0 0 8px', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' });
    const space = line.indexOf(' ');
    const where = element('code', { font: `14px/1.5 ${MONOSPACE}`, color: '#fde68a' }, space < 0 ? line : line.slice(0, space));
    item.append(where, space < 0 ? '' : line.slice(space));
    list.append(item);
  }
  overlay.append(header, note, list);
  if (state.detail) {
    const css = { margin: '0', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', font: `13px/1.45 ${MONOSPACE}`, color: '#e4e4e7' };
    overlay.append(element('pre', css, state.detail));
  }
  document.body.append(overlay);
}

document.addEventListener('keydown', (event) => {
  const overlay = document.getElementById(OVERLAY_ID);
  if (event.key === 'Escape' && overlay) hideOverlay(overlay.dataset.key ?? '');
});

export {};
