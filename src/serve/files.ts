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

const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json|wasm)|image\/svg\+xml)/;
/** Below this size compression saves nothing worth the work. */
const MIN_COMPRESS = 1024;

function injectReload(html: string): string {
  const at = html.indexOf('</head>');
  return at < 0 ? html + RELOAD_TAG : html.slice(0, at) + RELOAD_TAG + html.slice(at);
}

/**
 * One served file. The served bytes and their hash are computed on first
 * use: a rebuild that touches every page (a config edit) only swaps
 * references, and the few pages actually requested are encoded and hashed.
 */
export class Entry {
  readonly type: string;
  private served?: Buffer;
  private digest?: string;
  private gzip?: Buffer;
  private br?: Buffer;

  /** `modified` is when these bytes were first served. */
  constructor(path: string, private readonly raw: string | Uint8Array, readonly modified = new Date()) {
    const ext = posix.extname(path).toLowerCase();
    this.type = ext ? (TYPES[ext] ?? 'application/octet-stream') : NO_EXTENSION;
  }

  /** The bytes `docs build` writes. */
  get source(): Buffer {
    return typeof this.raw === 'string' ? Buffer.from(this.raw) : Buffer.from(this.raw.buffer, this.raw.byteOffset, this.raw.byteLength);
  }

  /** The bytes served (HTML documents get the reload script). */
  get body(): Buffer {
    return (this.served ??= this.type.startsWith('text/html') ? Buffer.from(injectReload(this.source.toString('utf8'))) : this.source);
  }

  /** Content hash of the served bytes (base64url), quoted in the ETag header. */
  get hash(): string {
    return (this.digest ??= createHash('sha1').update(this.body).digest('base64url').slice(0, 22));
  }

  get etag(): string {
    return `"${this.hash}"`;
  }

  get compressible(): boolean {
    return COMPRESSIBLE.test(this.type) && this.body.length >= MIN_COMPRESS;
  }

  /** The compressed body (made once per encoding). */
  encoded(encoding: Encoding): Buffer {
    if (encoding === 'gzip') return (this.gzip ??= gzipSync(this.body, { level: 6 }));
    const params = { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: this.body.length };
    return (this.br ??= brotliCompressSync(this.body, { params }));
  }
}

export type Encoding = 'br' | 'gzip';

/** The served files by path (a build's changes come in through apply). */
export class FileStore extends Map<string, Entry> {
  /** Applies a build's changes (the worker sends only files that changed); returns the paths set or removed. */
  apply(set: FileList, remove: string[]): string[] {
    const changed: string[] = [];
    const now = new Date();
    for (const path of remove) if (this.delete(path)) changed.push(path);
    for (const [path, contents] of set) {
      this.set(path, new Entry(path, contents, now));
      changed.push(path);
    }
    return changed;
  }
}
