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
 * sectionsOf for a body given in pieces that end at line breaks (a very
 * large page's, read from the render cache: see readCachedBody), read a part
 * at a time: the text is cut again right before an h2 or h3 heading, where no
 * section, heading or left-out markup reaches across, so the sections are the
 * whole body's. (A heading's start holds no line break: it is never split
 * between two pieces. Each piece is searched once, so a body without
 * headings costs no more than one read.)
 */
export function sectionsOfPieces(pieces: Iterable<string>, size = PIECE_SIZE): SearchSection[] {
  const sections: SearchSection[] = [];
  let held: string[] = [];
  let heldLength = 0;
  /** The last heading's start among the held pieces (never the start of the held text). */
  let cut: [piece: number, at: number] | undefined;
  for (const piece of pieces) {
    held.push(piece);
    heldLength += piece.length;
    const at = Math.max(piece.lastIndexOf('<h2 id="'), piece.lastIndexOf('<h3 id="'));
    if (at > 0 || (at === 0 && held.length > 1)) cut = [held.length - 1, at];
    if (heldLength < size || !cut) continue;
    const [index, where] = cut;
    sections.push(...sectionsOf(held.slice(0, index).join('') + held[index]!.slice(0, where)));
    held = [held[index]!.slice(where), ...held.slice(index + 1)];
    heldLength = held.reduce((length, rest) => length + rest.length, 0);
    cut = undefined;
  }
  sections.push(...sectionsOf(held.join('')));
  return sections;
}
