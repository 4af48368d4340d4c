import type { NavEntry } from '../../src/config/schema.js';
import { isNavActive } from '../../src/site/model.js';
import type { RenderContext } from '../types.js';
import { href } from '../types.js';
import { SmartLink } from './ExternalLink.js';
import { Search } from './Search.js';
import { ChevronIcon, GitHubIcon, Logo, MenuIcon, QuestionsIcon, ThemeIcon } from './Icons.js';

function currentOf(entry: NavEntry, currentUrl: string): 'page' | 'true' | undefined {
  if (entry.url === currentUrl) return 'page';
  return isNavActive(entry, currentUrl) ? 'true' : undefined;
}

export function Header({ ctx, currentUrl }: { ctx: RenderContext; currentUrl: string }) {
  const { config } = ctx.site;
  const active = config.navigation.find((entry) => isNavActive(entry, currentUrl));
  const children = active?.children ?? [];
  return (
    <header className="header" aria-label="Site header">
      <div className="header-bar">
        <button type="button" className="icon-button menu-toggle" aria-expanded="false" aria-controls="mobile-menu" aria-label="Menu">
          <MenuIcon />
        </button>
        <a className="logo" href={href(ctx, '/')} aria-label={`${config.site.title} home`}>
          <Logo />
          <span className="logo-text" aria-hidden="true">{config.site.title}</span>
        </a>
        <nav className="topnav" aria-label="Main">
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
        {config.languages.length ? (
          <div className="lang">
            <button type="button" className="lang-button" aria-expanded="false" aria-controls="lang-menu" aria-haspopup="true">
              <span className="sr-only">Language: </span>
              {config.languages[0]!.title}
              <ChevronIcon size={10} />
            </button>
            <ul className="lang-menu" id="lang-menu">
              {config.languages.map((lang) => (
                <li key={lang.url}>
                  <SmartLink href={href(ctx, lang.url)}>{lang.title}</SmartLink>
                </li>
              ))}
            </ul>
          </div>
        ) : null}
        <button type="button" className="icon-button theme-toggle" aria-label="Colour theme: system" data-theme-toggle="">
          <ThemeIcon />
        </button>
        <a className="icon-button" href={config.links.repository} target="_blank" rel="noopener noreferrer" aria-label="Source code on GitHub (opens in a new tab)">
          <GitHubIcon />
        </a>
        <a className="icon-button" href={config.links.questions} target="_blank" rel="noopener noreferrer" aria-label="Questions on Stack Overflow (opens in a new tab)">
          <QuestionsIcon />
        </a>
      </div>
      {children.length ? (
        <nav className="subnav" aria-label={`${active!.title} sections`}>
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
