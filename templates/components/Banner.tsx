import type { SiteConfig } from '../../src/config/schema.js';
import type { BannerProps, RenderContext } from '../types.js';
import { href } from '../types.js';
import { SmartLink } from './ExternalLink.js';

export const BANNER_KEY = 'notification-dismissed';
export const NOTIFICATION_KEY = 'announcement-dismissed';

/** The sponsorship banner. Hidden before first paint when dismissed (see the head script). */
export function Banner({ banner, ctx }: BannerProps) {
  const { ui } = ctx.theme;
  return (
    <div className="banner" id="banner" role="region" aria-label={ui.bannerLabel}>
      <p className="banner-text">
        {banner.text}{' '}
        {banner.links.map((link, i) => (
          <span key={link.url}>
            {i > 0 ? ' · ' : null}
            <SmartLink href={href(ctx, link.url)}>{link.title}</SmartLink>
          </span>
        ))}
      </p>
      <button type="button" className="dismiss" data-dismiss={BANNER_KEY} data-version={banner.version} aria-label={ui.bannerClose}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

/** The general announcement line, dismissible with its own key. */
export function NotificationBar({ note, ctx }: { note: NonNullable<SiteConfig['notification']>; ctx: RenderContext }) {
  const { ui } = ctx.theme;
  return (
    <div className="notification" id="notification" role="region" aria-label={ui.notificationLabel}>
      <p>
        {note.message}
        {note.link ? (
          <>
            {' '}
            <SmartLink href={href(ctx, note.link.url)}>{note.link.title}</SmartLink>
          </>
        ) : null}
      </p>
      <button type="button" className="dismiss" data-dismiss={NOTIFICATION_KEY} data-version={note.version} aria-label={ui.notificationClose}>
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
