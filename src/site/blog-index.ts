import type { SiteConfig } from '../config/schema.js';
import { formatDate, uiStrings } from '../theme/ui.js';
import type { Blog, BlogPost } from './blog-types.js';
import { withBase } from './links.js';

/*
 * The body of one index page of the blog: its posts, newest first, each with its title (a link), its
 * date and its description; then links to the newer and older index pages, and to the feed. Every
 * text is escaped: the titles and descriptions are the writers'.
 */

const escape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function blogIndexHtml(config: SiteConfig, base: string, blog: Blog, posts: BlogPost[], page: number): string {
  const ui = uiStrings(config.site.language, config.ui);
  const link = (url: string) => escape(withBase(base, url));
  const entries = posts.map(
    (post) =>
      `<li class="blog-entry"><h2><a href="${link(post.url)}">${escape(post.title)}</a></h2>` +
      `<p class="blog-date"><time datetime="${post.date}">${escape(formatDate(ui, post.date))}</time>${post.authors.length ? ` · ${escape(post.authors.join(', '))}` : ''}</p>` +
      `<p>${escape(post.description)}</p></li>`,
  );
  const pageLink = (target: number, rel: 'prev' | 'next') =>
    `<a class="page-link page-link-${rel}" href="${link(blog.indexUrls[target]!)}" rel="${rel}"><span class="page-link-label">${escape(rel === 'prev' ? ui.previous : ui.next)}</span><span class="page-link-title">${escape(blog.title)} ${target + 1}/${blog.indexUrls.length}</span></a>`;
  const newer = page > 0 ? pageLink(page - 1, 'prev') : '<span></span>';
  const older = page < blog.indexUrls.length - 1 ? pageLink(page + 1, 'next') : '<span></span>';
  return (
    `<ul class="blog-list">${entries.join('')}</ul>` +
    (blog.indexUrls.length > 1 ? `<nav class="pagination" aria-label="${escape(ui.pagination)}">${newer}${older}</nav>` : '') +
    (blog.feedUrl ? `<p class="blog-feed"><a href="${link(blog.feedUrl)}" type="application/atom+xml">${escape(ui.blogFeed)}</a></p>` : '')
  );
}
