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
  // Tabbing on past its last link (or back before the toggle) closes it: focus never sits on the page under the open menu.
  document.addEventListener('focusin', outside);
  document.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' && isOpen()) {
      set(false);
      toggle.focus();
    }
  });

  // Swipes. Listeners are passive so vertical scrolling is never blocked. A swipe
  // counts from where it started: on the open menu, or (closed) on the edge
  // strip, whose box lets taps through to the page (pointer-events: none), so
  // that only a drag from it opens the menu. It ends where the finger was seen
  // farthest across at its last move or at touchend (see there).
  // In a right-to-left language the menu is at the right edge and opens towards the left: the gestures are read
  // mirrored (x counted from the right), so the same decisions hold, and a drag moves the menu the other way.
  const handle = menu.querySelector<HTMLElement>('.mobile-menu-handle')!;
  const side = document.documentElement.dir.toLowerCase() === 'rtl' ? -1 : 1;
  let start: Point | null = null;
  let last: Point = { x: 0, y: 0 };
  let onHandle = false;
  const at = (e: TouchEvent): Point => {
    const t = e.touches[0] ?? e.changedTouches[0]!;
    return { x: side * t.clientX, y: t.clientY };
  };
  const reset = () => {
    start = null;
    menu.classList.remove('dragging');
    menu.style.transform = '';
  };
  document.addEventListener(
    'touchstart',
    (e) => {
      const p = at(e);
      const edge = handle.getBoundingClientRect();
      onHandle = !isOpen() && narrow.matches && p.x < (side < 0 ? -edge.left : edge.right);
      start = onHandle || (isOpen() && menu.contains(e.target as Node)) ? p : null;
      last = p;
      if (onHandle) menu.classList.add('dragging');
    },
    { passive: true },
  );
  document.addEventListener(
    'touchmove',
    (e) => {
      if (!start) return;
      last = at(e);
      if (onHandle) menu.style.transform = `translateX(${side * (openerDragOffset(last.x - start.x) - OPENER_DRAG_LIMIT)}px)`;
    },
    { passive: true },
  );
  document.addEventListener(
    'touchend',
    (e) => {
      if (!start) return;
      // The last move may never reach the page when the finger lifts right after it; touchend then has the newer
      // place (and an older one when the browser has taken the gesture over): the one farther across counts.
      const end = at(e);
      if (Math.abs(end.x - start.x) > Math.abs(last.x - start.x)) last = end;
      const decision = swipeDecision(start, last, onHandle, isOpen());
      reset();
      if (decision) set(decision === 'open');
    },
    { passive: true },
  );
  document.addEventListener('touchcancel', reset, { passive: true });
}
