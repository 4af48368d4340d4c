import { sep } from 'node:path';
import { InputError, type SourceProblem } from '../shared/errors.js';
import { plainTokens, type TokenSource } from './highlight.js';
import { renderMarkdown, type RawLink } from './markdown.js';

/* Pages as files of content/ (their ids), and the problems of a page that cannot be built, with what it still tells. */

/** Maps a file under content/ to its page id; null for files that are not pages. */
export function pageIdOf(relativePath: string): string | null {
  const path = relativePath.split(sep).join('/');
  if (!path.endsWith('.md')) return null;
  return path.slice(0, -3).replace(/(?:^|\/)index$/, '');
}

/**
 * What a page whose render has problems still tells: its links and ids, so
 * that its links are checked in the same run as its other problems (the
 * writer sees every problem at once, not a broken link only once the page's
 * other problems are fixed).
 */
export interface UnbuiltPage {
  id: string;
  sourcePath: string;
  bodyLineOffset: number;
  links: RawLink[];
  ids: string[];
}

/** The problems of a page's render, with what the page still tells (UnbuiltPage). */
export class PageProblems extends InputError {
  constructor(problems: SourceProblem[], readonly unbuilt: UnbuiltPage) {
    super(problems);
  }
}

/** The problems of a page's frontmatter, with the body they kept from being rendered (see withBodyProblems). */
export class FrontmatterProblems extends InputError {
  constructor(problems: SourceProblem[], readonly page: { relPath: string; sourcePath: string; body: string; bodyLineOffset: number }) {
    super(problems);
  }
}

/** Colours no code: the body of a page that will not be built is rendered for its problems and links alone. */
const uncoloured: TokenSource = { tokens: async (blocks) => new Map(blocks.map((b) => [b.key, plainTokens(b.code)])) };

/**
 * A page whose frontmatter has problems cannot be built, but its body is
 * rendered all the same (not cached, code not coloured), so that the writer
 * sees its problems with the frontmatter's, and its links are checked with
 * the others (UnbuiltPage), rather than in a second round once the
 * frontmatter is fixed. Other errors pass as they are.
 */
export async function withBodyProblems(e: unknown): Promise<unknown> {
  if (!(e instanceof FrontmatterProblems)) return e;
  const { relPath, sourcePath, body, bodyLineOffset } = e.page;
  const fresh = await renderMarkdown(body, { file: sourcePath, lineOffset: bodyLineOffset, highlighter: uncoloured });
  return new PageProblems([...e.problems, ...fresh.problems], { id: pageIdOf(relPath)!, sourcePath, bodyLineOffset, links: fresh.links, ids: [...fresh.ids] });
}

/**
 * The problem of a file whose page another file gives already (content/a.md and content/a/index.md);
 * otherwise undefined, and the file is noted in `seen` (page id → the first file's display path).
 */
export function duplicatePage(seen: Map<string, string>, id: string, displayPath: string): SourceProblem | undefined {
  const first = seen.get(id);
  if (first !== undefined) return { file: displayPath, line: 1, column: 1, message: `page "/${id}" also comes from ${first}; keep one of the two files` };
  seen.set(id, displayPath);
  return undefined;
}
