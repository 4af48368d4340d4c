import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Highlighter } from 'shiki';
import { InputError, type SourceProblem } from '../errors.js';
import { splitFrontmatter, type Frontmatter } from './frontmatter.js';
import { cacheKey, readCache, writeCache } from './cache.js';
import { registerTokenClasses, tokenClassesIn } from './highlight.js';
import { renderMarkdown, type RenderedMarkdown } from './markdown.js';

export interface SourcePage extends Omit<RenderedMarkdown, 'problems' | 'hast'> {
  /** Page path without slashes: '' (home), 'concepts' (section index), 'concepts/output'. */
  id: string;
  /** Display path of the source, relative to the site root: content/concepts/output.md. */
  sourcePath: string;
  frontmatter: Frontmatter;
  /** The Markdown body as written (for llms-full.txt and search). */
  markdown: string;
  bodyLineOffset: number;
  locateField(path: readonly PropertyKey[]): { line: number; column: number };
}

/** Maps a file under content/ to its page id; null for files that are not pages. */
export function pageIdOf(relativePath: string): string | null {
  const path = relativePath.split(sep).join('/');
  if (!path.endsWith('.md')) return null;
  const withoutExt = path.slice(0, -3);
  if (withoutExt === 'index') return '';
  return withoutExt.endsWith('/index') ? withoutExt.slice(0, -'/index'.length) : withoutExt;
}

/** Lists the Markdown files of the content folder, sorted (deterministic). */
export function listContentFiles(contentDir: string): string[] {
  return (readdirSync(contentDir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.md'))
    .map((f) => f.split(sep).join('/'))
    .sort();
}

/** A highlighter, or a function that loads it when a page first needs one (cached pages never do). */
export type HighlighterSource = Highlighter | (() => Promise<Highlighter>);

export async function loadPage(
  rootDir: string,
  contentDir: string,
  relPath: string,
  highlighter: HighlighterSource,
): Promise<SourcePage> {
  const sourcePath = relative(rootDir, join(contentDir, relPath)).split(sep).join('/');
  const source = readFileSync(join(contentDir, relPath), 'utf8');
  const split = splitFrontmatter(source, sourcePath);
  const key = cacheKey(sourcePath, split.bodyLineOffset, split.body);
  const cached = readCache(key);
  let rendered: Omit<RenderedMarkdown, 'problems'>;
  if (cached) {
    registerTokenClasses(cached.tokenClasses);
    rendered = { ...cached, ids: new Set(cached.ids) };
  } else {
    const fresh = await renderMarkdown(split.body, {
      file: sourcePath,
      lineOffset: split.bodyLineOffset,
      highlighter: typeof highlighter === 'function' ? await highlighter() : highlighter,
    });
    if (fresh.problems.length) throw new InputError(fresh.problems);
    const { problems: _problems, hast: _hast, ...rest } = fresh;
    rendered = rest;
    writeCache(key, { ...rest, ids: [...rest.ids], tokenClasses: tokenClassesIn(rest.html) });
  }
  return {
    ...rendered,
    id: pageIdOf(relPath)!,
    sourcePath,
    frontmatter: split.frontmatter,
    markdown: split.body,
    bodyLineOffset: split.bodyLineOffset,
    locateField: split.locateField,
  };
}

export interface LoadedPages {
  pages: SourcePage[];
  problems: SourceProblem[];
  /** Ids of pages that exist but failed to load (links to them are not reported as broken). */
  failed: Set<string>;
}

/** Loads every page, collecting the problems of all files (nothing stops at the first). */
export async function loadPages(
  rootDir: string,
  contentDir: string,
  highlighter: HighlighterSource,
  files = listContentFiles(contentDir),
): Promise<LoadedPages> {
  const failed = new Set<string>();
  const problems: SourceProblem[] = [];
  const pages: SourcePage[] = [];
  const seen = new Map<string, string>();
  for (const file of files) {
    const id = pageIdOf(file)!;
    const displayPath = relative(rootDir, join(contentDir, file)).split(sep).join('/');
    if (seen.has(id)) {
      problems.push({ file: displayPath, line: 1, column: 1, message: `page "/${id}" also comes from ${seen.get(id)}; keep one of the two files` });
      continue;
    }
    seen.set(id, displayPath);
    try {
      pages.push(await loadPage(rootDir, contentDir, file, highlighter));
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      problems.push(...e.problems);
      failed.add(id);
    }
  }
  return { pages, problems, failed };
}
