import { createHash } from 'node:crypto';
import { posix } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FileList } from './protocol.js';

/*
 * The served site, in memory: one entry per output file, exactly as `docs
 * build` writes it, plus the reload script tag in HTML documents. Entries
 * carry their validators (ETag, Last-Modified) and, once asked for, their
 * compressed bodies.
 */

export const RELOAD_SCRIPT_URL = '/__docs/reload.js';
export const RELOAD_TAG = `<script src="${RELOAD_SCRIPT_URL}" defer></script>`;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.xml': 'application/xml; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
  '.wasm': 'application/wasm',
  '.pdf': 'application/pdf',
  '.mp4': 'video/mp4',
  '.webm': 'video/webm',
  '.zip': 'application/zip',
};

/** Files without an extension that the build writes (host configuration) are plain text. */
const NO_EXTENSION = 'text/plain; charset=utf-8';

export function contentType(path: string): string {
  const ext = posix.extname(path).toLowerCase();
  if (!ext) return NO_EXTENSION;
  return TYPES[ext] ?? 'application/octet-stream';
}

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json|wasm)|image\/svg\+xml)/;
/** Below this size compression saves nothing worth the work. */
const MIN_COMPRESS = 1024;

export interface Entry {
  /** The bytes `docs build` writes. */
  source: Buffer;
  /** The bytes served (HTML documents get the reload script). */
  body: Buffer;
  type: string;
  /** Content hash (base64url), quoted in the ETag header. */
  hash: string;
  etag: string;
  /** When these bytes were first served (a rebuild that changes nothing keeps it). */
  modified: Date;
  compressible: boolean;
  gzip?: Buffer;
  br?: Buffer;
}

export function injectReload(html: string): string {
  const at = html.indexOf('</head>');
  return at < 0 ? html + RELOAD_TAG : html.slice(0, at) + RELOAD_TAG + html.slice(at);
}

export function makeEntry(path: string, contents: string | Uint8Array, modified = new Date()): Entry {
  const source = typeof contents === 'string' ? Buffer.from(contents) : Buffer.from(contents.buffer, contents.byteOffset, contents.byteLength);
  const type = contentType(path);
  const body = type.startsWith('text/html') ? Buffer.from(injectReload(source.toString('utf8'))) : source;
  const hash = createHash('sha1').update(body).digest('base64url').slice(0, 22);
  return {
    source,
    body,
    type,
    hash,
    etag: `"${hash}"`,
    modified,
    compressible: COMPRESSIBLE.test(type) && body.length >= MIN_COMPRESS,
  };
}

export type Encoding = 'br' | 'gzip';

/** The compressed body (made once per entry and encoding). */
export function encoded(entry: Entry, encoding: Encoding): Buffer {
  if (encoding === 'br') {
    entry.br ??= brotliCompressSync(entry.body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: entry.body.length },
    });
    return entry.br;
  }
  entry.gzip ??= gzipSync(entry.body, { level: 6 });
  return entry.gzip;
}

export class FileStore {
  private readonly entries = new Map<string, Entry>();

  get size(): number {
    return this.entries.size;
  }

  get(path: string): Entry | undefined {
    return this.entries.get(path);
  }

  has(path: string): boolean {
    return this.entries.has(path);
  }

  /** Applies a build's changes; returns the paths whose served bytes changed. */
  apply(set: FileList, remove: string[]): string[] {
    const changed: string[] = [];
    const now = new Date();
    for (const path of remove) if (this.entries.delete(path)) changed.push(path);
    for (const [path, contents] of set) {
      const entry = makeEntry(path, contents, now);
      const old = this.entries.get(path);
      if (old?.hash === entry.hash) continue;
      this.entries.set(path, entry);
      changed.push(path);
    }
    return changed;
  }

  /** Every file with the bytes `docs build` writes. */
  sources(): Map<string, Buffer> {
    return new Map([...this.entries].map(([path, entry]) => [path, entry.source]));
  }
}
