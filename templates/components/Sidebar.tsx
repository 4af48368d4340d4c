import { format } from '../../src/theme/ui.js';
import type { RenderContext, SidebarProps } from '../types.js';
import { href } from '../types.js';
import { SmartLink } from './ExternalLink.js';
import { hasLanguageMenu, LanguageItems } from '../trees.js';

export function Badge({ ctx }: { ctx: RenderContext }) {
  const badge = ctx.site.config.badge;
  if (!badge) return null;
  const { ui } = ctx.theme;
  const label = badge.label ?? badge.package;
  const src = `https://img.shields.io/npm/v/${badge.package}.svg?label=${encodeURIComponent(label)}&style=flat-square&maxAge=3600`;
  return (
    <a className="badge" href={badge.link} target="_blank" rel="noopener noreferrer">
      <img src={src} alt={format(ui.badgeAlt, { label })} width={90} height={20} />
      <span className="sr-only"> {ui.badgeLink}</span>
    </a>
  );
}

/** The desktop sidebar: pages of the current section, group headings, anchors (lists from the nav cache). */
export function Sidebar({ ctx, section, currentUrl }: SidebarProps) {
  const { title } = ctx.site.sections[section]!;
  const { ui } = ctx.theme;
  return (
    <aside className="sidebar" id="sidebar" aria-label={ui.sidebar}>
      <div className="sidebar-inner">
        <Badge ctx={ctx} />
        <nav aria-label={format(ui.sidebarPages, { title })}>
          <ul className="sidebar-list" dangerouslySetInnerHTML={{ __html: ctx.nav.sidebarItems(section, currentUrl) }} />
        </nav>
      </div>
    </aside>
  );
}

/**
 * The swipeable phone menu: every section with its pages, then what the header
 * hides on narrow screens: top navigation entries that are not sections, the
 * languages, and the repository and question links. Open, a backdrop dims the page beside it.
 */
export function MobileMenu({ ctx, section, currentUrl }: { ctx: RenderContext; section: number; currentUrl: string }) {
  const { config, sections } = ctx.site;
  const { ui } = ctx.theme;
  const listed = new Set(sections.map((s) => s.url));
  const more = new Map<string, string>();
  for (const entry of config.navigation.flatMap((e) => [e, ...(e.children ?? [])])) {
    if (!listed.has(entry.url) && !more.has(entry.url)) more.set(entry.url, entry.title);
  }
  for (const link of ctx.theme.social) if (!more.has(link.url)) more.set(link.url, link.label);
  return (
    <>
    <div className="mobile-menu" id="mobile-menu">
      <div className="mobile-menu-inner">
        <nav aria-label={ui.siteMenu} dangerouslySetInnerHTML={{ __html: ctx.nav.menu(section, currentUrl) }} />
        <nav className="mobile-section mobile-extra" aria-label={ui.moreLinks}>
          <ul>
            {[...more].map(([url, title]) => (
              <li key={url}>
                <SmartLink href={href(ctx, url)} ariaCurrent={url === currentUrl ? 'page' : undefined}>
                  {title}
                </SmartLink>
              </li>
            ))}
          </ul>
        </nav>
        {hasLanguageMenu(ctx) ? (
          <nav className="mobile-section mobile-languages" aria-label={ui.languages}>
            <p className="mobile-section-title">{ui.language}</p>
            <ul>
              <LanguageItems ctx={ctx} currentUrl={currentUrl} />
            </ul>
          </nav>
        ) : null}
      </div>
      <div className="mobile-menu-handle" aria-hidden="true" />
    </div>
    {/* Dims the page while the menu is open; a tap on it is a tap outside the menu, which closes it (menu.ts), and reaches nothing under it. */}
    <div className="menu-backdrop" aria-hidden="true" />
    </>
  );
}
