import { createHash } from 'node:crypto';
import type { LoadedConfig } from '../config/load.js';
import type { SiteConfig } from '../config/schema.js';
import type { SourcePage } from '../content/load.js';
import type { SourceProblem } from '../shared/errors.js';
import { formatDate, uiStrings } from '../theme/ui.js';
import type { Blog, BlogPost } from './blog-types.js';
import { withBase } from './links.js';
import type { Site } from './model.js';
import { escapeHtml } from '../shared/html.js';

/*
 * The blog (the config's `blog:` key). Every Markdown file directly in content/<path>/ is a post, named
 * YYYY-MM-DD-slug.md: the date of its file name is its date, the rest its address /<path>/<slug>/. Its
 * frontmatter has a title and a description, and may have authors, tags and a date (the same as the file
 * name's). Before the site model is made, each post's page id becomes <path>/<slug>, and the index pages
 * (/<path>/, /<path>/page/2/, …) join the pages; after it, the posts get their previous and next posts.
 */

const POST_FILE = /^(\d{4}-\d{2}-\d{2})-([a-z0-9]+(?:-[a-z0-9]+)*)$/;

type PostName = { date: string; slug: string } | { problem: string };

/** What the file of page `id` is to the blog at `path`: a post's date and slug, a problem, or nothing (not in its folder). */
function postName(path: string, id: string): PostName | undefined {
  if (id === path) return { problem: `the blog writes /${path}/ itself: content/${path}.md or content/${path}/index.md cannot be a page; remove it or choose another blog.path` };
  if (!id.startsWith(`${path}/`)) return undefined;
  const name = id.slice(path.length + 1);
  if (name.includes('/')) return { problem: `blog posts go directly in content/${path}/, not in a folder under it` };
  const match = POST_FILE.exec(name);
  if (!match) return { problem: `a blog post's file is named YYYY-MM-DD-slug.md (such as 2026-02-03-release.md: the date, then lowercase letters, digits and -), not ${name}.md` };
  const date = match[1]!;
  if (!isDate(date)) return { problem: `${date} is not a date: a blog post's file name starts with its date, YYYY-MM-DD` };
  return { date, slug: match[2]! };
}

const isDate = (date: string) => {
  const time = Date.parse(`${date}T00:00:00Z`);
  return !Number.isNaN(time) && new Date(time).toISOString().slice(0, 10) === date;
};

/** The page id a page has on the site: <path>/<slug> for a post, its own otherwise (the search index names pages before the model exists). */
export function siteIdOf(config: SiteConfig, id: string): string {
  const name = config.blog && postName(config.blog.path, id);
  return name && 'slug' in name ? `${config.blog!.path}/${name.slug}` : id;
}

/**
 * The pages of the site with the blog's: posts under their ids, and the index pages. Problems: every post
 * file that is misnamed, has a bad date, no description, a date in its frontmatter unlike its name's, or
 * the slug of another post; a page where the blog's index goes.
 */
