import { PIECE_SIZE } from '../content/pieces.js';

/*
 * The text of a rendered page body as the search index reads it: cut at its
 * h2 and h3 headings, without the markup, the heading self-links, the copy
 * and tab buttons, and the tab labels repeated for print.
 */

/** One part of a page under a heading: the anchor ('' for the text before the first heading), the heading and the text. */
export type SearchSection = [anchor: string, heading: string, text: string];

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
const decode = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, name: string) => {
    if (name[0] !== '#') return ENTITIES[name.toLowerCase()] ?? whole;
    const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
    return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });

/** Heading self-links, copy and tab buttons and the tab labels repeated for print: not content. */
const NOT_CONTENT = /<a class="anchor"[^>]*>[\s\S]*?<\/a>|<button[^>]*>[\s\S]*?<\/button>|<p class="tab-label">[\s\S]*?<\/p>/g;
/** Tags inside a word's run (highlighting spans, inline code, emphasis, links) join their text; the others separate it. */
const INLINE = /^<\/?(?:span|code|a|strong|em|b|i|mark|kbd|sub|sup|del|s|abbr|small)\b/i;
const HEADING = /<h([23]) id="([^"]*)"[^>]*>([\s\S]*?)<\/h\1>/g;

const textOf = (html: string) =>
  // Highlighting spans are most of the tags of a code-heavy page: they go first, without a callback each.
  decode(html.replace(/<\/?span\b[^>]*>/g, '').replace(/<[^>]*>/g, (tag) => (INLINE.test(tag) ? '' : ' ')))
    .replace(/[ \t\r\n]+/g, ' ')
    .trim();

/** The text of a page body cut at its h2 and h3 headings. */
export function sectionsOf(html: string): SearchSection[] {
  const body = html.replace(NOT_CONTENT, '');
  const sections: SearchSection[] = [];
  let anchor = '';
  let heading = '';
  let from = 0;
  const push = (to: number) => {
    const text = textOf(body.slice(from, to));
    if (text || anchor) sections.push([anchor, heading, text]);
  };
  for (const m of body.matchAll(HEADING)) {
    push(m.index);
    anchor = decode(m[2]!);
    heading = textOf(m[3]!);
    from = m.index + m[0].length;
  }
  push(body.length);
  return sections;
}

/**
 * sectionsOf for a body given in pieces (a very large page's, read from the
 * render cache: see readCachedBody), read a part at a time: the pieces are
 * cut again right before h2 and h3 headings, where no section, heading or
 * left-out markup reaches across, so the sections are the whole body's.
 */
export function sectionsOfPieces(pieces: Iterable<string>, size = PIECE_SIZE): SearchSection[] {
  const sections: SearchSection[] = [];
  let held = '';
  for (const piece of pieces) {
    held += piece;
    if (held.length < size) continue;
    const cut = Math.max(held.lastIndexOf('<h2 id="'), held.lastIndexOf('<h3 id="'));
    if (cut <= 0) continue;
    sections.push(...sectionsOf(held.slice(0, cut)));
    held = held.slice(cut);
  }
  sections.push(...sectionsOf(held));
  return sections;
}
