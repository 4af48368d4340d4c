import { parentPort, workerData } from 'node:worker_threads';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { flushCacheWrites } from '../io/cache.js';
import { loadHighlighter } from './highlight.js';
import { renderForWorker, type WorkerResult } from './load.js';
import type { PageTask, RenderOptions } from './pool.js';

const { rootDir, contentDir, render } = workerData as { rootDir: string; contentDir: string; render: RenderOptions };
const port = parentPort!;

port.on('message', async (tasks: PageTask[]) => {
  try {
    const results = [];
    for (const task of tasks) {
      results.push(await renderForWorker(rootDir, contentDir, task, loadHighlighter, render));
      await nextTurn(); // lets the cache writes of the page go on
    }
    // The pool ends this thread once the pages are done: the cache must be written by then (and
    // whether each page's render is in it goes with the page).
    await flushCacheWrites();
    const posted = async (result: WorkerResult): Promise<WorkerResult> => (result.ok ? { ...result, cached: await result.cached } : result);
    port.postMessage({ results: await Promise.all(results.map(posted)) });
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
port.postMessage({ ready: true });
