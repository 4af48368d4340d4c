import type { RenderContext } from '../types.js';

export function Badge({ ctx }: { ctx: RenderContext }) {
  const badge = ctx.site.config.badge;
  if (!badge) return null;
  const label = badge.label ?? badge.package;
  const src = `https://img.shields.io/npm/v/${badge.package}.svg?label=${encodeURIComponent(label)}&style=flat-square&maxAge=3600`;
  return (
    <a className="badge" href={badge.link} target="_blank" rel="noopener noreferrer">
      <img src={src} alt={`Latest ${badge.package} version on npm (opens the release notes in a new tab)`} width={90} height={20} />
    </a>
  );
}

/** The desktop sidebar: pages of the current section, group headings, anchors (lists from the nav cache). */
export function Sidebar({ ctx, section, currentUrl }: { ctx: RenderContext; section: number; currentUrl: string }) {
  const { title } = ctx.site.sections[section]!;
  return (
    <aside className="sidebar" id="sidebar" aria-label="Sidebar">
      <div className="sidebar-inner">
        <Badge ctx={ctx} />
        <nav aria-label={`${title} pages`}>
          <ul className="sidebar-list" dangerouslySetInnerHTML={{ __html: ctx.nav.sidebarItems(section, currentUrl) }} />
        </nav>
      </div>
    </aside>
  );
}

/** The swipeable phone menu: every section with its pages. */
export function MobileMenu({ ctx, section, currentUrl }: { ctx: RenderContext; section: number; currentUrl: string }) {
  return (
    <div className="mobile-menu" id="mobile-menu">
      <nav className="mobile-menu-inner" aria-label="Site" dangerouslySetInnerHTML={{ __html: ctx.nav.menu(section, currentUrl) }} />
      <div className="mobile-menu-handle" aria-hidden="true" />
    </div>
  );
}
