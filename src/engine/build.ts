import { createHash } from 'node:crypto';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { readdirSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { SiteConfig } from '../config/schema.js';
import { renderInWorkers, workerCount, type PoolOptions } from '../content/pool.js';
import { BuildRecord, currentRecord } from '../io/record.js';
import { InputError, type SourceProblem } from '../shared/errors.js';
import { resolveLinks, type LinkTargets } from '../site/links.js';
import { pageFile, type Site, type SitePage } from '../site/model.js';
import { createSearchIndexer } from '../build/search-indexer.js';
import { treeFiles, treeSearch, type Indexers } from '../build/trees.js';
import { OutputWriter } from '../build/output.js';
import { lockOutput, type OutputLock } from '../build/output-lock.js';
import { checkConfigFile, checkOutputFolder, checkSiteFolder, UsageError } from '../build/out-guard.js';
import { documentJob, documentsData, POOL_MIN_DOCUMENT_WORKERS, POOL_MIN_DOCUMENTS, renderDocumentTask, type DocumentTask, type DocumentWritten } from '../build/render-tasks.js';
import { printables, siteFiles, TEMPLATES_DIR } from '../build/parts.js';
import { stageTimes, timed } from '../shared/stages.js';
import { Engine, type EngineOptions, type Rendering, type Update } from './engine.js';

export interface BuildOptions {
  /** Site root: holds content/, templates/ and static/ unless told otherwise. */
  root: string;
  /** Path of site.config.yaml. */
  config?: string;
  /** Output folder. */
  out?: string;
  /** Base path the site is served under ("/" or "/docs/"). */
  base?: string;
  /** Check only: load, validate and resolve links, write nothing. */
  checkOnly?: boolean;
  onProgress?: (done: number, total: number) => void;
  /** Folder of the page templates; defaults to the templates shipped with the tool. */
  templates?: string;
  /** Check only: report only problems in files whose path starts with this prefix. */
  only?: string;
  /** Warnings (a page in no section) are problems: `docs check --strict`. */
  strict?: boolean;
  /** How pages are rendered across threads (tests try the thread paths on small sites). */
  pool?: PoolOptions;
  /** Called once when the build waits for another build into the same output folder. */
  onWait?: (pid: number) => void;
}

export interface BuildResult {
  site: Site;
  pages: number;
  outDir?: string;
  ms: number;
  /** What the build let pass but the writer should know (formatted like problems). */
  warnings: SourceProblem[];
}

function normaliseBase(base = '/'): string {
  let b = base.trim() || '/';
  if (!b.startsWith('/')) b = '/' + b;
  if (!b.endsWith('/')) b += '/';
  // A path on the site's own host: segments of URL-safe characters, none empty, none "." or ".." (a base
  // such as //other.host/ or https://… would send every link and script of the site elsewhere). No "%":
  // a browser reads /x/%2e%2e/ as /x/../, which is the site's parent.
  const segments = b.slice(1, -1);
  const bad = base.trim().startsWith('-')
    ? 'it looks like an option: give the path after --base, such as --base /docs/'
    : segments !== '' && !segments.split('/').every((s) => /^[A-Za-z0-9\-._~]+$/.test(s) && s !== '.' && s !== '..')
      ? 'it must be a path on the site\'s own host, such as /docs/ or /project/v2/: letters, digits and - . _ ~ between single slashes, no "..", no scheme or host'
      : undefined;
  if (bad) throw new UsageError(`--base ${base}: ${bad}. Nothing was written.`);
  return b;
}

/**
 * Loads and checks everything (and, unless checkOnly, prepares rendering); throws InputError listing
 * every problem found. `onConfig` may return hooks that get each page as soon as its Markdown is
 * rendered (see loadPages).
 */
async function loadSite(options: BuildOptions, onConfig: EngineOptions['onConfig']): Promise<Extract<Update, { ok: true }> & { base: string; root: string }> {
  const root = resolve(options.root);
  const configPath = resolve(root, options.config ?? 'site.config.yaml');
  const base = normaliseBase(options.base);
  const only = options.only === undefined ? undefined : onlyPrefix(root, options.only);
  /** Problems in the files `--only` names (all of them without it). */
  const shownOf = (problems: SourceProblem[]) => (only ? problems.filter((p) => p.file.startsWith(only)) : problems);
  const engine = new Engine({
    root,
    configPath,
    templatesDir: options.templates ?? TEMPLATES_DIR,
    base,
    render: !options.checkOnly,
    strict: options.strict,
    pool: options.pool,
    // Page bodies wait in the render cache, not in memory, until their page is written.
    keepHtml: false,
    onConfig,
    resolveLinks: resolveLinksCached,
  });
  const update = await engine.update({ full: true });
  if (!update.ok) {
    const rest = update.problems.filter((p) => !update.configProblems.includes(p));
    const shown = [...update.configProblems, ...shownOf(rest)];
    if (shown.length) throw new InputError(shown);
  }
  // (Every problem is outside the files --only names: the site is checked as far as they go.)
  const done = update.ok ? update : { ok: true as const, site: update.site!, warnings: update.warnings!, parsed: 0 };
  return { ...done, base, root, warnings: shownOf(done.warnings) };
}

/**
 * The path `--only` names, as problems name files (from the site folder, with
 * `/`); refused when nothing in the site starts with it, so that a typing
 * mistake does not pass for a check that found no problem.
 */
function onlyPrefix(root: string, only: string): string {
  const prefix = (isAbsolute(only) ? relative(root, only) + (/[/\\]$/.test(only) ? '/' : '') : only).split(sep).join('/').replace(/^(?:\.\/)+/, '');
  const at = join(root, prefix);
  // A folder's path names what is in it; a file's, the names in its folder that start with its own.
  const [folder, start] = prefix === '' || prefix.endsWith('/') ? [at, ''] : [dirname(at), basename(at)];
  let names: string[] = [];
  try {
    names = readdirSync(folder);
  } catch {
    // No such folder: nothing starts with the prefix.
  }
  if (prefix.startsWith('../') || !names.some((name) => name.startsWith(start))) {
    throw new UsageError(`--only ${only}: nothing in the site folder starts with ${prefix || '.'}; give a path from the site folder, such as content/ or a page's file`);
  }
  return prefix;
}

/*
 * Where a page's links lead depends on its Markdown (its render cache key
 * stands for it) and on the site as links see it: the base, the files that
 * are not pages, and every page's URL and ids. The hrefs of the last build
 * with the same site are kept in the record of the last build by page, so that
 * an edit resolves only the edited page's links. Only results without problems are kept.
 */
function resolveLinksCached(site: Site, base: string, targets: LinkTargets): SourceProblem[] {
  const hash = createHash('sha256').update(base).update('\0');
  for (const file of [...targets.files].sort()) hash.update(file).update('\0');
  for (const url of [...(targets.unchecked ?? [])].sort()) hash.update(url).update('\0');
  for (const page of site.pages) {
    hash.update('\n').update(page.url);
    for (const id of page.ids) hash.update('\0').update(id);
  }
  const key = hash.digest('hex');
  const saved = currentRecord()?.get<Record<string, string[]>>('links', key) ?? {};
  const rest: SitePage[] = [];
  for (const page of site.pages) {
    const hrefs = saved[page.sourceKey];
    if (hrefs && hrefs.length === page.links.length) page.hrefs = hrefs;
    else rest.push(page);
  }
  const problems = resolveLinks(site, base, targets, rest);
  if (rest.length && !problems.length) currentRecord()?.set('links', key, Object.fromEntries(site.pages.map((page) => [page.sourceKey, page.hrefs])));
  return problems;
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const root = resolve(options.root);
  checkSiteFolder(root, options.root);
  checkConfigFile(options.config, root);
  // (Refused here, before the output folder is touched.)
  normaliseBase(options.base);
  // (The record of the last build into the folder: read by a check too, written only by a build that commits.)
  if (options.checkOnly) return new BuildRecord(outputFolder(options)).run(() => buildLocked(options));
  // Before anything is read or written: an output folder whose replacement would lose a writer's files is refused.
  const target = checkOutputFolder(outputFolder(options), { root, config: resolve(root, options.config ?? 'site.config.yaml'), display: options.out ?? 'dist' });
  // One build at a time into a folder; the lock also lets this build remove what interrupted ones left.
  const lock = await lockOutput(target, options.onWait);
  const stop = interruptions(lock);
  try {
    // (An --out that is a symbolic link: the build writes into the folder it leads to.)
    return await new BuildRecord(target).run(() => buildLocked(target === outputFolder(options) ? options : { ...options, out: target }));
  } finally {
    stop();
    lock.release();
    // (Interrupted: its temporary folder is gone, see interruptions.)
    if (interruptedWith !== undefined) process.exit(interruptedWith);
  }
}

/** Temporary folders of the build in progress (see OutputWriter), removed if the process is interrupted. */
const inProgress = new Set<OutputWriter>();
/** The exit code of the signal that interrupted the build (128 + its number), once one did. */
let interruptedWith: number | undefined;
/** How long an interrupted build may take to stop at its next write before its folder is removed at once. */
const STOP_MS = 3000;

/**
 * Ctrl+C or a kill while a build runs: before the build writes, the process ends at once, as the
 * signal would have ended it; once it writes, it stops at its next write, waits for the writes in
 * flight, removes its temporary folder and its lock, and then ends (see build). Returns the function
 * that stops listening.
 */
function interruptions(lock: OutputLock): () => void {
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => {
    const handler = () => {
      interruptedWith = 128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1);
      const end = () => {
        for (const out of inProgress) out.discard();
        lock.release();
        process.exit(interruptedWith);
      };
      if (!inProgress.size) end();
      for (const out of inProgress) out.interrupt();
      setTimeout(end, STOP_MS).unref();
    };
    process.once(signal, handler);
    return [signal, handler] as const;
  });
  return () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
  };
}

