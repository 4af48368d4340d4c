import { pageHtml } from '../src/content/load.js';
import type { SitePage } from '../src/site/model.js';
import { htmlText } from './toc.js';

/*
 * The description of a page in its meta tags and link previews: its
 * frontmatter's `description`; else the text of its first paragraph, cut at a
 * word to DESCRIPTION_MAX characters; else the site's description (which the
 * home page takes before its first paragraph: it describes the site).
 */

export const DESCRIPTION_MAX = 200;
/** How much of the body is searched for the first paragraph. */
const READ_MAX = 64 * 1024;

/**
 * A paragraph (a <p> without attributes at the start of a line, up to its end), or a tag that opens or
 * closes a block holding paragraphs: the first paragraph outside every such block is the page's own.
 */
const BLOCKS = /(?:^|\n)<p>([\s\S]*?)<\/p>|<(\/?)(?:div|blockquote|li|details|td|th|aside|figure|section)\b[^>]*>/g;

/** The first top-level paragraph of `html`; undefined when it has none (or none ended yet). */
function paragraphOf(html: string): string | undefined {
  let depth = 0;
  for (const m of html.matchAll(BLOCKS)) {
    if (m[1] !== undefined) {
      if (depth === 0) return m[1];
    } else depth += m[2] ? -1 : 1;
  }
  return undefined;
}

export function pageDescription(page: Pick<SitePage, 'id' | 'frontmatter' | 'html' | 'htmlInCache' | 'sourceKey' | 'sourcePath'>, fallback: string): string {
  if (page.frontmatter.description) return page.frontmatter.description;
  if (page.id === '') return fallback;
  return firstParagraph(page) ?? fallback;
}

/** The text of the page's first paragraph, shortened; undefined when it has none in its first READ_MAX characters. */
export function firstParagraph(page: Pick<SitePage, 'html' | 'htmlInCache' | 'sourceKey' | 'sourcePath'>): string | undefined {
  try {
    const paragraph = paragraphOf(pageHtml(page as SitePage).slice(0, READ_MAX));
    if (paragraph !== undefined) return shorten(htmlText(paragraph));
  } catch {
    // (A body that cannot be read again: the site's description.)
  }
  return undefined;
}

function shorten(text: string): string | undefined {
  if (!text) return undefined;
  if (text.length <= DESCRIPTION_MAX) return text;
  const cut = text.slice(0, DESCRIPTION_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return (space > DESCRIPTION_MAX / 2 ? cut.slice(0, space) : cut).replace(/[\s,;:.]+$/, '') + '…';
}
