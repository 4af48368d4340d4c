import { z } from 'zod';

/** A string that holds more than spaces: a title, a label, a name ("" and "   " are refused alike, with one message each). */
export const nonBlank = () => z.string().min(1, { abort: true }).regex(/\S/, 'expected text, not only spaces');
