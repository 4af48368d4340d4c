import { Layout, NotFound } from '../../templates/Layout.js';
import { Printable } from '../../templates/Printable.js';
import type { ComponentType, ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { PageProps, RenderContext } from '../../templates/types.js';
import { pageHtml } from '../content/load.js';
import { fillLinks } from '../content/markdown.js';
import { ANCHOR_LABEL_ID } from '../content/plugins/headings.js';
import { uniqueIds } from '../content/slug.js';
import type { SidebarSection, Site, SitePage } from '../site/model.js';
import { format } from '../theme/ui.js';
import { escapeHtml } from '../shared/html.js';

/** An aside whose title the writer did not give (see asideNode): its label and title, in the interface's words. */
const DEFAULT_ASIDE = /(<div class="aside aside-(?:note|tip|warning|danger)" role="note" aria-label=")[^"\n]*("><p class="aside-title" data-aside-default="(note|tip|warning|danger|important|caution)">)[^<\n]*(<\/p>)/g;
const ASIDE_KEYS = { note: 'asideNote', tip: 'asideTip', warning: 'asideWarning', danger: 'asideDanger', important: 'asideImportant', caution: 'asideCaution' } as const;
/** The footnotes' heading and their links back, as the Markdown stage writes them (in English). */
/*
 * Each starts at a tag, and text never holds a "<" (the serialiser escapes it), so none matches what a
 * writer typed; nor the writer's raw HTML, which cannot carry the footnotes' markers or their heading's
 * id (see raw-html.ts and slug.ts) or data-aside-default.
 */
const FOOTNOTE_WORDS = /(<h2 class="sr-only" id="footnote-label">)Footnotes(<\/h2>)|(<a href="[^"<>]*" data-footnote-backref="" aria-label=")Back to reference ([^"\s]+)(")/g;
/** The summary of a diagram's source (src/content/plugins/diagrams.ts); a writer's raw HTML cannot carry data-diagram-source. */
const DIAGRAM_SOURCE = /(<summary data-diagram-source="">)Diagram source(<\/summary>)/g;

/*
 * React's server renderer writes an attribute under the name its JSX prop has
 * unless the HTML name differs by more than case (className, htmlFor, httpEquiv
 * are mapped; tabIndex and a few booleans are lowercased): `charSet`,
 * `autoComplete`, `spellCheck`, `dateTime` reach the HTML as spelled. That is
 * valid (HTML attribute names are case-insensitive) but not the usual form, so
 * the markup React renders has these names lowercased.
 *
 * Only React's own markup is searched: the raw HTML a document holds (page
 * bodies, whose code samples may well show `autoComplete="off"` as text, and
 * the navigation lists, most of a page's chrome) goes in as a marker and takes
 * the marker's place afterwards. SVG names (viewBox) are case-sensitive and are
 * not in the list.
 */
const CASED_HTML_ATTRIBUTE =
  / (accessKey|autoCapitalize|autoComplete|autoCorrect|autoPlay|autoSave|cellPadding|cellSpacing|charSet|colSpan|contentEditable|controlsList|dateTime|encType|enterKeyHint|fetchPriority|formEncType|formMethod|formNoValidate|formTarget|hrefLang|inputMode|itemProp|itemRef|itemScope|itemType|maxLength|minLength|noModule|noValidate|playsInline|popoverTarget|popoverTargetAction|readOnly|referrerPolicy|rowSpan|spellCheck|srcDoc|srcLang|srcSet|useMap)=/g;
const RAW_MARKER = /<!--docs-raw:(\d+)-->/g;

/** Hands raw HTML over to renderDocument and returns what to render in its place. */
type Raw = (html: string) => string;

/**
 * A complete HTML document: the element `render` returns, with conventional
 * lowercase attribute names, and the raw HTML given to `raw` in its places.
 */
export function renderDocument(render: (raw: Raw) => ReactElement): string {
  const raws: string[] = [];
  const raw: Raw = (html) => `<!--docs-raw:${raws.push(html) - 1}-->`;
  const markup = renderToStaticMarkup(render(raw)).replace(CASED_HTML_ATTRIBUTE, (name) => name.toLowerCase());
  // (A function as the replacement: a body's "$&" or "$1" stays as written.)
  return '<!DOCTYPE html>' + markup.replace(RAW_MARKER, (_, i: string) => raws[Number(i)]!);
}

/** The render context with the navigation lists handed over as raw HTML. */
function withRawNav(ctx: RenderContext, raw: Raw): RenderContext {
  const { nav } = ctx;
  return { ...ctx, nav: { ...nav, sidebarItems: (section, currentUrl) => raw(nav.sidebarItems(section, currentUrl)), menu: (section, currentUrl) => raw(nav.menu(section, currentUrl)) } };
}

/** The page body with its internal links filled in, and default aside titles in the site's language. */
export function bodyHtml(page: SitePage, ui: RenderContext['theme']['ui']): string {
  return fillLinks(pageHtml(page), page.hrefs, escapeHtml)
    .replace(DEFAULT_ASIDE, (_, open: string, middle: string, kind: keyof typeof ASIDE_KEYS, close: string) => {
      const word = escapeHtml(ui[ASIDE_KEYS[kind]]);
      return `${open}${word}${middle}${word}${close}`;
    })
    .replace(DIAGRAM_SOURCE, (_, open: string, close: string) => `${open}${escapeHtml(ui.diagramSource)}${close}`)
    .replace(FOOTNOTE_WORDS, (_, h2: string | undefined, h2End: string, back: string, n: string, quote: string) =>
      h2 !== undefined ? `${h2}${escapeHtml(ui.footnotes)}${h2End}` : `${back}${escapeHtml(format(ui.footnoteBack, { n }))}${quote}`,
    );
}

/** Renders one page to a complete HTML document (with another Layout: the preview of a templates folder's copy). */
export function renderPage(ctx: RenderContext, page: SitePage, Page: ComponentType<PageProps> = Layout): string {
  return renderDocument((raw) => <Page ctx={withRawNav(ctx, raw)} page={page} body={raw(bodyHtml(page, ctx.theme.ui))} />);
}

/** The 404 page of a site without content/404.md. */
export function renderNotFound(ctx: RenderContext): string {
  return renderDocument((raw) => <NotFound ctx={withRawNav(ctx, raw)} />);
}

/** The printable version of a section: every page in sidebar order in one document. */
export function renderPrintable(ctx: RenderContext, site: Site, section: SidebarSection): string {
  const chapterId = uniqueIds();
  return renderDocument((raw) => {
    const chapters = section.pages.map((entry) => {
      const page = site.byUrl.get(entry.url)!;
      const slug = chapterId(page.id.replace(/\//g, '-') || 'home');
      return { url: page.url, title: page.title, slug, body: raw(chapterHtml(bodyHtml(page, ctx.theme.ui), slug)) };
    });
    return <Printable ctx={ctx} section={section} chapters={chapters} />;
  });
}

/**
 * A tag as the serialiser writes it: a name, then attributes, each value in double quotes (which
 * it never holds: a quote is escaped). Text between tags holds no "<", so matching from the start
 * of the HTML finds the tags and nothing a writer typed; a "<" inside a value is taken with its tag.
 */
const TAG = /<\/?[a-zA-Z][^\s/>]*(?:\s+[^\s"'>/=]+(?:="[^"]*")?)*\s*\/?>/g;

/** A page body with headings one level down and ids (and links to them) prefixed: in its tags only. */
function chapterHtml(html: string, prefix: string): string {
  return html.replace(TAG, (tag) =>
    tag
      .replace(/^<(\/?)h([2-5])(?=[\s/>])/, (_, slash: string, level: string) => `<${slash}h${Number(level) + 1}`)
      .replace(/ id="([^"]+)"/, (_, id: string) => ` id="${prefix}--${id}"`)
      .replace(/ href="#([^"]+)"/, (_, id: string) => ` href="#${prefix}--${id}"`)
      .replace(/ aria-labelledby="([^"]+)"/, (_, ids: string) => ` aria-labelledby="${ids.split(' ').map((id) => (id === ANCHOR_LABEL_ID ? id : `${prefix}--${id}`)).join(' ')}"`)
      // A diagram's description and the markers its lines point to (src/content/plugins/diagrams.ts).
      .replace(/ aria-describedby="([^"]+)"/, (_, ids: string) => ` aria-describedby="${ids.split(' ').map((id) => `${prefix}--${id}`).join(' ')}"`)
      .replace(/="url\(#([^)"]+)\)"/g, (_, id: string) => `="url(#${prefix}--${id})"`),
  );
}
