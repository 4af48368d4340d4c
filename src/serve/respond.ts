import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventHub } from './events.js';
import { RELOAD_SCRIPT_URL, RELOAD_TAG, type Entry, type FileStore } from './files.js';
import { headersFor, parseTarget, resolveFile, sendEntry, sendText, type HeaderRule, type Target } from './http.js';

/*
 * How the preview answers a request: the built files from memory, its own
 * script and event stream under /__docs/, and a page that waits for the
 * first good build.
 */

/** Until the first good build, when no `_headers` file exists yet. */
const FALLBACK_CSP = "default-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

/** What the answers depend on, as the server has it when a request comes. */
export interface Served {
  store: FileStore;
  hub(): EventHub;
  /** The host the server is bound to (--host). */
  host: string;
  /** The rules of the built `_headers` file, and the security headers meanwhile. */
  rules(): HeaderRule[];
  security(): Record<string, string>;
  reloadScript(): Entry | undefined;
  /** While the first build runs: pages rendered on demand (undefined once it is done). */
  early?(): EarlyFiles | undefined;
  /** Whether the search index under `prefix` ("/", or a language's or version's "/zh-cn/") is still being made. */
  searchPending?(prefix: string): boolean;
  err: { write(s: string): unknown };
}

export interface EarlyFiles {
  store: FileStore;
  /** Renders the page at `path` (with the files it needs) into `store`, when it can. */
  request(path: string): Promise<void>;
  /** Resolves when the first build is in the server's store (or failed). */
  done: Promise<void>;
}

/** A path a page is served at ("/", "/guides/", "/guides/index.html"). */
const PAGE_PATH = /(?:\/|\.html)$/;
/** A path whose last part has no extension. */
const NO_EXTENSION = /\/[^/.]+$/;

export class Responder {
  constructor(private readonly served: Served) {}

  headersFor(path: string): Record<string, string> {
    const fromFile = this.served.rules().length ? headersFor(this.served.rules(), path) : { 'Content-Security-Policy': FALLBACK_CSP, ...this.served.security() };
    return { 'Cache-Control': 'no-cache', ...fromFile };
  }

  hashOf(path: string): string {
    const target = parseTarget(path);
    if (!target.ok) return 'bad-request';
    const store = this.served.store.size ? this.served.store : this.served.early?.()?.store;
    if (!store?.size) return 'placeholder';
    const found = resolveFile(store, target);
    return found.kind === 'redirect' ? 'redirect' : (found.entry?.hash ?? 'missing');
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    try {
      const raw = req.url ?? '';
      if (!hostAllowed(req.headers.host, this.served.host)) {
        // A page on another site could otherwise read the preview through a DNS name that points at this computer.
        return sendText(res, 403, 'Forbidden: the preview answers only to localhost names on a loopback address.', this.headersFor('/'));
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        return sendText(res, 405, 'Method not allowed: the preview answers GET and HEAD.', { ...this.headersFor('/'), Allow: 'GET, HEAD' });
      }
      if (raw.startsWith('/__docs/')) return this.internal(req, res, raw);
      const target = parseTarget(raw);
      if (!target.ok) return sendText(res, 400, 'Bad request: this path is not allowed.', this.headersFor('/'));
      const headers = this.headersFor(target.path);
      // (Each language and version has its own index, under its prefix.)
      const index = /^(\/(?:[^/]+\/)*)search-index\/(?:[^/]+\/)*[^/]+\.(?:json|bin)$/.exec(target.path);
      if (index && this.served.searchPending?.(index[1]!)) {
        // The search box says the index is being made, and asks again.
        return sendText(res, 503, 'The search index is being built.', { ...headers, 'Retry-After': '1' });
      }
      if (!this.served.store.size) {
        const early = this.served.early?.();
        if (early) return void this.answerEarly(req, res, target, early);
        return this.placeholder(res, headers);
      }
      const found = resolveFile(this.served.store, target);
      if (found.kind === 'file') sendEntry(req, res, found.entry, 200, headers);
      else if (found.kind === 'redirect') redirect(res, headers, found.location);
      else if (found.entry) sendEntry(req, res, found.entry, 404, headers);
      else sendText(res, 404, 'Not found.', headers);
    } catch (e) {
      this.failed(req, res, e);
    }
  }

