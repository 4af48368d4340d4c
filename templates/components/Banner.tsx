import type { SiteConfig } from '../../src/config/schema.js';
import type { RenderContext } from '../types.js';
import { href } from '../types.js';
import { SmartLink } from './ExternalLink.js';

export const BANNER_KEY = 'notification-dismissed';
export const NOTIFICATION_KEY = 'announcement-dismissed';

/** The sponsorship banner. Hidden before first paint when dismissed (see the head script). */
export function Banner({ banner, ctx }: { banner: NonNullable<SiteConfig['banner']>; ctx: RenderContext }) {
  return (
    <div className="banner" id="banner" role="region" aria-label="Sponsorship">
      <p className="banner-text">
        {banner.text}{' '}
        {banner.links.map((link, i) => (
          <span key={link.url}>
            {i > 0 ? ' · ' : null}
            <SmartLink href={href(ctx, link.url)}>{link.title}</SmartLink>
          </span>
        ))}
      </p>
      <button type="button" className="dismiss" data-dismiss={BANNER_KEY} data-version={banner.version} aria-label="Close banner">
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}

/** The general announcement line, dismissible with its own key. */
export function NotificationBar({ note, ctx }: { note: NonNullable<SiteConfig['notification']>; ctx: RenderContext }) {
  return (
    <div className="notification" id="notification" role="region" aria-label="Announcement">
      <p>
        {note.message}
        {note.link ? (
          <>
            {' '}
            <SmartLink href={href(ctx, note.link.url)}>{note.link.title}</SmartLink>
          </>
        ) : null}
      </p>
      <button type="button" className="dismiss" data-dismiss={NOTIFICATION_KEY} data-version={note.version} aria-label="Dismiss announcement">
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
