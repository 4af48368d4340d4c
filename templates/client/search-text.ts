/*
 * How text becomes index terms: shared by the indexer (at build time) and the
 * search engine in the browser, so a query is cut exactly as the pages were.
 *
 * A word is a run of letters, digits, `_` and `$`, joined by `.`, `-` and `/`
 * ("optimization.splitChunks", "babel-loader", "asset/resource"). The index
 * holds the whole word in lower case and, for a joined or camel-cased word,
 * each of its parts ("optimization", "splitchunks", "split", "chunks"), so
 * both the identifier and its pieces find the page.
 */

const WORD = /[\p{L}\p{N}_$]+(?:[./-][\p{L}\p{N}_$]+)*/gu;
const CAMEL = /[\p{Lu}]?[\p{Ll}\p{N}_$]+|[\p{Lu}\p{N}]+(?![\p{Ll}])/gu;

/** Longest term kept: longer runs are hashes or data, not words anyone types. */
export const MAX_TERM = 48;

/** The words of a text as written (case kept), in order. */
export function words(text: string): string[] {
  return text.match(WORD) ?? [];
}

/** Where each word of a text starts. */
export function wordStarts(text: string): number[] {
  return Array.from(text.matchAll(WORD), (m) => m.index);
}

/** Calls `emit` with each index term of one word: the whole word first, then its distinct parts. */
export function termsOf(word: string, emit: (term: string, part: boolean) => void): void {
  const whole = word.toLowerCase();
  if (whole.length > MAX_TERM) return;
  emit(whole, false);
  const seen = new Set([whole]);
  for (const piece of word.split(/[./-]/)) {
    for (const part of [piece, ...(piece.match(CAMEL) ?? [])]) {
      const lower = part.toLowerCase();
      if (lower.length > 1 && !seen.has(lower)) {
        seen.add(lower);
        emit(lower, true);
      }
    }
  }
}

/** The words of a query, in lower case (a query word is matched whole, not split). */
export function queryWords(query: string): string[] {
  return [...new Set(words(query).map((w) => w.toLowerCase()).filter((w) => w.length <= MAX_TERM))];
}

/* Variable-length unsigned integers (7 bits a byte), the numbers of the index files. */

export function readVarint(bytes: Uint8Array, at: { pos: number }): number {
  let value = 0;
  let shift = 0;
  for (;;) {
    const byte = bytes[at.pos++]!;
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return value;
    shift += 7;
  }
}

export function writeVarint(out: number[], value: number): void {
  while (value >= 0x80) {
    out.push((value % 0x80) | 0x80);
    value = Math.floor(value / 0x80);
  }
  out.push(value);
}
