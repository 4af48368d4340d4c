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
  // (In one piece of HTML, each section is one part.)
  return sectionPartsOf(html)
    .filter(([anchor, , text]) => text || anchor)
    .map(([anchor, heading, text]): SearchSection => [anchor, heading, text]);
}

/** The parts of a body in one piece (see SectionPart): one per section, with the one before the first heading. */
export function sectionPartsOf(html: string): SectionPart[] {
  return sectionParts(html);
}

/**
 * A part of a section: the section's anchor and heading, some of its text,
 * and whether this is its first part. A long section of a very large page
 * comes in several parts (see sectionPartsOfPieces): its text is theirs,
 * the non-empty ones joined with a space. A section with neither text nor
 * anchor (a body that starts with a heading) is not one.
 */
export type SectionPart = [anchor: string, heading: string, text: string, first: boolean];

/** The parts of `html`; `within`: the section that `html` goes on with (its first part is that section's next). */
function sectionParts(html: string, within?: readonly [anchor: string, heading: string]): SectionPart[] {
  const body = html.replace(NOT_CONTENT, '');
  const parts: SectionPart[] = [];
  let [anchor, heading] = within ?? ['', ''];
  let first = !within;
  let from = 0;
  const push = (to: number) => parts.push([anchor, heading, textOf(body.slice(from, to)), first]);
  for (const m of body.matchAll(HEADING)) {
    push(m.index);
    anchor = decode(m[2]!);
    heading = textOf(m[3]!);
    first = true;
    from = m.index + m[0].length;
  }
  push(body.length);
  return parts;
}

/** What the search text leaves out or reads as a heading, and how each ends: a piece is not cut inside one. */
const UNCUT = [
  ['<h2 ', '</h2>'],
  ['<h3 ', '</h3>'],
  ['<button', '</button>'],
  ['<a class="anchor"', '</a>'],
  ['<p class="tab-label">', '</p>'],
] as const;

/** Which elements of UNCUT are open at the end of `text`, given which were at its start (`open`). */
function openAfter(text: string, open: readonly boolean[]): boolean[] {
  return UNCUT.map(([start, end], i) => {
    const started = text.lastIndexOf(start);
    const ended = text.lastIndexOf(end);
    return started === ended ? open[i]! : started > ended;
  });
}

/** Line breaks between two tags tried as cuts in a piece, from its end: a piece without one that works is not cut. */
const BREAKS_TRIED = 64;

/**
 * Where `piece` may be cut inside a section (after the returned index): at
 * a line break between two tags, where no element of UNCUT is open (`open`:
 * those open where the piece starts). -1: nowhere.
 */
function sectionBreak(piece: string, open: readonly boolean[]): number {
  // (An element neither started nor ended in the piece is as it was at its start: no search for it.)
  const inPiece = UNCUT.map(([start, end]) => piece.includes(start) || piece.includes(end));
  let tried = 0;
  for (let at = piece.lastIndexOf('>\n<'); at > 0 && tried++ < BREAKS_TRIED; at = piece.lastIndexOf('>\n<', at - 1)) {
    const closed = UNCUT.every(([start, end], i) => {
      if (!inPiece[i]) return !open[i];
      const started = piece.lastIndexOf(start, at);
      const ended = piece.lastIndexOf(end, at);
      return started === ended ? !open[i] : ended > started;
    });
    if (closed) return at + 1;
  }
  return -1;
}

/**
 * The parts of a body given in pieces that end at line breaks (a very
 * large page's, read from the render cache: see readCachedBody), read about
 * `size` characters at a time: cut right before an h2 or h3 heading where
 * there is one, else at a line break between two tags, where no section,
 * heading or left-out markup reaches across and the text has a space. So a
 * section's parts give its text and words exactly, and a page of one section
 * of 10 MB (a table) is never one string. (A heading's start holds no line
 * break: it is never split between two pieces. Each piece is searched a
 * bounded number of times.)
 */
export function* sectionPartsOfPieces(pieces: Iterable<string>, size = PIECE_SIZE): Generator<SectionPart> {
  let held: string[] = [];
  let heldLength = 0;
  /** The last heading's start among the held pieces (never the start of the held text). */
  let cut: [piece: number, at: number] | undefined;
  /** The section the held text goes on with. */
  let within: readonly [string, string] | undefined;
  /** Which elements of UNCUT are open where the next piece starts. */
  let open = UNCUT.map(() => false);
  const give = (html: string): SectionPart[] => {
    const parts = sectionParts(html, within);
    const last = parts[parts.length - 1]!;
    within = [last[0], last[1]];
    return parts;
  };
  for (const piece of pieces) {
    const openAtStart = open;
    open = openAfter(piece, open);
    held.push(piece);
    heldLength += piece.length;
    const at = Math.max(piece.lastIndexOf('<h2 id="'), piece.lastIndexOf('<h3 id="'));
    if (at > 0 || (at === 0 && held.length > 1)) cut = [held.length - 1, at];
    if (heldLength < size) continue;
    if (cut) {
      const [index, where] = cut;
      yield* give(held.slice(0, index).join('') + held[index]!.slice(0, where));
      held = [held[index]!.slice(where), ...held.slice(index + 1)];
      heldLength = held.reduce((length, rest) => length + rest.length, 0);
      cut = undefined;
      continue;
    }
    // A long stretch without a heading: cut inside the section.
    const end = sectionBreak(piece, openAtStart);
    if (end < 0) continue;
    yield* give(held.slice(0, -1).join('') + piece.slice(0, end));
    held = [piece.slice(end)];
    heldLength = held[0]!.length;
  }
  yield* give(held.join(''));
}
