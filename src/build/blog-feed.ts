import type { Blog } from '../site/blog-types.js';
import { absoluteUrl } from './files.js';
import type { Site } from '../site/model.js';
import { escapeHtml } from '../shared/html.js';

/*
 * The blog's Atom 1.0 feed (RFC 4287), /<path>/atom.xml: every post, newest first, each with its
 * address as id and link, its title, its date as published and updated, its description as summary,
 * its authors and tags. The feed names the site as its author, so that a post without authors still has
 * one. Every URL is absolute (site.url and the base path), every text escaped.
 */

const time = (date: string) => `${date}T00:00:00Z`;

export function atomFeed(site: Site, blog: Blog, base: string): string {
  const absolute = (url: string) => escapeHtml(absoluteUrl(site, base, url));
  const newest = [...blog.posts].reverse();
  const updated = newest[0] ? time(newest[0].date) : '1970-01-01T00:00:00Z';
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <id>${absolute(blog.url)}</id>`,
    `  <title>${escapeHtml(`${blog.title} | ${site.config.site.title}`)}</title>`,
    ...(blog.description ? [`  <subtitle>${escapeHtml(blog.description)}</subtitle>`] : []),
    `  <updated>${updated}</updated>`,
    `  <link rel="self" type="application/atom+xml" href="${absolute(blog.feedUrl ?? `${blog.url}atom.xml`)}"/>`,
    `  <link rel="alternate" type="text/html" href="${absolute(blog.url)}"/>`,
    `  <author><name>${escapeHtml(site.config.site.title)}</name></author>`,
    '  <generator>docs</generator>',
  ];
  for (const post of newest) {
    lines.push(
      '  <entry>',
      `    <id>${absolute(post.url)}</id>`,
      `    <title>${escapeHtml(post.title)}</title>`,
      `    <published>${time(post.date)}</published>`,
      `    <updated>${time(post.date)}</updated>`,
      `    <link rel="alternate" type="text/html" href="${absolute(post.url)}"/>`,
      ...post.authors.map((name) => `    <author><name>${escapeHtml(name)}</name></author>`),
      ...post.tags.map((tag) => `    <category term="${escapeHtml(tag)}"/>`),
      `    <summary>${escapeHtml(post.description)}</summary>`,
      '  </entry>',
    );
  }
  lines.push('</feed>');
  return lines.join('\n') + '\n';
}
