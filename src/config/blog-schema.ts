import { z } from 'zod';
import { nonBlank } from './text.js';

/* The `blog:` key of the config: a blog of dated posts under content/<path>/ (see src/site/blog.ts). */

export const BlogSchema = z
  .strictObject({
    path: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]*(?:\/[a-z0-9][a-z0-9-]*)*$/, 'expected a folder under content/ written without slashes around it, such as blog or news/posts: lowercase letters, digits and -')
      .default('blog')
      .describe('The folder of the posts under content/, and the address of the blog (/<path>/).'),
    title: nonBlank().default('Blog').describe('The title of the blog\'s index pages and of its feed.'),
    description: nonBlank().optional().describe('The meta description of the index pages and the subtitle of the feed.'),
    postsPerPage: z.number().int().min(1).max(1000).default(10).describe('Posts on each index page (/<path>/, /<path>/page/2/, …), newest first.'),
    feed: z.boolean().default(true).describe('true: an Atom feed of every post at /<path>/atom.xml.'),
  })
  .describe('A blog: every content/<path>/YYYY-MM-DD-slug.md is a post at /<path>/<slug>/, listed newest first on the index pages. Absent: no blog.');
