import type { Element, ElementContent } from 'hast';
import type { Code, Root } from 'mdast';
import { walk } from '../walk.js';
import type { VFile } from 'vfile';
import { report } from '../context.js';
import { highlightLines, isKnownLanguage } from '../highlight.js';

/**
 * Fenced code blocks: highlighted at build time, with an optional title
 * (title="webpack.config.js"), highlighted lines ({2,4-6}) and diff notation
 * (the word `diff` in the meta: lines starting with + or - are added or removed).
 */
export interface CodeMeta {
  title?: string;
  lines: Set<number>;
  diff: boolean;
}

export function parseCodeMeta(meta: string | null | undefined, lineCount: number): CodeMeta | string {
  const result: CodeMeta = { lines: new Set(), diff: false };
  let rest = meta ?? '';
  const title = /\btitle=(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(rest);
  if (title) {
    result.title = title[1] ?? title[2] ?? title[3];
    rest = rest.replace(title[0], ' ');
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
    if (word === 'diff') result.diff = true;
    else return `unknown code block option "${word}" (expected title="…", {line ranges} or diff)`;
  }
  return result;
}

export function remarkCodeBlocks() {
  return (tree: Root, file: VFile) => {
    const ctx = file.data.ctx!;
    walk<Code>(tree, 'code', (node, index, parent) => {
      const lang = (node.lang ?? 'text').toLowerCase();
      if (!isKnownLanguage(lang)) {
        report(ctx, node.position, `unknown code language "${node.lang}"`);
        return;
      }
      let code = node.value;
      const rawLines = code.split('\n');
      const meta = parseCodeMeta(node.meta, rawLines.length);
      if (typeof meta === 'string') {
        report(ctx, node.position, meta);
        return;
      }
      // Diff markers are kept out of the highlighted code so that it stays valid syntax.
      const marks: Array<'add' | 'del' | undefined> = [];
      if (meta.diff) {
        code = rawLines
          .map((line, i) => {
            const m = /^([+-])( ?)/.exec(line);
            marks[i] = m ? (m[1] === '+' ? 'add' : 'del') : undefined;
            return m ? line.slice(m[0].length) : line.startsWith(' ') ? line.slice(1) : line;
          })
          .join('\n');
      }
      const lines = highlightLines(ctx.highlighter, code, lang);
      const body: ElementContent[] = [];
      lines.forEach((line, i) => {
        const classes = line.properties.className as string[];
        if (meta.lines.has(i + 1)) classes.push('hl');
        if (marks[i]) classes.push(marks[i]!);
        body.push(line);
        if (i < lines.length - 1) body.push({ type: 'text', value: '\n' });
      });
      const pre: Element = {
        type: 'element',
        tagName: 'pre',
        properties: { className: ['code'], dataLang: lang, tabIndex: 0 },
        children: [{ type: 'element', tagName: 'code', properties: {}, children: body }],
      };
      const children: ElementContent[] = [];
      if (meta.title) {
        children.push({
          type: 'element',
          tagName: 'div',
          properties: { className: ['code-title'] },
          children: [{ type: 'text', value: meta.title }],
        });
      }
      children.push(pre, {
        type: 'element',
        tagName: 'button',
        properties: { type: 'button', className: ['copy'], dataCopy: '' },
        children: [{ type: 'text', value: 'Copy' }],
      });
      parent.children[index] = {
        type: 'codeBlock',
        data: {
          hName: 'div',
          hProperties: { className: ['code-block', ...(meta.title ? ['has-title'] : [])] },
          hChildren: children,
        },
        position: node.position,
      } as never;
    });
  };
}
