import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitSource } from '../content/frontmatter.js';
import { linePieces } from '../content/pieces.js';
import type { Site, SitePage } from '../site/model.js';
import { withBase } from '../site/links.js';

/*
 * Files for AI readers and tools: /llms.txt lists every page with its title,
 * URL and description by section; /llms-full.txt holds the whole
 * documentation as Markdown, in sidebar order.
 */

function absolute(site: Site, base: string, url: string): string {
  return site.config.site.url.replace(/\/$/, '') + withBase(base, url);
}

function orderedPages(site: Site) {
  return site.sections.map((section) => ({
    title: section.title,
    pages: section.pages.map((entry) => site.byUrl.get(entry.url)!).filter(Boolean),
  }));
}

export function llmsTxt(site: Site, base: string): string {
  const lines = [`# ${site.config.site.title}`, '', `> ${site.config.site.description}`, ''];
  lines.push(`The whole documentation as one Markdown file: ${absolute(site, base, '/llms-full.txt')}`, '');
  for (const section of orderedPages(site)) {
    if (!section.pages.length) continue;
    lines.push(`## ${section.title}`, '');
    for (const page of section.pages) {
      const description = page.frontmatter.description ? `: ${page.frontmatter.description}` : '';
      lines.push(`- [${linkText(page.title)}](${absolute(site, base, page.url)})${description}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** A page's Markdown body as written, read again from its source file under `root`. */
export function markdownFromDisk(root: string): (page: SitePage) => string {
  return (page) => splitSource(readFileSync(join(root, page.sourcePath), 'utf8'), page.sourcePath).body;
}

/**
 * Every page's Markdown as written, in sidebar order, in pieces (a page's
 * Markdown may be megabytes: it is written as it comes, never joined with
 * the rest). The build does not keep every page's Markdown in memory until
 * the end: `markdownOf` reads it again.
 */
export function* llmsFullTxt(site: Site, base: string, markdownOf: (page: SitePage) => string): Generator<string> {
  let first = true;
  for (const section of orderedPages(site)) {
    for (const page of section.pages) {
      yield `${first ? '' : '\n---\n\n'}# ${page.title}\n\nSource: ${absolute(site, base, page.url)}\n\n`;
      first = false;
      yield* linePieces(markdownOf(page).trim());
      yield '\n';
    }
  }
}

/** A title as the text of a Markdown link: brackets and backslashes escaped, so that it cannot end the link and start another. */
function linkText(title: string): string {
  return title.replace(/[\\[\]]/g, (c) => `\\${c}`);
}
