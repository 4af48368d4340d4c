import type { BuildResult, FileList, PreviewChange as Change, PreviewOptions } from '../engine/preview.js';

/*
 * Messages between the preview server (main thread) and the render worker.
 * The worker owns everything that imports the templates; the server only
 * holds the finished files.
 */

export type { BuildResult, FileList, PreviewChange as Change } from '../engine/preview.js';

/** The kinds of change that are a flag (the other, `content`, lists files). */
const FLAGS = ['full', 'contentTree', 'files', 'css', 'client', 'templates'] as const;

export function mergeChanges(a: Change, b: Change): Change {
  const content = [...new Set([...(a.content ?? []), ...(b.content ?? [])])];
  const merged: Change = content.length ? { content } : {};
  for (const flag of FLAGS) if (a[flag] || b[flag]) merged[flag] = true;
  return merged;
}

export function isEmptyChange(c: Change): boolean {
  return !c.content?.length && !FLAGS.some((flag) => c[flag]);
}

export type ToWorker =
  | { type: 'build'; id: number; change: Change }
  /** Markdown files just saved: parse them now, the build that includes them follows after the debounce. */
  | { type: 'prefetch'; content: string[] }
  /** During the first build: the files that show the page at `path` now (see src/engine/first-pass.ts). */
  | { type: 'early'; id: number; path: string };

export type FromWorker =
  /** The templates are imported; `headers` are the security headers every response carries. */
  | { type: 'ready'; headers: Record<string, string> }
  | { type: 'fatal'; error: string }
  | { type: 'result'; id: number; result: BuildResult }
  /** The answer to `early`: no files when the page cannot be shown before the build is done. */
  | { type: 'early'; id: number; files?: FileList }
  /** Files brought up to date after a build (printable sections, search index). */
  | { type: 'update'; set: FileList; remove: string[] }
  /** No background work left: the served files equal what `docs build` would write. */
  | { type: 'settled'; id: number }
  /** An unexpected exception in background work; the worker carries on. */
  | { type: 'error'; error: string };

/** What the worker's build is given, and the TypeScript config tsx compiles the templates with. */
export type WorkerData = PreviewOptions & { tsconfig: string };
