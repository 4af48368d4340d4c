import { postAt } from '../src/site/blog-types.js';
import { formatDate } from '../src/theme/ui.js';
import { href, type PageProps } from './types.js';

/*
 * The line under a blog post's title: its date (a <time datetime>) and its authors. Nothing on other
 * pages. (The posts' previous and next links are the article's own, set by linkBlog.)
 */
export function BlogPostLine({ ctx, page }: Pick<PageProps, 'ctx' | 'page'>) {
  const post = postAt(ctx.site.blog, page.url);
  if (!post) return null;
  return (
    <p className="last-updated blog-post-line">
      <time dateTime={post.date}>{formatDate(ctx.theme.ui, post.date)}</time>
      {post.authors.length ? <span className="blog-authors"> · {post.authors.join(', ')}</span> : null}
    </p>
  );
}

/** The head's link to the blog's feed, on every page of a site whose blog has one. */
export function BlogFeedLink({ ctx }: Pick<PageProps, 'ctx'>) {
  const blog = ctx.site.blog;
  if (!blog?.feedUrl) return null;
  return <link rel="alternate" type="application/atom+xml" title={blog.title} href={href(ctx, blog.feedUrl)} />;
}
