import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { combineExtensions } from 'micromark-util-combine-extensions';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified, type Processor } from 'unified';
import type { Node } from 'unist';

/*
 * The Markdown parsers of the pipeline, and when the one that finds autolink literals is needed, in a
 * module of their own so that the benchmarks of the parser (scripts/*.mjs) load them without the rest.
 */

/** The full parser: remark-parse with GFM and directives. */
export const parser = unified().use(remarkParse).use(remarkGfm).use(remarkDirective);
/** The same without the costly search for autolink literals: what every page is parsed with first. */
export const parserWithoutAutolinks = unified().use(remarkParse).use(remarkGfmWithoutAutolinks).use(remarkDirective);

/**
 * remark-gfm without autolink literals: the same extensions, in the same
 * order, minus the one that turns bare `www.`, `http(s)://` and e-mail
 * addresses into links. That one tries a match at nearly every word and
 * makes parsing 70 % slower; a page whose text holds none of `www.`,
 * `http://`, `https://` or `@` (see mayHoldAutolinks and
 * textMayHoldAutolinks) parses to the same tree without it.
 */
export function remarkGfmWithoutAutolinks(this: Processor) {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(combineExtensions([gfmFootnote(), gfmStrikethrough(), gfmTable(), gfmTaskListItem()]));
  (data.fromMarkdownExtensions ??= []).push([gfmFootnoteFromMarkdown(), gfmStrikethroughFromMarkdown(), gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown()]);
}

const AUTOLINK_MARK = /www\.|https?:\/\/|@/i;

/** Whether GFM could find an autolink literal in `markdown` (every kind needs one of these). */
export function mayHoldAutolinks(markdown: string): boolean {
  return AUTOLINK_MARK.test(markdown);
}

/**
 * Whether GFM could find an autolink literal in the text of a tree parsed
 * without looking for them. Literals are only found in text (not in code,
 * HTML, link destinations or directive attributes), and every character of
 * one is text to the parser without them, since none of www., http(s)://
 * or @ starts another construct: a text node (or an image's alt, made of
 * text) holds the mark. Most pages that hold one of these marks only hold
 * it in code (@scoped/packages, URLs in comments); they need no second parse.
 */
export function textMayHoldAutolinks(tree: Node): boolean {
  const node = tree as Node & { value?: unknown; alt?: unknown; children?: Node[] };
  if (node.type === 'text' && typeof node.value === 'string' && AUTOLINK_MARK.test(node.value)) return true;
  if (typeof node.alt === 'string' && AUTOLINK_MARK.test(node.alt)) return true;
  return node.children?.some(textMayHoldAutolinks) ?? false;
}
