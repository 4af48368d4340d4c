import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { RenderContext } from '../../templates/types.js';

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
export type Raw = (html: string) => string;

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
export function withRawNav(ctx: RenderContext, raw: Raw): RenderContext {
  const { nav } = ctx;
  return { ...ctx, nav: { ...nav, sidebarItems: (section, currentUrl) => raw(nav.sidebarItems(section, currentUrl)), menu: (section, currentUrl) => raw(nav.menu(section, currentUrl)) } };
}
