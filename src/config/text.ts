import { z } from 'zod';

/**
 * A string that holds more than spaces: a title, a label, a name ("" and "   " are refused alike, with one
 * message each). It is one line, as a title or label shows: runs of spaces and line breaks (a YAML block
 * written over several lines) become one space, and the ends are trimmed.
 */
export const nonBlank = () =>
  z.string().min(1, { abort: true }).regex(/\S/, 'expected text, not only spaces').overwrite((text) => text.replace(/\s+/g, ' ').trim());

/** A language tag: site.language, and the code of each language of `languages:`. */
export const languageTag = z.string().regex(/^[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*$/, 'expected a language tag, such as en, zh-CN or pt-BR');
