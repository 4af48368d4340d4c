import { describe, expect, it } from 'vitest';
import {
  chatButtonOffset,
  chatButtonProbes,
  copyText,
  isSidebarFixed,
  languageMenuNext,
  nextTheme,
  OPENER_DRAG_LIMIT,
  openerDragOffset,
  RECALC_DELAY,
  sidebarHeight,
  swipeDecision,
} from '../../templates/client/decisions.js';
import { anchorHref, groupHeadingFor, isItemOpen, opensInNewTab } from '../../templates/logic.js';

const o = { x: 0, y: 300 };

describe('swipe decisions (SPEC §4, §9)', () => {
  it('opens on a right swipe of more than 100 px from the edge handle', () => {
    expect(swipeDecision(o, { x: 99, y: 300 }, true, false)).toBeNull();
    expect(swipeDecision(o, { x: 100, y: 300 }, true, false)).toBeNull();
    expect(swipeDecision(o, { x: 101, y: 300 }, true, false)).toBe('open');
  });
  it('opens only when the swipe started on the handle', () => {
    expect(swipeDecision(o, { x: 150, y: 300 }, false, false)).toBeNull();
  });
  it('closes on a left swipe of more than 100 px', () => {
    const start = { x: 250, y: 300 };
    expect(swipeDecision(start, { x: 151, y: 300 }, false, true)).toBeNull();
    expect(swipeDecision(start, { x: 150, y: 300 }, false, true)).toBeNull();
    expect(swipeDecision(start, { x: 149, y: 300 }, false, true)).toBe('close');
  });
  it('counts a swipe only when mostly horizontal (|dy|/|dx| under 0.8)', () => {
    expect(swipeDecision(o, { x: 200, y: 300 + 158 }, true, false)).toBe('open'); // 0.79
    expect(swipeDecision(o, { x: 200, y: 300 + 160 }, true, false)).toBeNull(); // 0.8
    expect(swipeDecision(o, { x: 200, y: 300 - 160 }, true, false)).toBeNull(); // upwards too
    expect(swipeDecision({ x: 250, y: 300 }, { x: 50, y: 300 + 158 }, false, true)).toBe('close');
    expect(swipeDecision({ x: 250, y: 300 }, { x: 50, y: 300 + 160 }, false, true)).toBeNull();
    expect(swipeDecision(o, { x: 0, y: 500 }, true, false)).toBeNull();
  });
  it('does nothing when the swipe would not change the state', () => {
    expect(swipeDecision(o, { x: 200, y: 300 }, true, true)).toBeNull();
    expect(swipeDecision({ x: 250, y: 300 }, { x: 50, y: 300 }, false, false)).toBeNull();
  });
  it('limits the opener drag to under 295 px and never below 0', () => {
    expect(OPENER_DRAG_LIMIT).toBe(295);
    expect(openerDragOffset(-20)).toBe(0);
    expect(openerDragOffset(200)).toBe(200);
    expect(openerDragOffset(294)).toBe(294);
    expect(openerDragOffset(295)).toBe(294);
    expect(openerDragOffset(400)).toBe(294);
  });
});

describe('chat button offset', () => {
  // page 3000 px, viewport 800 px, footer 200 px: the footer starts entering view at scrollY 2000.
  it('is 0 while the distance to the page bottom is at least the footer height', () => {
    expect(chatButtonOffset(0, 800, 3000, 200)).toBe(0);
    expect(chatButtonOffset(2000, 800, 3000, 200)).toBe(0); // remaining 200 = footer
  });
  it('is the footer height minus the remaining distance once that is smaller', () => {
    expect(chatButtonOffset(2001, 800, 3000, 200)).toBe(1);
    expect(chatButtonOffset(2100, 800, 3000, 200)).toBe(100);
    expect(chatButtonOffset(2200, 800, 3000, 200)).toBe(200); // at the very bottom
  });
});

describe('chat button probes', () => {
  it('are nine points inside the round button', () => {
    const probes = chatButtonProbes(300, 600, 40);
    expect(probes).toHaveLength(9);
    expect(probes).toContainEqual({ x: 320, y: 620 }); // the centre
    expect(probes).toContainEqual({ x: 308, y: 608 });
    expect(probes).toContainEqual({ x: 332, y: 632 });
    for (const p of probes) expect(Math.hypot(p.x - 320, p.y - 620)).toBeLessThan(20);
  });
});

