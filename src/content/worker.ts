import { parentPort, workerData } from 'node:worker_threads';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { flushCacheWrites } from './cache.js';
import { loadHighlighter } from './highlight.js';
import { renderForWorker } from './load.js';
import type { WorkerResult } from './pool.js';

const { rootDir, contentDir, reuseCode, keepHtml, resultsInCache } = workerData as { rootDir: string; contentDir: string; reuseCode: boolean; keepHtml: boolean; resultsInCache: boolean };
const port = parentPort!;

port.on('message', async (files: string[]) => {
  try {
    const results = [];
    for (const file of files) {
      // (A thread whose results stay in the cache lets a very large body go there as it is made.)
      results.push(await renderForWorker(rootDir, contentDir, file, loadHighlighter, reuseCode, resultsInCache && !keepHtml));
      await nextTurn(); // lets the cache writes of the page go on
    }
    // The pool ends this thread once the pages are done: the cache must be written by then (and
    // whether each page's render is in it goes with the page).
    await flushCacheWrites();
    // A body the render cache holds stays there unless the caller keeps bodies: the main thread reads it when it writes
    // the page, and copying it across (megabytes for a very large page) would only add to the build's memory.
    const posted = async (result: WorkerResult): Promise<WorkerResult> => {
      if (result.ok !== true) return result;
      const { rendered, pieces } = result;
      const cached = await result.cached;
      if (cached && !keepHtml && resultsInCache) return { ok: 'in-cache' };
      return { ok: true, rendered: cached && !keepHtml ? { ...rendered, html: '' } : pieces ? { ...rendered, html: pieces.join('') } : rendered, cached };
    };
    port.postMessage({ results: await Promise.all(results.map(posted)) });
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
port.postMessage({ ready: true });
