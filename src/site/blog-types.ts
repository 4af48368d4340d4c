/* The blog of a site as templates and generated files see it (made by src/site/blog.ts). */

export interface BlogPost {
  /** The post's address: /<path>/<slug>/. */
  url: string;
  title: string;
  description: string;
  /** YYYY-MM-DD, from the file name. */
  date: string;
  authors: string[];
  tags: string[];
}

export interface Blog {
  title: string;
  description?: string;
  /** The address of the first index page: /<path>/. */
  url: string;
  /** Every post, oldest first (the reading order of previous and next). */
  posts: BlogPost[];
  /** The index pages' addresses: /<path>/, /<path>/page/2/, … */
  indexUrls: string[];
  /** /<path>/atom.xml, when the blog has a feed. */
  feedUrl?: string;
}

/** The post at `url`, if it is one. */
export const postAt = (blog: Blog | undefined, url: string): BlogPost | undefined => blog?.posts.find((post) => post.url === url);

/** Whether `url` is one of the blog's index pages (made by the build, from no file). */
export const isBlogIndex = (blog: Blog | undefined, url: string): boolean => !!blog?.indexUrls.includes(url);
