import { chatButtonOffset, chatButtonProbes, isSidebarFixed, RECALC_DELAY, sidebarHeight } from './decisions.js';

/** Desktop sidebar: chevrons, and the fixed position recalculated on scroll and 250 ms after load. */
export function initSidebar(): void {
  const sidebar = document.querySelector<HTMLElement>('#sidebar');
  if (!sidebar) return;
  sidebar.addEventListener('click', (e) => {
    const chevron = (e.target as Element).closest<HTMLButtonElement>('.chevron');
    if (!chevron) return;
    const item = chevron.closest('.sidebar-item')!;
    const open = !item.classList.contains('open');
    item.classList.toggle('open', open);
    chevron.setAttribute('aria-expanded', String(open));
  });
  const inner = sidebar.querySelector<HTMLElement>('.sidebar-inner')!;
  const parent = sidebar.parentElement!;
  const header = document.querySelector<HTMLElement>('.header');
  const footer = document.querySelector<HTMLElement>('#footer');
  const update = () => {
    const banners = [...document.querySelectorAll<HTMLElement>('.banner, .notification')].reduce((h, el) => h + el.offsetHeight, 0);
    const headerHeight = header?.offsetHeight ?? 0;
    // The in-flow height is what decides; measure it without the fixed height applied.
    const naturalHeight = inner.scrollHeight;
    const fixed = isSidebarFixed(window.scrollY, headerHeight, banners, naturalHeight, parent.offsetHeight);
    sidebar.classList.toggle('fixed', fixed);
    inner.style.height = fixed ? `${sidebarHeight(window.innerHeight, 0, footer ? footer.getBoundingClientRect().top : Infinity)}px` : '';
  };
  schedule(update);
}

/** The floating chat button never covers the footer, and steps aside while it is over a link or button of the page. */
export function initChatButton(): void {
  const button = document.querySelector<HTMLElement>('#chat-button');
  const footer = document.querySelector<HTMLElement>('#footer');
  const content = document.querySelector<HTMLElement>('#content');
  if (!button || !footer || !content) return;
  // (The page's controls: those of the main content, and the links of the "On this page" column beside it.)
  const control = (el: Element) => el !== content && (content.contains(el) || !!el.closest('.toc')) && !!el.closest('a[href], button, input, select, textarea, summary');
  const update = () => {
    const offset = chatButtonOffset(window.scrollY, window.innerHeight, document.documentElement.scrollHeight, footer.offsetHeight);
    button.style.transform = offset ? `translateY(${-offset}px)` : '';
    const box = button.getBoundingClientRect();
    const covers = chatButtonProbes(box.left, box.top, box.width).some((p) => document.elementsFromPoint(p.x, p.y).some(control));
    button.classList.toggle('aside', covers);
  };
  schedule(update);
}

/** Calls `update` at most once an animation frame while the page scrolls or the window changes size; returns the call to queue it for other events. */
export function onScrollFrame(update: () => void): () => void {
  let queued = false;
  const queue = () => {
    if (queued) return;
    queued = true;
    requestAnimationFrame(() => {
      queued = false;
      update();
    });
  };
  window.addEventListener('scroll', queue, { passive: true });
  window.addEventListener('resize', queue, { passive: true });
  return queue;
}

function schedule(update: () => void): void {
  onScrollFrame(update);
  const later = () => setTimeout(update, RECALC_DELAY);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later);
}
