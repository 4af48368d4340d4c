import type { RenderContext } from '../types.js';
import { href } from '../types.js';
import { SmartLink } from './ExternalLink.js';

export function Badge({ ctx }: { ctx: RenderContext }) {
  const badge = ctx.site.config.badge;
  if (!badge) return null;
  const label = badge.label ?? badge.package;
  const src = `https://img.shields.io/npm/v/${badge.package}.svg?label=${encodeURIComponent(label)}&style=flat-square&maxAge=3600`;
  return (
    <a className="badge" href={badge.link} target="_blank" rel="noopener noreferrer">
      <img src={src} alt={`${label} version`} width={90} height={20} />
      <span className="sr-only"> (release notes, opens in a new tab)</span>
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

/**
 * The swipeable phone menu: every section with its pages, then what the header
 * hides on narrow screens: top navigation entries that are not sections, the
 * languages, and the repository and question links.
 */
export function MobileMenu({ ctx, section, currentUrl }: { ctx: RenderContext; section: number; currentUrl: string }) {
  const { config, sections } = ctx.site;
  const listed = new Set(sections.map((s) => s.url));
  const more = new Map<string, string>();
  for (const entry of config.navigation.flatMap((e) => [e, ...(e.children ?? [])])) {
    if (!listed.has(entry.url) && !more.has(entry.url)) more.set(entry.url, entry.title);
  }
  more.set(config.links.repository, 'Source code on GitHub');
  more.set(config.links.questions, 'Questions on Stack Overflow');
  return (
    <div className="mobile-menu" id="mobile-menu">
      <div className="mobile-menu-inner">
        <nav aria-label="Site" dangerouslySetInnerHTML={{ __html: ctx.nav.menu(section, currentUrl) }} />
        <nav className="mobile-section mobile-extra" aria-label="More links">
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
        {config.languages.length ? (
          <nav className="mobile-section mobile-languages" aria-label="Languages">
            <p className="mobile-section-title">Language</p>
            <ul>
              {config.languages.map((lang) => (
                <li key={lang.url}>
                  <SmartLink href={href(ctx, lang.url)}>{lang.title}</SmartLink>
                </li>
              ))}
            </ul>
          </nav>
        ) : null}
      </div>
      <div className="mobile-menu-handle" aria-hidden="true" />
    </div>
  );
}
