import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { PACKAGED, TOOL_ROOT } from '../shared/paths.js';
import { toolVersion } from '../shared/tool-version.js';

/*
 * The render cache: the Markdown result of each page (body HTML, anchors,
 * ids, links, token classes), keyed by a hash of its source and of the
 * pipeline's own code, in node_modules/.cache/docs. It only saves work: a
 * cached build writes the same bytes as an uncached one, and the folder is
 * safe to delete at any time. DOCS_CACHE=0 turns it off; DOCS_CACHE_DIR moves it.
 */

/** The node_modules folder the package is installed in (its .cache/ is where tools keep their caches), or its own one. */
function installedModules(): string {
  const parent = dirname(TOOL_ROOT.replace(/[\\/]$/, ''));
  return basename(parent) === 'node_modules' ? parent : join(TOOL_ROOT, 'node_modules');
}

/** A hash of some of the tool's own files (paths relative to its folder): a cache key part that changes with their code. */
export function codeVersion(files: readonly string[]): string {
  // Installed from the package, the sources are in its bundle: the tool's version covers them.
  if (PACKAGED) return toolVersion();
  const hash = createHash('sha256');
  for (const file of files) hash.update(file).update('\0').update(readFileSync(join(TOOL_ROOT, file)));
  return hash.digest('hex');
}

/** The Markdown pipeline's packages (their installed versions, from the lockfile-installed tree, are part of its version). */
const PIPELINE_PACKAGES = ['shiki', 'unified', 'remark-parse', 'remark-gfm', 'remark-directive', 'remark-rehype', 'rehype-raw', 'hast-util-sanitize', 'rehype-slug', 'github-slugger', 'hast-util-to-html', 'micromark-util-edit-map'];

let version: string | undefined;
/** Changes whenever the Markdown pipeline's code or the highlighter changes. */
export function pipelineVersion(): string {
  if (version) return version;
  // Installed from the package, the pipeline and its packages are in the bundle the tool's version covers.
  if (PACKAGED) return (version = toolVersion());
  const content = readdirSync(join(TOOL_ROOT, 'src', 'content'), { recursive: true }) as string[];
  const packages = PIPELINE_PACKAGES.map((pkg) => join('node_modules', pkg, 'package.json'));
  return (version = codeVersion([
    ...content.filter((file) => file.endsWith('.ts')).sort().map((file) => join('src', 'content', file)),
    // The frontmatter as read is kept with each page's render.
    join('src', 'config', 'frontmatter-schema.ts'),
    ...packages.filter((file) => existsSync(join(TOOL_ROOT, file))),
  ]));
}

/**
 * Whether a layer of the cache is on: DOCS_CACHE=0 turns every one off, and for the benchmark that
 * measures what each saves (scripts/bench-layers.mjs) DOCS_CACHE_OFF=pages,links names the kinds
 * (folders of the cache: pages, record) or the parts of the record (src/io/record.ts) that are neither read nor written.
 */
export function layerEnabled(kind: string): boolean {
  return process.env.DOCS_CACHE !== '0' && !(process.env.DOCS_CACHE_OFF ?? '').split(',').includes(kind);
}

export function cachePath(...parts: string[]): string {
  const root = process.env.DOCS_CACHE_DIR ?? join(PACKAGED ? installedModules() : join(TOOL_ROOT, 'node_modules'), '.cache', 'docs');
  return join(root, ...parts);
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
/** "docs-cache-1 <length: 16 digits> <sha256: 64 hex>\n" */
const HEADER_SIZE = 'docs-cache-1'.length + 1 + 16 + 1 + 64 + 1;

/** What a whole cache file holds after its header, when it is intact. */
function checkedContents(bytes: Buffer): Buffer | undefined {
  const header = /^docs-cache-1 (\d{16}) ([0-9a-f]{64})\n$/.exec(bytes.toString('latin1', 0, HEADER_SIZE));
  if (!header || bytes.length - HEADER_SIZE !== Number(header[1])) return undefined;
  const rest = bytes.subarray(HEADER_SIZE);
  return createHash('sha256').update(rest).digest('hex') === header[2] ? rest : undefined;
}

/** Contents with their header in front, for writeFile (which takes an iterable of strings). */
function withHeader(contents: string | Uint8Array): Array<string | Uint8Array> {
  const length = typeof contents === 'string' ? Buffer.byteLength(contents) : contents.length;
  return [`docs-cache-1 ${String(length).padStart(16, '0')} ${createHash('sha256').update(contents).digest('hex')}\n`, contents];
}

/** Whether the cache holds a page's result (its body included), whole and undamaged. */
export function cacheHas(key: string): boolean {
  return readCachedFile('pages', `${key}.page`, key.slice(0, 2)) !== undefined;
}

/**
 * A page's cached result. A page's file holds a line of JSON (everything but
 * the body) and then the body HTML; with `withHtml: false` (what a build needs
 * to know of a page it does not render) the body is left as bytes: `html` is ''.
 */
export function readCache<T extends { html: string }>(key: string, withHtml = true): T | undefined {
  const bytes = readCachedFile('pages', `${key}.page`, key.slice(0, 2));
  const end = bytes ? bytes.indexOf(10) : -1;
  if (end < 0) return undefined;
  try {
    const meta = JSON.parse(bytes!.toString('utf8', 0, end)) as T;
    meta.html = withHtml ? bytes!.toString('utf8', end + 1) : '';
    return meta;
  } catch {
    return undefined;
  }
}

/** Stores a page's result in the background (see flushCacheWrites); resolves to whether it was stored. */
export function writeCache<T extends { html: string }>(key: string, value: T): Promise<boolean> {
  // JSON.stringify escapes line breaks inside strings: the first one ends the meta line.
  return writeCachedFile('pages', `${key}.page`, `${JSON.stringify({ ...value, html: undefined })}\n${value.html}`, key.slice(0, 2));
}

/** A file of the cache (in `kind`/`folder`/), or undefined. */
export function readCachedFile(kind: string, name: string, folder = ''): Buffer | undefined {
  if (!layerEnabled(kind)) return undefined;
  try {
    return checkedContents(readFileSync(cachePath(kind, folder, name)));
  } catch {
    return undefined;
  }
}

const pending = new Set<Promise<unknown>>();
const folders = new Map<string, Promise<unknown>>();

/** Stores a file in the cache (in `kind`/`folder`/) in the background; resolves to whether it was stored. */
export function writeCachedFile(kind: string, name: string, contents: string | Uint8Array, folder = ''): Promise<boolean> {
  if (!layerEnabled(kind)) return Promise.resolve(false);
  const dir = cachePath(kind, folder);
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

export async function flushCacheWrites(): Promise<void> {
  await Promise.all([...pending]);
}
