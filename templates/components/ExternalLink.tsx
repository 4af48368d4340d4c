import type { ReactNode } from 'react';
import { opensInNewTab } from '../logic.js';

/** A link; external ones open in a new tab, safely, and say so to screen readers. */
export function SmartLink({ href, children, className, ariaCurrent, label }: {
  href: string;
  children: ReactNode;
  className?: string;
  ariaCurrent?: 'page' | 'true';
  label?: string;
}) {
  if (opensInNewTab(href)) {
    return (
      <a href={href} className={className} target="_blank" rel="noopener noreferrer" aria-label={label}>
        {children}
        {label ? null : <span className="sr-only"> (opens in a new tab)</span>}
      </a>
    );
  }
  return (
    <a href={href} className={className} aria-current={ariaCurrent} aria-label={label}>
      {children}
    </a>
  );
}
