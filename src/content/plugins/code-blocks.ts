import { createHash } from 'node:crypto';
import type { ElementContent } from 'hast';
import type { Code, Root } from 'mdast';
import type { Parent } from 'unist';
import { h, walk } from '../walk.js';
import type { VFile } from 'vfile';
import { report } from '../context.js';
import { decodeReferences } from '../../shared/html.js';
import { colourable, highlightBlocks, isKnownLanguage, LANGUAGE_NAMES, needsHighlighter, plainTokens, type CodeToHighlight, type TokenLine } from '../highlight.js';

/**
 * Fenced code blocks: highlighted at build time, with an optional title
 * (title="app.config.js"), highlighted lines ({2,4-6}) and diff notation
 * (the word `diff` in the meta: the first column of each line is +, - or a space, as `git diff` prints it).
 */
interface CodeMeta {
  title?: string;
  lines: Set<number>;
  diff: boolean;
}

function parseCodeMeta(meta: string | null | undefined, lineCount: number): CodeMeta | string {
  const result: CodeMeta = { lines: new Set(), diff: false };
  let rest = meta ?? '';
  const title = /\btitle=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(rest);
  if (title) {
    result.title = title[1] ?? title[2] ?? title[3];
    if (/^["']/.test(result.title!)) return `the title ${result.title} has no closing quote`;
    if (!result.title!.trim()) return 'the title is empty: give the file name, such as title="app.config.js", or leave the option out';
    rest = rest.replace(title[0], ' ');
    if (/\btitle=/.test(rest)) return 'two titles: give one';
  }
  const range = /\{([^}]*)\}/.exec(rest);
  if (range) {
    rest = rest.replace(range[0], ' ');
    for (const part of range[1]!.split(',').map((p) => p.trim())) {
      const m = /^(\d+)(?:-(\d+))?$/.exec(part);
      if (!m) return `bad line range "{${range[1]}}": expected numbers and ranges such as {2,4-6}`;
      const from = Number(m[1]);
      const to = m[2] ? Number(m[2]) : from;
      if (from < 1 || to < from || to > lineCount) {
        return `bad line range "{${range[1]}}": the block has ${lineCount} line${lineCount === 1 ? '' : 's'}`;
      }
      for (let n = from; n <= to; n++) result.lines.add(n);
    }
  }
  for (const word of rest.split(/\s+/).filter(Boolean)) {
    if (word === 'diff' && result.diff) return 'diff is given twice';
    if (word === 'diff') result.diff = true;
    else return `unknown code block option "${word}" (expected title="…", {line ranges} or diff)`;
  }
  return result;
}

type LineMark = 'add' | 'del' | undefined;

/**
 * The code of a block as highlighted, and each line's diff mark: diff
 * markers are kept out of the highlighted code so that it stays valid syntax.
 */
function highlightedCode(value: string, meta: CodeMeta): { code: string; marks: LineMark[] } {
  const marks: LineMark[] = [];
  if (!meta.diff) return { code: value, marks };
  // As `git diff` prints an edit: one column of marks, then the code with its own indentation.
  const lines = value.split('\n').map((line, i) => {
    marks[i] = line[0] === '+' ? 'add' : line[0] === '-' ? 'del' : undefined;
    return /^[+\- ]/.test(line) ? line.slice(1) : line;
  });
  return { code: lines.join('\n'), marks };
}

/**
 * The code blocks of a Markdown body that need highlighting, found without
 * parsing it: fenced blocks that start a line (up to three spaces in) and
 * are not inside another fence. A guess made ahead of rendering, so that
 * another thread can highlight while this one parses: a block in a list or
 * a quote is missed, and what a guess gets wrong is only highlighted in
 * vain, since rendering asks for each block by the key of what the parser
 * found (see remarkCodeBlocks).
 */
export function fencedCodeBlocks(body: string): CodeToHighlight[] {
  const found: CodeToHighlight[] = [];
  const lines = body.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const open = /^( {0,3})(`{3,}|~{3,})[ \t]*([^\s`]*)(.*)$/.exec(lines[i]!);
    if (!open) continue;
    const [indent, fence, info, rest] = [open[1]!, open[2]!, open[3]!, open[4]!];
    // A backtick fence's info string holds no backtick (that line is inline code).
    if (fence[0] === '`' && rest.includes('`')) continue;
    const close = new RegExp(`^ {0,3}${fence[0] === '`' ? '`' : '~'}{${fence.length},}[ \\t]*$`);
    const content: string[] = [];
    let j = i + 1;
    for (; j < lines.length && !close.test(lines[j]!); j++) {
      const line = lines[j]!;
      let strip = 0;
      while (strip < indent.length && line[strip] === ' ') strip++;
      content.push(line.slice(strip));
    }
    i = j;
    const block = readBlock(info || null, rest, content.join('\n'));
    if (typeof block === 'string' || !needsHighlighter(block.lang) || !colourable(block.code)) continue;
    found.push({ key: block.key, lang: block.lang, code: block.code });
  }
  return found;
}

