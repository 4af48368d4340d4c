import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative, resolve } from 'node:path';
import { bundleBrowserScript } from '../build/assets.js';
import { TOOL_ROOT } from '../paths.js';
import { type BuildState, EventHub } from './events.js';
import { FileStore, makeEntry, RELOAD_SCRIPT_URL, RELOAD_TAG, type Entry } from './files.js';
import { headersFor, parseHeadersFile, parseTarget, resolveFile, sendEntry, sendText, type HeaderRule } from './http.js';
import { openBrowser } from './open.js';
import { isEmptyChange, mergeChanges, type BuildResult, type Change, type FileList } from './protocol.js';
import { watchSite, type SiteWatcher } from './watch.js';
import { RenderWorker } from './worker-host.js';

/*
 * `docs serve`: builds the site into memory, serves it, watches the sources
 * and rebuilds what a save affects, then tells the open pages to reload.
 *
 *   main thread   HTTP server (files from memory), Server-Sent Events, watcher
 *   render worker the incremental build (src/serve/builder.ts); imports the
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
}

export interface Io {
  out: { write(s: string): unknown };
  err: { write(s: string): unknown };
}

/** The tool's own folder (the templates shipped with it are TEMPLATES_DIR of src/build/build.ts). */
const DEBOUNCE_MS = 50;
const PORT_ATTEMPTS = 20;
/** Until the first good build, when no `_headers` file exists yet. */
const FALLBACK_CSP = "default-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

export interface PreviewEvents {
  /** After every build (and background update) is applied. */
  build: [result: BuildResult];
}

export interface Preview {
  url: string;
  port: number;
  /** The files served, with the bytes `docs build` writes (no reload script). */
  files(): Map<string, Buffer>;
  state(): BuildState;
  /** Resolves when no build or background work is left (the served files equal a fresh build's output). */
  settled(): Promise<void>;
  events: EventEmitter<PreviewEvents>;
  close(): Promise<void>;
}

/** Runs `docs serve` until SIGINT or SIGTERM (or `signal`); resolves to the exit code. */
export async function serve(options: ServeOptions, io: Io, signal?: AbortSignal): Promise<number> {
  if (!Number.isInteger(options.port) || options.port < 0 || options.port > 65535) {
    io.err.write(`--port must be a number from 0 to 65535 (got "${options.portText ?? options.port}").\n`);
    return 2;
  }
  // Listen for Ctrl+C from the start: a stop during the first build still ends cleanly.
  let stop!: () => void;
  const stopped = new Promise<void>((resolvePromise) => {
    stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      signal?.removeEventListener('abort', stop);
      resolvePromise();
    };
  });
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  if (signal?.aborted) stop();
  else signal?.addEventListener('abort', stop);

  let preview: Preview;
  try {
    preview = await startPreview(options, io);
  } catch (e) {
    stop();
    if (e instanceof ListenError) {
      io.err.write(`${e.message}\n`);
      return 1;
    }
    throw e;
  }
  if (options.open) openBrowser(preview.url, io);
  await stopped;
  io.out.write('\nStopping the preview server…\n');
  await preview.close();
  return 0;
}

export class ListenError extends Error {}

/** Builds, starts serving and watching; resolves once the first build is served and the watcher is ready. */
export async function startPreview(options: ServeOptions, io: Io): Promise<Preview> {
  const server = new PreviewServer(options, io);
  try {
    await server.start();
  } catch (e) {
    await server.close();
    throw e;
  }
  return server;
}

class PreviewServer implements Preview {
  readonly events = new EventEmitter<PreviewEvents>();
  url = '';
  port = 0;

  private readonly root: string;
  private readonly configPath: string;
  private readonly templatesDir: string;
  private readonly tsconfig: string;
  private readonly store = new FileStore();
  private readonly hub: EventHub;
  private readonly http: Server;
  private watcher?: SiteWatcher;
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
  private profile: Record<string, number> = {};
  private timer?: NodeJS.Timeout;
  private running = false;
  private closed = false;
  private firstBuild = true;
  private settledId = -1;
  private settleWaiters: Array<() => void> = [];

  constructor(
    private readonly options: ServeOptions,
    private readonly io: Io,
  ) {
    this.root = resolve(options.root);
    this.configPath = resolve(this.root, options.config);
    this.templatesDir = resolve(options.templates ?? join(TOOL_ROOT, 'templates'));
    this.tsconfig = resolve(options.tsconfig ?? join(TOOL_ROOT, 'tsconfig.json'));
    this.hub = new EventHub((path) => this.hashOf(path));
    this.http = createServer((req, res) => this.handle(req, res));
    this.http.keepAliveTimeout = 30_000;
  }

