import { parentPort } from 'node:worker_threads';
import { highlightBlocks, loadHighlighter, tokenClassesOf, type CodeToHighlight, type TokenClass, type TokenLine } from './highlight.js';

/*
 * The highlight thread (see HighlightThread): highlights the code blocks it
 * is sent, in the order sent, and answers each batch with their tokens and
 * the token classes they use.
 */
export interface HighlightReply {
  tokens: Array<[key: string, tokens: TokenLine[]]>;
  classes: Record<string, TokenClass>;
  error?: string;
}

const port = parentPort!;
const highlighter = loadHighlighter();

// One batch at a time, in the order sent (the first pages' blocks are needed first).
let queue = Promise.resolve();
port.on('message', (blocks: CodeToHighlight[]) => {
  queue = queue.then(() => highlight(blocks));
});

async function highlight(blocks: CodeToHighlight[]): Promise<void> {
  try {
    const tokens = await highlightBlocks(await highlighter, blocks);
    const names = [...tokens.values()].flat(2).map(([name]) => name);
    port.postMessage({ tokens: [...tokens], classes: tokenClassesOf(names) } satisfies HighlightReply);
  } catch (e) {
    port.postMessage({ tokens: [], classes: {}, error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies HighlightReply);
  }
}
