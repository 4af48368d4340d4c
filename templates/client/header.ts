/** Header search mode (SPEC §4): the search box takes over the header bar on narrow screens. */
export function setSearchMode(on: boolean): void {
  document.querySelector('.header')?.classList.toggle('search-mode', on);
}

export function initSearchMode(): void {
  const header = document.querySelector<HTMLElement>('.header');
  const input = document.querySelector<HTMLInputElement>('#search-input');
  const toggle = document.querySelector<HTMLButtonElement>('.search-toggle');
  if (!header || !input) return;
  const set = setSearchMode;
  let tabbed = false;
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Tab') tabbed = true;
  });
  document.addEventListener('mousedown', () => {
    tabbed = false;
  });
  input.addEventListener('focus', () => {
    if (tabbed) set(true);
  });
  input.addEventListener('blur', () => set(false));
  toggle?.addEventListener('click', () => {
    const on = !header.classList.contains('search-mode');
    set(on);
    if (on) input.focus();
  });
}

export function initLanguageMenu(): void {
  const lang = document.querySelector<HTMLElement>('.lang');
  const button = lang?.querySelector<HTMLButtonElement>('.lang-button');
  if (!lang || !button) return;
  const set = (on: boolean) => {
    lang.classList.toggle('active', on);
    button.setAttribute('aria-expanded', String(on));
  };
  lang.addEventListener('mouseenter', () => set(true));
  lang.addEventListener('mouseleave', () => set(false));
  button.addEventListener('click', () => {
    const on = !lang.classList.contains('active');
    set(on);
    if (on) lang.querySelector<HTMLAnchorElement>('.lang-menu a')?.focus();
  });
  lang.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && lang.classList.contains('active')) {
      set(false);
      button.focus();
    }
  });
  lang.addEventListener('focusout', (e) => {
    if (!lang.contains(e.relatedTarget as Node | null)) set(false);
  });
}
