import { createServer } from 'node:http';
import { join, relative, resolve } from 'node:path';
import { PACKAGED, TOOL_ROOT } from '../shared/paths.js';
import { type BuildState, EventHub, overlayNote, problemsLine } from './events.js';
import { Entry, FileStore, RELOAD_SCRIPT_URL } from './files.js';
import { parseHeadersFile, type HeaderRule } from './http.js';
import { listen } from './listen.js';
import { isEmptyChange, mergeChanges, type BuildResult, type Change, type FileList, type WorkerData } from './protocol.js';
import { Responder, type EarlyFiles } from './respond.js';
import { watchSite } from './watch.js';
import { RenderWorker, templateProblems } from './worker-host.js';

/*
 * `docs serve`: builds the site into memory, serves it, watches the sources
 * and rebuilds what a save affects, then tells the open pages to reload.
 *
 *   main thread   HTTP server (files from memory), Server-Sent Events, watcher
 *   render worker the incremental build (src/engine/preview.ts); imports the
 *                 templates, so a template edit replaces the worker
 *
 * Bad input never stops the server: the last good build stays served, the
 * problems are printed and shown in an overlay in every open page.
 */

export interface ServeOptions {
  root: string;
  config: string;
  port: number;
  host: string;
  /** The --port argument as typed, for messages. */
  portText?: string;
  open: boolean;
  /** Folder of the page templates; defaults to the templates shipped with the tool (as `docs build`). */
  templates?: string;
  /** TypeScript config the worker compiles the templates with; defaults to the tool's. */
  tsconfig?: string;
  /** Called after every build's result is applied (not after the background updates that follow it). */
  onBuild?: (result: BuildResult) => void;
}

/** Where a command writes (the terminal, or a test's buffers); `isTTY` makes `docs build` show its progress on one line. */
export interface Io {
  out: { write(s: string): unknown; isTTY?: boolean };
  err: { write(s: string): unknown };
}

/** How long a save waits for the next one before the build starts (ms). */
const DEBOUNCE_MS = 50;

export class PreviewServer {
  url = '';

  /** The site's and the templates' files (absolute), as the watcher and every render worker get them. */
  private readonly paths: WorkerData;
  private readonly store = new FileStore();
  private readonly hub = new EventHub((path) => this.responder.hashOf(path));
  private readonly http = createServer((req, res) => this.responder.handle(req, res));
  private readonly responder: Responder;
  private watcher?: ReturnType<typeof watchSite>;
  private worker?: RenderWorker;
  private reloadScript?: Entry;
  private rules: HeaderRule[] = [];
  private security: Record<string, string> = {};
  private buildState: BuildState = { ok: true };
  private templateState?: BuildState;
  private pending: Change = {};
  private pendingFiles: string[] = [];
  /** When the first save of the pending change was seen (for DOCS_PROFILE). */
  private pendingSince = 0;
  private timer?: NodeJS.Timeout;
  private running = false;
  private closed = false;
  private firstBuild = true;
  /** The warnings of the last good build, printed when they first came. */
  private warned = new Set<string>();
  /** A template was edited since the server started (a new worker then compiles the templates from their files). */
  private templatesEdited = false;
  private settleWaiters: Array<() => void> = [];
  /** The worker of the first build, which renders pages on demand meanwhile (see src/engine/first-pass.ts). */
  private firstWorker?: RenderWorker;
  private readonly earlyRequests = new Map<string, Promise<void>>();
  /** (Declared before `early`, whose promise sets it.) */
  private finishFirst!: () => void;
  /** While the first build runs: the pages rendered on demand (and what they need), how to ask for one more, and its end. */
  private readonly early: EarlyFiles = {
    store: new FileStore(),
    done: new Promise((r) => (this.finishFirst = r)),
    request: (path) => {
      if (!this.earlyRequests.has(path)) this.earlyRequests.set(path, this.requestEarly(path));
      return this.earlyRequests.get(path)!;
    },
  };
  /** The search index has been written at least once (until then its files are answered "not yet"). */
  private searchReady = false;

  constructor(
    private readonly options: ServeOptions,
    private readonly io: Io,
  ) {
    const root = resolve(options.root);
    this.paths = {
      root,
      configPath: resolve(root, options.config),
      templatesDir: resolve(options.templates ?? join(TOOL_ROOT, 'templates')),
      tsconfig: resolve(options.tsconfig ?? join(TOOL_ROOT, 'tsconfig.json')),
    };
    this.responder = new Responder({
      store: this.store,
      hub: () => this.hub,
      host: options.host,
      rules: () => this.rules,
      security: () => this.security,
      reloadScript: () => this.reloadScript,
      early: () => (this.firstBuild && !this.closed ? this.early : undefined),
      searchPending: (prefix) => !this.searchReady && !this.store.has(`${prefix}search-index/index.json`),
      err: io.err,
    });
    this.http.keepAliveTimeout = 30_000;
  }

