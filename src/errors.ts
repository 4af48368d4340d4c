/** A problem in a writer's file, located precisely enough to jump to it. */
export interface SourceProblem {
  file: string;
  line: number;
  column: number;
  /** Dotted path inside a structured file (`sections[2].pages[4]`), if any. */
  path?: string;
  message: string;
}

export function formatProblem(p: SourceProblem): string {
  const where = `${p.file}:${p.line}:${p.column}`;
  return p.path ? `${where} ${p.path}: ${p.message}` : `${where} ${p.message}`;
}

/** Thrown when input is wrong; carries every problem found, not only the first. */
export class InputError extends Error {
  readonly problems: SourceProblem[];
  constructor(problems: SourceProblem[]) {
    const sorted = [...problems].sort(compareProblems);
    super(sorted.map(formatProblem).join('\n'));
    this.name = 'InputError';
    this.problems = sorted;
  }
}

function compareProblems(a: SourceProblem, b: SourceProblem): number {
  return a.file === b.file
    ? a.line - b.line || a.column - b.column
    : a.file < b.file
      ? -1
      : 1;
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
