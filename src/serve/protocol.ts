import type { SourceProblem } from '../shared/errors.js';

/*
 * Messages between the preview server (main thread) and the render worker.
 * The worker owns everything that imports the templates; the server only
 * holds the finished files.
 */

/** What changed since the last build; several saves are merged into one. */
export interface Change {
  /** Reload everything: config, every page, assets (first build, config edits). */
  full?: boolean;
  /** Markdown files (relative to content/, with "/") that were saved, added or deleted. */
  content?: string[];
  /** Something under content/ changed that is not a single page (a folder was added or removed). */
  contentTree?: boolean;
  /** static/ or the favicon changed: the site files are written again and links re-checked. */
  files?: boolean;
  /** templates/styles/ changed: bundle the stylesheet again. */
  css?: boolean;
  /** templates/client/ changed: bundle the interaction script again. */
  client?: boolean;
  /** A template module changed: the render worker is replaced (ESM modules cannot be unloaded). */
  templates?: boolean;
  /** For a new worker's first build: the paths the server holds, so that its first answer also removes stale ones. */
  known?: string[];
}

export function mergeChanges(a: Change, b: Change): Change {
  const content = [...new Set([...(a.content ?? []), ...(b.content ?? [])])];
  const merged: Change = {};
  if (a.full || b.full) merged.full = true;
  if (content.length) merged.content = content;
  if (a.contentTree || b.contentTree) merged.contentTree = true;
  if (a.files || b.files) merged.files = true;
  if (a.css || b.css) merged.css = true;
  if (a.client || b.client) merged.client = true;
  if (a.templates || b.templates) merged.templates = true;
  return merged;
}

export function isEmptyChange(c: Change): boolean {
  return !c.full && !c.content?.length && !c.contentTree && !c.files && !c.css && !c.client && !c.templates;
}

/** Output files as URL paths ("/guides/index.html") with their contents. */
export type FileList = Array<[path: string, contents: string | Uint8Array]>;

export interface BuildStats {
  pages: number;
  /** Markdown files parsed again. */
  parsed: number;
  /** Pages rendered again. */
  rendered: number;
  ms: number;
  /** Time per stage (ms): parse, bundle, model, links, render, diff. */
  stages: Record<string, number>;
  /** What docs build warns of (a page no menu leads to, a link in static/), as its terminal lines say it. */
  warnings: string[];
}

export type BuildResult =
  | { ok: true; set: FileList; remove: string[]; stats: BuildStats }
  /** Bad input: every problem, located, exactly as `docs build` reports them. */
  | { ok: false; problems: SourceProblem[]; message: string }
  /** A bug or a broken template: the stack, printed and shown as is. */
  | { ok: false; unexpected: string };

export type ToWorker =
  | { type: 'build'; id: number; change: Change }
  /** Markdown files just saved: parse them now, the build that includes them follows after the debounce. */
  | { type: 'prefetch'; content: string[] }
  /** During the first build: the files that show the page at `path` now (see src/serve/first-pass.ts). */
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

export interface WorkerData {
  root: string;
  configPath: string;
  templatesDir: string;
  /** The TypeScript config tsx compiles the templates with. */
  tsconfig: string;
}
