/*
 * The text of a rendered page body as the search index reads it: cut at its
 * h2 and h3 headings, without the markup, the heading self-links and the copy
 * and tab buttons. A tab's label is read once, as the first words of its panel
 * (the `<p class="tab-label">` each panel starts with, shown in print), so that
 * "yarn" finds the section whose yarn tab is not the one shown first.
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

/** Heading self-links and copy and tab buttons (the tab's label is its panel's first paragraph too): not content. */
const NOT_CONTENT = /<a class="anchor"[^>]*>[\s\S]*?<\/a>|<button[^>]*>[\s\S]*?<\/button>/g;
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
 * A part of a section: the section's anchor and heading, its text, and
 * whether this is its first part. A section with neither text nor anchor (a
 * body that starts with a heading) is not one.
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
