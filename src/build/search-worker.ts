import { parentPort } from 'node:worker_threads';
import { createSearchIndexer, type SearchInput } from './search.js';

/*
 * The search indexer on a thread of its own (see createSearchWorker): pages
 * come in as they are rendered, the index is written when asked, while the
 * main thread renders and writes the pages.
 */

export type SearchWorkerMessage = { add: SearchInput[] } | { writeTo: string };

const port = parentPort!;
const indexer = createSearchIndexer();

port.on('message', (message: SearchWorkerMessage) => {
  if ('add' in message) {
    for (const page of message.add) indexer.add(page);
    port.postMessage({ added: message.add.length });
    return;
  }
  indexer.writeTo(message.writeTo).then(
    (files) => port.postMessage({ files }),
    (e: unknown) => port.postMessage({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }),
  );
});
