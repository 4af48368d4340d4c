import { parentPort, workerData } from 'node:worker_threads';
import { loadHighlighter } from './highlight.js';
import { renderForWorker } from './load.js';

const { rootDir, contentDir } = workerData as { rootDir: string; contentDir: string };
const port = parentPort!;

port.on('message', async (files: string[]) => {
  try {
    const results = [];
    for (const file of files) results.push(await renderForWorker(rootDir, contentDir, file, loadHighlighter));
    port.postMessage({ results });
  } catch (e) {
    port.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  }
});
port.postMessage({ ready: true });