  async start(): Promise<void> {
    const started = performance.now();
    this.io.out.write(`Building ${this.display(this.root)}…\n`);
    this.reloadScript = makeEntry(RELOAD_SCRIPT_URL, await bundleReloadScript());
    this.pending = { full: true };
    await Promise.all([this.run(), this.listen()]);
    this.watcher = watchSite(
      { root: this.root, configPath: this.configPath, templatesDir: this.templatesDir },
      (change, file) => this.schedule(change, file),
      (e) => this.io.err.write(`Watching failed: ${(e as Error).message ?? String(e)}\n`),
    );
    await this.watcher.ready;
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    this.io.out.write(
      `Serving ${this.url} (ready in ${seconds} s). Watching content/, ${this.display(this.configPath)}, templates/ and static/; ` +
        `saved changes reload the page. Ctrl+C stops.\n`,
    );
  }

  files(): Map<string, Buffer> {
    return this.store.sources();
  }

  state(): BuildState {
    return this.hub.getState();
  }

  settled(): Promise<void> {
    if (this.isSettled()) return Promise.resolve();
    return new Promise((r) => this.settleWaiters.push(r));
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
  }

  // ---- building ----

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
        this.profile = { wait: sent - this.pendingSince, worker: performance.now() - sent - (result.ok ? result.stats.ms : 0) };
        this.apply(result, files, change);
      }
    } catch (e) {
      if (!this.closed) this.unexpected(e, files);
    } finally {
      this.running = false;
    }
    if (!isEmptyChange(this.pending) && !this.timer) await this.run();
    this.checkSettled();
  }

  /** Starts a worker with the current templates; it replaces the old one once it has built the site. */
  private async replaceWorker(change: Change, files: string[]): Promise<void> {
    const next = new RenderWorker({ root: this.root, configPath: this.configPath, templatesDir: this.templatesDir, tsconfig: this.tsconfig });
    try {
      await next.ready;
    } catch (e) {
      // A template that does not compile: keep the last good worker and say where the error is.
      const detail = (e as Error).message;
      this.templateState = { ok: false, title: 'A template does not compile', problems: templateProblems(detail, this.root), detail };
      this.io.err.write(`A template does not compile; the preview keeps the previous templates until it does.\n${detail}\n`);
      this.publishState();
      const rest: Change = { ...change, templates: false };
      if (this.worker && !isEmptyChange(rest)) this.apply(await this.worker.build(rest), files, rest);
      else if (!this.worker) throw new Error('the render worker could not start', { cause: e });
      return;
    }
    this.security = next.headers;
    next.on('update', (set, remove) => this.applyUpdate(set, remove));
    next.on('settled', (id) => {
      if (next !== this.worker) return;
      this.settledId = id;
      this.checkSettled();
    });
    next.on('error', (error) => this.io.err.write(`Unexpected error while updating the preview (it carries on):\n${error}\n`));
    next.on('crash', (error) => {
      if (next !== this.worker || this.closed) return;
      this.io.err.write(`The render worker stopped; starting a new one.\n${error}\n`);
      this.worker = undefined;
      this.schedule({ full: true });
    });
    let result: BuildResult;
    try {
      result = await next.build({ full: true, known: this.store.paths() });
    } catch (e) {
      await next.terminate();
      throw e;
    }
    this.profile = {};
    const old = this.worker;
    this.worker = next;
    this.settledId = -1;
    if (this.closed) {
      await next.terminate();
      return;
    }
    await old?.terminate();
    if (this.templateState) {
      this.templateState = undefined;
      this.publishState();
    }
    this.apply(result, files, change);
  }

  private apply(result: BuildResult, files: string[], change: Change = {}): void {
    if (this.closed) return;
    const label = this.label(files);
    const applyStarted = performance.now();
    if (result.ok) {
      const changed = this.store.apply(result.set, result.remove);
      this.updateRules(changed);
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
      if (process.env.DOCS_PROFILE) {
        const profile = { ...this.profile, ...stats.stages, apply: performance.now() - applyStarted };
        this.io.out.write(`DOCS_PROFILE ${JSON.stringify(Object.fromEntries(Object.entries(profile).map(([k, v]) => [k, Math.round(v * 10) / 10])))}\n`);
      }
      // Static files (images) and the favicon are not part of any page's HTML: reload every page for them.
      this.hub.changed(!!change.files && changed.length > 0);
    } else if ('problems' in result) {
      const n = result.problems.length;
      this.buildState = { ok: false, title: `${n} problem${n === 1 ? '' : 's'} found`, problems: result.message.split('\n') };
      this.io.err.write(
        `${result.message}\n${n} problem${n === 1 ? '' : 's'} found${label}; ${this.store.size ? 'the preview keeps the last good build until they are fixed' : 'the site is served once they are fixed'}.\n`,
      );
      this.publishState();
    } else {
      this.io.err.write(`Unexpected error while rebuilding${label} (the preview carries on with the last good build):\n${result.unexpected}\n`);
      this.buildState = { ok: false, title: 'Unexpected error while rebuilding', problems: [], detail: result.unexpected };
      this.publishState();
    }
    this.firstBuild = false;
    this.events.emit('build', result);
  }

  private applyUpdate(set: FileList, remove: string[]): void {
    if (this.closed) return;
    const changed = this.store.apply(set, remove);
    this.updateRules(changed);
    if (changed.length) this.hub.changed();
  }

  private unexpected(e: unknown, files: string[]): void {
    const detail = e instanceof Error ? (e.stack ?? e.message) : String(e);
    this.apply({ ok: false, unexpected: detail }, files);
  }

  private updateRules(changed: string[]): void {
    if (!changed.includes('/_headers')) return;
    const file = this.store.get('/_headers');
    this.rules = file ? parseHeadersFile(file.source.toString('utf8')) : [];
  }

  private publishState(): void {
    this.hub.setState(this.templateState ?? this.buildState);
  }

  private isSettled(): boolean {
    return !this.running && !this.timer && isEmptyChange(this.pending) && (!this.worker || this.settledId === this.worker.lastId);
  }

  private checkSettled(): void {
    if (!this.isSettled()) return;
    for (const waiter of this.settleWaiters.splice(0)) waiter();
  }

  private label(files: string[]): string {
    if (!files.length) return '';
    const first = this.display(files[0]!);
    return ` (${first}${files.length > 1 ? ` and ${files.length - 1} more` : ''})`;
  }

  private display(path: string): string {
    const rel = relative(process.cwd(), path);
    return rel.startsWith('..') ? path : rel || '.';
  }

  // ---- serving ----

  private async listen(): Promise<void> {
    const { host, port } = this.options;
    for (let attempt = 0; ; attempt++) {
      const candidate = port === 0 ? 0 : port + attempt;
      try {
        await new Promise<void>((resolvePromise, reject) => {
          const onError = (e: Error) => reject(e);
          this.http.once('error', onError);
          this.http.listen(candidate, host, () => {
            this.http.off('error', onError);
            resolvePromise();
          });
        });
        break;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === 'EADDRINUSE' && port !== 0 && attempt < PORT_ATTEMPTS && candidate < 65535) {
          this.io.out.write(`Port ${candidate} is already in use; trying ${candidate + 1}.\n`);
          continue;
        }
        if (code === 'EADDRINUSE') throw new ListenError(`Cannot serve: ports ${port} to ${candidate} are all in use; choose another with --port.`);
        if (code === 'EACCES') throw new ListenError(`Cannot serve on port ${candidate}: permission denied; choose a port above 1023 with --port.`);
        if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new ListenError(`Cannot serve on host "${host}": no such interface on this computer (--host).`);
        throw e;
      }
    }
    this.port = (this.http.address() as AddressInfo).port;
    if (port !== 0 && this.port !== port) this.io.out.write(`Port ${port} was in use, so the preview uses port ${this.port} instead.\n`);
    const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
    this.url = `http://${shown}:${this.port}/`;
    if (!isLoopback(host)) {
      this.io.out.write(
        `Listening on ${host === '0.0.0.0' || host === '::' ? 'every network interface' : `"${host}"`} (--host): other computers on the network can open the preview, and it answers any host name.\n`,
      );
    }
  }

  private headersFor(path: string): Record<string, string> {
    const fromFile = this.rules.length ? headersFor(this.rules, path) : { 'Content-Security-Policy': FALLBACK_CSP, ...this.security };
    return { 'Cache-Control': 'no-cache', ...fromFile };
  }

  private hashOf(path: string): string {
    const target = parseTarget(path);
    if (!target.ok) return 'bad-request';
    if (!this.store.size) return 'placeholder';
    const found = resolveFile(this.store, target);
    if (found.kind === 'file') return found.entry.hash;
    if (found.kind === 'redirect') return 'redirect';
    return found.entry?.hash ?? 'missing';
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    try {
      const raw = req.url ?? '';
      if (!hostAllowed(req.headers.host, this.options.host)) {
        // A page on another site could otherwise read the preview through a DNS name that points at this computer.
        sendText(req, res, 403, 'Forbidden: the preview answers only to localhost names on a loopback address.', this.headersFor('/'));
        return;
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        sendText(req, res, 405, 'Method not allowed: the preview answers GET and HEAD.', { ...this.headersFor('/'), Allow: 'GET, HEAD' });
        return;
      }
      if (raw.startsWith('/__docs/')) return this.internal(req, res, raw);
      const target = parseTarget(raw);
      if (!target.ok) {
        sendText(req, res, 400, 'Bad request: this path is not allowed.', this.headersFor('/'));
        return;
      }
      const headers = this.headersFor(target.path);
      if (!this.store.size) return this.placeholder(req, res, headers);
      const found = resolveFile(this.store, target);
      if (found.kind === 'file') sendEntry(req, res, found.entry, 200, headers);
      else if (found.kind === 'redirect') {
        res.writeHead(301, { ...headers, Location: found.location, 'Cache-Control': 'no-store', 'Content-Length': 0 }).end();
      } else if (found.entry) sendEntry(req, res, found.entry, 404, headers);
      else sendText(req, res, 404, 'Not found.', headers);
    } catch (e) {
      this.io.err.write(`Unexpected error while answering ${req.url}:\n${(e as Error).stack ?? String(e)}\n`);
      if (!res.headersSent) sendText(req, res, 500, 'Internal error; see the terminal.');
      else res.destroy();
    }
  }

  private internal(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const url = new URL(raw, 'http://preview.invalid');
    const headers = this.headersFor('/');
    // Cached for a while: a page reload then runs it from the cache instead of waiting for a revalidation.
    if (url.pathname === RELOAD_SCRIPT_URL && this.reloadScript) sendEntry(req, res, this.reloadScript, 200, { ...headers, 'Cache-Control': 'max-age=600' });
    else if (url.pathname === '/__docs/events') this.hub.connect(req, res, url, headers);
    else sendText(req, res, 404, 'Not found.', headers);
  }

  /** Before the first good build: a page that shows the problems (through the overlay) and reloads when they are fixed. */
  private placeholder(req: IncomingMessage, res: ServerResponse, headers: Record<string, string>): void {
    const body = Buffer.from(
      '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
        `<title>The site has problems</title>${RELOAD_TAG}</head><body><main><h1>The site could not be built yet</h1>` +
        '<p>The problems are listed above and in the terminal. Fix them and this page reloads by itself.</p></main></body></html>',
    );
    res.writeHead(503, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length, 'Cache-Control': 'no-store', 'Server-Timing': 'docs;desc=placeholder' });
    if (req.method === 'HEAD') res.end();
    else res.end(body);
  }
}

