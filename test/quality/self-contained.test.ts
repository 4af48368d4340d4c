import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/*
 * A clone of the repository must test and benchmark itself with nothing beside it: no file of the
 * code, the tests, the scripts or CI may name a path outside the repository. This reads each of
 * them and reports every place that does, by file and line.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const CHECKED = ['test', 'scripts', 'src', 'bin', '.ci'];
/** Folders whose files are a project's data, not the repository's code (fixture sites, example projects). */
const SKIPPED = new Set(['node_modules', 'fixtures']);
/** This file: its samples name outside paths on purpose, to show that the check finds them. */
const SELF = fileURLToPath(import.meta.url);
const TEXT = /\.(?:[cm]?[jt]sx?|json|ya?ml|sh)$|^run$/;

/** The parent folder's name that this team's machines hold beside the repository, spelled so that this file does not name it. */
const SIBLING = ['sha', 'red'].join('');

export interface OutsidePath {
  line: number;
  text: string;
  why: string;
}

/**
 * The places in `text` (a file at `file`, inside `root`) that name a path outside `root`:
 * a relative path that climbs out of the repository from the file's folder; a path built by
 * climbing above the repository's root (`join(ROOT, '..', …)`, `resolve(root, '../…')`); the
 * folder kept beside the repository; an absolute path into a home or work folder.
 */
export function outsidePaths(text: string, file: string, root: string): OutsidePath[] {
  const found: OutsidePath[] = [];
  const lines = text.split('\n');
  lines.forEach((content, i) => {
    const add = (why: string) => found.push({ line: i + 1, text: content.trim(), why });
    for (const m of content.matchAll(/['"`]((?:\.\.\/)+[^'"`\s]*)['"`]/g)) {
      const target = resolve(dirname(file), m[1]!);
      if (target !== root && !target.startsWith(root + sep)) add(`${m[1]} leads out of the repository from ${relative(root, dirname(file)) || '.'}`);
    }
    if (/\b(?:join|resolve)\(\s*(?:ROOT|root|repoRoot|REPO)\s*,\s*['"`]\.\.(?:['"`/])/.test(content)) add('a path that climbs above the repository root');
    if (new RegExp(`${SIBLING}/(?:SPEC|DESIGN)\\.md|${SIBLING}/(?:bench|reviews)/|['"\`]${SIBLING}['"\`]\\s*,\\s*['"\`](?:SPEC|DESIGN|bench|reviews)`).test(content)) {
      add(`names the ${SIBLING} folder beside the repository`);
    }
    if (/(?<![\w.])\/work\/[\w.-]/.test(content)) add("an absolute path into this team's machines");
  });
  return found;
}

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    // (Hidden folders inside these are the tests' own scratch output, such as test/.tmp, never committed.)
    if (SKIPPED.has(entry.name) || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...filesUnder(path));
    else if (entry.isFile() && TEXT.test(entry.name)) out.push(path);
  }
  return out;
}

describe('the repository is self-contained', () => {
  it('recognises each way of naming a path outside the repository', () => {
    const root = '/repo';
    const file = '/repo/test/content/x.test.ts';
    const hits = (line: string) => outsidePaths(line, file, root).map((f) => f.why);
    expect(hits(`const SPEC = join(ROOT, '..', '${SIBLING}', 'SPEC.md');`)).toHaveLength(2);
    expect(hits(`const corpus = resolve(root, '../${SIBLING}/bench/make-corpus.mjs');`).length).toBeGreaterThan(0);
    expect(hits(`readFileSync('../../../elsewhere/notes.md')`)).toEqual(['../../../elsewhere/notes.md leads out of the repository from test/content']);
    expect(hits(`const dir = '/work/cache';`)).toEqual(["an absolute path into this team's machines"]);
    // Paths inside the repository, and paths inside a project a test writes into a temporary folder.
    expect(hits(`readFileSync('../../site.config.yaml')`)).toEqual([]);
    expect(hits(`symlinkSync('../${SIBLING}', join(site, 'content/more'))`)).toEqual([]);
    expect(hits(`import logo from "../../${SIBLING}/logo.png";`)).toEqual([]);
    expect(hits(`const out = join(ROOT, 'dist');`)).toEqual([]);
  });

  it('no file of test/, scripts/, src/, bin/ or .ci/ names a path outside the repository', () => {
    const files = CHECKED.flatMap((dir) => (statSync(join(ROOT, dir), { throwIfNoEntry: false })?.isDirectory() ? filesUnder(join(ROOT, dir)) : []));
    expect(files.length).toBeGreaterThan(100);
    expect(files).toContain(SELF);
    const problems = files
      .filter((file) => file !== SELF)
      .flatMap((file) =>
        outsidePaths(readFileSync(file, 'utf8'), file, ROOT)
          .map((p) => `${relative(ROOT, file)}:${p.line}: ${p.why}: ${p.text}`),
      );
    expect(problems).toEqual([]);
  });
});
