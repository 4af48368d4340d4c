import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { splitSource } from '../config/split-source.js';
import type { Site, SitePage } from '../site/model.js';
import { absoluteUrl } from './files.js';

/*
 * Files for AI readers and tools: /llms.txt lists every page with its title,
 * URL and description by section; /llms-full.txt holds the whole
 * documentation as Markdown, in sidebar order.
 */

function orderedPages(site: Site) {
  const sections = site.sections.map((section) => ({
    title: section.title,
    // (A language's copy of a page it lacks is in its original's llms.txt, not in this one.)
    pages: section.pages.map((entry) => site.byUrl.get(entry.url)!).filter((page) => page && !page.fallback),
  }));
  // The blog's posts, newest first, after the sections.
  if (site.blog) sections.push({ title: site.blog.title, pages: [...site.blog.posts].reverse().map((post) => site.byUrl.get(post.url)!).filter(Boolean) });
  return sections;
}

/** llms.txt of the site, or of one of its languages (`prefix`, such as "zh/": see src/site/trees.ts). */
export function llmsTxt(site: Site, base: string, prefix: string): string {
  const lines = [`# ${site.config.site.title}`, '', `> ${site.config.site.description}`, ''];
  lines.push(`The whole documentation as one Markdown file: ${absoluteUrl(site, base, `/${prefix}llms-full.txt`)}`, '');
  for (const section of orderedPages(site)) {
    if (!section.pages.length) continue;
    lines.push(`## ${section.title}`, '');
    for (const page of section.pages) {
      const description = page.frontmatter.description ? `: ${page.frontmatter.description}` : '';
      // The title as a link's text: brackets and backslashes escaped, so that it cannot end the link and start another.
      lines.push(`- [${page.title.replace(/[\\[\]]/g, (c) => `\\${c}`)}](${absoluteUrl(site, base, page.url)})${description}`);
    }
    lines.push('');
  }
  return lines.join('\n');
}

/** A page's Markdown body as written, read again from its source file under `root`. */
export function markdownFromDisk(root: string): (page: SitePage) => string {
  return (page) => splitSource(readFileSync(join(root, page.sourcePath), 'utf8'), page.sourcePath).body;
}

/** Every page's Markdown as written, in sidebar order (`markdownOf` gives it, or reads it again). */
export function llmsFullTxt(site: Site, base: string, markdownOf: (page: SitePage) => string): string {
  const parts: string[] = [];
  for (const section of orderedPages(site)) {
    for (const page of section.pages) {
      parts.push(`${parts.length ? '\n---\n\n' : ''}# ${page.title}\n\nSource: ${absoluteUrl(site, base, page.url)}\n\n`);
      parts.push(absoluteLinks(markdownOf(page).trim(), linkTargetsOf(site, base, page)), '\n');
    }
  }
  return parts.join('');
}

/**
 * The links and images of a page as written, each with the absolute URL it
 * leads to (the pages' links are checked and resolved by then: see
 * resolveLinks). A reader of llms-full.txt has no page to resolve
 * `../guide/` or `#install` from.
 */
function linkTargetsOf(site: Site, base: string, page: SitePage): Map<string, string> {
  const origin = site.config.site.url.replace(/\/$/, '');
  const targets = new Map<string, string>();
  page.links.forEach((link, i) => {
    const final = page.hrefs[i];
    if (final === undefined || targets.has(link.href)) return;
    if (final.startsWith('#')) targets.set(link.href, absoluteUrl(site, base, page.url) + (final === '#' ? '' : final));
    else if (final.startsWith('/')) targets.set(link.href, origin + final);
  });
  return targets;
}

/**
 * Markdown with the destinations of its inline links and images and of its
 * link definitions written as absolute URLs (those of `targets`); code
 * blocks are left as they are.
 */
function absoluteLinks(markdown: string, targets: Map<string, string>): string {
  if (!targets.size) return markdown;
  let fence: string | undefined;
  const swap = (dest: string) => targets.get(dest) ?? dest;
  const lines = markdown.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const open = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fence) {
      if (open && open[1]![0] === fence[0] && open[1]!.length >= fence.length && /^ {0,3}[`~]+\s*$/.test(line)) fence = undefined;
      continue;
    }
    if (open) {
      fence = open[1];
      continue;
    }
    lines[i] = line
      .replace(/(\]\(\s*)(<[^>\n]*>|[^\s)]+)/g, (all, lead: string, dest: string) =>
        dest.startsWith('<') ? `${lead}<${swap(dest.slice(1, -1))}>` : `${lead}${swap(dest)}`,
      )
      .replace(/^( {0,3}\[[^\]]+\]:\s*)(\S+)/, (all, lead: string, dest: string) => `${lead}${swap(dest)}`);
  }
  return lines.join('\n');
}
