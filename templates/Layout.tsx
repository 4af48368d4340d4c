import type { ComponentType, ReactNode } from 'react';
import { BlogFeedLink } from './BlogPost.js';
import { ANCHOR_LABEL_ID } from '../src/content/plugins/headings.js';
import type { ComponentName } from '../src/config/schema.js';
import type { SitePage } from '../src/site/model.js';
import { clientStrings } from '../src/theme/ui.js';
import { Article, PageToc } from './components/Article.js';
import { pageDescription } from './description.js';
import { Banner, NotificationBar } from './components/Banner.js';
import { UiContext } from './components/ExternalLink.js';
import { ChatButton, Footer } from './components/Footer.js';
import { Header } from './components/Header.js';
import { Home, homeProps } from './components/Home.js';
import { MobileMenu, Sidebar } from './components/Sidebar.js';
import type { PageProps, RenderContext } from './types.js';
import { absoluteHref, href } from './types.js';
import { canonicalOf, TreeHead, TreeNotices } from './trees.js';
import { isRtl } from '../src/theme/ui.js';

/** A part of the page: the site's own component when it replaces this one (config `components:`), given the built-in one as Default. */
function Part<P extends object>({ ctx, name, Default, props }: { ctx: RenderContext; name: ComponentName; Default: ComponentType<P>; props: P }) {
  const Own = ctx.components[name];
  return Own ? <Own {...props} Default={Default} /> : <Default {...props} />;
}

/** The page's favicon link (theme.favicon, the logo, or the built-in mark). */
function Favicon({ ctx }: { ctx: RenderContext }) {
  return <link rel="icon" href={href(ctx, ctx.theme.favicon.url)} type={ctx.theme.favicon.type} />;
}

/** Extra head elements of the site's Head component, if it has one. */
function HeadExtra({ ctx, page }: { ctx: RenderContext; page?: SitePage }) {
  const Own = ctx.components.Head;
  return Own ? <Own ctx={ctx} page={page} /> : null;
}

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

/** The end of every head: the favicon, colour schemes, the before-paint script, the stylesheet. */
export function HeadEnd({ ctx, page }: { ctx: RenderContext; page?: SitePage }) {
  return (
    <>
      <Favicon ctx={ctx} />
      <meta name="color-scheme" content="light dark" />
      <script dangerouslySetInnerHTML={{ __html: ctx.assets.headScript }} />
      <link rel="stylesheet" href={href(ctx, ctx.assets.css)} />
      <BlogFeedLink ctx={ctx} />
      <HeadExtra ctx={ctx} page={page} />
    </>
  );
}

