import { gfmFootnoteFromMarkdown } from 'mdast-util-gfm-footnote';
import { gfmStrikethroughFromMarkdown } from 'mdast-util-gfm-strikethrough';
import { gfmTableFromMarkdown } from 'mdast-util-gfm-table';
import { gfmTaskListItemFromMarkdown } from 'mdast-util-gfm-task-list-item';
import { gfmFootnote } from 'micromark-extension-gfm-footnote';
import { gfmStrikethrough } from 'micromark-extension-gfm-strikethrough';
import { gfmTable } from 'micromark-extension-gfm-table';
import { gfmTaskListItem } from 'micromark-extension-gfm-task-list-item';
import { combineExtensions } from 'micromark-util-combine-extensions';
import type { Processor } from 'unified';

/**
 * remark-gfm without autolink literals: the same extensions, in the same
 * order, minus the one that turns bare `www.`, `http(s)://` and e-mail
 * addresses into links. That one tries a match at nearly every word and
 * makes parsing 70 % slower; a page whose text holds none of `www.`,
 * `http://`, `https://` or `@` (see mayHoldAutolinks) parses to the same tree
 * without it.
 */
export function remarkGfmWithoutAutolinks(this: Processor) {
  const data = this.data();
  (data.micromarkExtensions ??= []).push(combineExtensions([gfmFootnote(), gfmStrikethrough(), gfmTable(), gfmTaskListItem()]));
  (data.fromMarkdownExtensions ??= []).push([gfmFootnoteFromMarkdown(), gfmStrikethroughFromMarkdown(), gfmTableFromMarkdown(), gfmTaskListItemFromMarkdown()]);
}

/** Whether GFM could find an autolink literal in `markdown` (every kind needs one of these). */
export function mayHoldAutolinks(markdown: string): boolean {
  return /www\.|https?:\/\/|@/i.test(markdown);
}
