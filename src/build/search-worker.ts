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
      post({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) });
    }
    return;
  }
  const wanted = new Set(message.paths);
  indexer.writeTo(message.write, { keep: (path) => !wanted.has(path) }).then(
    (files) => post({ files }),
    (e: unknown) => post({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
});
