import type { Highlighter } from 'shiki';
import type { Position } from 'unist';
import type { SourceProblem } from '../errors.js';

/** What the Markdown plugins of one page share: where problems go and how to locate them. */
export interface PageContext {
  /** Display path of the Markdown file, e.g. content/guides/caching.md. */
  file: string;
  /** Line of the file where the Markdown body starts (after frontmatter), 0-based offset. */
  lineOffset: number;
  highlighter: Highlighter;
  problems: SourceProblem[];
  /** Tab groups numbered so far on this page (ids stay deterministic). */
  tabGroups: number;
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
  }
}
