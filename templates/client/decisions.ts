/*
 * Pure decisions of the interaction script (SPEC §4, §9). The DOM wiring in
 * the other modules only carries them out; these are unit-tested at their
 * boundaries.
 */

export const SWIPE_THRESHOLD = 100; // px, strictly more than this
export const SWIPE_MAX_RATIO = 0.8; // |dy| / |dx|, strictly under this
export const OPENER_DRAG_LIMIT = 295; // px, the drag stays under this
export const RECALC_DELAY = 250; // ms after load

export interface Point {
  x: number;
  y: number;
}

/** What a finished swipe does to the phone menu: open it, close it, or nothing. */
export function swipeDecision(start: Point, end: Point, startedOnHandle: boolean, menuOpen: boolean): 'open' | 'close' | null {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  if (dx === 0 || Math.abs(dy) / Math.abs(dx) >= SWIPE_MAX_RATIO) return null;
  if (menuOpen && dx < -SWIPE_THRESHOLD) return 'close';
  if (!menuOpen && startedOnHandle && dx > SWIPE_THRESHOLD) return 'open';
  return null;
}

/**
 * The language dropdown's next state (SPEC §4: active on mouse over, inactive
 * on mouse leave). A mouse opens it by hovering, and a click never closes
 * what the hover opened; touch and pen, which have no hover, toggle it with a
 * tap; a keyboard click (no pointer type) toggles it too.
 */
export function languageMenuNext(open: boolean, event: 'enter' | 'leave' | 'click', pointerType: string): boolean {
  const mouse = pointerType === 'mouse';
  if (event === 'click') return mouse || !open;
  return mouse ? event === 'enter' : open;
}

/** How far the opener drag moves the menu: follows the finger, never back, and stays under 295 px. */
export function openerDragOffset(dx: number): number {
  return Math.max(0, Math.min(dx, OPENER_DRAG_LIMIT - 1));
}

/** Chat button lift: 0 unless the distance left to the page bottom is smaller than the footer. */
export function chatButtonOffset(scrollY: number, viewportHeight: number, pageHeight: number, footerHeight: number): number {
  const remaining = pageHeight - (scrollY + viewportHeight);
  return remaining < footerHeight ? footerHeight - Math.max(0, remaining) : 0;
}

/**
 * Where to look for page controls under the round chat button: nine points
 * inside its circle (a 3×3 grid at 20%, 50% and 80% of its box).
 */
export function chatButtonProbes(left: number, top: number, size: number): Point[] {
  const at = [0.2, 0.5, 0.8].map((f) => f * size);
  return at.flatMap((dy) => at.map((dx) => ({ x: left + dx, y: top + dy })));
}

/** The sidebar is fixed once the scroll passes header plus banner and it is shorter than its parent. */
export function isSidebarFixed(scrollY: number, headerHeight: number, bannerHeight: number, sidebarHeight: number, parentHeight: number): boolean {
  return scrollY > headerHeight + bannerHeight && sidebarHeight < parentHeight;
}

/** The fixed sidebar's height: the viewport below the header, less the part of the footer in view. */
export function sidebarHeight(viewportHeight: number, headerHeight: number, footerTop: number): number {
  const bottom = Math.min(viewportHeight, footerTop);
  return Math.max(0, bottom - headerHeight);
}

/** Theme cycle of the header toggle: system → light → dark → system. */
export function nextTheme(current: string | null): 'light' | 'dark' | 'system' {
  if (current === 'light') return 'dark';
  if (current === 'dark') return 'system';
  return 'light';
}

/** Text a copy button puts on the clipboard: removed diff lines dropped (markers are never in the text). */
export function copyText(lines: Array<{ text: string; removed: boolean }>): string {
  return lines
    .filter((l) => !l.removed)
    .map((l) => l.text)
    .join('\n');
}
