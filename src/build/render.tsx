import { toHtml } from 'hast-util-to-html';
import { renderToStaticMarkup } from 'react-dom/server';
import { Layout } from '../../templates/Layout.js';
import type { RenderContext } from '../../templates/types.js';
import type { SitePage } from '../site/model.js';

/** Renders one page to a complete HTML document. */
export function renderPage(ctx: RenderContext, page: SitePage): string {
  const body = toHtml(page.hast, { allowDangerousHtml: true });
  return '<!DOCTYPE html>' + renderToStaticMarkup(<Layout ctx={ctx} page={page} body={body} />);
}