/** A URL of link previews: absolute (with site.url and the base path) for a path of the site. */
function absoluteUrl(ctx: RenderContext, url: string | undefined): string | undefined {
  if (!url) return undefined;
  if (/^https?:\/\//i.test(url)) return url;
  return absoluteHref(ctx, url);
}

/** The whole document of one page. */
export function Layout(props: PageProps) {
  const { ctx, page } = props;
  const { config } = ctx.site;
  const title = page.id === '' ? config.site.title : `${page.title} | ${config.site.title}`;
  const description = pageDescription(page, config.site.description);
  const canonical = ctx.site.trees ? canonicalOf(ctx, page) : absoluteHref(ctx, page.url);
  const landing = page.id === '' && ctx.theme.home === 'landing';
  const image = absoluteUrl(ctx, page.frontmatter.image ?? ctx.theme.image);
  return (
    <UiContext.Provider value={ctx.theme.ui}>
    <html lang={config.site.language} dir={direction(ctx)}>
      <head>
        <HeadStart ctx={ctx} title={title} />
        <meta name="description" content={description} />
        <link rel="canonical" href={canonical} />
        <TreeHead ctx={ctx} page={page} />
        <meta property="og:type" content="website" />
        <meta property="og:site_name" content={config.site.title} />
        <meta property="og:title" content={page.title} />
        <meta property="og:description" content={description} />
        <meta property="og:url" content={canonical} />
        {image ? <meta property="og:image" content={image} /> : null}
        <meta name="twitter:card" content={image ? 'summary_large_image' : 'summary'} />
        <meta name="twitter:title" content={page.title} />
        <meta name="twitter:description" content={description} />
        {image ? <meta name="twitter:image" content={image} /> : null}
        <HeadEnd ctx={ctx} page={page} />
        <script src={href(ctx, ctx.assets.js)} defer />
      </head>
      <Body ctx={ctx} section={landing ? -1 : page.section} currentUrl={page.url} aside={landing ? null : <PageToc ctx={ctx} page={page} />} page={page}>
        {landing ? <Part ctx={ctx} name="Home" Default={Home} props={homeProps(props)} /> : <Part ctx={ctx} name="Article" Default={Article} props={props} />}
      </Body>
    </html>
    </UiContext.Provider>
  );
}

/** Everything around a page's main content: banners, header, phone menu, sidebar, footer, chat button. */
function Body({ ctx, section, currentUrl, children, aside, page }: { ctx: RenderContext; section: number; currentUrl: string; children: ReactNode; aside?: ReactNode; page?: SitePage }) {
  const { config } = ctx.site;
  const { ui } = ctx.theme;
  return (
    <body data-ui={clientStrings(ui)}>
      <a className="skip-link" href="#content">{ui.skipToContent}</a>
      <span id={ANCHOR_LABEL_ID} hidden>
        {ui.sectionTitled}
      </span>
      {config.banner ? <Part ctx={ctx} name="Banner" Default={Banner} props={{ banner: config.banner, ctx }} /> : null}
      {config.notification ? <NotificationBar note={config.notification} ctx={ctx} /> : null}
      <Part ctx={ctx} name="Header" Default={Header} props={{ ctx, currentUrl }} />
      <MobileMenu ctx={ctx} section={section} currentUrl={currentUrl} />
      <div className={section >= 0 ? 'page has-sidebar' : 'page'} id="page">
        {section >= 0 ? <Part ctx={ctx} name="Sidebar" Default={Sidebar} props={{ ctx, section, currentUrl }} /> : null}
        <main id="content" className="content" tabIndex={-1} {...fallbackLanguage(ctx, page)}>
          {page ? <TreeNotices ctx={ctx} page={page} /> : null}
          {children}
        </main>
        {aside}
      </div>
      <Part ctx={ctx} name="Footer" Default={Footer} props={{ ctx }} />
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
  const { ui } = ctx.theme;
  return (
    <UiContext.Provider value={ui}>
    <html lang={config.site.language} dir={direction(ctx)}>
      <head>
        <HeadStart ctx={ctx} title={`${ui.notFoundTitle} | ${config.site.title}`} />
        <meta name="robots" content="noindex" />
        <HeadEnd ctx={ctx} />
        <script src={href(ctx, ctx.assets.js)} defer />
      </head>
      <Body ctx={ctx} section={-1} currentUrl="">
        <article className="article">
          <h1>{ui.notFoundTitle}</h1>
          <div className="markdown">
            <p>{ui.notFoundText}</p>
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
    </UiContext.Provider>
  );
}

/** dir="rtl" on a page in a language written right to left (nothing otherwise: ltr is the default). */
function direction(ctx: RenderContext): 'rtl' | undefined {
  const tree = ctx.site.trees?.[ctx.site.tree ?? 0];
  return (tree ? tree.language.dir === 'rtl' : isRtl(ctx.site.config.site.language)) ? 'rtl' : undefined;
}

/** The language (and direction, when it differs) of a page shown in place of a missing translation: its original's. */
function fallbackLanguage(ctx: RenderContext, page: SitePage | undefined): { lang?: string; dir?: 'ltr' | 'rtl' } {
  if (!page?.fallback || !ctx.site.trees) return {};
  const { language } = ctx.site.trees[ctx.site.byUrl.get(page.fallback)?.tree ?? 0]!;
  return { lang: language.code, dir: language.dir !== (direction(ctx) ?? 'ltr') ? language.dir : undefined };
}
