import type { SidebarPage, SidebarSection, Site } from '../src/site/model.js';
import { format, UI_EN, type UiStrings } from '../src/theme/ui.js';
import { anchorHref, groupHeadingFor } from './logic.js';
import { escapeHtml } from '../src/shared/html.js';

/*
 * The sidebar and phone-menu lists, built once per build. Every item is
 * rendered to HTML once in its "not current" form; a page only re-renders its
 * own item and marks its own links, so the cost per page does not grow with
 * the number of items it lists.
 *
 * At very large sizes the lists themselves would dominate every page (a
 * 10,000-page site listing every page on every page writes gigabytes), so:
 * the phone menu lists the pages of every section while the site has at most
 * MENU_FULL_LIMIT listed pages, and otherwise only those of the current
 * section (every section header stays), and of a section of more than
 * SIDEBAR_FULL_LIMIT pages the same window as the sidebar; the sidebar lists the anchors of
 * every item while a section has at most ANCHORS_FULL_LIMIT anchors in all,
 * and otherwise those of the current page only; a section of more than
 * SIDEBAR_FULL_LIMIT pages shows the SIDEBAR_WINDOW pages before and after
 * the current one, with links to the rest through its index page, which
 * lists them all.
 */

export const MENU_FULL_LIMIT = 500;
export const ANCHORS_FULL_LIMIT = 400;
export const SIDEBAR_FULL_LIMIT = 300;
export const SIDEBAR_WINDOW = 50;

const CHEVRON =
  '<svg width="14" height="14" viewBox="0 0 16 16" aria-hidden="true" focusable="false"><path fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" d="m6 3 5 5-5 5"></path></svg>';

export interface NavCache {
  /** The sidebar list items of a section, with the current page's item open and marked. */
  sidebarItems(section: number, currentUrl: string): string;
  /** The phone menu's sections, with the current section and page marked. */
  menu(section: number, currentUrl: string): string;
}

export function createNavCache(site: Site, link: (url: string) => string, ui: UiStrings = UI_EN): NavCache {
  const more = (count: number, section: SidebarSection) => escapeHtml(format(count === 1 ? ui.moreOne : ui.moreMany, { count, section: section.title }));
  const item = (section: SidebarSection, index: number, currentUrl: string | null, withAnchors: boolean): string => {
    const page = section.pages[index]!;
    const heading = groupHeadingFor(section.pages, index);
    const current = page.url === currentUrl;
    const anchors = withAnchors || current ? page.anchors : [];
    const listId = `sidebar-anchors-${index}`;
    let html = `<li class="sidebar-item${current ? ' open' : ''}">`;
    if (heading) html += `<p class="sidebar-group">${escapeHtml(heading)}</p>`;
    html += `<div class="sidebar-row"><a href="${escapeHtml(link(page.url))}"${current ? ' aria-current="page" class="active"' : ''}>${escapeHtml(page.title)}</a>`;
    if (anchors.length) {
      html += `<button type="button" class="chevron" aria-expanded="${current}" aria-controls="${listId}" aria-label="${escapeHtml(format(ui.anchorsOf, { title: page.title }))}">${CHEVRON}</button></div>`;
      html += `<ul class="sidebar-anchors" id="${listId}">`;
      for (const anchor of anchors) {
        const target = anchorHref(page.url, anchor.id, currentUrl ?? '');
        // (The footnotes' heading is the Markdown stage's English word: shown in the site's language.)
        const title = anchor.id === 'footnote-label' ? ui.footnotes : anchor.title;
        html += `<li><a href="${escapeHtml(target.startsWith('#') ? target : link(target))}">${escapeHtml(title)}</a></li>`;
      }
      html += '</ul>';
    } else html += '</div>';
    return html + '</li>';
  };

  const sidebarCache = new Map<number, string[]>();
  const sidebarItems = (s: number, currentUrl: string) => {
    const section = site.sections[s]!;
    const full = section.pages.reduce((n, p) => n + p.anchors.length, 0) <= ANCHORS_FULL_LIMIT;
    let items = sidebarCache.get(s);
    if (!items) {
      items = section.pages.map((_, i) => item(section, i, null, full));
      sidebarCache.set(s, items);
    }
    const index = section.pages.findIndex((p) => p.url === currentUrl);
    if (index < 0) return items.join('');
    const current = item(section, index, currentUrl, full);
    if (items.length <= SIDEBAR_FULL_LIMIT || index === 0) {
      return items.slice(0, index).join('') + current + items.slice(index + 1).join('');
    }
    // A window around the current page; the index page (item 0) always leads, and lists every page itself.
    const from = Math.max(1, index - SIDEBAR_WINDOW);
    const to = Math.min(items.length, index + SIDEBAR_WINDOW + 1);
    const moreItem = (count: number) => `<li class="sidebar-more"><a href="${escapeHtml(link(section.url))}">${more(count, section)}</a></li>`;
    return (
      items[0]! +
      (from > 1 ? moreItem(from - 1) : '') +
      items.slice(from, index).join('') +
      current +
      items.slice(index + 1, to).join('') +
      (to < items.length ? moreItem(items.length - to) : '')
    );
  };

  const listed = site.sections.reduce((n, s) => n + s.pages.length, 0);
  const menuFull = listed <= MENU_FULL_LIMIT;
  const blocks = site.sections.map((section) => {
    const items = section.pages
      .filter((p: SidebarPage) => p.url !== section.url)
      .map((p) => ({ url: p.url, html: `<li><a href="${escapeHtml(link(p.url))}">${escapeHtml(p.title)}</a></li>` }));
    return {
      header: `<p class="mobile-section-title"><a href="${escapeHtml(link(section.url))}">${escapeHtml(section.title)}</a></p>`,
      items,
      pages: `<ul>${items.map((item) => item.html).join('')}</ul>`,
    };
  });
  const menuMore = (section: SidebarSection, count: number) =>
    `<li class="mobile-more"><a href="${escapeHtml(link(section.url))}">${more(count, section)}</a></li>`;
  /** The current section's list: all of it, or a window around the current page in a very large section. */
  const currentPages = (section: SidebarSection, block: (typeof blocks)[number], currentUrl: string) => {
    const { items } = block;
    if (items.length <= SIDEBAR_FULL_LIMIT) return block.pages;
    const center = Math.max(0, items.findIndex((item) => item.url === currentUrl));
    const from = Math.max(0, center - SIDEBAR_WINDOW);
    const to = Math.min(items.length, center + SIDEBAR_WINDOW + 1);
    return (
      '<ul>' +
      (from > 0 ? menuMore(section, from) : '') +
      items.slice(from, to).map((item) => item.html).join('') +
      (to < items.length ? menuMore(section, items.length - to) : '') +
      '</ul>'
    );
  };
  const menu = (s: number, currentUrl: string) => {
    let html = '';
    site.sections.forEach((section, i) => {
      const block = blocks[i]!;
      let header = block.header;
      const sectionCurrent = section.url === currentUrl ? 'page' : i === s && section.url !== '/' ? 'true' : null;
      if (sectionCurrent) header = header.replace('<a ', `<a aria-current="${sectionCurrent}" class="active" `);
      let pages = i === s ? currentPages(section, block, currentUrl) : menuFull ? block.pages : '';
      if (i === s && section.url !== currentUrl) {
        pages = pages.replace(`<a href="${escapeHtml(link(currentUrl))}">`, `<a href="${escapeHtml(link(currentUrl))}" aria-current="page" class="active">`);
      }
      html += `<div class="mobile-section">${header}${pages}</div>`;
    });
    return html;
  };

  return { sidebarItems, menu };
}
