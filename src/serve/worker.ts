import { InputError, systemErrorMessage } from '../shared/errors.js';
import { failed, Preview } from '../engine/preview.js';
import { parentPort, workerData } from 'node:worker_threads';
import { SECURITY_HEADERS } from '../build/parts.js';
import type { FromWorker, ToWorker, WorkerData } from './protocol.js';

/*
 * The render worker: imports the templates, keeps the incremental build and
 * answers build requests one at a time. Between builds it brings the
 * printable sections and the search index up to date, after a short quiet
 * period so that a burst of saves is not slowed down by them.
 */

/** Quiet time before the printable sections are rendered again. */
const SETTLE_DELAY_MS = 150;
/** Further quiet time before the search index is written again (the costliest background work). */
const SEARCH_DELAY_MS = 850;

const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);
/** An unexpected failure in one line (a file-system error names its file); the stack only with DOCS_DEBUG=1. */
const describe = (e: unknown): string => {
  const system = systemErrorMessage(e);
  if (system) return system;
  const message = e instanceof Error ? `${e.name}: ${e.message.split('\n')[0] ?? ''}` : String(e);
  if (process.env.DOCS_DEBUG === '1' && e instanceof Error) return e.stack ?? message;
  return `${message} (unless a template or component of the site caused it, a bug in docs; DOCS_DEBUG=1 shows where it happened)`;
};

const builder = await Preview.open(workerData as WorkerData);
let queue: Promise<unknown> = Promise.resolve();
let pending = 0;
let lastId = 0;
let settleTimer: NodeJS.Timeout | undefined;

port.on('message', (message: ToWorker) => {
  if (message.type === 'early') {
    // Beside the queue: the first build lets it in between two of its files.
    builder.early(message.path).then(
      (files) => post({ type: 'early', id: message.id, files }),
      (e: unknown) => {
        post({ type: 'early', id: message.id });
        post({ type: 'error', error: describe(e) });
      },
    );
    return;
  }
  if (message.type === 'prefetch') {
    // In the queue, so that it never runs beside a build; errors surface in the build that follows.
    queue = queue.then(() => builder.prefetch(message.content).catch(() => undefined));
    return;
  }
  pending++;
  clearTimeout(settleTimer);
  queue = queue.then(async () => {
    const result = await builder.build(message.change).catch((e: unknown) =>
      // A problem of the site's own files found while rendering (a component that throws) is shown as a problem.
      e instanceof InputError ? failed(e.problems) : { ok: false as const, unexpected: describe(e) },
    );
    post({ type: 'result', id: message.id, result });
    // The record of the last build (src/io/record.ts), once the result is on its way: without it, the next start does the full work.
    if (result.ok) await builder.record.save().catch(() => undefined);
    lastId = message.id;
    pending--;
    scheduleSettle();
  });
});

/*
 * Background work runs beside the build queue, not in it: a save arriving
 * while the search index is being written is built at once, and the
 * background work notices the newer build and stops.
 */
function scheduleSettle(): void {
  clearTimeout(settleTimer);
  if (pending) return;
  settleTimer = setTimeout(async () => {
    if (pending) return;
    try {
      const done = await builder.settle((set, remove) => post({ type: 'update', set, remove }), SEARCH_DELAY_MS);
      if (done && !pending) post({ type: 'settled', id: lastId });
    } catch (e) {
      post({ type: 'error', error: describe(e) });
    }
  }, builder.unsettled ? SETTLE_DELAY_MS : 0);
}

post({ type: 'ready', headers: SECURITY_HEADERS });
