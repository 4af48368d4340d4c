import { createHash } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, readSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PACKAGED, TOOL_ROOT } from '../shared/paths.js';
import { toolVersion } from '../shared/tool-version.js';

/** How much of a cache file is read at a time. */
const CHUNK = 1 << 16;

/*
 * The render cache: the Markdown result of each page (body HTML, anchors,
 * ids, links, token classes), keyed by a hash of its source and of the
 * pipeline's own code, in node_modules/.cache/docs. It only saves work: a
 * cached build writes the same bytes as an uncached one, and the folder is
 * safe to delete at any time. DOCS_CACHE=0 turns it off; DOCS_CACHE_DIR moves it.
 */

const cacheRootDir = () => process.env.DOCS_CACHE_DIR ?? join(PACKAGED ? installedModules() : join(TOOL_ROOT, 'node_modules'), '.cache', 'docs');

/** The node_modules folder the package is installed in (its .cache/ is where tools keep their caches), or its own one. */
function installedModules(): string {
  const parent = dirname(TOOL_ROOT.replace(/[\\/]$/, ''));
  return basename(parent) === 'node_modules' ? parent : join(TOOL_ROOT, 'node_modules');
}

/** What the render cache keeps of a page: its body HTML, and what else the page's render made (stored as JSON). */
interface CachedPage {
  html: string;
}

/** A hash of some of the tool's own files (paths relative to its folder): a cache key part that changes with their code. */
export function codeVersion(files: readonly string[]): string {
  // Installed from the package, the sources are in its bundle: the tool's version covers them.
  if (PACKAGED) return toolVersion();
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update('\0').update(readFileSync(join(TOOL_ROOT, file)));
  return hash.digest('hex');
}

let version: string | undefined;
/** Changes whenever the Markdown pipeline's code or the highlighter changes. */
export function pipelineVersion(): string {
  if (version) return version;
  // Installed from the package, the pipeline and its packages are in the bundle the tool's version covers.
  if (PACKAGED) return (version = toolVersion());
  const hash = createHash('sha256');
  const dir = join(TOOL_ROOT, 'src', 'content');
  for (const file of (readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).sort()) {
    hash.update(file).update(readFileSync(join(dir, file)));
  }
  // The frontmatter as read is kept with each page's render.
  hash.update(readFileSync(join(TOOL_ROOT, 'src', 'config', 'frontmatter-schema.ts')));
  // The installed versions of the pipeline's packages (read from the lockfile-installed tree).
  for (const pkg of ['shiki', 'unified', 'remark-parse', 'remark-gfm', 'remark-directive', 'remark-rehype', 'rehype-raw', 'hast-util-sanitize', 'rehype-slug', 'github-slugger', 'hast-util-to-html', 'micromark-util-edit-map']) {
    try {
      hash.update(pkg).update(readFileSync(join(TOOL_ROOT, 'node_modules', pkg, 'package.json')));
    } catch {
      hash.update('missing');
    }
  }
  version = hash.digest('hex');
  return version;
}

/**
 * Whether a layer of the cache is on: DOCS_CACHE=0 turns every one off, and for the benchmark that
 * measures what each saves (scripts/bench-layers.mjs) DOCS_CACHE_OFF=pages,links names the kinds
 * (folders of the cache: pages, record) or the parts of the record (src/io/record.ts) that are neither read nor written.
 */
export function layerEnabled(kind: string): boolean {
  return process.env.DOCS_CACHE !== '0' && !(process.env.DOCS_CACHE_OFF ?? '').split(',').includes(kind);
}

/** A path in the cache folder. */
export function cachePath(...parts: string[]): string {
  return join(cacheRootDir(), ...parts);
}

export function cacheKey(file: string, lineOffset: number, body: string): string {
  return createHash('sha256').update(pipelineVersion()).update('\0').update(file).update('\0').update(String(lineOffset)).update('\0').update(body).digest('hex');
}


/*
 * Every file of the cache starts with a header line of fixed width that gives the length and the
 * SHA-256 of the rest. A file is used only when the rest is all there and hashes to it: a file that
 * was cut short, emptied, edited or damaged on disk is taken for missing (the page is rendered
 * again, the result made again), never published and never a crash.
 */