export function prepareBlog(loaded: LoadedConfig, sourcePages: SourcePage[], failed: ReadonlySet<string>, base: string): { pages: SourcePage[]; blog?: Blog; problems: SourceProblem[] } {
  const settings = loaded.config.blog;
  const problems: SourceProblem[] = [];
  if (!settings) return { pages: sourcePages, problems };
  const { path, title, description, postsPerPage } = settings;
  // Pages that failed to load are checked by name too, so that their problems come together.
  for (const id of [...failed].sort()) {
    const name = postName(path, id);
    if (name && 'problem' in name) problems.push({ file: `content/${id}.md`, line: 1, column: 1, message: name.problem });
  }
  const pages: SourcePage[] = [];
  const posts: BlogPost[] = [];
  const slugs = new Map<string, string>();
  for (const page of [...sourcePages].sort((a, b) => (a.sourcePath < b.sourcePath ? -1 : 1))) {
    const name = postName(path, page.id);
    if (!name) {
      pages.push(page);
      continue;
    }
    const at = (message: string, position = { line: 1, column: 1 }) => problems.push({ file: page.sourcePath, ...position, message });
    if ('problem' in name) {
      at(name.problem);
      continue;
    }
    const fm = page.frontmatter;
    const other = slugs.get(name.slug);
    if (other) at(`the blog post slug "${name.slug}" is also the slug of ${other}: each post needs its own (/${path}/${name.slug}/)`);
    else slugs.set(name.slug, page.sourcePath);
    if (fm.date !== undefined && fm.date !== name.date) at(`date ${fm.date} is not the date of the file name (${name.date}); remove the key or make the two the same`, page.locateField(['date']));
    if (fm.description === undefined) at('a blog post needs a description (frontmatter key description): the index pages and the feed show it', page.locateField([]));
    if (other) continue;
    const id = `${path}/${name.slug}`;
    pages.push({ ...page, id });
    posts.push({ url: `/${id}/`, title: fm.title, description: fm.description ?? '', date: name.date, authors: fm.authors ?? [], tags: fm.tags ?? [] });
  }
  posts.sort((a, b) => (a.date === b.date ? (a.url < b.url ? -1 : 1) : a.date < b.date ? -1 : 1));
  const count = Math.max(1, Math.ceil(posts.length / postsPerPage));
  const indexUrls = Array.from({ length: count }, (_, i) => (i === 0 ? `/${path}/` : `/${path}/page/${i + 1}/`));
  const feedUrl = settings.feed ? `/${path}/atom.xml` : undefined;
  const blog: Blog = { title, description, url: `/${path}/`, posts, indexUrls, feedUrl };
  const newest = [...blog.posts].reverse();
  indexUrls.forEach((url, i) => {
    const html = blogIndexHtml(loaded.config, base, blog, newest.slice(i * postsPerPage, (i + 1) * postsPerPage), i);
    pages.push({
      id: url.slice(1, -1),
      sourcePath: `content/${path}/`,
      frontmatter: { title: i === 0 ? title : `${title} (${i + 1}/${count})`, description, group: '-', contributors: [], related: [] },
      html,
      anchors: [],
      headings: [],
      ids: new Set(),
      links: [],
      tokenClasses: [],
      bodyLineOffset: 0,
      sourceKey: createHash('sha256').update(html).digest('hex'),
      locateField: () => ({ line: 1, column: 1 }),
    });
  });
  return { pages, blog, problems };
}

/** The site's posts get their previous (older) and next (newer) post, and the site its blog. */
export function linkBlog(site: Site, blog: Blog | undefined): void {
  if (!blog) return;
  site.blog = blog;
  const entry = (post: BlogPost | undefined) => post && { url: post.url, title: post.title, group: '-', anchors: [] };
  blog.posts.forEach((post, i) => {
    const page = site.byUrl.get(post.url);
    if (!page) return;
    page.prev = entry(blog.posts[i - 1]);
    page.next = entry(blog.posts[i + 1]);
  });
}

/*
 * The body of one index page of the blog: its posts, newest first, each with its title (a link), its
 * date and its description; then links to the newer and older index pages, and to the feed. Every
 * text is escaped: the titles and descriptions are the writers'.
 */

function blogIndexHtml(config: SiteConfig, base: string, blog: Blog, posts: BlogPost[], page: number): string {
  const ui = uiStrings(config.site.language, config.ui);
  const link = (url: string) => escapeHtml(withBase(base, url));
  const entries = posts.map(
    (post) =>
      `<li class="blog-entry"><h2><a href="${link(post.url)}">${escapeHtml(post.title)}</a></h2>` +
      `<p class="blog-date"><time datetime="${post.date}">${escapeHtml(formatDate(ui, post.date))}</time>${post.authors.length ? ` · ${escapeHtml(post.authors.join(', '))}` : ''}</p>` +
      `<p>${escapeHtml(post.description)}</p></li>`,
  );
  const pageLink = (target: number, rel: 'prev' | 'next') =>
    `<a class="page-link page-link-${rel}" href="${link(blog.indexUrls[target]!)}" rel="${rel}"><span class="page-link-label">${escapeHtml(rel === 'prev' ? ui.previous : ui.next)}</span><span class="page-link-title">${escapeHtml(blog.title)} ${target + 1}/${blog.indexUrls.length}</span></a>`;
  const newer = page > 0 ? pageLink(page - 1, 'prev') : '<span></span>';
  const older = page < blog.indexUrls.length - 1 ? pageLink(page + 1, 'next') : '<span></span>';
  return (
    `<ul class="blog-list">${entries.join('')}</ul>` +
    (blog.indexUrls.length > 1 ? `<nav class="pagination" aria-label="${escapeHtml(ui.pagination)}">${newer}${older}</nav>` : '') +
    (blog.feedUrl ? `<p class="blog-feed"><a href="${link(blog.feedUrl)}" type="application/atom+xml">${escapeHtml(ui.blogFeed)}</a></p>` : '')
  );
}
