/*
 * A very large page's body HTML is handled in pieces that end at line
 * breaks (see bodyPieces in src/build/render.tsx): read from the render
 * cache (readCachedBody), filled in and written one piece at a time, it is
 * never in memory whole.
 */

/**
 * About how many characters (or bytes) a piece holds: small enough that a
 * piece and the strings made of it die young (a build of a 10 MB page
 * peaked at 502 MB with pieces of 1 MB, at 444 MB with these).
 */
const DEFAULT_PIECE_SIZE = 1 << 16;
export let PIECE_SIZE = DEFAULT_PIECE_SIZE;

/** Lets tests cut pieces smaller (or not at all); no argument restores the default. */
export function setPieceSize(size = DEFAULT_PIECE_SIZE): void {
  PIECE_SIZE = size;
}

/** `text` in pieces of about `size` characters, each but the last ending with a line break; one piece when it is short. */
export function linePieces(text: string, size = PIECE_SIZE): string[] {
  const pieces: string[] = [];
  let at = 0;
  while (text.length - at > size) {
    const lineEnd = text.indexOf('\n', at + size - 1);
    if (lineEnd < 0) break;
    pieces.push(text.slice(at, lineEnd + 1));
    at = lineEnd + 1;
  }
  pieces.push(at ? text.slice(at) : text);
  return pieces;
}

/** `pieces` with `fn` applied to each, as they are taken. */
export function mapPieces(pieces: Iterable<string>, fn: (piece: string) => string): Iterable<string> {
  return {
    *[Symbol.iterator]() {
      for (const piece of pieces) yield fn(piece);
    },
  };
}
