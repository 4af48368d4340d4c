import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Encoding, Entry, FileStore } from './files.js';

/*
 * The request handler: a small static file server over the in-memory site.
 * Only paths of files the build wrote can ever be answered, so nothing
 * outside the output can leak; request paths that try anyway (dot segments,
 * encoded slashes or backslashes, NUL bytes, absolute forms) are refused
 * with 400 before any lookup.
 */

export type Target = { ok: true; path: string; rawPath: string; query: string } | { ok: false };

/** Validates and decodes a request target ("/guides/first/?x=1"). */
export function parseTarget(raw: string | undefined): Target {
  // Origin form only: "/path". Absolute form ("http://host/path"), "*" and "//host/path" are refused.
  if (!raw || raw[0] !== '/' || raw[1] === '/') return { ok: false };
  const q = raw.search(/[?#]/);
  const rawPath = q < 0 ? raw : raw.slice(0, q);
  const query = q < 0 || raw[q] === '#' ? '' : raw.slice(q).replace(/#.*$/, '');
  // Encoded slash, backslash or NUL would decode into a path separator or a string terminator.
  if (rawPath.includes('\\') || /%(2f|5c|00)/i.test(rawPath)) return { ok: false };
  let path: string;
  try {
    path = decodeURIComponent(rawPath);
  } catch {
    return { ok: false };
  }
  if (path.includes('\0') || path.includes('\\')) return { ok: false };
  // No dot segment, and no empty segment but the last ("/guides//alpha/").
  if (/\/\.\.?(?:\/|$)/.test(path) || path.includes('//')) return { ok: false };
  return { ok: true, path, rawPath, query };
}

export type Resolved =
  | { kind: 'file'; entry: Entry }
  | { kind: 'redirect'; location: string }
  | { kind: 'missing'; entry?: Entry };

/** index.html for folders, a redirect for a folder named without its slash, the 404 page otherwise. */
export function resolveFile(store: FileStore, target: Extract<Target, { ok: true }>): Resolved {
  const key = target.path.endsWith('/') ? `${target.path}index.html` : target.path;
  const entry = store.get(key);
  if (entry) return { kind: 'file', entry };
  if (!target.path.endsWith('/') && store.has(`${target.path}/index.html`)) {
    return { kind: 'redirect', location: `${target.rawPath}/${target.query}` };
  }
  return { kind: 'missing', entry: store.get('/404.html') };
}

export interface HeaderRule {
  pattern: RegExp;
  headers: Array<[string, string]>;
}

/** Reads the `_headers` file the build writes (path patterns, then indented "Name: value" lines). */
export function parseHeadersFile(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.trim().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const source = line.trim().replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*');
      rules.push({ pattern: new RegExp(`^${source}$`), headers: [] });
      continue;
    }
    const colon = line.indexOf(':');
    if (colon > 0 && rules.length) rules.at(-1)!.headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return rules;
}

/** The headers of every matching rule, in file order. */
export function headersFor(rules: HeaderRule[], path: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of rules) if (rule.pattern.test(path)) for (const [name, value] of rule.headers) headers[name] = value;
  return headers;
}

/** br or gzip when the client accepts it (q > 0), br preferred on a tie. */
export function negotiateEncoding(header: string | string[] | undefined): Encoding | null {
  if (!header) return null;
  const prefs = new Map<string, number>();
  for (const part of String(header).split(',')) {
    const [name, ...params] = part.split(';').map((s) => s.trim());
    if (!name) continue;
    const q = params.find((p) => /^q=/i.test(p));
    const value = q ? Number(q.slice(2)) : 1;
    prefs.set(name.toLowerCase(), Number.isFinite(value) ? value : 0);
  }
  const q = (name: string) => prefs.get(name) ?? prefs.get('*') ?? 0;
  const br = q('br');
  const gzip = q('gzip');
  return br > 0 && br >= gzip ? 'br' : gzip > 0 ? 'gzip' : null;
}

function notModified(req: IncomingMessage, entry: Entry): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) return inm.trim() === '*' || inm.split(',').some((tag) => tag.trim().replace(/^W\//, '') === entry.etag);
  const ims = req.headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && Math.floor(entry.modified.getTime() / 1000) * 1000 <= since;
}

/**
 * Sends an entry with validators and, when it pays off and the client accepts
 * it, a compressed body. `status` 404 answers with the 404 page (no 304 then).
 */
export function sendEntry(req: IncomingMessage, res: ServerResponse, entry: Entry, status: 200 | 404, headers: Record<string, string>): void {
  const all: Record<string, string | number> = {
    ...headers,
    'Content-Type': entry.type,
    ETag: entry.etag,
    'Last-Modified': entry.modified.toUTCString(),
  };
  if (entry.type.startsWith('text/html')) all['Server-Timing'] = `docs;desc=${entry.hash}`;
  if (entry.compressible) all.Vary = 'Accept-Encoding';
  if (status === 200 && notModified(req, entry)) {
    delete all['Content-Type'];
    return void res.writeHead(304, all).end();
  }
  const encoding = entry.compressible ? negotiateEncoding(req.headers['accept-encoding']) : null;
  const body = encoding ? entry.encoded(encoding) : entry.body;
  if (encoding) all['Content-Encoding'] = encoding;
  all['Content-Length'] = body.length;
  // (Node's server answers a HEAD request with the headers alone, whatever end() is given.)
  res.writeHead(status, all).end(body);
}

export function sendText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  const body = Buffer.from(text + '\n');
  res.writeHead(status, { ...headers, 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': body.length, 'Cache-Control': 'no-store' });
  res.end(body);
}
