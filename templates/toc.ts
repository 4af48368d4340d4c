import { pageHtml } from '../src/content/load.js';
import type { SitePage } from '../src/site/model.js';
import { decodeReferences } from '../src/shared/html.js';

/*
 * The entries of the "On this page" column of wide screens: the page's h2
 * headings and, under each, its h3 headings. The h2s are the page's anchors
 * (what the sidebar and the phone "Contents" list); the h3s are read from the
 * page's rendered body, only while there are at most TOC_H3_LIMIT of them (a
 * reference page with hundreds of options lists its sections, not every option).
 */

export const TOC_H3_LIMIT = 60;

export interface TocEntry {
  id: string;
  title: string;
  children: Array<{ id: string; title: string }>;
}

/** In the rendered body: the opening tag of an h2 (its id), or a whole h3 (its id and content; an h3 is one line). */
const HEADING = /<h2\b[^>]*?\sid="([^"]*)"|<h3\b[^>]*?\sid="([^"]*)"[^>]*>(.*?)<\/h3>/g;

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' };

/** The text of a fragment of serialised HTML: tags dropped, character references read. */
export function htmlText(html: string): string {
  return decodeReferences(html.replace(/<[^>]*>/g, ''), ENTITIES).replace(/\s+/g, ' ').trim();
}

/**
 * The "On this page" entries of a page (footnotes left out: they are not a section of the text). The body is
 * read again (from memory or the render cache) only when the page has
 * between one and TOC_H3_LIMIT h3 headings: `headings` holds the text of its h2s and h3s, `anchors` its h2s.
 */
export function tocEntries(page: Pick<SitePage, 'anchors' | 'headings' | 'html' | 'htmlInCache' | 'sourceKey' | 'sourcePath'>): TocEntry[] {
  const anchors = page.anchors.filter((anchor) => anchor.id !== 'footnote-label');
  const plain = anchors.map((anchor): TocEntry => ({ id: anchor.id, title: anchor.title, children: [] }));
  const h3Count = page.headings.length - page.anchors.length;
  if (h3Count < 1 || h3Count > TOC_H3_LIMIT) return plain;
  const known = new Map(plain.map((entry) => [entry.id, entry]));
  const entries: TocEntry[] = [];
  let current: TocEntry | undefined;
  try {
    for (const m of pageHtml(page as SitePage).matchAll(HEADING)) {
      const [, h2, h3, inner = ''] = m;
      if (h2 !== undefined) {
        current = known.get(h2);
        if (current) entries.push(current);
      } else if (current && h3 !== undefined) {
        const title = htmlText(inner);
        if (title) current.children.push({ id: h3, title });
      }
    }
  } catch {
    // (A body that cannot be read again: the page lists its h2s, as the sidebar does.)
    return plain;
  }
  // The body read differently from the anchors (it should not): the anchors alone, as the sidebar has them.
  if (entries.length !== plain.length) return plain.map((entry) => ({ ...entry, children: [] }));
  return entries;
}
