import type { ClientKey } from '../../src/theme/ui.js';

/*
 * The interface strings of the client script: the page writes them into
 * <body data-ui> (src/theme/ui.ts, chosen by the site's language and config);
 * the script holds no words of its own.
 */
let strings: Partial<Record<ClientKey, string>> | undefined;

export function t(key: ClientKey, values: Record<string, string | number> = {}): string {
  if (!strings) {
    try {
      strings = JSON.parse(document.body.dataset.ui ?? '{}') as Partial<Record<ClientKey, string>>;
    } catch {
      strings = {};
    }
  }
  return (strings[key] ?? '').replace(/\{(\w+)\}/g, (all, name: string) => (name in values ? String(values[name]) : all));
}
