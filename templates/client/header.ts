import { languageMenuNext } from './decisions.js';

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
  const isOpen = () => lang.classList.contains('active');
  const set = (on: boolean) => {
    lang.classList.toggle('active', on);
    button.setAttribute('aria-expanded', String(on));
  };
  // Pointer events tell mouse (hover), touch and pen (tap) apart; see languageMenuNext.
  lang.addEventListener('pointerenter', (e) => set(languageMenuNext(isOpen(), 'enter', e.pointerType)));
  lang.addEventListener('pointerleave', (e) => set(languageMenuNext(isOpen(), 'leave', e.pointerType)));
  let pointer = '';
  button.addEventListener('pointerdown', (e) => {
    pointer = e.pointerType;
  });
  button.addEventListener('click', (e) => {
    // A click with no pointer behind it (detail 0) came from the keyboard.
    const type = e.detail ? pointer : '';
    pointer = '';
    const was = isOpen();
    set(languageMenuNext(was, 'click', type));
    if (!type && !was) lang.querySelector<HTMLAnchorElement>('.lang-menu a')?.focus();
  });
  document.addEventListener('pointerdown', (e) => {
    if (isOpen() && !lang.contains(e.target as Node)) set(false);
  });
  lang.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && isOpen()) {
      set(false);
      button.focus();
    }
  });
  lang.addEventListener('focusout', (e) => {
    if (!lang.contains(e.relatedTarget as Node | null)) set(false);
  });
}
