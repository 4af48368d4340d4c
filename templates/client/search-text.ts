/*
 * How text becomes index terms: shared by the indexer (at build time) and the
 * search engine in the browser, so a query is cut exactly as the pages were.
 *
 * A word is a run of letters, marks, digits, `_` and `$`, joined by `.`, `-`
 * and `/` ("optimization.splitChunks", "babel-loader", "asset/resource"). The
 * index holds the whole word in lower case and, for a joined or camel-cased
 * word, each of its parts ("optimization", "splitchunks", "split", "chunks"),
 * so both the identifier and its pieces find the page.
 *
 * Scripts written without spaces between words (Chinese, Japanese, Thai, Lao,
 * Khmer, Myanmar) are cut into words by the platform's own segmentation
 * (Intl.Segmenter, granularity "word"), in the browser as in the indexer:
 * "潮汐是由月球引力引起的" gives 潮汐, 是, 由, 月球, 引力, 引起, 的. A Latin word
 * inside such text ("使用splitChunks配置") stays a word of its own, with its
 * parts as above.
 */

const WORD = /[\p{L}\p{M}\p{N}_$]+(?:[./-][\p{L}\p{M}\p{N}_$]+)*/gu;
const CAMEL = /[\p{Lu}]?[\p{Ll}\p{N}_$]+|[\p{Lu}\p{N}]+(?![\p{Ll}])/gu;
/** Runs of the scripts written without spaces between words (with the Japanese prolonged sound marks). */
const UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\u30fc\uff70]+/gu;
const HAS_UNSPACED = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Thai}\p{sc=Lao}\p{sc=Khmer}\p{sc=Myanmar}\u30fc\uff70]/u;
const KANA = /[\p{sc=Hiragana}\p{sc=Katakana}\u30fc\uff70]/u;
const OTHER_LOCALES: Array<[RegExp, string]> = [
  [/\p{sc=Thai}/u, 'th'],
  [/\p{sc=Lao}/u, 'lo'],
  [/\p{sc=Khmer}/u, 'km'],
  [/\p{sc=Myanmar}/u, 'my'],
];

/**
 * The locale a run of unspaced text is cut with, from the text itself (kana:
 * Japanese, Thai letters: Thai, …, Han alone: Chinese). Taken from the text
 * rather than from a page's language, so that the indexer and a query typed
 * on any page of any site cut a run alike.
 */
export function localeOf(run: string): string {
  if (KANA.test(run)) return 'ja';
  for (const [script, locale] of OTHER_LOCALES) if (script.test(run)) return locale;
  return 'zh';
}

const segmenters = new Map<string, Intl.Segmenter>();
/** The words of a run of unspaced text, with where each starts in it. */
function segment(run: string, emit: (word: string, at: number) => void): void {
  const locale = localeOf(run);
  let segmenter = segmenters.get(locale);
  if (!segmenter) segmenters.set(locale, (segmenter = new Intl.Segmenter(locale, { granularity: 'word' })));
  for (const { segment: word, index, isWordLike } of segmenter.segment(run)) if (isWordLike) emit(word, index);
}

/** Calls `emit` with each word of a text as written (case kept) and where it starts, in order. */
function eachWord(text: string, emit: (word: string, at: number) => void): void {
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    if (!HAS_UNSPACED.test(word)) {
      emit(word, m.index);
      continue;
    }
    // Unspaced runs are segmented; what lies between them is words as above.
    let from = 0;
    const between = (to: number) => {
      for (const w of word.slice(from, to).matchAll(WORD)) emit(w[0], m.index + from + w.index);
    };
    for (const run of word.matchAll(UNSPACED)) {
      between(run.index);
      segment(run[0], (w, at) => emit(w, m.index + run.index + at));
      from = run.index + run[0].length;
    }
    between(word.length);
  }
}

/** Longest term kept: longer runs are hashes or data, not words anyone types. */
export const MAX_TERM = 48;

/** The words of a text as written (case kept), in order. */
export function words(text: string): string[] {
  const found: string[] = [];
  eachWord(text, (word) => found.push(word));
  return found;
}

/** Where each word of a text starts. */
export function wordStarts(text: string): number[] {
  const found: number[] = [];
  eachWord(text, (_, at) => found.push(at));
  return found;
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

/** Whether a word is of a script written without spaces (its query word is not corrected for typos). */
export const isUnspaced = (word: string) => HAS_UNSPACED.test(word);

/** The words of a query, in lower case (a query word is matched whole, not split; unspaced text is segmented as in the index). */
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
