import { createContext, useContext, type ReactNode } from 'react';
import { UI_EN, type UiStrings } from '../../src/theme/ui.js';
import { opensInNewTab } from '../logic.js';

/** The interface strings of the page being rendered (Layout provides them). */
export const UiContext = createContext<UiStrings>(UI_EN);

/** A link; external ones open in a new tab, safely, and say so to screen readers. */
export function SmartLink({ href, children, className, ariaCurrent, label }: {
  href: string;
  children: ReactNode;
  className?: string;
  ariaCurrent?: 'page' | 'true';
  label?: string;
}) {
  const ui = useContext(UiContext);
  if (opensInNewTab(href)) {
    return (
      <a href={href} className={className} target="_blank" rel="noopener noreferrer" aria-label={label}>
        {children}
        {label ? null : <span className="sr-only"> {ui.newTab}</span>}
      </a>
    );
  }
  return (
    <a href={href} className={className} aria-current={ariaCurrent} aria-label={label}>
      {children}
    </a>
  );
}
