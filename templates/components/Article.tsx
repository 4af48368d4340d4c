import type { SidebarPage } from '../../src/site/model.js';
import type { PageProps } from '../types.js';
import { href, isExternal } from '../types.js';
import { formatDate } from '../../src/theme/ui.js';
import { SmartLink } from './ExternalLink.js';
import { tocEntries } from '../toc.js';
import { BlogPostLine } from '../BlogPost.js';
import { isBlogIndex } from '../../src/site/blog-types.js';

export function Article({ ctx, page, body }: PageProps) {
  const section = page.section >= 0 ? ctx.site.sections[page.section] : undefined;
  const sectionUrl = section?.url;
  // A section of one page (a lone home page) has nothing more to print than the page itself.
  const sectionHasPages = (section?.pages.length ?? 0) > 1;
  const { site } = ctx.site.config;
  const { ui } = ctx.theme;
  const fm = page.frontmatter;
  const updated = ctx.lastUpdated.get(page.sourcePath);
  const contributors = [...fm.contributors].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
  const printable = ctx.theme.printable && sectionUrl && sectionHasPages;
  return (
    <article className="article">
      {fm.repo ? (
        <div className="article-repo">
          <a href={fm.repo} target="_blank" rel="noopener noreferrer">
            {ui.jumpToRepository}
            <span className="sr-only"> {ui.newTab}</span>
          </a>
        </div>
      ) : null}
      <Breadcrumbs ctx={ctx} page={page} />
      <h1>{page.title}</h1>
      <BlogPostLine ctx={ctx} page={page} />
      <PhoneContents ctx={ctx} page={page} />
      <div className="markdown" dangerouslySetInnerHTML={{ __html: body }} />
      {fm.related.length ? (
        <section className="further" aria-labelledby="further-reading">
          <h2 id="further-reading">{ui.furtherReading}</h2>
          <ul>
            {fm.related.map((item) => (
              <li key={item.url}>
                <SmartLink href={isExternal(item.url) ? item.url : href(ctx, item.url)}>{item.title}</SmartLink>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {contributors.length ? (
        <section className="contributors" aria-labelledby="contributors">
          <h2 id="contributors">{ui.contributors}</h2>
          <ul>
            {contributors.map((name) => (
              <li key={name}>
                <a href={`https://github.com/${name}`} target="_blank" rel="noopener noreferrer">
                  <img src={`https://github.com/${name}.png?size=90`} alt="" width={40} height={40} loading="lazy" decoding="async" />
                  <span>{name}</span>
                  <span className="sr-only"> {ui.newTab}</span>
                </a>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {(site.editBase && !isBlogIndex(ctx.site.blog, page.url)) || printable ? (
        <div className="article-tools">
          {site.editBase && !isBlogIndex(ctx.site.blog, page.url) ? (
            <a href={site.editBase + page.sourcePath} target="_blank" rel="noopener noreferrer">
              {ui.editPage}
              <span className="sr-only"> {ui.newTab}</span>
            </a>
          ) : null}
          {printable ? <a href={href(ctx, `${sectionUrl}printable/`)}>{ui.printableSection}</a> : null}
        </div>
      ) : null}
      {page.prev || page.next ? (
        <nav className="pagination" aria-label={ui.pagination}>
          <PageLink ctx={ctx} target={page.prev} rel="prev" />
          <PageLink ctx={ctx} target={page.next} rel="next" />
        </nav>
      ) : null}
      {updated ? (
        <p className="last-updated">
          {ui.lastUpdated} <time dateTime={updated}>{formatDate(ui, updated)}</time>
        </p>
      ) : null}
    </article>
  );
}

/**
 * Where the page sits: its section, then the page itself (the current page, aria-current), above the title.
 * The section's own index page and pages outside the sections have none.
 */
function Breadcrumbs({ ctx, page }: { ctx: PageProps['ctx']; page: PageProps['page'] }) {
  const section = page.section >= 0 ? ctx.site.sections[page.section] : undefined;
  if (!section || section.url === page.url) return null;
  return (
    <nav className="breadcrumbs" aria-label={ctx.theme.ui.breadcrumb}>
      <ol>
        <li>
          <a href={href(ctx, section.url)}>{section.title}</a>
        </li>
        <li>
          <a href={href(ctx, page.url)} aria-current="page">
            {page.title}
          </a>
        </li>
      </ol>
    </nav>
  );
}

/**
 * "On this page" of wide screens: a column right of the article listing the page's h2 headings and, under
 * each, its h3 headings (see templates/toc.ts). A plain list of links; the client script marks the entry of
 * the section being read (aria-current="true"). Pages of fewer than two entries have none.
 */
export function PageToc({ ctx, page }: { ctx: PageProps['ctx']; page: PageProps['page'] }) {
  const entries = tocEntries(page);
  if (entries.length + entries.reduce((n, entry) => n + entry.children.length, 0) < 2) return null;
  const { ui } = ctx.theme;
  return (
    <nav className="toc" aria-label={ui.onThisPage}>
      <div className="toc-inner">
        <p className="toc-title" aria-hidden="true">{ui.onThisPage}</p>
        <ul>
          {entries.map((entry) => (
            <li key={entry.id}>
              <a href={`#${entry.id}`}>{entry.title}</a>
              {entry.children.length ? (
                <ul>
                  {entry.children.map((child) => (
                    <li key={child.id}>
                      <a href={`#${child.id}`}>{child.title}</a>
                    </li>
                  ))}
                </ul>
              ) : null}
            </li>
          ))}
        </ul>
      </div>
    </nav>
  );
}

/**
 * "On this page" of narrow screens, where the sidebar is hidden: the page's sections (its h2 headings) in a list
 * that is closed under the title and opens with a tap, without script (<details>). Pages of fewer than two
 * sections have none. Wide screens do not show it (the sidebar, and from 1280 px the right column, list the sections).
 */
function PhoneContents({ ctx, page }: { ctx: PageProps['ctx']; page: PageProps['page'] }) {
  if (page.anchors.length < 2) return null;
  const { ui } = ctx.theme;
  return (
    <details className="toc-phone">
      <summary>{ui.contents}</summary>
      <nav aria-label={ui.contents}>
        <ul>
          {page.anchors.map((anchor) => (
            <li key={anchor.id}>
              {/* (The footnotes' heading is the Markdown stage's English word: shown in the site's language, as in the sidebar.) */}
              <a href={`#${anchor.id}`}>{anchor.id === 'footnote-label' ? ui.footnotes : anchor.title}</a>
            </li>
          ))}
        </ul>
      </nav>
    </details>
  );
}

function PageLink({ ctx, target, rel }: { ctx: PageProps['ctx']; target?: SidebarPage; rel: 'prev' | 'next' }) {
  if (!target) return <span />;
  return (
    <a className={`page-link page-link-${rel}`} href={href(ctx, target.url)} rel={rel}>
      <span className="page-link-label">{rel === 'prev' ? ctx.theme.ui.previous : ctx.theme.ui.next}</span>
      <span className="page-link-title">{target.title}</span>
    </a>
  );
}