/** A fenced block as highlighted (its language, code, options and key), or what is wrong with its language or options. */
function readBlock(written: string | null | undefined, options: string | null | undefined, value: string) {
  const lang = (written ?? 'text').toLowerCase();
  if (!isKnownLanguage(lang)) return `unknown code language "${written}": use one of ${LANGUAGE_NAMES} (text for anything without syntax to colour)`;
  const meta = parseCodeMeta(options, value.split('\n').length);
  if (typeof meta === 'string') return meta;
  const { code, marks } = highlightedCode(value, meta);
  return { lang, code, meta, marks, key: codeBlockKey(lang, code) };
}

/** The key of a block's highlighted tokens: its language and code. */
const codeBlockKey = (lang: string, code: string) => createHash('sha1').update(lang).update('\0').update(code).digest('base64url');

/**
 * The tokens of the highlighted code blocks in a rendered body, by
 * codeBlockKey: read back from the markup remarkCodeBlocks made, so that
 * the next render of an edited page reuses them without keeping them
 * anywhere else. A block whose markup is not exactly that shape is left out
 * (it is highlighted again). Tokens that were plain text side by side come
 * back as one: the markup they make is the same.
 */
export function codeBlocksIn(html: string): Map<string, TokenLine[]> {
  const blocks = new Map<string, TokenLine[]>();
  for (const block of html.matchAll(/<pre class="code" data-lang="([a-z0-9+#.-]+)" tabindex="0"><code>([^]*?)<\/code><\/pre>/g)) {
    const lang = block[1]!;
    if (!needsHighlighter(lang)) continue;
    const lines: TokenLine[] = [];
    for (const line of block[2]!.split('\n')) {
      const inner = /^<span class="line(?: hl)?(?: add| del)?">(.*)<\/span>$/.exec(line)?.[1];
      if (inner === undefined) break;
      const tokens: TokenLine = [];
      let rest = inner;
      while (rest) {
        const token = /^<span class="(t\w{5})">([^<]*)<\/span>|^([^<]+)/.exec(rest);
        const text = token && unescapeText(token[2] ?? token[3]!);
        if (text === undefined || text === null) break;
        tokens.push([token![1] ?? '', text]);
        rest = rest.slice(token![0].length);
      }
      if (rest) break;
      lines.push(tokens);
    }
    if (lines.length !== block[2]!.split('\n').length) continue;
    blocks.set(codeBlockKey(lang, lines.map((tokens) => tokens.map(([, text]) => text).join('')).join('\n')), lines);
  }
  return blocks;
}

const NAMED: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"' };

/** Text as hast-util-to-html escapes it (numeric references, or the shortest named ones); undefined if it holds any other reference. */
function unescapeText(text: string): string | undefined {
  // (A "&" that starts no reference is not the serialiser's either.)
  let unknown = /&(?!(?:#x[0-9a-f]+|#[0-9]+|[a-z]+);)/i.test(text);
  const plain = decodeReferences(text, NAMED, (ref) => {
    unknown = true;
    return ref;
  });
  return unknown ? undefined : plain;
}

/**
 * Code blocks become highlighted markup. Tokens of a block the page had at
 * its last render (ctx.codeBlocks) are reused, so that an edit of a page's
 * text never loads the highlighter.
 */
export function remarkCodeBlocks() {
  return async (tree: Root, file: VFile) => {
    const ctx = file.data.ctx!;
    const blocks: Array<Exclude<ReturnType<typeof readBlock>, string> & { node: Code; index: number; parent: Parent }> = [];
    walk<Code>(tree, 'code', (node, index, parent) => {
      const block = readBlock(node.lang, node.meta, node.value);
      if (typeof block === 'string') report(ctx, node.position, block);
      else blocks.push({ ...block, node, index, parent });
    });
    const missing = blocks.filter((b) => needsHighlighter(b.lang) && colourable(b.code) && !ctx.codeBlocks?.has(b.key));
    const source = ctx.highlighter;
    // The page's missing blocks at once: from another thread, or from the highlighter (loaded when first needed).
    const fetched = !missing.length
      ? new Map<string, TokenLine[]>()
      : typeof source === 'function'
        ? await highlightBlocks(await source(), missing)
        : await source.tokens(missing);
    for (const { node, index, parent, lang, code, meta, marks, key } of blocks) {
      const tokens = ctx.codeBlocks?.get(key) ?? fetched.get(key) ?? plainTokens(code);
      // One `span.line` per line (marked when highlighted or a diff's), a span per token.
      const body = tokens.flatMap((tokenLine, i): ElementContent[] => {
        const className = ['line', ...(meta.lines.has(i + 1) ? ['hl'] : []), ...(marks[i] ? [marks[i]!] : [])];
        const line = h('span', { className }, tokenLine.map(([name, value]) => (name ? h('span', { className: [name] }, [value]) : value)));
        return i ? [{ type: 'text', value: '\n' }, line] : [line];
      });
      const children = [
        ...(meta.title ? [h('div', { className: ['code-title'] }, [meta.title])] : []),
        h('pre', { className: ['code'], dataLang: lang, tabIndex: 0 }, [h('code', {}, body)]),
        h('button', { type: 'button', className: ['copy'], dataCopy: '' }, ['Copy']),
      ];
      const hProperties = { className: ['code-block', ...(meta.title ? ['has-title'] : [])] };
      parent.children[index] = { type: 'codeBlock', data: { hName: 'div', hProperties, hChildren: children }, position: node.position } as never;
    }
  };
}
