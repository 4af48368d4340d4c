import { isUnspaced } from './search-text.js';

/* Pure parts of the search box: result shaping, typo correction, keyboard moves. */

export interface SearchResult {
  url: string;
  title: string;
  section?: string;
  /** The matching heading inside the page, when the match is under one. */
  heading?: string;
  /** HTML that may contain <mark>; sanitised before display. */
  excerpt: string;
  /** The title line (title › heading) as HTML with the matched words in <mark>, when the backend marks it. */
  label?: string;
}

/** A hosted-service hit (DocSearch record shape) as a result. */
export function fromHosted(hit: {
  url: string;
  hierarchy?: Record<string, string | null | undefined>;
  content?: string | null;
  _snippetResult?: { content?: { value?: string } };
}): SearchResult {
  const h = hit.hierarchy ?? {};
  const levels = ['lvl1', 'lvl2', 'lvl3', 'lvl4'].map((k) => h[k]).filter((v): v is string => !!v);
  return {
    url: hit.url,
    title: levels[0] ?? h.lvl0 ?? hit.url,
    section: h.lvl0 ?? undefined,
    heading: levels.length > 1 ? levels[levels.length - 1] : undefined,
    excerpt: hit._snippetResult?.content?.value ?? hit.content ?? '',
  };
}

/** Edit distance with transpositions (Damerau–Levenshtein, optimal string alignment). */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i]![j] = Math.min(d[i]![j]!, d[i - 2]![j - 2]! + 1);
    }
  }
  return d[a.length]![b.length]!;
}

/**
 * Replaces each unknown word of the query by the closest known term (one edit
 * for short words, two from eight letters on). Returns null when nothing changes.
 */
export function correctQuery(query: string, terms: readonly string[]): string | null {
  const known = new Set(terms);
  let changed = false;
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .map((word) => {
      // (Chinese or Japanese text is no misspelt word: an edit of it is another word.)
      if (known.has(word) || word.length < 4 || isUnspaced(word) || terms.some((t) => t.startsWith(word))) return word;
      const limit = word.length >= 8 ? 2 : 1;
      let best: string | null = null;
      let bestDistance = limit + 1;
      for (const term of terms) {
        if (Math.abs(term.length - word.length) > limit) continue;
        const distance = editDistance(word, term);
        if (distance < bestDistance) {
          best = term;
          bestDistance = distance;
        }
      }
      if (best) {
        changed = true;
        return best;
      }
      return word;
    });
  return changed ? words.join(' ') : null;
}

/** Index of the active option after a key press (wrapping), or null when the key is not a move. */
export function moveActive(key: string, current: number, count: number): number | null {
  if (!count) return null;
  if (key === 'ArrowDown') return current < 0 ? 0 : (current + 1) % count;
  if (key === 'ArrowUp') return current <= 0 ? count - 1 : current - 1;
  if (key === 'Home') return 0;
  if (key === 'End') return count - 1;
  return null;
}