async function buildLocked(options: BuildOptions): Promise<BuildResult> {
  const started = performance.now();
  // From the start of the process: loading Node and the tool's code.
  stageTimes.startup = started;
  // Each page goes to the search indexer as soon as its Markdown is rendered or read from the cache.
  // (One index per language and version: see src/build/trees.ts.)
  let indexers: Indexers = [];
  const searchFeed = (config: SiteConfig) => {
    if (options.checkOnly || config.search.provider !== 'local') return undefined;
    // The index starts from the state it had at the last build into the same folder.
    const search = treeSearch(config, normaliseBase(options.base), (prefix) => createSearchIndexer({ state: prefix ? `${outputFolder(options)}\0${prefix}` : outputFolder(options) }));
    indexers = search.indexers;
    return search.hooks;
  };
  // (The site's components are compiled and loaded for check too, in memory, so that it reports their problems.)
  const { site, base, root, warnings, rendering } = await loadSite(options, searchFeed);
  if (options.checkOnly || !rendering) return { site, pages: site.pages.length, ms: performance.now() - started, warnings };
  // (Not a problem, even with --strict: the file is right for a host that serves the sub-path at its root.)
  if (base !== '/') warnings.push({ file: 'robots.txt', line: 0, column: 0, message: robotsUnderBase(site.config.site.url, base) });

  const out = new OutputWriter(outputFolder(options));
  inProgress.add(out);
  try {
    await writeSite(rendering, site.config, options, root, out, indexers);
    await timed('commit', () => out.commit());
    return { site, pages: site.pages.length, outDir: out.target, ms: performance.now() - started, warnings };
  } catch (e) {
    await out.abort();
    throw e;
  } finally {
    inProgress.delete(out);
  }
}

