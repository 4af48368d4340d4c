import { openerDragOffset, OPENER_DRAG_LIMIT, swipeDecision, type Point } from './decisions.js';

/** The phone side menu: toggle button, outside click, link click, swipes (SPEC §4). */
export function initMobileMenu(): void {
  const menu = document.querySelector<HTMLElement>('#mobile-menu');
  const toggle = document.querySelector<HTMLButtonElement>('.menu-toggle');
  if (!menu || !toggle) return;
  const narrow = window.matchMedia('(max-width: 960px)');
  const isOpen = () => menu.classList.contains('visible');
  // The links are inert while the menu is closed; the edge handle stays touchable.
  const links = menu.querySelector<HTMLElement>('.mobile-menu-inner')!;
  const set = (open: boolean) => {
    menu.classList.toggle('visible', open);
    toggle.setAttribute('aria-expanded', String(open));
    links.toggleAttribute('inert', !open && narrow.matches);
  };
  set(false);
  narrow.addEventListener('change', () => set(false));

  toggle.addEventListener('click', (e) => {
    e.stopPropagation();
    set(!isOpen());
    if (isOpen()) menu.querySelector<HTMLAnchorElement>('a')?.focus();
  });
  menu.addEventListener('click', (e) => {
    if ((e.target as Element).closest('a')) set(false);
  });
  const outside = (e: Event) => {
    if (isOpen() && !menu.contains(e.target as Node) && !toggle.contains(e.target as Node)) set(false);
  };
  document.addEventListener('click', outside);
  document.addEventListener('touchstart', outside, { passive: true });
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && isOpen()) {
      set(false);
      toggle.focus();
    }
  });

  // Swipes. Listeners are passive so vertical scrolling is never blocked.
  let start: Point | null = null;
  let onHandle = false;
  menu.addEventListener(
    'touchstart',
    (e) => {
      const t = e.touches[0]!;
      start = { x: t.clientX, y: t.clientY };
      onHandle = !!(e.target as Element).closest('.mobile-menu-handle');
      if (!isOpen() && onHandle) menu.classList.add('dragging');
    },
    { passive: true },
  );
  menu.addEventListener(
    'touchmove',
    (e) => {
      if (!start || isOpen() || !onHandle) return;
      const dx = e.touches[0]!.clientX - start.x;
      menu.style.transform = `translateX(${openerDragOffset(dx) - OPENER_DRAG_LIMIT}px)`;
    },
    { passive: true },
  );
  const end = (e: TouchEvent) => {
    if (!start) return;
    const t = e.changedTouches[0]!;
    const decision = swipeDecision(start, { x: t.clientX, y: t.clientY }, onHandle, isOpen());
    menu.classList.remove('dragging');
    menu.style.transform = '';
    start = null;
    if (decision) set(decision === 'open');
  };
  menu.addEventListener('touchend', end, { passive: true });
  menu.addEventListener('touchcancel', () => {
    start = null;
    menu.classList.remove('dragging');
    menu.style.transform = '';
  });
}
