import { availableParallelism } from 'node:os';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Worker } from 'node:worker_threads';
import { workerEntry } from '../shared/paths.js';
import type { SearchPlace } from './search-sections.js';

/*
 * Markdown rendering across threads. Parsing and highlighting are pure CPU
 * work per page, so a cold build of many pages spreads them over the cores:
 * the main thread renders from the first moment, and worker threads join in
 * as soon as they have loaded the pipeline (which takes them a few hundred
 * milliseconds), taking pages in small batches until none are left. Each
 * thread loads and compiles the grammars it uses. Below PARALLEL_MIN_BYTES of
 * Markdown to render, one thread renders and another highlights instead (see
 * HighlightThread): measured on 2 cores, cold builds, medians of 3 runs, that
 * is faster up to about 4 MB (the real site, 1.9 MB: 8.0 s against 11.0 s
 * with the pool; 300 synthetic pages, 2.5 MB: 7.2 s against 7.8 s; 500 pages,
 * 4.3 MB: 13.2 s against 13.5 s) and slower beyond (1,000 pages, 8.7 MB:
 * 19.9 s against 17.0 s).
 * DOCS_WORKERS sets the number of worker threads (0: the main thread alone).
 */

/** How the pool renders: from how much Markdown it starts threads, whether the main thread renders too, and the threads' heap. */
export interface PoolOptions {
  /** Markdown to render (bytes) from which worker threads are started; 4 MB by default. */
  minBytes?: number;
  /** Documents to render (pages in their chrome, printable sections) from which worker threads are started: see POOL_MIN_DOCUMENTS. */
  minDocuments?: number;
  /** Whether the main thread renders too (otherwise only what a thread could not); true by default. */
  mainThread?: boolean;
  /** Old-generation heap of a worker thread (MB): the highlighter and its grammars, plus one batch of pages; 384 by default. */
  heapMb?: number;
}

/**
 * What a worker thread of the pool does: render Markdown pages (loadPages), or pages' documents
 * around their bodies (src/build/render-tasks.ts), from what it is given here; or, a thread of its
 * own, highlight the code blocks a HighlightThread sends it (highlight-thread.ts).
 */
export type PoolWork = { kind: 'markdown'; rootDir: string; contentDir: string } | { kind: 'documents'; data: unknown } | { kind: 'highlight' };

/** A page to render (its file, relative to the content folder), and where the search index shows it (then its search entry is made too). */
export interface PageTask {
  file: string;
  place?: SearchPlace | null;
}

export const PARALLEL_MIN_BYTES = 4_000_000;

/** Worker threads to start besides the main thread: one per further core. */
export function workerCount(): number {
  const wanted = Number(process.env.DOCS_WORKERS);
  if (process.env.DOCS_WORKERS !== undefined && Number.isInteger(wanted) && wanted >= 0) return wanted;
  return Math.max(0, availableParallelism() - 1);
}

/**
 * Does `tasks` across the main thread (with `renderHere`) and worker threads
 * (src/engine/worker.ts, which `work` tells what kind of work it does),
 * handing each result to `onResult` with its index as it comes (results are
 * not kept here: the caller decides what of them it keeps). `options`: see PoolOptions.
 */
export async function renderInWorkers<Task, Result>(
  work: PoolWork,
  tasks: Task[],
  renderHere: (index: number) => Result | Promise<Result>,
  onResult: (index: number, result: Result) => void,
  { mainThread = true, heapMb = 384 }: PoolOptions = {},
): Promise<void> {
  let next = 0;
  const renderOneHere = async (i: number) => onResult(i, await renderHere(i));
  // Small batches, so that a slow page does not hold one thread's whole share and the threads finish together.
  const BATCH = 8;
  const started: Worker[] = [];
  const workers = Array.from({ length: Math.min(workerCount(), tasks.length) }, () => {
    // A bounded heap: the thread keeps nothing between pages, and an unbounded one grows with the site before it collects.
    const worker = new Worker(workerEntry('pool'), { workerData: work, resourceLimits: { maxOldGenerationSizeMb: heapMb } });
    started.push(worker);
    return new Promise<void>((resolve, reject) => {
      let batch: number[] = [];
      worker.on('message', (message: { ready?: true; results?: Result[]; error?: string }) => {
        if (message.error) {
          void worker.terminate();
          reject(new Error(message.error));
          return;
        }
        const done = batch;
        const deliver = () => message.results?.forEach((result, j) => onResult(done[j]!, result));
        batch = Array.from({ length: Math.min(BATCH, tasks.length - next) }, () => next++);
        if (batch.length) {
          worker.postMessage(batch.map((i) => tasks[i]));
          try {
            deliver();
          } catch (e) {
            reject(e);
          }
          return;
        }
        // The last batch: its results are taken in once the thread is gone and its memory with it.
        worker.terminate().then(deliver).then(resolve, reject);
      });
      worker.on('error', (e: Error & { code?: string }) => {
        if (e.code !== 'ERR_WORKER_OUT_OF_MEMORY') return reject(e);
        // A page too large for the thread's heap: its batch, and the thread's share of the rest, go to the main thread.
        void (async () => {
          for (const i of batch) await renderOneHere(i);
          while (next < tasks.length) await renderOneHere(next++);
        })().then(resolve, reject);
      });
    });
  });
  const here = async () => {
    while (mainThread && next < tasks.length) {
      await renderOneHere(next++);
      // Lets the workers' messages in, so that none of them waits for its next batch.
      await nextTurn();
    }
  };
  try {
    await Promise.all([here(), ...workers]);
  } catch (e) {
    // Nothing more is taken, and no thread goes on with work whose results nobody takes.
    next = tasks.length;
    await Promise.all(started.map((worker) => worker.terminate()));
    throw e;
  }
}
