import type { SidebarSection } from '../../src/site/model.js';
import { anchorHref, groupHeadingFor, isItemOpen } from '../logic.js';
import type { RenderContext } from '../types.js';
import { href } from '../types.js';
import { ChevronIcon } from './Icons.js';

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

/** The desktop sidebar: pages of the current section, group headings, anchors. */
export function Sidebar({ ctx, section, currentUrl }: { ctx: RenderContext; section: SidebarSection; currentUrl: string }) {
  return (
    <aside className="sidebar" id="sidebar" aria-label="Sidebar">
      <div className="sidebar-inner">
        <Badge ctx={ctx} />
        <nav aria-label={`${section.title} pages`}>
          <ul className="sidebar-list">
            {section.pages.map((page, i) => {
              const heading = groupHeadingFor(section.pages, i);
              const open = isItemOpen(page.url, currentUrl);
              const current = page.url === currentUrl;
              const listId = `sidebar-anchors-${i}`;
              return (
                <li key={page.url} className={`sidebar-item${open ? ' open' : ''}`} data-url={page.url}>
                  {heading ? <p className="sidebar-group">{heading}</p> : null}
                  <div className="sidebar-row">
                    <a href={href(ctx, page.url)} aria-current={current ? 'page' : undefined} className={current ? 'active' : undefined}>
                      {page.title}
                    </a>
                    {page.anchors.length ? (
                      <button type="button" className="chevron" aria-expanded={open ? 'true' : 'false'} aria-controls={listId} aria-label={`Sections of ${page.title}`}>
                        <ChevronIcon />
                      </button>
                    ) : null}
                  </div>
                  {page.anchors.length ? (
                    <ul className="sidebar-anchors" id={listId}>
                      {page.anchors.map((anchor) => {
                        const target = anchorHref(page.url, anchor.id, currentUrl);
                        return (
                          <li key={anchor.id}>
                            <a href={target.startsWith('#') ? target : href(ctx, target)}>{anchor.title}</a>
                          </li>
                        );
                      })}
                    </ul>
                  ) : null}
                </li>
              );
            })}
          </ul>
        </nav>
      </div>
    </aside>
  );
}

/** The swipeable phone menu: every section with its pages. */
export function MobileMenu({ ctx, currentUrl }: { ctx: RenderContext; currentUrl: string }) {
  return (
    <div className="mobile-menu" id="mobile-menu">
      <nav className="mobile-menu-inner" aria-label="Site">
        {ctx.site.sections.map((section) => {
          const sectionActive = section.url === currentUrl ? 'page' : currentUrl.startsWith(section.url) && section.url !== '/' ? 'true' : undefined;
          return (
            <div key={section.url} className="mobile-section">
              <p className="mobile-section-title">
                <a href={href(ctx, section.url)} aria-current={sectionActive} className={sectionActive ? 'active' : undefined}>
                  {section.title}
                </a>
              </p>
              <ul>
                {section.pages
                  .filter((page) => page.url !== section.url)
                  .map((page) => (
                    <li key={page.url}>
                      <a href={href(ctx, page.url)} aria-current={page.url === currentUrl ? 'page' : undefined} className={page.url === currentUrl ? 'active' : undefined}>
                        {page.title}
                      </a>
                    </li>
                  ))}
              </ul>
            </div>
          );
        })}
      </nav>
      <div className="mobile-menu-handle" aria-hidden="true" />
    </div>
  );
}
