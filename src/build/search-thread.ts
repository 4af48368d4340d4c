import { Worker } from 'node:worker_threads';
import { workerEntry } from '../paths.js';
import type { SearchInput } from './search-entry.js';
import type { IndexFileOptions, SearchIndexerOptions } from './search-indexer.js';

/** The indexer on a worker thread: what `docs build` uses, so that indexing runs beside the rendering. */
export interface SearchWorker {
  add(page: SearchInput): void;
  /** Writes the index files into `dir` once every page is added (see SearchIndexer.writeTo), then ends the thread. */
  writeTo(dir: string, options?: IndexFileOptions): Promise<number>;
  /** Ends the thread without writing (a build that failed). */
  close(): Promise<void>;
}

/**
 * Pages sent to the thread and not yet indexed. Pages wait on the main thread
 * (where the build holds them anyway) rather than as copies in the thread's
 * queue, which would grow by the whole site when pages come from the cache
 * faster than they are indexed.
 */
const SEARCH_BATCH = 16;
const SEARCH_BATCHES_IN_FLIGHT = 4;

export function createSearchWorker(options: SearchIndexerOptions = {}): SearchWorker {
  const worker = new Worker(workerEntry('search'), { workerData: options });
  let failed: Error | undefined;
  const crashed = new Promise<never>((_, reject) => {
    worker.once('error', (e) => reject((failed = e)));
    worker.once('exit', (code) => reject((failed ??= new Error(`search index thread exited (${code})`))));
  });
  crashed.catch(() => undefined);
  const waiting: SearchInput[] = [];
  let inFlight = 0;
  let answer: ((message: SearchWorkerReply) => void) | undefined;
  let writeDir: string | undefined;
  const pump = () => {
    while (!failed && inFlight < SEARCH_BATCHES_IN_FLIGHT && waiting.length) {
      worker.postMessage({ add: waiting.splice(0, SEARCH_BATCH) } satisfies SearchWorkerMessage);
      inFlight++;
    }
    // The index is made once every page is in.
    if (writeDir !== undefined && !inFlight && !waiting.length) {
      worker.postMessage({ list: true } satisfies SearchWorkerMessage);
      writeDir = undefined;
    }
  };
  worker.on('message', (message: SearchWorkerReply) => {
    if ('added' in message) {
      inFlight--;
      pump();
    } else answer?.(message);
  });
  const reply = async () => {
    const message = await Promise.race([new Promise<SearchWorkerReply>((resolve) => (answer = resolve)), crashed]);
    // (An error of the operating system keeps its code and path, for the one-line message a full disk gets.)
    if ('error' in message) throw Object.assign(new Error(`search index: ${message.error}`), message.system ?? {});
    return message;
  };
  return {
    add(page) {
      waiting.push(page);
      // In batches while the thread is busy; at once when it is idle (a site of a few very large pages would otherwise index them only at the end).
      if (waiting.length >= SEARCH_BATCH || inFlight === 0) pump();
    },
    async writeTo(dir, options = {}) {
      try {
        const listed = reply();
        writeDir = dir;
        pump();
        // The thread lists the files with their keys; those the output already holds are not sent back to write.
        const { listed: files } = (await listed) as { listed: Array<[string, string, number]> };
        const paths = files.filter(([path, key]) => !options.keep?.(path, key));
        for (const [path, key, size] of paths) options.written?.(path, key, size);
        const wrote = reply();
        worker.postMessage({ write: dir, paths: paths.map(([path]) => path) } satisfies SearchWorkerMessage);
        return ((await wrote) as { files: number }).files;
      } finally {
        await worker.terminate();
      }
    },
    async close() {
      await worker.terminate();
    },
  };
}

/** Messages to the search thread, and its replies. */
export type SearchWorkerMessage = { add: SearchInput[] } | { list: true } | { write: string; paths: string[] };
export type SearchWorkerReply =
  | { added: number }
  | { listed: Array<[path: string, key: string, size: number]> }
  | { files: number }
  | { error: string; system?: { code: string; syscall?: string; path?: string; dest?: string } };
