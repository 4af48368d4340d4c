import type { SidebarPage } from '../src/site/model.js';

/* Pure decisions of the server-rendered chrome (SPEC §2), tested at their boundaries. */

/** A group heading is shown when a page's group differs from the previous page's and is not '-'. */
export function groupHeadingFor(pages: readonly SidebarPage[], index: number): string | null {
  const group = pages[index]!.group;
  if (group === '-') return null;
  if (index > 0 && pages[index - 1]!.group === group) return null;
  return group;
}

/** Anchor links are #{id} on the current page and {pageurl}#{id} elsewhere. */
export function anchorHref(pageUrl: string, id: string, currentUrl: string): string {
  return pageUrl === currentUrl ? `#${id}` : `${pageUrl}#${id}`;
}

/** A sidebar item is open when its url ends with the current page. */
export function isItemOpen(itemUrl: string, currentUrl: string): boolean {
  return itemUrl.endsWith(currentUrl);
}

/** Links starting with http or // open in a new tab. */
export function opensInNewTab(url: string): boolean {
  return /^(http|\/\/)/.test(url);
}
