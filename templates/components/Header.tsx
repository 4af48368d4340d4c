import type { NavEntry } from '../../src/config/schema.js';
import { isNavActive } from '../../src/site/model.js';
import type { HeaderProps } from '../types.js';
import { href } from '../types.js';
import { SmartLink } from './ExternalLink.js';
import { hasLanguageMenu, homePath, LanguageItems, languageLabel, VersionMenu } from '../trees.js';
import { Search } from './Search.js';
import { format } from '../../src/theme/ui.js';
import { ChevronIcon, Logo, MenuIcon, SocialIconSvg, ThemeIcon } from './Icons.js';

function currentOf(entry: NavEntry, currentUrl: string): 'page' | 'true' | undefined {
  if (entry.url === currentUrl) return 'page';
  return isNavActive(entry, currentUrl) ? 'true' : undefined;
}

export function Header({ ctx, currentUrl }: HeaderProps) {
  const { config } = ctx.site;
  const { ui, social, logo } = ctx.theme;
  const active = config.navigation.find((entry) => isNavActive(entry, currentUrl));
  const children = active?.children ?? [];
  return (
    <header className="header" aria-label={ui.siteHeader}>
      <div className="header-bar">
        <button type="button" className="icon-button menu-toggle" aria-expanded="false" aria-controls="mobile-menu" aria-label={ui.menu}>
          <MenuIcon />
        </button>
        <a className="logo" href={href(ctx, homePath(ctx))} aria-label={format(ui.home, { title: config.site.title })}>
          <Logo src={logo && href(ctx, logo)} dark={ctx.theme.logoDark && href(ctx, ctx.theme.logoDark)} alt={ctx.theme.logoAlt} ratio={ctx.theme.logoRatio} />
          {/* (With theme.logo.replacesTitle the title is only read out: the link's name holds it.) */}
          <span className={ctx.theme.logoReplacesTitle ? 'logo-text sr-only' : 'logo-text'} aria-hidden="true">{config.site.title}</span>
        </a>
        <nav className="topnav" aria-label={ui.mainNavigation}>
          <ul>
            {config.navigation.map((entry) => {
              const current = currentOf(entry, currentUrl);
              return (
                <li key={entry.url}>
                  <SmartLink href={href(ctx, entry.url)} className={current ? 'active' : undefined} ariaCurrent={current}>
                    {entry.title}
                  </SmartLink>
                </li>
              );
            })}
          </ul>
        </nav>
        <Search ctx={ctx} />
        {hasLanguageMenu(ctx) ? (
          <div className="lang">
            <button type="button" className="lang-button" aria-expanded="false" aria-controls="lang-menu" aria-haspopup="true">
              <span className="sr-only">{ui.language}: </span>
              {languageLabel(ctx)}
              <ChevronIcon size={10} />
            </button>
            <ul className="lang-menu" id="lang-menu">
              <LanguageItems ctx={ctx} currentUrl={currentUrl} />
            </ul>
          </div>
        ) : null}
        <VersionMenu ctx={ctx} currentUrl={currentUrl} />
        <button type="button" className="icon-button theme-toggle" aria-label={format(ui.themeToggle, { theme: ui.themeSystem })} data-theme-toggle="">
          <ThemeIcon />
        </button>
        {social.map((link) => (
          <a key={link.url} className="icon-button social-link" href={link.url} target="_blank" rel="noopener noreferrer" aria-label={`${link.label} ${ui.newTab}`}>
            <SocialIconSvg icon={link.icon} />
          </a>
        ))}
      </div>
      {children.length ? (
        <nav className="subnav" aria-label={format(ui.subnavigation, { title: active!.title })}>
          <ul>
            {children.map((child) => {
              const current = currentOf(child, currentUrl);
              return (
                <li key={child.url}>
                  <SmartLink href={href(ctx, child.url)} className={current ? 'active' : undefined} ariaCurrent={current}>
                    {child.title}
                  </SmartLink>
                </li>
              );
            })}
          </ul>
        </nav>
      ) : null}
    </header>
  );
}
