import { z } from 'zod';

/**
 * A string that holds more than spaces: a title, a label, a name ("" and "   " are refused alike, with one
 * message each). It is one line, as a title or label shows: runs of spaces and line breaks (a YAML block
 * written over several lines) become one space, and the ends are trimmed.
 */
export const nonBlank = () =>
  z.string().min(1, { abort: true }).regex(/\S/, 'expected text, not only spaces').overwrite((text) => text.replace(/\s+/g, ' ').trim());
