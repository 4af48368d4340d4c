import { describe, expect, it } from 'vitest';
import type { Site } from '../../src/site/model.js';
import { ANCHORS_FULL_LIMIT, createNavCache, MENU_FULL_LIMIT, SIDEBAR_FULL_LIMIT, SIDEBAR_WINDOW } from '../../templates/nav.js';

function fakeSite(sections: Array<{ url: string; pages: number; anchors: number }>): Site {
  return {
    sections: sections.map((s, i) => ({
      title: `Section ${i}`,
      url: s.url,
      pages: [
        { url: s.url, title: `Section ${i}`, group: '-', anchors: [] },
        ...Array.from({ length: s.pages }, (_, p) => ({
          url: `${s.url}p${p}/`,
          title: `Page ${i}.${p}`,
          group: p < 2 ? 'First' : '-',
          anchors: Array.from({ length: s.anchors }, (_, a) => ({ title: `A${a}`, id: `a${a}` })),
        })),
      ],
    })),
  } as unknown as Site;
}
const identity = (url: string) => url;
const count = (html: string, needle: string) => html.split(needle).length - 1;

describe('navigation lists', () => {
  it('lists every page with its anchors in a small section, and marks the current one', () => {
    const nav = createNavCache(fakeSite([{ url: '/a/', pages: 3, anchors: 2 }]), identity);
    const html = nav.sidebarItems(0, '/a/p1/');
    expect(count(html, 'class="sidebar-item')).toBe(4);
    expect(count(html, '<p class="sidebar-group">First</p>')).toBe(1);
    expect(html).toContain('<a href="/a/p1/" aria-current="page" class="active">Page 0.1</a>');
    expect(html).toContain('<a href="#a0">A0</a>'); // the current page's anchors
    expect(html).toContain('<a href="/a/p2/#a1">A1</a>'); // another page's anchors
  });

  it("keeps only the current page's anchors once a section has too many", () => {
    const pages = Math.ceil(ANCHORS_FULL_LIMIT / 5) + 1;
    const html = createNavCache(fakeSite([{ url: '/a/', pages, anchors: 5 }]), identity).sidebarItems(0, '/a/p3/');
    expect(count(html, 'class="sidebar-anchors"')).toBe(1);
    expect(count(html, 'class="sidebar-item')).toBe(pages + 1);
  });

  it('shows a window around the current page in a very large section', () => {
    const pages = SIDEBAR_FULL_LIMIT + 100;
    const html = createNavCache(fakeSite([{ url: '/a/', pages, anchors: 0 }]), identity).sidebarItems(0, '/a/p200/');
    expect(count(html, 'class="sidebar-item')).toBe(1 + SIDEBAR_WINDOW * 2 + 1);
    expect(html).toContain(`<a href="/a/">${200 - SIDEBAR_WINDOW} more pages in Section 0</a>`);
    expect(html).toContain(`<a href="/a/">${pages - 201 - SIDEBAR_WINDOW} more pages in Section 0</a>`);
    // The section index lists every page.
    expect(count(createNavCache(fakeSite([{ url: '/a/', pages, anchors: 0 }]), identity).sidebarItems(0, '/a/'), 'class="sidebar-item')).toBe(pages + 1);
  });

  it("lists every section's pages in the phone menu of a normal site, only the current section's in a huge one", () => {
    const small = createNavCache(fakeSite([{ url: '/a/', pages: 3, anchors: 0 }, { url: '/b/', pages: 3, anchors: 0 }]), identity).menu(1, '/b/p0/');
    expect(count(small, '<li>')).toBe(6);
    expect(small).toContain('<a aria-current="true" class="active" href="/b/">Section 1</a>');
    expect(small).toContain('<a href="/b/p0/" aria-current="page" class="active">Page 1.0</a>');
    const big = createNavCache(fakeSite([{ url: '/a/', pages: MENU_FULL_LIMIT, anchors: 0 }, { url: '/b/', pages: 3, anchors: 0 }]), identity).menu(1, '/b/p0/');
    expect(count(big, '<li>')).toBe(3);
    expect(big).toContain('href="/a/">Section 0</a>');
  });

  it('shows the same window as the sidebar in the phone menu of a very large section', () => {
    const pages = SIDEBAR_FULL_LIMIT + 100;
    const nav = createNavCache(fakeSite([{ url: '/a/', pages, anchors: 0 }, { url: '/b/', pages: 3, anchors: 0 }]), identity);
    const html = nav.menu(0, '/a/p200/');
    // The window, and the 3 pages of the other section (the site is small enough to list them).
    expect(count(html, '<li>')).toBe(SIDEBAR_WINDOW * 2 + 1 + 3);
    expect(html).toContain('<a href="/a/p200/" aria-current="page" class="active">Page 0.200</a>');
    expect(html).toContain(`<li class="mobile-more"><a href="/a/">${200 - SIDEBAR_WINDOW} more pages in Section 0</a></li>`);
    expect(html).toContain(`<li class="mobile-more"><a href="/a/">${pages - 201 - SIDEBAR_WINDOW} more pages in Section 0</a></li>`);
    // On the section's own index page the window starts at its first page.
    const index = nav.menu(0, '/a/');
    expect(index).toContain('<a href="/a/p0/">Page 0.0</a>');
    expect(count(index, '<li>')).toBe(SIDEBAR_WINDOW + 1 + 3);
    expect(index).toContain(`${pages - SIDEBAR_WINDOW - 1} more pages in Section 0`);
  });
});