/** Writes the site's files into `out`, keeping those the last output has as they would be made. */
async function writeSite(rendering: Rendering, config: SiteConfig, options: BuildOptions, root: string, out: OutputWriter, indexers: Indexers): Promise<void> {
  const { onProgress, pool = {}, templates = TEMPLATES_DIR } = options;
  // Every page is in the index by now: its files are written while the pages render.
  const searchFiles = indexers.length
    ? Promise.all(indexers.map(({ prefix, indexer }) => indexer.writeTo(out, join(prefix, 'search-index'))))
    : undefined;
  // (Handled here too: it may fail, on a full disk, while the pages are still being written; it is awaited below.)
  searchFiles?.catch(() => undefined);
  try {
    const { contexts, markdownOf } = rendering;
    const assetPaths = new Set<string>();
    for (const [path, contents] of contexts.flatMap((c) => c.files)) if (!assetPaths.has(path) && assetPaths.add(path)) out.write(path, contents);
    // The documents: every page, then every printable section, but those the output keeps.
    const total = contexts.reduce((n, c) => n + c.ctx.site.pages.length, 0);
    let done = 0;
    const documents: Array<{ task: DocumentTask; path: string; key: string }> = [];
    contexts.forEach(({ ctx, keys }, c) => {
      ctx.site.pages.forEach((page, i) => {
        const path = pageFile(page);
        const key = keys.page(page);
        if (!out.keep(path, key)) documents.push({ task: ['page', c, i], path, key });
        else onProgress?.(++done, total);
      });
      for (const [i, path] of printables(ctx.site)) {
        const key = keys.printable(ctx.site.sections[i]!);
        if (!out.keep(path, key)) documents.push({ task: ['printable', c, i], path, key });
      }
    });
    const ctxs = contexts.map((c) => c.ctx);
    const written = new Set<string>();
    /** A document made: its HTML (rendered on this thread), or the file a worker thread wrote. */
    const take = (i: number, made: string | DocumentWritten) => {
      const { task, path, key } = documents[i]!;
      // (Written here, as a worker thread writes its own: the time is the document's.)
      if (typeof made === 'string') timed('documents', () => out.write(path, made, key));
      else out.writtenElsewhere(path, key, made.size, made.failure && Object.assign(new Error(made.failure.message), made.failure));
      written.add(path);
      if (task[0] === 'page') onProgress?.(++done, total);
    };
    // (Waits when the disk falls behind.)
    const renderHere = async (i: number) => (await timed('disk-wait', () => out.ready()), timed('documents', () => renderDocumentTask(ctxs, documents[i]!.task)));
    if (documents.length >= (pool.minDocuments ?? POOL_MIN_DOCUMENTS) && workerCount() >= POOL_MIN_DOCUMENT_WORKERS) {
      const data = documentsData(root, out.temp, config, ctxs);
      const places = ctxs.map(({ site }) => new Map(site.pages.map((page, i) => [page, i])));
      const jobs = documents.map(({ task, path }) => documentJob(ctxs, task, path, (c, page) => places[c]!.get(page)!));
      await renderInWorkers({ kind: 'documents', data }, jobs, renderHere, take, pool);
    } else {
      for (let i = 0; i < documents.length; i++) {
        take(i, await renderHere(i));
        // Lets the writes started so far go on while the next documents render (the documents' own
        // work: a worker thread of the pool writes its documents itself).
        if (i % 4 === 0) await timed('documents', nextTurn);
      }
    }
    // One file at a time: a printable section of a large site is tens of megabytes.
    const made = (path: string, key: string) => written.has(path) || out.keep(path, key);
    const { ctx, keys } = contexts[0]!;
    for (const extras of [siteFiles(ctx, root, templates, undefined, markdownOf, { keys, keep: made }), treeFiles(ctxs, markdownOf, contexts.map((c) => ({ keys: c.keys, keep: made })))]) {
      for (let next = timed('extras', () => extras.next()); !next.done; next = timed('extras', () => extras.next())) {
        out.write(...next.value);
        await out.ready();
      }
    }
    // The index's files are written beside the pages'; the time the build still waits for them.
    await timed('search-wait', () => searchFiles);
  } catch (e) {
    // The indexer writes into the temporary output folder: it must be done before that folder goes.
    await searchFiles?.catch(() => undefined);
    throw e;
  }
}

/** The warning of a build under a base path: robots.txt is written, but crawlers read only the one at the root of the host. */
const robotsUnderBase = (url: string, base: string) =>
  `written at ${base}robots.txt, where crawlers do not look: they read only ${url.replace(/\/$/, '')}/robots.txt, at the root of the host; put its lines (the Sitemap line) into that file`;

const outputFolder = (options: BuildOptions) => resolve(options.root, options.out ?? 'dist');

