import { SOCIAL_ICONS, type SocialIcon } from '../../src/theme/social-icons.js';
import { escapeHtml } from '../../src/shared/html.js';

/* Small inline icons; decorative (the links and buttons around them carry the names). */

interface IconProps {
  size?: number;
}

/**
 * The logo: the site's file (theme.logo), with its dark-scheme file when it has one, or a neutral mark in the
 * header's text colour. It always sits in a link named "<title> home"; its text (theme.logo.alt) shows where
 * the image cannot load.
 */
export function Logo({ size = 32, src, dark, alt = '', ratio = 1 }: IconProps & { src?: string; dark?: string; alt?: string; ratio?: number }) {
  // Written as HTML: an <img> element would make React add a preload link for it at the top of <head>, before the policy.
  const img = (file: string, className: string) => `<img${className ? ` class="${className}"` : ''} src="${escapeHtml(file)}" alt="${escapeHtml(alt)}" width="${Math.round(size * ratio)}" height="${size}">`;
  if (src) return <span className="logo-image" dangerouslySetInnerHTML={{ __html: dark ? img(src, 'logo-light') + img(dark, 'logo-dark') : img(src, '') }} />;
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect x="3" y="3" width="26" height="26" rx="7" fill="none" stroke="currentColor" strokeWidth="2.5" />
      <path fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" d="M10 11h12M10 16h12M10 21h7" />
    </svg>
  );
}

/** A built-in social icon (src/theme/social-icons.ts). */
export function SocialIconSvg({ icon, size = 20 }: IconProps & { icon: SocialIcon }) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d={SOCIAL_ICONS[icon].path} />
    </svg>
  );
}

export function SearchIcon({ size = 18 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="none" stroke="currentColor" strokeWidth="2.4" strokeLinecap="round" d="M10.5 3a7.5 7.5 0 1 1 0 15 7.5 7.5 0 0 1 0-15zm5.5 13 5 5" />
    </svg>
  );
}

export function MenuIcon({ size = 22 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" d="M3 6h18M3 12h18M3 18h18" />
    </svg>
  );
}

export function ChevronIcon({ size = 14 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 16 16" aria-hidden="true" focusable="false">
      <path fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" d="m6 3 5 5-5 5" />
    </svg>
  );
}

export function ChatIcon({ size = 24 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M4 3h16a2 2 0 0 1 2 2v11a2 2 0 0 1-2 2H9l-5 4v-4a2 2 0 0 1-2-2V5a2 2 0 0 1 2-2zm3 6.5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3zm5 0a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z" />
    </svg>
  );
}

export function ThemeIcon({ size = 20 }: IconProps) {
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path fill="currentColor" d="M12 2a10 10 0 1 0 0 20 10 10 0 0 0 0-20zm0 2v16a8 8 0 0 1 0-16z" />
    </svg>
  );
}
