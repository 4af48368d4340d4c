import type { SiteConfig } from '../src/config/schema.js';
import { BANNER_KEY, NOTIFICATION_KEY } from './components/Banner.js';

/**
 * The only inline script: it runs before first paint so that a dismissed
 * banner never paints and the stored colour theme applies at once. It marks
 * <html> with `js` (JavaScript runs), `ls` (localStorage works, so close
 * buttons may show), `banner-off` and `note-off`. Allowed by a CSP hash.
 */
export function headScript(config: SiteConfig): string {
  const checks: string[] = [];
  if (config.banner) checks.push(`s.getItem(${literal(BANNER_KEY)})===${literal(config.banner.version)}&&c.add("banner-off")`);
  if (config.notification) checks.push(`s.getItem(${literal(NOTIFICATION_KEY)})===${literal(config.notification.version)}&&c.add("note-off")`);
  return (
    '(function(){var d=document.documentElement,c=d.classList;c.add("js");try{var s=window.localStorage,k="__docs";' +
    's.setItem(k,k);s.removeItem(k);c.add("ls");' +
    checks.map((x) => x + ';').join('') +
    'var t=s.getItem("theme");if(t==="dark"||t==="light")d.setAttribute("data-theme",t)}catch(e){}})()'
  );
}

/**
 * A value as a JavaScript literal inside a <script> element: JSON, with "<" written as \u003c so that
 * no text of the config ("</script>", "<!--") can end the element or change how the HTML parser reads it.
 */
function literal(value: string | number): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
