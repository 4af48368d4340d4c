import { format } from '../../src/theme/ui.js';
import type { FooterProps, RenderContext } from '../types.js';
import { href } from '../types.js';
import { SmartLink } from './ExternalLink.js';
import { ChatIcon, Logo } from './Icons.js';
import { homePath } from '../trees.js';

export function Footer({ ctx }: FooterProps) {
  const { footer, site } = ctx.site.config;
  const { ui, logo } = ctx.theme;
  return (
    <footer className="footer" id="footer" aria-label={ui.footerLabel}>
      <nav className="footer-nav" aria-label={ui.footerNavigation}>
        <ul className="footer-links">
          {footer.links.map((link) => (
            <li key={link.url}>
              <SmartLink href={href(ctx, link.url)}>{link.title}</SmartLink>
            </li>
          ))}
        </ul>
        <a className="footer-logo" href={href(ctx, homePath(ctx))} aria-label={format(ui.home, { title: site.title })}>
          <Logo size={36} src={logo && href(ctx, logo)} dark={ctx.theme.logoDark && href(ctx, ctx.theme.logoDark)} alt={ctx.theme.logoAlt} ratio={ctx.theme.logoRatio} />
        </a>
        <ul className="footer-links">
          {footer.secondary.map((link) => (
            <li key={link.url}>
              <SmartLink href={href(ctx, link.url)}>{link.title}</SmartLink>
            </li>
          ))}
        </ul>
      </nav>
      {footer.copyright ? <p className="footer-copyright">{footer.copyright}</p> : null}
    </footer>
  );
}

export function ChatButton({ ctx }: { ctx: RenderContext }) {
  const chat = ctx.site.config.chat;
  if (!chat) return null;
  return (
    <a className="chat-button" id="chat-button" href={chat.url} target="_blank" rel="noopener noreferrer" aria-label={`${chat.label} ${ctx.theme.ui.newTab}`} title={chat.label}>
      <ChatIcon />
    </a>
  );
}
