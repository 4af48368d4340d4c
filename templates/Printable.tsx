import type { SidebarSection } from '../src/site/model.js';
import { ANCHOR_LABEL_ID } from '../src/content/plugins/headings.js';
import { HeadEnd, HeadStart } from './Layout.js';
import type { RenderContext } from './types.js';
import { absoluteHref, href } from './types.js';
import { format } from '../src/theme/ui.js';
import { UiContext } from './components/ExternalLink.js';

/**
 * A whole section as one document, for reading offline or printing to PDF.
 * Each page becomes an h2 chapter (its own headings are shifted one level
 * down and its ids prefixed, so the document keeps one h1 and unique ids).
 */
export function Printable({ ctx, section, chapters }: { ctx: RenderContext; section: SidebarSection; chapters: Array<{ url: string; title: string; slug: string; body: string }> }) {
  const { config } = ctx.site;
  const { ui } = ctx.theme;
  const title = `${format(ui.printableTitle, { title: section.title })} | ${config.site.title}`;
  return (
    <UiContext.Provider value={ui}>
    <html lang={config.site.language}>
      <head>
        <HeadStart ctx={ctx} title={title} />
        <meta name="robots" content="noindex" />
        <link rel="canonical" href={absoluteHref(ctx, section.url)} />
        <HeadEnd ctx={ctx} />
      </head>
      <body className="printable">
        <span id={ANCHOR_LABEL_ID} hidden>
          {ui.sectionTitled}
        </span>
        <main id="content" className="content">
          <article className="article">
            <p className="article-tools">
              <a href={href(ctx, section.url)}>{format(ui.backTo, { title: section.title })}</a>
            </p>
            <h1>{section.title}</h1>
            <nav aria-label={ui.contents}>
              <ol>
                {chapters.map((chapter) => (
                  <li key={chapter.url}>
                    <a href={`#${chapter.slug}`}>{chapter.title}</a>
                  </li>
                ))}
              </ol>
            </nav>
            {chapters.map((chapter) => (
              <section key={chapter.url} className="chapter" aria-labelledby={chapter.slug}>
                <h2 id={chapter.slug}>{chapter.title}</h2>
                <p className="chapter-source">
                  <a href={href(ctx, chapter.url)}>{absoluteHref(ctx, chapter.url)}</a>
                </p>
                <div className="markdown" dangerouslySetInnerHTML={{ __html: chapter.body }} />
              </section>
            ))}
          </article>
        </main>
      </body>
    </html>
    </UiContext.Provider>
  );
}
