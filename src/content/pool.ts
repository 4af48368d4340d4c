import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SourceProblem } from '../errors.js';
import type { CachedMarkdown } from './cache.js';

/*
 * Markdown rendering in worker threads. Parsing and highlighting are pure CPU
 * work per page, so a cold build of many pages spreads them over the cores;
 * below PARALLEL_MIN_PAGES the cost of starting workers (each loads the
 * pipeline) is more than it saves. DOCS_WORKERS sets the number of workers.
 */

const DEFAULT_MIN_PAGES = 60;
export let PARALLEL_MIN_PAGES = DEFAULT_MIN_PAGES;

/** Lets tests run the worker path on a small site (no argument restores the default). */
export function setParallelMinPages(value = DEFAULT_MIN_PAGES): void {
  PARALLEL_MIN_PAGES = value;
}

export function workerCount(): number {
  const wanted = Number(process.env.DOCS_WORKERS);
  return Number.isInteger(wanted) && wanted > 0 ? wanted : Math.min(availableParallelism(), 4);
}

export type WorkerResult = { ok: true; rendered: CachedMarkdown } | { ok: false; problems: SourceProblem[] };

/** Renders the pages in `files` (relative to contentDir), in order, across workers. */
export async function renderInWorkers(rootDir: string, contentDir: string, files: string[]): Promise<WorkerResult[]> {
  const results: WorkerResult[] = new Array(files.length);
  const count = Math.min(workerCount(), files.length);
  // Pages are dealt out in small batches as workers become free, so a slow page does not hold one worker's whole share.
  let next = 0;
  const BATCH = 16;
  await Promise.all(
    Array.from({ length: count }, () => {
      const worker = new Worker(new URL('./worker-entry.mjs', import.meta.url), { workerData: { rootDir, contentDir } });
      return new Promise<void>((resolve, reject) => {
        let batch: number[] = [];
        const send = () => {
          batch = [];
          while (batch.length < BATCH && next < files.length) batch.push(next++);
          if (!batch.length) {
            void worker.terminate().then(() => resolve());
            return;
          }
          worker.postMessage(batch.map((i) => files[i]));
        };
        worker.on('message', (message: { ready?: true; results?: WorkerResult[]; error?: string }) => {
          if (message.error) {
            void worker.terminate();
            reject(new Error(message.error));
            return;
          }
          message.results?.forEach((result, j) => (results[batch[j]!] = result));
          send();
        });
        worker.on('error', reject);
      });
    }),
  );
  return results;
}
