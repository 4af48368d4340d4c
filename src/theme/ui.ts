import de from './ui/de.json' with { type: 'json' };
import en from './ui/en.json' with { type: 'json' };
import es from './ui/es.json' with { type: 'json' };
import fr from './ui/fr.json' with { type: 'json' };
import ja from './ui/ja.json' with { type: 'json' };
import ko from './ui/ko.json' with { type: 'json' };
import pt from './ui/pt.json' with { type: 'json' };
import ru from './ui/ru.json' with { type: 'json' };
import zh from './ui/zh.json' with { type: 'json' };
/*
 * Every piece of interface text of the pages and of the client script, in
 * one table: a set per language (ui/<language>.json, English the reference
 * whose keys every other set must have), chosen by the page's language, and
 * single strings replaced through the config's `ui:` key. Components and the
 * client script never hold words of their own: they read them from here (the
 * client through the `data-ui` attribute of <body>, see clientStrings).
 *
 * Placeholders in braces ({title}, {count}) are filled by `format`.
 */

export const UI_EN = en;
export type UiKey = keyof typeof UI_EN;
export type UiStrings = Record<UiKey, string>;

/** The built-in sets by language (the part of the language tag before "-"). */
const SETS: Record<string, UiStrings> = { en, zh, ja, ko, es, fr, de, pt, ru };

/** Languages written right to left: a page in one of them gets dir="rtl". */
const RTL = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'sd', 'ug', 'dv', 'ckb']);
export const isRtl = (language: string) => RTL.has(language.toLowerCase().split('-')[0]!);

/** The strings of a site: the set of its language (English when there is none), with its own replacements. */
export function uiStrings(language: string, overrides: Partial<Record<UiKey, string>> = {}): UiStrings {
  const set = SETS[language.toLowerCase().split('-')[0]!] ?? UI_EN;
  return { ...set, ...overrides };
}

/** A string with its {placeholders} filled. */
export function format(text: string, values: Record<string, string | number>): string {
  // (Own keys only: "{toString}" is text, not the object's method.)
  return text.replace(/\{(\w+)\}/g, (all, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : all));
}

/** The strings the client script needs (it reads them from <body data-ui>). */
const CLIENT_KEYS = [
  'themeToggle', 'themeSystem', 'themeLight', 'themeDark',
  'searchNone', 'searchOne', 'searchMany', 'searchCorrected', 'searchUnavailable', 'searchBuilding',
  'copy', 'copied', 'copiedAnnouncement', 'copyFailed',
] as const satisfies readonly UiKey[];

export type ClientKey = (typeof CLIENT_KEYS)[number];

export function clientStrings(ui: UiStrings): string {
  return JSON.stringify(Object.fromEntries(CLIENT_KEYS.map((key) => [key, ui[key]])));
}

/** A date (ISO, yyyy-mm-dd…) written out with the strings of the site. */
export function formatDate(ui: UiStrings, iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split('-').map(Number);
  const months = ui.months.split(/\s+/);
  return format(ui.date, { year: year!, month: months[month! - 1] ?? String(month), monthNumber: month!, day: day! });
}