const HEADER_TAG = 'docs-cache-1';
/** "docs-cache-1 <length: 16 digits> <sha256: 64 hex>\n" */
const HEADER_SIZE = HEADER_TAG.length + 1 + 16 + 1 + 64 + 1;

function headerLine(length: number, digest: string): string {
  return `${HEADER_TAG} ${String(length).padStart(16, '0')} ${digest}\n`;
}

/** The length and hash a header promises, or undefined when these bytes start with no header. */
function readHeader(bytes: Buffer): { length: number; digest: string } | undefined {
  if (bytes.length < HEADER_SIZE) return undefined;
  const m = /^docs-cache-1 (\d{16}) ([0-9a-f]{64})\n$/.exec(bytes.toString('latin1', 0, HEADER_SIZE));
  return m ? { length: Number(m[1]), digest: m[2]! } : undefined;
}

/** What a whole cache file holds after its header, when it is intact. */
function checkedContents(bytes: Buffer): Buffer | undefined {
  const header = readHeader(bytes);
  if (!header || bytes.length - HEADER_SIZE !== header.length) return undefined;
  const rest = bytes.subarray(HEADER_SIZE);
  return createHash('sha256').update(rest).digest('hex') === header.digest ? rest : undefined;
}

/** Whether the file at `path` is intact (read through once, a piece at a time: a page's body may be tens of megabytes). */
function fileIntact(path: string): boolean {
  try {
    const hash = createHash('sha256');
    let header: { length: number; digest: string } | undefined;
    let length = 0;
    let head = Buffer.alloc(0);
    for (const chunk of fileChunks(path, Math.max(CHUNK, HEADER_SIZE))) {
      let rest = chunk;
      if (!header) {
        head = Buffer.concat([head, chunk]);
        if (head.length < HEADER_SIZE) continue;
        header = readHeader(head);
        if (!header) return false;
        rest = head.subarray(HEADER_SIZE);
      }
      hash.update(rest);
      length += rest.length;
    }
    return header !== undefined && length === header.length && hash.digest('hex') === header.digest;
  } catch {
    return false;
  }
}

/** Contents with their header in front, for writeFile (which takes an iterable of strings). */
function withHeader(contents: string | Uint8Array | readonly string[]): Array<string | Uint8Array> {
  const parts = typeof contents === 'string' || contents instanceof Uint8Array ? [contents] : contents;
  const hash = createHash('sha256');
  let length = 0;
  for (const part of parts) {
    hash.update(part);
    length += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  }
  return [headerLine(length, hash.digest('hex')), ...parts];
}

/**
 * Page files found intact in this process, with the size and time of change they had then: a file
 * is read through again only when those change (a build checks a page's file before anything of
 * it is used, and `docs serve` asks again at each build). Bounded for `docs serve`.
 */
const intactPages = new Map<string, string>();

/** Whether a page's cache file is whole and undamaged. */
function pageIntact(key: string): boolean {
  const path = pageFile(key);
  let stamp: string;
  try {
    const st = statSync(path);
    stamp = `${st.size}:${st.mtimeMs}:${st.ino}`;
  } catch {
    return false;
  }
  if (intactPages.get(key) === stamp) return true;
  if (!fileIntact(path)) return false;
  if (intactPages.size >= 20_000) intactPages.clear();
  intactPages.set(key, stamp);
  return true;
}

/**
 * A page's cached result. A page's file holds a line of JSON (everything but
 * the body) and then the body HTML, so that `withHtml: false` (what a build
 * needs to know of a page it does not render) reads no body: its `html` is ''.
 */
export function readCache<T extends CachedPage>(key: string, withHtml = true): T | undefined {
  if (!withHtml) return readCacheMeta<T>(key);
  const bytes = readCachedFile('pages', `${key}.page`, key.slice(0, 2));
  if (!bytes) return undefined;
  const end = bytes.indexOf(10);
  if (end < 0) return undefined;
  try {
    const meta = JSON.parse(bytes.toString('utf8', 0, end)) as T;
    meta.html = bytes.toString('utf8', end + 1);
    return meta;
  } catch {
    return undefined;
  }
}

