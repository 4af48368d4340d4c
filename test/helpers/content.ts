import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Root as HastRoot } from 'hast';
import type { Code, Root } from 'mdast';
import rehypeRaw from 'rehype-raw';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { readFrontmatter, type Frontmatter } from '../../src/config/frontmatter-schema.js';
import { splitSource } from '../../src/config/split-source.js';
import { loadHighlighter } from '../../src/content/highlight.js';
import { renderMarkdown } from '../../src/content/markdown.js';

/* Helpers for content tests: read a page's code blocks and headings, compile examples with the real webpack. */

/** A page's source cut at its frontmatter fences and its frontmatter read, as a build does; throws InputError with positions in `file`. */
export function splitFrontmatter(source: string, file: string): { frontmatter: Frontmatter; body: string; bodyLineOffset: number } {
  const { yaml, body, bodyLineOffset } = splitSource(source, file);
  return { frontmatter: readFrontmatter(yaml, file), body, bodyLineOffset };
}

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const CONTENT = join(ROOT, 'content');

export interface CodeBlock {
  lang: string;
  /** The title="…" of the fence, if any (usually a file name). */
  title?: string;
  meta: string;
  code: string;
  /** 1-based line in the Markdown file. */
  line: number;
}

export interface PageSource {
  file: string;
  frontmatter: Frontmatter;
  body: string;
  blocks: CodeBlock[];
}

/** Every page body of the site as written (without frontmatter), by file under content/, in file order. */
export function pageBodies(): Array<[file: string, body: string]> {
  return (readdirSync(CONTENT, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => [f, splitSource(readFileSync(join(CONTENT, f), 'utf8'), f).body]);
}

/** Reads content/{id}.md (or content/{id}/index.md). */
export function readPage(id: string): PageSource {
  const candidates = [join(CONTENT, `${id}.md`), join(CONTENT, id, 'index.md')];
  for (const file of candidates) {
    let source: string;
    try {
      source = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const split = splitFrontmatter(source, relative(ROOT, file));
    const tree = unified().use(remarkParse).use(remarkGfm).use(remarkDirective).parse(split.body) as Root;
    const blocks: CodeBlock[] = [];
    visit(tree, 'code', (node: Code) => {
      const meta = node.meta ?? '';
      const title = /\btitle=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(meta);
      blocks.push({
        lang: node.lang ?? 'text',
        title: title ? (title[1] ?? title[2] ?? title[3]) : undefined,
        meta,
        code: node.value,
        line: (node.position?.start.line ?? 1) + split.bodyLineOffset,
      });
    });
    return { file: relative(ROOT, file), frontmatter: split.frontmatter, body: split.body, blocks };
  }
  throw new Error(`no page ${id} (looked for ${candidates.map((c) => relative(ROOT, c)).join(', ')})`);
}

/** Page ids of every Markdown file under content/{section}. */
export function pagesIn(section: string): string[] {
  return (readdirSync(join(CONTENT, section), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.md'))
    .map((f) => `${section}/${f.slice(0, -3)}`.replace(/\/index$/, ''))
    .sort();
}

export interface Heading {
  depth: number;
  text: string;
  /** The id the site gives the heading (its anchor). */
  id: string;
}

/** The headings of a page with the exact ids the build gives them. */
export async function headingsOf(id: string): Promise<Heading[]> {
  const page = readPage(id);
  const { html } = await renderMarkdown(page.body, { file: page.file, lineOffset: 0, highlighter: loadHighlighter });
  // The rendered body as a tree again: rehype-raw parses a raw node of HTML into elements.
  const tree = (rehypeRaw() as unknown as (tree: HastRoot) => HastRoot)({ type: 'root', children: [{ type: 'raw', value: html }] });
  const headings: Heading[] = [];
  visit(tree, 'element', (node) => {
    const m = /^h([2-6])$/.exec(node.tagName);
    if (m && typeof node.properties.id === 'string') {
      headings.push({ depth: Number(m[1]), id: node.properties.id, text: textOf(node) });
    }
  });
  return headings;
}

function textOf(node: { type: string; value?: string; children?: unknown[] }): string {
  if (node.type === 'text') return node.value ?? '';
  return (node.children ?? []).map((c) => textOf(c as never)).join('');
}

/** A scratch project folder inside the repository, so packages resolve from its node_modules. */
export function scratchDir(name: string): string {
  const base = join(ROOT, 'test', '.tmp');
  mkdirSync(base, { recursive: true });
  return mkdtempSync(join(base, `${name.replace(/[^a-z0-9-]/gi, '-')}-`));
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, contents] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), contents);
  }
}

/** Every file under `dir`, relative, sorted. */
export function listFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => d.isFile())
    .map((d) => relative(dir, join(d.parentPath, d.name)))
    .sort();
}

export function removeDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
}

/** The code blocks titled webpack.config.js on a page. */
export function configBlocks(id: string): CodeBlock[] {
  return readPage(id).blocks.filter((b) => b.title === 'webpack.config.js');
}

/** The Markdown of a page's body between the h2 `title` and the next h2. */
export function section(id: string, title: string): string {
  const lines = readPage(id).body.split('\n');
  const start = lines.findIndex((l) => l === `## ${title}`);
  if (start < 0) throw new Error(`${id}: no "## ${title}"`);
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => /^## /.test(l));
  return (end < 0 ? rest : rest.slice(0, end)).join('\n');
}

/** The text under each heading of `level` (### or ####) in a piece of Markdown, by heading text without backticks. */
export function subsections(text: string, level: '###' | '####' = '###'): Map<string, string> {
  const result = new Map<string, string>();
  let current: string | undefined;
  let inFence = false;
  const heading = new RegExp(`^${level} (.+)$`);
  for (const line of text.split('\n')) {
    if (/^```/.test(line)) inFence = !inFence;
    const m = !inFence ? heading.exec(line) : null;
    if (m) {
      current = m[1]!.replace(/`/g, '');
      result.set(current, '');
    } else if (current !== undefined) {
      if (!inFence && /^#{2,3} /.test(line) && level === '####') current = undefined;
      else result.set(current, `${result.get(current)!}${line}\n`);
    }
  }
  return result;
}

/** The repository of an installed package, from its package.json, as an https URL without ".git". */
export function repositoryOf(name: string): string {
  const pkg = createRequire(import.meta.url)(`${name}/package.json`) as { repository: string | { url: string } };
  const raw = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository.url;
  const path = raw
    .replace(/^git\+/, '')
    .replace(/^(https?|git):\/\/github\.com\//, '')
    .replace(/^github:/, '')
    .replace(/\.git$/, '');
  return `https://github.com/${path}`;
}