  /**
   * A request during the first build: a page is rendered on demand (with
   * the files it points to); anything else waits for the build.
   */
  private async answerEarly(req: IncomingMessage, res: ServerResponse, target: Extract<Target, { ok: true }>, early: EarlyFiles): Promise<void> {
    try {
      let found = resolveFile(early.store, target);
      if (found.kind !== 'file' && found.kind !== 'redirect') {
        // A page's path, or one without its last slash ("/guides/alpha": the page at "/guides/alpha/").
        const page = PAGE_PATH.test(target.path) ? target.path : NO_EXTENSION.test(target.path) ? `${target.path}/` : undefined;
        if (page) await early.request(page);
        found = resolveFile(early.store, target);
      }
      if (this.served.early?.()) {
        if (found.kind === 'file') return sendEntry(req, res, found.entry, 200, this.headersFor(target.path));
        if (found.kind === 'redirect') return redirect(res, this.headersFor(target.path), found.location);
      }
      await early.done;
      if (!res.destroyed) this.handle(req, res);
    } catch (e) {
      this.failed(req, res, e);
    }
  }

  private failed(req: IncomingMessage, res: ServerResponse, e: unknown): void {
    this.served.err.write(`Unexpected error while answering ${req.url}:\n${(e as Error).stack ?? String(e)}\n`);
    if (!res.headersSent) sendText(res, 500, 'Internal error; see the terminal.');
    else res.destroy();
  }

  private internal(req: IncomingMessage, res: ServerResponse, raw: string): void {
    const url = new URL(raw, 'http://preview.invalid');
    const headers = this.headersFor('/');
    const reloadScript = this.served.reloadScript();
    // Cached for a while: a page reload then runs it from the cache instead of waiting for a revalidation.
    if (url.pathname === RELOAD_SCRIPT_URL && reloadScript) sendEntry(req, res, reloadScript, 200, { ...headers, 'Cache-Control': 'max-age=600' });
    else if (url.pathname === '/__docs/events') this.served.hub().connect(req, res, url, headers);
    else sendText(res, 404, 'Not found.', headers);
  }

  /** Before the first good build: a page that shows the problems (through the overlay) and reloads when they are fixed. */
  private placeholder(res: ServerResponse, headers: Record<string, string>): void {
    const body = Buffer.from(
      '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">' +
        `<title>The site has problems</title>${RELOAD_TAG}</head><body><main><h1>The site could not be built yet</h1>` +
        '<p>The problems are listed above and in the terminal. Fix them and this page reloads by itself.</p></main></body></html>',
    );
    res.writeHead(503, { ...headers, 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': body.length, 'Cache-Control': 'no-store', 'Server-Timing': 'docs;desc=placeholder' });
    res.end(body);
  }
}

function redirect(res: ServerResponse, headers: Record<string, string>, location: string): void {
  res.writeHead(301, { ...headers, Location: location, 'Cache-Control': 'no-store', 'Content-Length': 0 }).end();
}

/**
 * On a loopback address, only requests naming a loopback host are answered
 * (DNS rebinding protection); a preview bound to another interface on purpose
 * (--host) answers any name.
 */
export function isLoopback(host: string): boolean {
  return host === '127.0.0.1' || host === '::1' || host === 'localhost';
}

export function hostAllowed(hostHeader: string | undefined, boundHost: string): boolean {
  if (!isLoopback(boundHost)) return true;
  if (!hostHeader) return false;
  const name = hostHeader.replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return isLoopback(name) || name.endsWith('.localhost');
}
