import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TOOL_ROOT } from '../paths.js';
import type { BuildResult, Change, FileList, FromWorker, ToWorker, WorkerData } from './protocol.js';

export interface RenderWorkerEvents {
  /** Files brought up to date in the background. */
  update: [set: FileList, remove: string[]];
  /** The worker has no background work left after build `id`. */
  settled: [id: number];
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
  private readonly waiting = new Map<number, { resolve: (r: BuildResult) => void; reject: (e: Error) => void }>();
  private stopping = false;
  private exited = false;
  /** Resolves once the templates are imported; rejects with the import error (a template that does not compile). */
  readonly ready: Promise<void>;
  /** The security headers of `docs build` (known once ready). */
  headers: Record<string, string> = {};

  constructor(data: WorkerData) {
    super();
    this.worker = new Worker(pathToFileURL(join(TOOL_ROOT, 'src', 'serve', 'worker-boot.mjs')), { workerData: data, execArgv: [] });
    let started = false;
    this.ready = new Promise<void>((resolve, reject) => {
      this.worker.on('message', (message: FromWorker) => {
        switch (message.type) {
          case 'ready':
            started = true;
            this.headers = message.headers;
            resolve();
            break;
          case 'fatal':
            reject(new Error(message.error));
            void this.terminate();
            break;
          case 'result': {
            const waiter = this.waiting.get(message.id);
            this.waiting.delete(message.id);
            waiter?.resolve(message.result);
            break;
          }
          case 'update':
            this.emit('update', message.set, message.remove);
            break;
          case 'settled':
            this.emit('settled', message.id);
            break;
          case 'error':
            this.emit('error', message.error);
            break;
        }
      });
      const fail = (error: string) => {
        this.exited = true;
        for (const waiter of this.waiting.values()) waiter.reject(new Error(error));
        this.waiting.clear();
        if (!started) reject(new Error(error));
        else if (!this.stopping) this.emit('crash', error);
      };
      this.worker.on('error', (e) => fail(e.stack ?? String(e)));
      this.worker.on('exit', (code) => {
        if (!this.exited) fail(`the render worker stopped (exit code ${code})`);
      });
    });
    // A rejected `ready` is always handled by whoever awaits it; avoid an unhandled rejection meanwhile.
    this.ready.catch(() => undefined);
  }

  /** The id the next build will get (to match `settled` events). */
  get lastId(): number {
    return this.nextId - 1;
  }

  build(change: Change): Promise<BuildResult> {
    if (this.exited) return Promise.reject(new Error('the render worker is not running'));
    const id = this.nextId++;
    return new Promise<BuildResult>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ type: 'build', id, change } satisfies ToWorker);
    });
  }

  /** Starts parsing saved Markdown files before their build is due. */
  prefetch(content: string[]): void {
    if (!this.exited) this.worker.postMessage({ type: 'prefetch', content } satisfies ToWorker);
  }

  async terminate(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.exited = true;
    for (const waiter of this.waiting.values()) waiter.reject(new Error('the render worker was stopped'));
    this.waiting.clear();
    await this.worker.terminate();
  }
}
