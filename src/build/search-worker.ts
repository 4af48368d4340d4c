import { parentPort, workerData } from 'node:worker_threads';
import { createSearchIndexer, type SearchIndexerOptions } from './search-indexer.js';
import type { SearchWorkerMessage, SearchWorkerReply } from './search-thread.js';

/*
 * The search indexer on a thread of its own (see createSearchWorker): pages
 * come in as they are rendered; once all are in, the thread lists the index
 * files with their keys and writes those the build asks for, while the main
 * thread renders and writes the pages.
 */

const port = parentPort!;
const indexer = createSearchIndexer((workerData ?? {}) as SearchIndexerOptions);
const post = (reply: SearchWorkerReply) => port.postMessage(reply);

/** An error as a reply: with what the operating system said of it (a full disk, no permission), so that the build can name it. */
function errorReply(e: unknown): SearchWorkerReply {
  const { code, syscall, path, dest } = (e ?? {}) as NodeJS.ErrnoException & { dest?: string };
  return { error: e instanceof Error ? (e.stack ?? e.message) : String(e), system: typeof code === 'string' ? { code, syscall, path, dest } : undefined };
}

port.on('message', (message: SearchWorkerMessage) => {
  if ('add' in message) {
    for (const page of message.add) indexer.add(page);
    post({ added: message.add.length });
    return;
  }
  if ('list' in message) {
    try {
      post({ listed: indexer.list() });
    } catch (e) {
      post(errorReply(e));
    }
    return;
  }
  const wanted = new Set(message.paths);
  indexer.writeTo(message.write, { keep: (path) => !wanted.has(path) }).then(
    (files) => post({ files }),
    (e: unknown) => post(errorReply(e)),
  );
});
