import { Worker } from 'node:worker_threads';
import type { Highlighter } from 'shiki';
import { workerEntry } from '../shared/paths.js';
import { highlightBlocks, registerTokenClasses, type CodeToHighlight, type HighlighterSource, type TokenClass, type TokenLine, type TokenSource } from './highlight.js';
import { fencedCodeBlocks } from './plugins/code-blocks.js';
import { workerCount, type PoolWork } from './pool.js';

/**
 * Below this many code blocks to highlight, loading the highlighter on this
 * thread costs less than starting a thread for it (measured on 2 cores: 30
 * blocks on 11 pages build in the same time either way, 1.37 s, medians of 7).
 */
const HIGHLIGHT_THREAD_MIN_BLOCKS = 20;
/** Pages rendered at once on this thread while a highlight thread works. */
export const PAGES_IN_FLIGHT = 16;

/**
 * A highlight thread for pages rendered on this thread (their Markdown bodies), with their code
 * blocks sent ahead; none when there are few to highlight, or no thread to spare (DOCS_WORKERS=0).
 */
export function highlightThreadFor(bodies: string[], highlighter: HighlighterSource): HighlightThread | undefined {
  if (workerCount() === 0 || typeof highlighter !== 'function') return undefined;
  const ahead = bodies.map(fencedCodeBlocks);
  if (ahead.flat().length < HIGHLIGHT_THREAD_MIN_BLOCKS) return undefined;
  const thread = new HighlightThread(highlighter);
  for (const blocks of ahead) thread.send(blocks);
  return thread;
}

/**
 * What the thread posts: that it is ready (neither field), a batch's tokens by codeBlockKey with the
 * token classes they use (in the order the batches were sent), or that a batch failed.
 */
type Reply = { results?: { tokens: Array<[key: string, tokens: TokenLine[]]>; classes: Record<string, TokenClass> }; error?: string };

/*
 * Highlighting on a thread of its own. In a build that renders many pages
 * on one thread, the code blocks are found ahead (fencedCodeBlocks) and sent
 * here page by page, so that they are highlighted on the other core while
 * this thread parses; rendering then asks for each block by its key and
 * most are waiting. The thread is one of the pool's (src/engine/worker.ts),
 * and the grammars load and compile in that thread alone. Tokens are the
 * highlighter's whatever thread makes them: output is the same. Should the
 * thread fail, what it had not answered is highlighted here.
 */
class HighlightThread implements TokenSource {
  private readonly worker: Worker;
  /** The tokens of every block sent, by codeBlockKey. */
  private readonly asked = new Map<string, Promise<TokenLine[]>>();
  /** The blocks sent and not answered yet, with how to answer them. */
  private readonly waiting = new Map<string, { block: CodeToHighlight; resolve: (tokens: TokenLine[]) => void; reject: (e: unknown) => void }>();
  private failed = false;
  private closed = false;

  constructor(private readonly fallback: () => Promise<Highlighter>) {
    this.worker = new Worker(workerEntry('pool'), { workerData: { kind: 'highlight' } satisfies PoolWork });
    this.worker.on('message', ({ results, error }: Reply) => {
      if (error) return this.fail();
      if (!results) return;
      registerTokenClasses(results.classes);
      for (const [key, tokens] of results.tokens) this.answer(key, tokens);
    });
    this.worker.on('error', () => this.fail());
  }

  /** Sends blocks to highlight (one page's, say) unless they were sent before. */
  send(blocks: CodeToHighlight[]): void {
    const fresh = blocks.filter((b) => !this.asked.has(b.key));
    for (const block of fresh) {
      const promise = new Promise<TokenLine[]>((resolve, reject) => this.waiting.set(block.key, { block, resolve, reject }));
      // A block sent ahead and never asked for is not an unhandled failure.
      promise.catch(() => {});
      this.asked.set(block.key, promise);
    }
    if (!fresh.length) return;
    if (this.failed) void this.highlightHere();
    else this.worker.postMessage(fresh);
  }

  async tokens(blocks: CodeToHighlight[]): Promise<Map<string, TokenLine[]>> {
    this.send(blocks);
    return new Map(await Promise.all(blocks.map(async (b) => [b.key, await this.asked.get(b.key)!] as const)));
  }

  /** Ends the thread, once rendering is done (blocks sent ahead and not answered are not needed). */
  async close(): Promise<void> {
    this.closed = true;
    await this.worker.terminate();
  }

  /** Gives a block its tokens, unless it has them already (from the thread, or from here once it failed). */
  private answer(key: string, tokens: TokenLine[]): void {
    this.waiting.get(key)?.resolve(tokens);
    this.waiting.delete(key);
  }

  private fail(): void {
    if (this.closed || this.failed) return;
    this.failed = true;
    void this.worker.terminate();
    void this.highlightHere();
  }

  private async highlightHere(): Promise<void> {
    const waiting = [...this.waiting.values()];
    try {
      const tokens = await highlightBlocks(await this.fallback(), waiting.map((entry) => entry.block));
      for (const { block } of waiting) this.answer(block.key, tokens.get(block.key)!);
    } catch (e) {
      for (const entry of waiting) entry.reject(e);
    }
  }
}
