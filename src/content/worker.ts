import { parentPort, workerData } from 'node:worker_threads';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { flushCacheWrites } from './cache.js';
import { loadHighlighter } from './highlight.js';
import { renderForWorker } from './load.js';

const { rootDir, contentDir } = workerData as { rootDir: string; contentDir: string };
const port = parentPort!;

port.on('message', async (files: string[]) => {
  try {
    const results = [];
    for (const file of files) {
      const result = await renderForWorker(rootDir, contentDir, file, loadHighlighter);
      results.push(result.ok ? { ...result, cached: await result.cached } : result);
      await nextTurn(); // lets the cache writes of the page go on
    }
    // The pool ends this thread once the pages are done: the cache must be written by then.
    await flushCacheWrites();
    port.postMessage({ results });
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
port.postMessage({ ready: true });
