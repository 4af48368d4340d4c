import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import { relative } from 'node:path';
import { workerEntry } from '../shared/paths.js';
import type { BuildResult, Change, FileList, FromWorker, ToWorker, WorkerData } from './protocol.js';

export interface RenderWorkerEvents {
  /** Files brought up to date in the background. */
  update: [set: FileList, remove: string[]];
  /** The worker has no background work left after its last build. */
  settled: [];
  /** An unexpected exception in background work. */
  error: [error: string];
  /** The worker stopped without being asked to. */
  crash: [error: string];
}

/**
 * The server's handle on one render worker. A new one is started when a
 * template changes (ESM modules cannot be unloaded); the old one is
 * terminated once the new one has built the site.
 */
export class RenderWorker extends EventEmitter<RenderWorkerEvents> {
  private readonly worker: Worker;
  private nextId = 1;
  /** The last build after which the worker had no background work left. */
  private settledId = 0;
  private nextEarly = 1;
  private readonly waiting = new Map<number, { resolve: (r: BuildResult) => void; reject: (e: Error) => void }>();
  private readonly earlyWaiting = new Map<number, (files: FileList | undefined) => void>();
  /** Stopped, by terminate() or by itself (told once). */
  private exited = false;
  /** Once the templates are imported, the security headers of `docs build`; rejects with the import error (a template that does not compile). */
  readonly ready: Promise<Record<string, string>>;

  /**
   * With `bundled`, the worker runs from the command's bundle (a tenth of the start-up time of
   * compiling the sources), which holds the templates as they were when the command started: right
   * for the first worker of the tool's own templates, not for one replacing it after a template edit.
   */
  constructor(data: WorkerData, bundled: boolean) {
    super();
    this.worker = new Worker(workerEntry('serve', bundled), { workerData: data, execArgv: [] });
    let started = false;
    this.ready = new Promise((resolve, reject) => {
      this.worker.on('message', (message: FromWorker) => {
        switch (message.type) {
          case 'ready':
            started = true;
            resolve(message.headers);
            break;
          case 'fatal':
            reject(new Error(message.error));
            void this.terminate();
            break;
          case 'result':
            this.waiting.get(message.id)?.resolve(message.result);
            this.waiting.delete(message.id);
            break;
          case 'early':
            this.earlyWaiting.get(message.id)?.(message.files);
            this.earlyWaiting.delete(message.id);
            break;
          case 'update':
            this.emit('update', message.set, message.remove);
            break;
          case 'settled':
            this.settledId = message.id;
            this.emit('settled');
            break;
          case 'error':
            this.emit('error', message.error);
            break;
        }
      });
      const fail = (error: string) => {
        if (this.exited) return;
        this.stopWaiting(error);
        if (!started) reject(new Error(error));
        else this.emit('crash', error);
      };
      this.worker.on('error', (e) => fail(e.stack ?? String(e)));
      this.worker.on('exit', (code) => fail(`the render worker stopped (exit code ${code})`));
    });
    // A rejected `ready` is always handled by whoever awaits it; avoid an unhandled rejection meanwhile.
    this.ready.catch(() => undefined);
  }

  /** Whether the worker has no background work left after the last build it was given. */
  get settled(): boolean {
    return this.settledId === this.nextId - 1;
  }

  build(change: Change): Promise<BuildResult> {
    if (this.exited) return Promise.reject(new Error('the render worker is not running'));
    const id = this.nextId++;
    return new Promise<BuildResult>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'build', id, change } satisfies ToWorker);
    });
  }

  /** During the first build: the files that show the page at `path` at once (none when it cannot be shown yet). */
  early(path: string): Promise<FileList | undefined> {
    if (this.exited) return Promise.resolve(undefined);
    const id = this.nextEarly++;
    return new Promise((resolve) => {
      this.earlyWaiting.set(id, resolve);
      this.worker.postMessage({ type: 'early', id, path } satisfies ToWorker);
    });
  }

  /** Starts parsing saved Markdown files before their build is due. */
  prefetch(content: string[]): void {
    if (!this.exited) this.worker.postMessage({ type: 'prefetch', content } satisfies ToWorker);
  }

  async terminate(): Promise<void> {
    if (this.exited) return;
    this.stopWaiting('the render worker was stopped');
    await this.worker.terminate();
  }

  /** The worker stopped: the builds still waiting fail with `error`, and the early requests get no files. */
  private stopWaiting(error: string): void {
    this.exited = true;
    for (const waiter of this.waiting.values()) waiter.reject(new Error(error));
    this.waiting.clear();
    for (const waiter of this.earlyWaiting.values()) waiter(undefined);
    this.earlyWaiting.clear();
  }
}

/** Locations ("file:line:column") in a compile error, as overlay lines relative to the site root. */
export function templateProblems(detail: string, root: string): string[] {
  const lines: string[] = [];
  for (const m of detail.matchAll(/(\/[^\s:]+\.(?:tsx?|jsx?|mts|mjs)):(\d+):(\d+):?\s*(?:ERROR:\s*)?([^\n]*)/g)) {
    lines.push(`${relative(root, m[1]!)}:${m[2]}:${m[3]} ${m[4]!.trim()}`.trim());
  }
  return lines.length ? [...new Set(lines)] : [detail.split('\n')[0]!];
}
