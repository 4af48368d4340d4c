import { z } from 'zod';
import { languageTag, nonBlank } from './text.js';

/*
 * The config keys of a site in several languages or versions (`languages:` and `versions:`); the rules
 * between them that the schema cannot say are in checked.ts. How the engine uses them: src/site/trees.ts.
 * (The schemas of a section and a navigation entry come from schema.ts, which imports this file.)
 */

/** A folder name and a URL segment: lowercase letters, digits, ".", "_" and "-". */
const SEGMENT = /^[a-z0-9][a-z0-9._-]*$/;

/** A link of the language menu to another site (the older form of `languages:`), or a language of this site. */
export function languageEntrySchema<U extends z.ZodType<Record<string, string | undefined>>>(link: z.ZodType<{ title: string; url: string }>, ui: U) {
  const own = z
    .strictObject({
      code: languageTag.describe('The language tag (the lang attribute and hreflang). Every language but the first has its pages under content/<code>/, served under /<code>/; the first is the default, at the root.'),
      label: nonBlank().describe('The name of the language in the language menu, in that language (English, 简体中文, Deutsch).'),
      dir: z.enum(['ltr', 'rtl']).optional().describe('Writing direction; defaults to rtl for Arabic, Hebrew, Persian and Urdu, ltr for the rest.'),
      titles: z
        .record(z.string(), nonBlank())
        .optional()
        .describe('The words of the config in this language, by their text in the config: the titles of the sections, navigation entries and footer links, the site\'s title and the footer\'s small print ({ Guides: 指南 }). An untranslated one stays as it is.'),
      ui: ui
        .optional()
        .describe('Interface strings of this language that replace its built-in ones (as ui: does for the first language); a language without built-in strings (Arabic, Hebrew) is given its own here.'),
    })
    .describe('A language of this site: its pages are under content/<code>/ (the first language: content/ itself).');
  return z.union([own, link]);
}

/** An older version of the documentation, beside the current one. */
export function versionSchema<S extends z.ZodType, N extends z.ZodType>(section: S, nav: N) {
  return z
    .strictObject({
      name: z
        .string()
        .regex(SEGMENT, 'expected a folder name such as 4.x or v4: lowercase letters, digits, ".", "_" and "-"')
        .describe('The name of the version, its URL prefix (/4.x/) and its folder (content/4.x/); the first version is the current one, at the root and in content/ itself.'),
      label: nonBlank().optional().describe('The name shown in the version menu and the banner; defaults to name.'),
      sections: z.array(section).min(1).optional().describe('The sidebar sections of this version, page paths from its folder (content/4.x/); defaults to the sections of the current version.'),
      navigation: z.array(nav).min(1).optional().describe('The top navigation of this version, with paths from its root ("/guides/" is /4.x/guides/); defaults to the current one\'s, under the version\'s prefix.'),
    })
    .describe('A version of the documentation. The first entry is the current version (only its name and label are read).');
}