  async start(): Promise<void> {
    const started = performance.now();
    this.io.out.write(`Building ${this.display(this.paths.root)}…\n`);
    this.pending = { full: true };
    // The build starts first: its worker takes the longest to start. Pages asked for meanwhile are
    // rendered on request (see src/engine/first-pass.ts), and saves are built once it is done.
    const building = this.run();
    this.watcher = watchSite(
      this.paths,
      (change, file) => this.schedule(change, file),
      (e) => this.io.err.write(`Watching failed: ${(e as Error).message ?? String(e)}\n`),
    );
    // Before listening: every page served must find its live-reload script. Its bundler is loaded here:
    // the server itself never loads the pipeline (its worker does).
    const { bundleBrowserScript } = await import('../build/assets.js');
    this.reloadScript = new Entry(RELOAD_SCRIPT_URL, await bundleBrowserScript(join(TOOL_ROOT, 'src', 'serve', 'client', 'reload.ts')));
    this.url = await listen(this.http, this.options.host, this.options.port, this.io.out);
    this.io.out.write(`Serving ${this.url} ${this.firstBuild ? '(pages are rendered on request while the site builds)' : '(the site is built)'}.\n`);
    await Promise.all([building, this.watcher.ready]);
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    this.io.out.write(
      `Ready in ${seconds} s at ${this.url}. Watching content/, ${this.display(this.paths.configPath)}, ${PACKAGED ? '' : 'templates/ '}and static/; ` +
        `saved changes reload the page. Ctrl+C stops.\n`,
    );
  }

  /** The files served, with the bytes `docs build` writes (no reload script). */
  files(): Map<string, Buffer> {
    return new Map([...this.store].map(([path, entry]) => [path, entry.source]));
  }

