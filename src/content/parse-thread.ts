import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Root } from 'mdast';
import { parseMarkdown, type ParserKind } from './mdast-parse.js';
import { workerCount } from './pool.js';
import { joinParts, partTexts, type Cut } from './split-parse.js';

/*
 * A page of megabytes, cut into parts (see split-parse.ts), is parsed on two
 * threads: the main thread parses the first parts while a parse thread
 * parses the others and sends their trees back as JSON. Parsing is most of
 * the time of such a page, and the other core is otherwise idle while it
 * runs. The main thread takes the larger share, since the thread first loads
 * the parser and the main thread then reads the thread's trees back. The
 * tree is the one parsed on one thread (the same parts, joined the same way);
 * when the thread fails, the main thread parses its parts too.
 * DOCS_PARSE_THREAD=0 keeps the parse on the main thread, and DOCS_PARSE_THREAD=1 uses the
 * thread for every page cut in parts (to measure what the thread saves).
 */

declare const __DOCS_BUNDLE_DIR__: string | undefined;

/**
 * Pages shorter than this are parsed on one thread. Measured on the 2 shared cores (cold builds,
 * `npm run bench:shapes`): a page of 1 MB built no faster with the thread (the parser's garbage
 * collection already keeps the second core half busy, and the thread adds its start and the JSON);
 * a page of 10 MB of prose built in 28.1 s with it against 31.8 s without.
 */
const DEFAULT_MIN_CHARS = 2 * 1024 * 1024;
export let PARSE_THREAD_MIN_CHARS = DEFAULT_MIN_CHARS;

/** Lets tests use the thread on smaller pages; no argument restores the default. */
export function setParseThreadMinChars(value = DEFAULT_MIN_CHARS): void {
  PARSE_THREAD_MIN_CHARS = value;
}
/** The parse thread's heap: a base, and room for the parse of its largest part (the parser holds about 300 bytes per character). */
const THREAD_HEAP_MB = 64;
const HEAP_MB_PER_MB = 400;
/** The main thread's share of the page's characters. */
const MAIN_SHARE = 0.55;

/** How many pages were parsed with a parse thread, and how many of those the thread failed (tests read these). */
export const parseThreadStats = { used: 0, failed: 0 };

function entry(): URL {
  return typeof __DOCS_BUNDLE_DIR__ === 'string'
    ? pathToFileURL(join(__DOCS_BUNDLE_DIR__, 'parse-worker.mjs'))
    : new URL('./parse-worker-entry.mjs', import.meta.url);
}

/** Parses the parts `texts` on a parse thread; resolves with one tree per part, or undefined when the thread failed. */
function parseOnThread(kind: ParserKind, texts: string[]): { trees: Promise<Root[] | undefined>; stop: () => void } {
  // A heap for the largest part's parse (its events and tree), not for all of them: the thread's memory stays small.
  const largest = Math.max(...texts.map((text) => text.length));
  const worker = new Worker(entry(), { workerData: { kind, texts }, resourceLimits: { maxOldGenerationSizeMb: Math.ceil(THREAD_HEAP_MB + (largest / 1e6) * HEAP_MB_PER_MB) } });
  const json: string[] = [];
  let received = 0;
  const trees = new Promise<Root[] | undefined>((resolve) => {
    worker.on('message', (message: { index: number; json: string }) => {
      json[message.index] = message.json;
      if (++received < texts.length) return;
      // Read back one at a time, each string let go once read.
      const roots: Root[] = [];
      for (let i = 0; i < json.length; i++) {
        roots.push(JSON.parse(json[i]!) as Root);
        json[i] = '';
      }
      resolve(roots);
    });
    // Out of memory, or ended before its last part: its parts are parsed here.
    worker.on('error', () => resolve(undefined));
    worker.on('exit', () => resolve(undefined));
  });
  return { trees, stop: () => void worker.terminate() };
}

/** Parses `body` in the parts `cuts` make, on two threads when it is large enough and a thread may be used; the same tree as parsing it whole. */
export async function parseLargePage(body: string, cuts: Cut[], kind: ParserKind): Promise<Root> {
  const here = (text: string) => parseMarkdown(kind, text);
  if (!cuts.length) return here(body);
  const texts = partTexts(body, cuts);
  let mine = texts.length;
  const wanted = process.env.DOCS_PARSE_THREAD;
  if ((body.length >= PARSE_THREAD_MIN_CHARS || wanted === '1') && workerCount() > 0 && wanted !== '0') {
    let chars = 0;
    for (mine = 0; mine < texts.length - 1 && chars < body.length * MAIN_SHARE; mine++) chars += texts[mine]!.length;
  }
  let thread: ReturnType<typeof parseOnThread> | undefined;
  try {
    if (mine < texts.length) thread = parseOnThread(kind, texts.slice(mine));
  } catch {
    // No thread to be had (its script missing, say): the main thread parses every part.
    mine = texts.length;
  }
  try {
    const trees = texts.slice(0, mine).map(here);
    if (thread) {
      parseThreadStats.used++;
      const theirs = await thread.trees;
      if (!theirs) parseThreadStats.failed++;
      trees.push(...(theirs ?? texts.slice(mine).map(here)));
    }
    return joinParts(body, cuts, trees) ?? here(body);
  } finally {
    thread?.stop();
  }
}
