import GithubSlugger from 'github-slugger';
import type { Heading, Root } from 'mdast';
import { toString } from 'mdast-util-to-string';
import { InputError } from '../shared/errors.js';
import { cacheHas } from '../io/cache.js';
import type { Anchor } from './context.js';
import { parser } from './mdast-parse.js';
import { frontmatterOf, pageIdOf, prepare, type SourcePage } from './load.js';
import { headingId } from './slug.js';

/*
 * Pages known by their frontmatter and headings only. `docs serve` shows the
 * first page asked for before the other pages are rendered; the sidebars and
 * menus of that page need every page's title and section anchors, which an
 * outline gives in a fraction of a render: the heading lines of every page
 * (outside fenced code) are read, and their ids made as the pipeline makes
 * them (GitHub's slugs, numbered past the chrome's ids and earlier headings;
 * see slug.ts). A heading of plain words and code spans is read directly;
 * the few with other inline markup are parsed, all in one document. A heading whose text depends on the rest of
 * its page (a reference link) may come out differently; the preview then
 * reloads the page once the full build has rendered it.
 */

/** An ATX heading line (`## Title`), at most three spaces in. */
const HEADING = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/** The heading lines of a Markdown body outside fenced code blocks. */
export function headingLines(body: string): string[] {
  const lines: string[] = [];
  let fence: string | undefined;
  for (const line of body.split('\n')) {
    const open = FENCE.exec(line);
    if (fence !== undefined) {
      if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && line.slice(open[0].length).trim() === '') fence = undefined;
    } else if (open) fence = open[1];
    else if (HEADING.test(line)) lines.push(line.trimEnd());
  }
  return lines;
}

/** The text of a heading as the rendered page has it (text and code, not image descriptions or raw HTML). */
const textOf = (heading: Heading) => toString(heading, { includeImageAlt: false, includeHtml: false });

interface HeadingText {
  depth: number;
  /** Undefined until the line is parsed (see plainHeading). */
  text?: string;
  line: string;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const CODE_SPAN = /(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g;
/** Characters that may start inline markup other than a code span (`:x` a directive, `&` an entity). */
const MARKUP = /[*_<>&\\!~[\]`]|:[A-Za-z]/;

/** A heading line of plain words and code spans, read without the parser; the text is left out when it has other markup. */
function plainHeading(line: string): HeadingText {
  const m = ATX.exec(line)!;
  const content = (m[2] ?? '').replace(/^#+$/, '');
  const heading: HeadingText = { depth: m[1]!.length, line };
  if (MARKUP.test(content.replace(CODE_SPAN, ''))) return heading;
  heading.text = content.replace(CODE_SPAN, (_, _ticks: string, code: string) =>
    code.length > 2 && code.startsWith(' ') && code.endsWith(' ') && code.trim() !== '' ? code.slice(1, -1) : code,
  );
  return heading;
}

/** Anchors (h2), headings (h2 and h3) and ids of one page's headings, in order. */
function outlineOf(headings: HeadingText[]): Pick<SourcePage, 'anchors' | 'headings' | 'ids'> {
  const slugger = new GithubSlugger();
  const taken = new Set<string>();
  const anchors: Anchor[] = [];
  const texts: string[] = [];
  for (const heading of headings) {
    const text = heading.text!;
    const title = text.trim();
    // (As rehype-slug and then rehypeHeadingIds do.)
    const id = headingId(slugger.slug(text), text, taken);
    if (heading.depth > 3) continue;
    texts.push(title);
    if (heading.depth === 2) anchors.push({ title, id });
  }
  return { anchors, headings: texts, ids: taken };
}

/**
 * The outlines of pages (their body HTML is empty and they have no links),
 * by file: null for a page whose whole render is in the cache (loading it is
 * as quick and exact), an InputError for bad frontmatter.
 */
export async function outlinePages(rootDir: string, contentDir: string, files: readonly string[]): Promise<Map<string, SourcePage | null | InputError>> {
  const result = new Map<string, SourcePage | null | InputError>();
  const pending: Array<{ file: string; page: Omit<SourcePage, 'anchors' | 'headings' | 'ids'>; headings: HeadingText[] }> = [];
  const marked: HeadingText[] = [];
  for (const file of files) {
    try {
      const { prepared } = prepare(rootDir, contentDir, file, false);
      const { sourcePath, body, bodyLineOffset, key: sourceKey, locateField } = prepared;
      if (cacheHas(sourceKey)) {
        result.set(file, null);
        continue;
      }
      const frontmatter = prepared.frontmatter ?? frontmatterOf(prepared);
      const headings = headingLines(body).map(plainHeading);
      for (const heading of headings) if (heading.text === undefined) marked.push(heading);
      const page = { html: '', links: [], tokenClasses: [], id: pageIdOf(file)!, sourcePath, frontmatter, bodyLineOffset, sourceKey, locateField };
      pending.push({ file, page, headings });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      result.set(file, e);
    }
  }
  // Each heading a block of its own: the n-th heading of the tree is the n-th line (none: an empty document, parsed at once).
  const tree = parser.parse(marked.map((h) => h.line).join('\n\n')) as Root;
  const parsed = tree.children.filter((node): node is Heading => node.type === 'heading');
  marked.forEach((heading, i) => (heading.text = parsed[i] ? textOf(parsed[i]!) : ''));
  for (const { file, page, headings } of pending) result.set(file, { ...page, ...outlineOf(headings) });
  return result;
}