/** The browser script, bundled once per server start. */
function bundleReloadScript(): Promise<string> {
  return bundleBrowserScript(join(TOOL_ROOT, 'src', 'serve', 'client', 'reload.ts'));
}

/** Locations ("file:line:column") in a compile error, as overlay lines relative to the site root. */
function templateProblems(detail: string, root: string): string[] {
  const lines: string[] = [];
  for (const m of detail.matchAll(/(\/[^\s:]+\.(?:tsx?|jsx?|mts|mjs)):(\d+):(\d+):?\s*(?:ERROR:\s*)?([^\n]*)/g)) {
    lines.push(`${relative(root, m[1]!)}:${m[2]}:${m[3]} ${m[4]!.trim()}`.trim());
  }
  return lines.length ? [...new Set(lines)] : [detail.split('\n')[0]!];
}

/**
 * On a loopback address, only requests naming a loopback host are answered
 * (DNS rebinding protection); a preview bound to another interface on purpose
 * (--host) answers any name.
 */
function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost';
}

export function hostAllowed(hostHeader: string | undefined, boundHost: string): boolean {
  const loopback = isLoopback(boundHost);
  if (!loopback) return true;
  if (!hostHeader) return false;
  const name = hostHeader.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return name === 'localhost' || name.endsWith('.localhost') || name === '127.0.0.1' || name === '::1';
}
