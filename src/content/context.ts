import type { HighlighterSource, TokenLine } from './highlight.js';
import type { Position } from 'unist';
import type { SourceProblem } from '../shared/errors.js';

/** What a page's Markdown is rendered with (see renderMarkdown). */
export interface RenderOptions {
  /** Display path of the Markdown file, e.g. content/guides/caching.md. */
  file: string;
  /** Line of the file where the Markdown body starts (after frontmatter), 0-based offset. */
  lineOffset: number;
  /** Loaded only when a code block needs highlighting and is not in `codeBlocks`. */
  highlighter: HighlighterSource;
  /** Highlighted code blocks of the page's last render, by codeBlockKey. */
  codeBlocks?: ReadonlyMap<string, TokenLine[]>;
}

/** What the Markdown plugins of one page share: where problems go and how to locate them. */
export interface PageContext extends RenderOptions {
  problems: SourceProblem[];
  /** Tab groups numbered so far on this page (ids stay deterministic). */
  tabGroups: number;
  /** The h2 anchors that the sidebars list, and the text of every h2 and h3, for search and typo correction (see rehypeHeadings). */
  anchors: Anchor[];
  headings: string[];
}

export interface Anchor {
  title: string;
  id: string;
}

export function report(ctx: PageContext, position: Position | undefined, message: string): void {
  ctx.problems.push({ file: ctx.file, line: (position?.start.line ?? 1) + ctx.lineOffset, column: position?.start.column ?? 1, message });
}

declare module 'vfile' {
  interface DataMap {
    ctx: PageContext;
  }
}
