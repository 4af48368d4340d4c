import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SourceProblem } from '../shared/errors.js';

/*
 * Server-Sent Events to the open pages. Each connection says which page it
 * shows and the hash of the document it got (from the Server-Timing header);
 * after a build, a page is told to reload only when the document at its path
 * changed, so a body edit reloads the readers of that page and nobody else.
 * The build state (ok, or the problems) is sent on connection and whenever
 * it changes, so a page opened while the build is broken shows the overlay
 * at once.
 */

export type BuildState =
  | { ok: true }
  /** `problems` are the lines the terminal prints ("file:line:column message"); `detail` is a stack; `note` says what the page behind shows. */
  | { ok: false; title: string; problems: string[]; detail?: string; note?: string };

/** What the overlay says of the page behind it: the last good build, or nothing yet (the first build failed). */
export function overlayNote(served: boolean): string {
  return served
    ? 'The preview shows the last good build. Fix the files below; this message goes away by itself.'
    : 'Nothing could be built yet, so there is no page to show. Fix the files below; the site is shown by itself then.';
}

/** The terminal's line under the problems: how many, where the first is (file:line:column), and what the preview shows meanwhile. */
export function problemsLine(problems: readonly SourceProblem[], served: boolean): string {
  const n = problems.length;
  const first = problems[0];
  const where = !first ? '' : first.line > 0 ? `${first.file}:${first.line}:${first.column}` : first.file;
  const place = !first ? '' : n === 1 ? ` (at ${where})` : ` (the first at ${where}, and ${n - 1} more)`;
  return `${n} problem${n === 1 ? '' : 's'} found${place}; ${served ? 'the preview keeps the last good build until they are fixed' : 'the site is served once they are fixed'}.`;
}

/** An open page: its stream, its path, and the hash of the document it was last told about. */
type Client = { res: ServerResponse; path: string; hash: string };

const HEARTBEAT_MS = 20_000;

export class EventHub {
  private readonly clients = new Set<Client>();
  private state: BuildState = { ok: true };
  private readonly heartbeat = setInterval(() => {
    for (const client of this.clients) this.write(client, ': ping\n\n');
  }, HEARTBEAT_MS).unref();

  /** `hashOf` says which document a path serves now (its content hash, or a marker for redirects and misses). */
  constructor(private readonly hashOf: (path: string) => string) {}

  connect(req: IncomingMessage, res: ServerResponse, url: URL, headers: Record<string, string>): void {
    res.writeHead(200, {
      ...headers,
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
    });
    // HEAD asks for the headers alone: a stream that never ends would leave the request waiting.
    if (req.method === 'HEAD') return void res.end();
    res.socket?.setNoDelay(true);
    res.write('retry: 1000\n\n');
    const path = url.searchParams.get('path') || '/';
    const seen = url.searchParams.get('hash') ?? '';
    const client: Client = { res, path, hash: this.hashOf(path) };
    this.clients.add(client);
    req.on('close', () => this.clients.delete(client));
    this.send(client, 'state', this.state);
    // The document changed between being served and this connection (or the server restarted).
    if (seen && seen !== client.hash) this.send(client, 'reload', {});
  }

  setState(state: BuildState): void {
    if (JSON.stringify(state) === JSON.stringify(this.state)) return;
    this.state = state;
    for (const client of this.clients) this.send(client, 'state', state);
  }

  /** Tells every page whose document changed to reload (every page when `all`). */
  changed(all = false): void {
    for (const client of this.clients) {
      const now = this.hashOf(client.path);
      if (all || now !== client.hash) {
        client.hash = now;
        this.send(client, 'reload', {});
      }
    }
  }

  close(): void {
    clearInterval(this.heartbeat);
    for (const client of this.clients) client.res.end();
    this.clients.clear();
  }

  private send(client: Client, event: string, data: unknown): void {
    this.write(client, `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /**
   * Writes to a page's stream, unless the page has not read what it was sent
   * before: a client that never reads would have every message kept for it
   * in memory. Such a stream is closed; a browser's page opens it again by
   * itself (and gets the state then).
   */
  private write(client: Client, text: string): void {
    if (client.res.writableLength > UNREAD_LIMIT) {
      this.clients.delete(client);
      client.res.destroy();
      return;
    }
    client.res.write(text);
  }
}

/** Bytes a page's stream may hold unread before it is closed (a state with every problem of a broken site fits many times). */
const UNREAD_LIMIT = 1024 * 1024;
