import { copyText, nextTheme } from './decisions.js';
import { storageGet, storageRemove, storageSet } from './storage.js';
import { t } from './strings.js';

let announcer: HTMLElement | undefined;
/** Says something to screen readers through one polite live region. */
export function announce(message: string): void {
  if (!announcer) {
    announcer = document.createElement('div');
    announcer.className = 'sr-only';
    announcer.setAttribute('aria-live', 'polite');
    document.body.append(announcer);
  }
  announcer.textContent = '';
  setTimeout(() => (announcer!.textContent = message), 50);
}

/** One delegated handler for every copy button of the page. */
export function initCopyButtons(): void {
  // The button's word is written with the page's content; the interface's language may differ.
  const label = t('copy');
  if (label) for (const button of document.querySelectorAll<HTMLButtonElement>('button[data-copy]')) if (button.textContent !== label) button.textContent = label;
  document.addEventListener('click', async (e) => {
    const button = (e.target as Element).closest<HTMLButtonElement>('button[data-copy]');
    if (!button) return;
    const lines = [...button.parentElement!.querySelectorAll<HTMLElement>('pre .line')].map((line) => ({
      text: line.textContent ?? '',
      removed: line.classList.contains('del'),
    }));
    try {
      await navigator.clipboard.writeText(copyText(lines));
      button.textContent = t('copied');
      button.dataset.copied = '';
      announce(t('copiedAnnouncement'));
      setTimeout(() => {
        button.textContent = t('copy');
        delete button.dataset.copied;
      }, 2000);
    } catch {
      announce(t('copyFailed'));
    }
  });
}

const TAB_KEY = 'tab-choice';

function selectTab(tab: HTMLElement, focus: boolean): void {
  const tabs = tab.closest('.tabs')!;
  for (const other of tabs.querySelectorAll<HTMLElement>(':scope > .tablist > [role="tab"]')) {
    const selected = other === tab;
    other.setAttribute('aria-selected', String(selected));
    other.tabIndex = selected ? 0 : -1;
    document.getElementById(other.getAttribute('aria-controls')!)?.classList.toggle('inactive', !selected);
  }
  if (focus) tab.focus();
}

/**
 * The element the address's #anchor names, shown when it is in a tab that is
 * not: its tab (and the tabs around that) selected, then scrolled to (the
 * browser could not scroll to it while it was hidden).
 */
function revealTarget(): void {
  let target: HTMLElement | null = null;
  try {
    target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  } catch {
    return;
  }
  let hidden = false;
  for (let panel = target?.closest<HTMLElement>('[role="tabpanel"]'); panel; panel = panel.parentElement?.closest<HTMLElement>('[role="tabpanel"]')) {
    if (!panel.classList.contains('inactive')) continue;
    const tab = document.querySelector<HTMLElement>(`[role="tab"][aria-controls="${CSS.escape(panel.id)}"]`);
    if (tab) selectTab(tab, false);
    hidden = true;
  }
  if (hidden) target!.scrollIntoView();
}

/** Tabs (ARIA tabs pattern); the chosen label is remembered across pages. */
export function initTabs(): void {
  const stored = storageGet(TAB_KEY);
  if (stored) {
    for (const tab of document.querySelectorAll<HTMLElement>('[role="tab"]')) {
      if (tab.dataset.label === stored) selectTab(tab, false);
    }
  }
  revealTarget();
  window.addEventListener('hashchange', revealTarget);
  document.addEventListener('click', (e) => {
    const tab = (e.target as Element).closest<HTMLElement>('[role="tab"]');
    if (!tab) return;
    selectTab(tab, false);
    storageSet(TAB_KEY, tab.dataset.label ?? '');
  });
  document.addEventListener('keydown', (e) => {
    const tab = (e.target as Element).closest?.<HTMLElement>('[role="tab"]');
    if (!tab) return;
    const list = [...tab.parentElement!.querySelectorAll<HTMLElement>('[role="tab"]')];
    const i = list.indexOf(tab);
    // The arrow towards the next tab as the row shows them: the left one in a right-to-left language.
    const step = getComputedStyle(tab).direction === 'rtl' ? -1 : 1;
    const next = { ArrowRight: i + step, ArrowLeft: i - step, Home: 0, End: list.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const target = list[(next + list.length) % list.length]!;
    selectTab(target, true);
    storageSet(TAB_KEY, target.dataset.label ?? '');
  });
}

/** Light, dark or system theme, stored under "theme". */
export function initThemeToggle(): void {
  const button = document.querySelector<HTMLButtonElement>('[data-theme-toggle]');
  if (!button) return;
  const name = (theme: string) => t(theme === 'dark' ? 'themeDark' : theme === 'light' ? 'themeLight' : 'themeSystem');
  const text = (theme: string) => t('themeToggle', { theme: name(theme) });
  const label = (theme: string) => button.setAttribute('aria-label', text(theme));
  label(storageGet('theme') ?? 'system');
  button.addEventListener('click', () => {
    const theme = nextTheme(storageGet('theme'));
    if (theme === 'system') {
      storageRemove('theme');
      document.documentElement.removeAttribute('data-theme');
    } else {
      storageSet('theme', theme);
      document.documentElement.setAttribute('data-theme', theme);
    }
    label(theme);
    announce(text(theme));
  });
}