  /** Resolves when no build or background work is left (the served files equal a fresh build's output). */
  settled(): Promise<void> {
    const settled = new Promise<void>((r) => this.settleWaiters.push(r));
    this.checkSettled();
    return settled;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.timer);
    await this.watcher?.close();
    this.hub.close();
    if (this.http.listening) {
      await new Promise<void>((r) => {
        this.http.close(() => r());
        this.http.closeAllConnections();
      });
    }
    await this.worker?.terminate();
    for (const waiter of this.settleWaiters.splice(0)) waiter();
    this.finishFirst();
  }

  private async requestEarly(path: string): Promise<void> {
    // (A worker that does not start is reported by the build.)
    if (!(await this.firstWorker?.ready.then(() => true, () => false))) return;
    const files = await this.firstWorker!.early(path);
    if (!files || !this.firstBuild) return;
    const changed = this.early.store.apply(files, []);
    if (!this.store.size) this.updateRules(this.early.store, changed);
  }

  private schedule(change: Change, file?: string): void {
    if (this.closed) return;
    if (isEmptyChange(this.pending)) this.pendingSince = performance.now();
    this.pending = mergeChanges(this.pending, change);
    if (file) this.pendingFiles.push(file);
    if (change.content) this.worker?.prefetch(change.content);
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.run();
    }, DEBOUNCE_MS);
  }

  /** Builds the pending change (one build at a time; saves during a build are built right after it). */
  private async run(): Promise<void> {
    if (this.running || this.closed) return;
    const change = this.pending;
    const files = [...new Set(this.pendingFiles)];
    this.pending = {};
    this.pendingFiles = [];
    if (isEmptyChange(change)) return this.checkSettled();
    this.running = true;
    try {
      if (change.templates || !this.worker) await this.replaceWorker(change, files);
      else {
        const sent = performance.now();
        const result = await this.worker.build(change);
        // Waiting (debounce, a build before this one) and the round trip to the worker, beside the build's own stages.
        const profile = { wait: sent - this.pendingSince, worker: performance.now() - sent - (result.ok ? result.stats.ms : 0) };
        this.apply(result, files, change, profile);
      }
    } catch (e) {
      if (!this.closed) this.apply({ ok: false, unexpected: e instanceof Error ? (e.stack ?? e.message) : String(e) }, files);
    } finally {
      this.running = false;
    }
    if (!isEmptyChange(this.pending) && !this.timer) await this.run();
    this.checkSettled();
  }

  /** Starts a worker with the current templates; it replaces the old one once it has built the site. */
  private async replaceWorker(change: Change, files: string[]): Promise<void> {
    // The templates in the command's bundle are the ones on disk until the first template edit.
    const bundled = !this.templatesEdited && this.paths.templatesDir === resolve(TOOL_ROOT, 'templates');
    if (change.templates) this.templatesEdited = true;
    const next = new RenderWorker(this.paths, bundled && !change.templates);
    if (this.firstBuild) this.firstWorker ??= next;
    try {
      this.security = await next.ready;
    } catch (e) {
      // A template that does not compile: keep the last good worker and say where the error is.
      const detail = (e as Error).message;
      this.templateState = { ok: false, title: 'A template does not compile', problems: templateProblems(detail, this.paths.root), detail };
      this.io.err.write(`A template does not compile; the preview keeps the previous templates until it does.\n${detail}\n`);
      this.publishState();
      const rest: Change = { ...change, templates: false };
      if (this.worker && !isEmptyChange(rest)) this.apply(await this.worker.build(rest), files, rest);
      else if (!this.worker) throw new Error('the render worker could not start', { cause: e });
      return;
    }
    next.on('update', (set, remove) => this.applyUpdate(set, remove));
    next.on('settled', () => this.checkSettled());
    next.on('error', (error) => this.io.err.write(`Unexpected error while updating the preview (it carries on):\n${error}\n`));
    next.on('crash', (error) => {
      if (next !== this.worker || this.closed) return;
      this.io.err.write(`The render worker stopped; starting a new one.\n${error}\n`);
      this.worker = undefined;
      this.schedule({ full: true });
    });
    const result = await next.build({ full: true, known: [...this.store.keys()] }).catch(async (e: unknown) => {
      await next.terminate();
      throw e;
    });
    const old = this.worker;
    this.worker = next;
    if (this.closed) return next.terminate();
    await old?.terminate();
    if (this.templateState) {
      this.templateState = undefined;
      this.publishState();
    }
    this.apply(result, files, change);
  }

  private apply(result: BuildResult, files: string[], change: Change = {}, profile: Record<string, number> = {}): void {
    if (this.closed) return;
    const label = files.length ? ` (${this.display(files[0]!)}${files.length > 1 ? ` and ${files.length - 1} more` : ''})` : '';
    const applyStarted = performance.now();
    if (result.ok) {
      const changed = this.store.apply(result.set, result.remove);
      this.updateRules(this.store, changed);
      const wasBroken = !this.buildState.ok;
      this.buildState = { ok: true };
      this.publishState();
      const { stats } = result;
      if (this.firstBuild) {
        this.io.out.write(`Built ${stats.pages} pages in ${(stats.ms / 1000).toFixed(1)} s.\n`);
      } else {
        const pages = `${stats.parsed} file${stats.parsed === 1 ? '' : 's'} parsed, ${stats.rendered} page${stats.rendered === 1 ? '' : 's'} rendered`;
        this.io.out.write(`${wasBroken ? 'Fixed; rebuilt' : 'Rebuilt'}${label} in ${Math.round(stats.ms)} ms: ${pages}, ${changed.length} file${changed.length === 1 ? '' : 's'} changed.\n`);
      }
      // Warnings as docs build prints them, each once while it holds (not again at every save).
      for (const warning of stats.warnings) if (!this.warned.has(warning)) this.io.err.write(`${warning}\n`);
      this.warned = new Set(stats.warnings);
      if (process.env.DOCS_PROFILE) {
        const all = { ...profile, ...stats.stages, apply: performance.now() - applyStarted };
        this.io.out.write(`DOCS_PROFILE ${JSON.stringify(Object.fromEntries(Object.entries(all).map(([k, v]) => [k, Math.round(v * 10) / 10])))}\n`);
      }
      // Static files (images) and the favicon are not part of any page's HTML: reload every page for them.
      this.hub.changed(!!change.files && changed.length > 0);
    } else if ('problems' in result) {
      const n = result.problems.length;
      this.buildState = { ok: false, title: `${n} problem${n === 1 ? '' : 's'} found`, problems: result.message.split('\n') };
      // The place of the first problem, not the files saved: those are where the reader looks.
      this.io.err.write(`${result.message}\n${problemsLine(result.problems, this.store.size > 0)}\n`);
      this.publishState();
    } else {
      this.io.err.write(`Unexpected error while rebuilding${label} (the preview carries on with the last good build):\n${result.unexpected}\n`);
      this.buildState = { ok: false, title: 'Unexpected error while rebuilding', problems: [], detail: result.unexpected };
      this.publishState();
    }
    if (this.firstBuild) {
      // Pages shown before the build was done: reloaded where the built page differs (changed() above compared them).
      this.firstBuild = false;
      this.early.store.apply([], [...this.early.store.keys()]);
      this.finishFirst();
    }
    this.options.onBuild?.(result);
  }

  private applyUpdate(set: FileList, remove: string[]): void {
    if (this.closed) return;
    if (set.some(([path]) => path.includes('/search-index/'))) this.searchReady = true;
    const changed = this.store.apply(set, remove);
    this.updateRules(this.store, changed);
    if (changed.length) this.hub.changed();
  }

  /** Reads the `_headers` file of `store` again when `changed` holds it. */
  private updateRules(store: FileStore, changed: string[]): void {
    if (!changed.includes('/_headers')) return;
    const file = store.get('/_headers');
    this.rules = file ? parseHeadersFile(file.source.toString('utf8')) : [];
  }

  private publishState(): void {
    const state = this.templateState ?? this.buildState;
    this.hub.setState(state.ok ? state : { ...state, note: overlayNote(this.store.size > 0) });
  }

  private checkSettled(): void {
    if (this.running || this.timer || !isEmptyChange(this.pending) || (this.worker && !this.worker.settled)) return;
    for (const waiter of this.settleWaiters.splice(0)) waiter();
  }

  private display(path: string): string {
    const rel = relative(process.cwd(), path);
    return rel.startsWith('..') ? path : rel || '.';
  }
}