describe('language dropdown (SPEC §4: active on mouse over, inactive on mouse leave)', () => {
  it('opens on mouse over and closes on mouse leave', () => {
    expect(languageMenuNext(false, 'enter', 'mouse')).toBe(true);
    expect(languageMenuNext(true, 'leave', 'mouse')).toBe(false);
  });
  it('keeps open on a mouse click when hover opened it, and opens on a mouse click when closed', () => {
    expect(languageMenuNext(true, 'click', 'mouse')).toBe(true);
    expect(languageMenuNext(false, 'click', 'mouse')).toBe(true);
  });
  it('ignores touch and pen entering and leaving (they have no hover): a tap toggles', () => {
    for (const type of ['touch', 'pen']) {
      expect(languageMenuNext(false, 'enter', type)).toBe(false);
      expect(languageMenuNext(true, 'enter', type)).toBe(true);
      expect(languageMenuNext(true, 'leave', type)).toBe(true);
      expect(languageMenuNext(false, 'leave', type)).toBe(false);
      expect(languageMenuNext(false, 'click', type)).toBe(true);
      expect(languageMenuNext(true, 'click', type)).toBe(false);
    }
  });
  it('toggles on a keyboard click (no pointer type)', () => {
    expect(languageMenuNext(false, 'click', '')).toBe(true);
    expect(languageMenuNext(true, 'click', '')).toBe(false);
  });
});

describe('sidebar position', () => {
  it('becomes fixed once the scroll passes header plus banner height', () => {
    expect(isSidebarFixed(100, 60, 40, 500, 2000)).toBe(false);
    expect(isSidebarFixed(101, 60, 40, 500, 2000)).toBe(true);
  });
  it('stays in flow when it is not shorter than its parent', () => {
    expect(isSidebarFixed(500, 60, 40, 2000, 2000)).toBe(false);
    expect(isSidebarFixed(500, 60, 40, 1999, 2000)).toBe(true);
  });
  it('shrinks when the footer comes into view', () => {
    expect(sidebarHeight(800, 0, 5000)).toBe(800);
    expect(sidebarHeight(800, 0, 800)).toBe(800);
    expect(sidebarHeight(800, 0, 600)).toBe(600);
    expect(sidebarHeight(800, 0, -10)).toBe(0);
  });
  it('takes the header from the height it leaves the fixed sidebar', () => {
    expect(sidebarHeight(800, 60, 5000)).toBe(740);
    expect(sidebarHeight(800, 60, 600)).toBe(540);
    expect(sidebarHeight(800, 60, 40)).toBe(0);
  });
  it('is recalculated 250 ms after load', () => {
    expect(RECALC_DELAY).toBe(250);
  });
});

describe('desktop sidebar rules (SPEC §2)', () => {
  const pages = [
    { url: '/guides/', title: 'Guides', group: '-', anchors: [] },
    { url: '/guides/a/', title: 'A', group: 'Basics', anchors: [] },
    { url: '/guides/b/', title: 'B', group: 'Basics', anchors: [] },
    { url: '/guides/c/', title: 'C', group: '-', anchors: [] },
    { url: '/guides/d/', title: 'D', group: 'Advanced', anchors: [] },
    { url: '/guides/e/', title: 'E', group: 'Basics', anchors: [] },
  ];
  it('shows a group heading when the group differs from the previous page and is not "-"', () => {
    expect(pages.map((_, i) => groupHeadingFor(pages, i))).toEqual([null, 'Basics', null, null, 'Advanced', 'Basics']);
  });
  it('links anchors as #id on the current page and pageurl#id elsewhere', () => {
    expect(anchorHref('/guides/a/', 'install', '/guides/a/')).toBe('#install');
    expect(anchorHref('/guides/a/', 'install', '/guides/b/')).toBe('/guides/a/#install');
  });
  it('opens the item whose url ends with the current page', () => {
    expect(isItemOpen('/guides/a/', '/guides/a/')).toBe(true);
    expect(isItemOpen('/guides/a/', '/guides/b/')).toBe(false);
  });
  it('opens links starting with http or // in a new tab', () => {
    expect(opensInNewTab('https://example.com')).toBe(true);
    expect(opensInNewTab('http://example.com')).toBe(true);
    expect(opensInNewTab('//cdn.example.com')).toBe(true);
    expect(opensInNewTab('/guides/')).toBe(false);
    expect(opensInNewTab('#top')).toBe(false);
  });
});

describe('other decisions', () => {
  it('cycles the theme system → light → dark → system', () => {
    expect(nextTheme(null)).toBe('light');
    expect(nextTheme('light')).toBe('dark');
    expect(nextTheme('dark')).toBe('system');
  });
  it('copies code without removed diff lines', () => {
    expect(copyText([{ text: 'a', removed: false }, { text: 'b', removed: true }, { text: 'c', removed: false }])).toBe('a\nc');
  });
});
