import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/*
 * React's server renderer writes an attribute under the name its JSX prop has
 * unless the HTML name differs by more than case (className, htmlFor, httpEquiv
 * are mapped; tabIndex and a few booleans are lowercased): `charSet`,
 * `autoComplete`, `spellCheck`, `dateTime` reach the HTML as spelled. That is
 * valid (HTML attribute names are case-insensitive) but not the usual form, so
 * the markup React renders has these names lowercased. Page bodies never go
 * through this: a document is rendered with a marker for each body, and the
 * bodies, whose code samples may well show `autoComplete="off"` as text, take
 * the markers' places afterwards. SVG names (viewBox) are case-sensitive and
 * are not in the list.
 */
const CASED_HTML_ATTRIBUTE =
  / (accessKey|autoCapitalize|autoComplete|autoCorrect|autoPlay|autoSave|cellPadding|cellSpacing|charSet|colSpan|contentEditable|controlsList|dateTime|encType|enterKeyHint|fetchPriority|formEncType|formMethod|formNoValidate|formTarget|hrefLang|inputMode|itemProp|itemRef|itemScope|itemType|maxLength|minLength|noModule|noValidate|playsInline|popoverTarget|popoverTargetAction|readOnly|referrerPolicy|rowSpan|spellCheck|srcDoc|srcLang|srcSet|useMap)=/g;

const lowercase = (match: string) => match.toLowerCase();

/** The marker of the `index`th body of a document (see renderDocument). */
export const bodyMarker = (index: number) => `<!--docs-body:${index}-->`;
const BODY_MARKER = /<!--docs-body:(\d+)-->/g;

/**
 * A complete HTML document: `element` rendered, with conventional lowercase
 * attribute names, and `bodies[i]` in place of bodyMarker(i).
 */
export function renderDocument(element: ReactElement, bodies: readonly string[] = []): string {
  const markup = renderToStaticMarkup(element).replace(CASED_HTML_ATTRIBUTE, lowercase);
  return '<!DOCTYPE html>' + (bodies.length ? markup.replace(BODY_MARKER, (_, i: string) => bodies[Number(i)]!) : markup);
}
