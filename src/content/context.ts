import type { HighlighterSource, TokenLine } from './highlight.js';
import type { Position } from 'unist';
import type { SourceProblem } from '../errors.js';

/** What the Markdown plugins of one page share: where problems go and how to locate them. */
export interface PageContext {
  /** Display path of the Markdown file, e.g. content/guides/caching.md. */
  file: string;
  /** Line of the file where the Markdown body starts (after frontmatter), 0-based offset. */
  lineOffset: number;
  highlighter: HighlighterSource;
  /** Highlighted tokens of code blocks by codeBlockKey: those of the page's last render, and those of this one. */
  codeBlocks: { previous: ReadonlyMap<string, TokenLine[]>; used: Map<string, TokenLine[]> };
  problems: SourceProblem[];
  /** Tab groups numbered so far on this page (ids stay deterministic). */
  tabGroups: number;
}

/** What the parts of a page rendered in parts carry from one part to the next. */
export interface PartsState {
  /** Every id taken so far: the chrome's and the headings'. */
  taken: Set<string>;
  /** The level of the last heading. */
  previousLevel: number;
  /** h3 headings so far. */
  h3: number;
  /** The deepest heading level given a self-link on this page (see SELF_LINK_H3_LIMIT). */
  selfLinkDepth: number;
}

export function report(ctx: PageContext, position: Position | undefined, message: string): void {
  ctx.problems.push({
    file: ctx.file,
    line: (position?.start.line ?? 1) + ctx.lineOffset,
    column: position?.start.column ?? 1,
    message,
  });
}

declare module 'vfile' {
  interface DataMap {
    ctx: PageContext;
    /** A page rendered in parts (see renderInParts in markdown.ts): what each part carries on from the parts before. */
    parts: PartsState;
  }
}