const pageFile = (key: string) => join(cacheRootDir(), 'pages', key.slice(0, 2), `${key}.page`);

/** The bytes of a file, `size` at a time, read as they are taken (the file is closed when they stop being taken). */
function* fileChunks(path: string, size: number): Generator<Buffer> {
  const fd = openSync(path, 'r');
  try {
    for (let position = 0; ; ) {
      const chunk = Buffer.allocUnsafe(size);
      const read = readSync(fd, chunk, 0, size, position);
      if (!read) return;
      position += read;
      yield chunk.subarray(0, read);
    }
  } finally {
    closeSync(fd);
  }
}

/** readCache without the body: only the meta line is read. */
function readCacheMeta<T extends CachedPage>(key: string): T | undefined {
  if (!layerEnabled('pages') || !pageIntact(key)) return undefined;
  try {
    const chunks: Buffer[] = [];
    let skip = HEADER_SIZE;
    for (let chunk of fileChunks(pageFile(key), CHUNK)) {
      if (skip) {
        const cut = Math.min(skip, chunk.length);
        chunk = chunk.subarray(cut);
        skip -= cut;
      }
      const end = chunk.indexOf(10);
      chunks.push(end < 0 ? chunk : chunk.subarray(0, end));
      if (end < 0) continue;
      const meta = JSON.parse(Buffer.concat(chunks).toString('utf8')) as T;
      meta.html = '';
      return meta;
    }
    return undefined;
  } catch {
    return undefined;
  }
}

/** The body HTML of a page's cached result alone (made by an earlier build), or undefined when the cache does not hold it whole. */
export function readCachedBody(key: string): string | undefined {
  return cacheHas(key) ? readCache(key)?.html : undefined;
}

/** Whether the cache holds a page's result (its body included), whole and undamaged. */
export function cacheHas(key: string): boolean {
  return layerEnabled('pages') && pageIntact(key);
}

/** Stores a page's result in the background (see flushCacheWrites); resolves to whether it was stored. */
export function writeCache<T extends CachedPage>(key: string, value: T): Promise<boolean> {
  // JSON.stringify escapes line breaks inside strings: the first one ends the meta line.
  return writeCachedFile('pages', `${key}.page`, `${JSON.stringify({ ...value, html: undefined })}\n${value.html}`, key.slice(0, 2));
}

/** A file of the cache (in `kind`/`folder`/), or undefined. */
export function readCachedFile(kind: string, name: string, folder = ''): Buffer | undefined {
  if (!layerEnabled(kind)) return undefined;
  try {
    return checkedContents(readFileSync(join(cacheRootDir(), kind, folder, name)));
  } catch {
    return undefined;
  }
}

const pending = new Set<Promise<unknown>>();
const folders = new Map<string, Promise<unknown>>();

/** Stores a file in the cache (in `kind`/`folder`/) in the background; resolves to whether it was stored. */
export function writeCachedFile(kind: string, name: string, contents: string | Uint8Array | readonly string[], folder = ''): Promise<boolean> {
  if (!layerEnabled(kind)) return Promise.resolve(false);
  const dir = join(cacheRootDir(), kind, folder);
  // Written under a temporary name and renamed, so a reader never sees half a file.
  const temp = join(dir, `${name}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`);
  const write = (async () => {
    let made = folders.get(dir);
    if (!made) folders.set(dir, (made = mkdir(dir, { recursive: true })));
    await made;
    try {
      await writeFile(temp, withHeader(contents));
    } catch (e) {
      // The folder went since it was made (the cache was deleted while the process ran): made again, once.
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      folders.delete(dir);
      await mkdir(dir, { recursive: true });
      await writeFile(temp, withHeader(contents));
    }
    await rename(temp, join(dir, name));
    return true;
  })().catch(() => false); // A cache that cannot be written only costs time.
  pending.add(write);
  void write.finally(() => pending.delete(write));
  return write;
}

/** Waits for the cache writes started so far. */
export async function flushCacheWrites(): Promise<void> {
  await Promise.all([...pending]);
}
