/*
 * "On this page" of wide screens (the right column): the entry of the section
 * being read is marked aria-current="true" as the page scrolls. Without script
 * the column is a plain list of links.
 */
import { onScrollFrame } from './layout.js';

/** How far below the top of the window a heading counts as reached (px). */
export const TOC_OFFSET = 96;

/**
 * The index of the section being read: the last heading at or above the offset line; at the end of the page,
 * where the last sections can never reach that line, the last heading in view. -1 above the first heading.
 */
export function currentSection(tops: readonly number[], offset: number, viewport: number, atEnd: boolean): number {
  let current = -1;
  tops.forEach((top, i) => {
    if (top <= offset || (atEnd && top < viewport)) current = i;
  });
  return current;
}

export function initToc(): void {
  const toc = document.querySelector<HTMLElement>('.toc');
  if (!toc) return;
  const links = [...toc.querySelectorAll<HTMLAnchorElement>('a[href^="#"]')];
  const targets = links.map((a) => document.getElementById(decodeURIComponent(a.hash.slice(1))));
  const inner = toc.querySelector<HTMLElement>('.toc-inner');
  let marked: HTMLAnchorElement | undefined;
  const update = () => {
    // (Hidden below 1280 px: nothing to mark.)
    if (!toc.offsetParent) return;
    const root = document.documentElement;
    const atEnd = window.scrollY + window.innerHeight >= root.scrollHeight - 2;
    const tops = targets.map((el) => (el ? el.getBoundingClientRect().top : Infinity));
    const link = links[currentSection(tops, TOC_OFFSET, window.innerHeight, atEnd)];
    if (link === marked) return;
    marked?.removeAttribute('aria-current');
    marked = link;
    if (!link) return;
    link.setAttribute('aria-current', 'true');
    // The marked entry stays in view in a column taller than the window.
    if (inner && inner.scrollHeight > inner.clientHeight) {
      const box = link.getBoundingClientRect();
      const frame = inner.getBoundingClientRect();
      if (box.top < frame.top) inner.scrollTop -= frame.top - box.top + 8;
      else if (box.bottom > frame.bottom) inner.scrollTop += box.bottom - frame.bottom + 8;
    }
  };
  const queue = onScrollFrame(update);
  window.addEventListener('hashchange', queue);
  // In the first frame, not now: measuring the headings here would lay the page out before it is shown.
  queue();
}
