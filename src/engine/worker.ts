import { parentPort, workerData } from 'node:worker_threads';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CodeToHighlight } from '../content/highlight.js';
import type { PageTask, PoolWork } from '../content/pool.js';

/*
 * A thread of the worker pool (src/content/pool.ts). It does the one kind of work its workerData
 * names, on the batches of tasks it is sent, and answers each batch with its results:
 * - markdown: pages' Markdown rendered (pass 2 of loadPages, src/content/load.ts);
 * - documents: pages in their chrome and printable sections, written into the output's temporary
 *   folder (src/build/render-tasks.ts);
 * - highlight: code blocks highlighted, with the token classes they use (HighlightThread,
 *   src/content/highlight-thread.ts).
 * Each kind loads only its own code.
 */

const work = workerData as PoolWork;
const port = parentPort!;

/** Does a batch of tasks; the results are posted as they are returned. */
async function worker(): Promise<(tasks: never[]) => Promise<unknown>> {
  if (work.kind === 'highlight') {
    const { highlightBlocks, loadHighlighter, tokenClassesOf } = await import('../content/highlight.js');
    const highlighter = await loadHighlighter();
    // One batch at a time, in the order sent (the first pages' blocks are needed first).
    let queue = Promise.resolve<unknown>(undefined);
    return (blocks: CodeToHighlight[]) => (queue = queue.then(async () => {
      const tokens = await highlightBlocks(highlighter, blocks);
      return { tokens: [...tokens], classes: tokenClassesOf([...tokens.values()].flat(2).map(([name]) => name)) };
    }));
  }
  if (work.kind === 'documents') {
    const { documentWriter } = await import('../build/render-tasks.js');
    const write = documentWriter(work.data as Parameters<typeof documentWriter>[0]);
    return async (jobs) => jobs.map(write);
  }
  const [{ flushCacheWrites }, { loadHighlighter }, { renderForWorker }] = await Promise.all([import('../io/cache.js'), import('../content/highlight.js'), import('../content/load.js')]);
  const { rootDir, contentDir } = work;
  return async (tasks: PageTask[]) => {
    const results = [];
    for (const task of tasks) {
      results.push(await renderForWorker(rootDir, contentDir, task, loadHighlighter));
      await nextTurn(); // lets the cache writes of the page go on
    }
    // The pool ends this thread once the pages are done: the cache must be written by then (and
    // whether each page's render is in it goes with the page).
    await flushCacheWrites();
    return Promise.all(results.map(async (result) => (result.ok ? { ...result, cached: await result.cached } : result)));
  };
}

const ready = worker();
port.on('message', async (tasks: never[]) => {
  try {
    port.postMessage({ results: await (await ready)(tasks) });
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
port.postMessage({ ready: true });
