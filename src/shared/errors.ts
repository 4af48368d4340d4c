import { relative, resolve, sep } from 'node:path';

/** A problem in a writer's file, located precisely enough to jump to it. */
export interface SourceProblem {
  file: string;
  /** 1-based; 0 for a problem of the file or folder as a whole. */
  line: number;
  column: number;
  /** Dotted path inside a structured file (`sections[2].pages[4]`), if any. */
  path?: string;
  message: string;
}

/** Control characters as escapes (a backslash and n), so that a line break in a YAML key or a file name cannot split a problem's line. */
const ESCAPES: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
const oneLine = (s: string) => s.replace(/[\u0000-\u001f\u007f]/g, (c) => ESCAPES[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

export function formatProblem(p: SourceProblem): string {
  // A problem of a whole file or folder (a link that leads outside the site, say) has no position: line 0.
  const where = p.line > 0 ? `${p.file}:${p.line}:${p.column}` : `${p.file}:`;
  return oneLine(p.path ? `${where} ${p.path}: ${p.message}` : `${where} ${p.message}`);
}

/** Thrown when input is wrong; carries every problem found, not only the first. */
export class InputError extends Error {
  readonly problems: SourceProblem[];
  constructor(problems: SourceProblem[]) {
    const sorted = [...problems].sort((a, b) => (a.file === b.file ? a.line - b.line || a.column - b.column : a.file < b.file ? -1 : 1));
    super(sorted.map(formatProblem).join('\n'));
    this.name = 'InputError';
    this.problems = sorted;
  }
}

/** Formats a zod-style path (`['sections', 2, 'pages', 4]`) as `sections[2].pages[4]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

const SYSTEM_ERRORS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EBUSY: 'the file or folder is busy (in use, or a mount point)',
  EMFILE: 'too many open files',
  ENFILE: 'too many open files in the system',
  ENOENT: 'no such file or folder',
  ENOTDIR: 'a part of the path is a file, not a folder',
  EISDIR: 'a folder where a file was expected',
  EEXIST: 'already exists',
  ENOTEMPTY: 'the folder is not empty',
  EXDEV: 'the temporary folder and the output are on different file systems',
  EIO: 'input/output error of the device',
  ELOOP: 'too many levels of symbolic links',
  ENAMETOOLONG: 'the path is too long',
};

/** A one-line message for an error of the operating system (full disk, no permission…), or undefined. */
export function systemErrorMessage(e: unknown): string | undefined {
  const err = e as NodeJS.ErrnoException | undefined;
  if (!err || typeof err !== 'object' || typeof err.code !== 'string' || !(err.code in SYSTEM_ERRORS)) return undefined;
  const dest = (err as { dest?: string }).dest;
  const where = err.path ? `${err.path}${dest ? ` → ${dest}` : ''}: ` : '';
  return `${where}${SYSTEM_ERRORS[err.code]} (${err.code}${err.syscall ? `, while trying to ${err.syscall}` : ''})`;
}

/**
 * esbuild's errors (a syntax error in a client script, stylesheet or component) as located problems, their files
 * named from the folder esbuild ran in, `dir`; an error without a place is `fallback`'s. Anything else is thrown again.
 */
export function esbuildProblems(e: unknown, root: string, dir: string, fallback: string, prefix = ''): SourceProblem[] {
  const errors = (e as { errors?: Array<{ text: string; location?: { file: string; line: number; column: number } | null }> }).errors;
  if (!Array.isArray(errors) || !errors.length) throw e;
  return errors.map((m) => ({
    file: relative(root, m.location ? resolve(dir, m.location.file) : fallback).split(sep).join('/'),
    line: m.location?.line ?? 1,
    column: (m.location?.column ?? 0) + 1,
    message: prefix + m.text,
  }));
}
