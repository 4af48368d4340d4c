import type { Element, Root } from 'hast';
import { toHtml } from 'hast-util-to-html';
import { renderToStaticMarkup } from 'react-dom/server';
import { visit } from 'unist-util-visit';
import { Layout } from '../../templates/Layout.js';
import { Printable } from '../../templates/Printable.js';
import type { RenderContext } from '../../templates/types.js';
import type { SidebarSection, Site, SitePage } from '../site/model.js';

/** Renders one page to a complete HTML document. */
export function renderPage(ctx: RenderContext, page: SitePage): string {
  const body = toHtml(page.hast, { allowDangerousHtml: true });
  return '<!DOCTYPE html>' + renderToStaticMarkup(<Layout ctx={ctx} page={page} body={body} />);
}

/** The printable version of a section: every page in sidebar order in one document. */
export function renderPrintable(ctx: RenderContext, site: Site, section: SidebarSection): string {
  const chapters = section.pages.map((entry) => {
    const page = site.byUrl.get(entry.url)!;
    const slug = page.id.replace(/\//g, '-') || 'home';
    return { url: page.url, title: page.title, slug, body: toHtml(chapterTree(page.hast, slug), { allowDangerousHtml: true }) };
  });
  return '<!DOCTYPE html>' + renderToStaticMarkup(<Printable ctx={ctx} section={section} chapters={chapters} />);
}

/** A copy of a page body with headings one level down and ids (and links to them) prefixed. */
function chapterTree(tree: Root, prefix: string): Root {
  const copy = structuredClone(tree);
  visit(copy, 'element', (node: Element) => {
    const level = /^h([2-5])$/.exec(node.tagName);
    if (level) node.tagName = `h${Number(level[1]) + 1}`;
    if (typeof node.properties.id === 'string') node.properties.id = `${prefix}--${node.properties.id}`;
    const target = node.properties.href;
    if (node.tagName === 'a' && typeof target === 'string' && target.startsWith('#') && target.length > 1) {
      node.properties.href = `#${prefix}--${target.slice(1)}`;
    }
  });
  return copy;
}
