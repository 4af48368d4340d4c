import type { ReactNode } from 'react';
import { ANCHOR_LABEL_ID } from '../src/content/plugins/headings.js';
import { Article } from './components/Article.js';
import { Banner, NotificationBar } from './components/Banner.js';
import { ChatButton, Footer } from './components/Footer.js';
import { Header } from './components/Header.js';
import { MobileMenu, Sidebar } from './components/Sidebar.js';
import type { PageProps, RenderContext } from './types.js';
import { href } from './types.js';

/** What every document's head starts with: encoding, viewport, the policy (first, so it covers all that follows) and title. */
export function HeadStart({ ctx, title }: { ctx: RenderContext; title: string }) {
  return (
    <>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width, initial-scale=1" />
      <meta httpEquiv="Content-Security-Policy" content={ctx.assets.csp} />
      <title>{title}</title>
    </>
  );
}

/** The end of every head: colour schemes, the before-paint script, the stylesheet. */
export function HeadEnd({ ctx }: { ctx: RenderContext }) {
  return (
    <>
      <meta name="color-scheme" content="light dark" />
      <script dangerouslySetInnerHTML={{ __html: ctx.assets.headScript }} />
      <link rel="stylesheet" href={href(ctx, ctx.assets.css)} />
    </>
  );
}

/** The whole document of one page. */
export function Layout(props: PageProps) {
  const { ctx, page } = props;
  const { config } = ctx.site;
  const title = page.id === '' ? config.site.title : `${page.title} | ${config.site.title}`;
  const description = page.frontmatter.description ?? config.site.description;
  const canonical = config.site.url.replace(/\/$/, '') + href(ctx, page.url);
  return (
    <html lang={config.site.language}>
      <head>
        <HeadStart ctx={ctx} title={title} />
        <meta name="description" content={description} />
        <link rel="canonical" href={canonical} />
        <meta property="og:type" content="website" />
        <meta property="og:site_name" content={config.site.title} />
        <meta property="og:title" content={page.title} />
        <meta property="og:description" content={description} />
        <meta property="og:url" content={canonical} />
        <link rel="icon" href={href(ctx, '/favicon.svg')} type="image/svg+xml" />
        <HeadEnd ctx={ctx} />
        <script src={href(ctx, ctx.assets.js)} defer />
      </head>
      <Body ctx={ctx} section={page.section} currentUrl={page.url}>
        <Article {...props} />
      </Body>
    </html>
  );
}

/** Everything around a page's main content: banners, header, phone menu, sidebar, footer, chat button. */
function Body({ ctx, section, currentUrl, children }: { ctx: RenderContext; section: number; currentUrl: string; children: ReactNode }) {
  const { config } = ctx.site;
  return (
    <body>
      <a className="skip-link" href="#content">Skip to content</a>
      <span id={ANCHOR_LABEL_ID} hidden>
        Section titled
      </span>
      {config.banner ? <Banner banner={config.banner} ctx={ctx} /> : null}
      {config.notification ? <NotificationBar note={config.notification} ctx={ctx} /> : null}
      <Header ctx={ctx} currentUrl={currentUrl} />
      <MobileMenu ctx={ctx} section={section} currentUrl={currentUrl} />
      <div className={section >= 0 ? 'page has-sidebar' : 'page'} id="page">
        {section >= 0 ? <Sidebar ctx={ctx} section={section} currentUrl={currentUrl} /> : null}
        <main id="content" className="content" tabIndex={-1}>
          {children}
        </main>
      </div>
      <Footer ctx={ctx} />
      <ChatButton ctx={ctx} />
    </body>
  );
}

/**
 * The 404 page when the site has no content/404.md: the site's own chrome (and
 * so its search box), a title and a link to each section. Served at any
 * address, so every link in it is a full path.
 */
export function NotFound({ ctx }: { ctx: RenderContext }) {
  const { config, sections } = ctx.site;
  return (
    <html lang={config.site.language}>
      <head>
        <HeadStart ctx={ctx} title={`Page not found | ${config.site.title}`} />
        <meta name="robots" content="noindex" />
        <link rel="icon" href={href(ctx, '/favicon.svg')} type="image/svg+xml" />
        <HeadEnd ctx={ctx} />
        <script src={href(ctx, ctx.assets.js)} defer />
      </head>
      <Body ctx={ctx} section={-1} currentUrl="">
        <article className="article">
          <h1>Page not found</h1>
          <div className="markdown">
            <p>There is no page at this address. Search the documentation with the search box at the top of the page, or start from one of its sections:</p>
            <ul>
              {sections.map((section) => (
                <li key={section.url}>
                  <a href={href(ctx, section.url)}>{section.title}</a>
                </li>
              ))}
            </ul>
          </div>
        </article>
      </Body>
    </html>
  );
}
