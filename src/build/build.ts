import { createHash } from 'node:crypto';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { readdirSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import type { SiteConfig } from '../config/schema.js';
import { loadHighlighter } from '../content/highlight.js';
import { loadPages, type PageHooks } from '../content/load.js';
import type { PoolOptions } from '../content/pool.js';
import { scanContent } from '../io/sources.js';
import { BuildRecord, currentRecord } from '../io/record.js';
import { InputError, type SourceProblem } from '../shared/errors.js';
import { parsersLoadMs, withParsers } from '../config/parsers.js';
import { TOOL_ROOT } from '../shared/paths.js';
import { resolveLinks, type LinkTargets } from '../site/links.js';
import type { Site, SitePage } from '../site/model.js';
import { createSearchIndexer, type SearchIndexer } from './search.js';
import { treeFiles, treeSearch, treeViews } from './trees.js';

type Indexers = Array<{ prefix: string; indexer: SearchIndexer }>;
import { lastUpdated } from './git.js';
import { outputKeys } from './keys.js';
import { OutputWriter, type Contents } from './output.js';
import { lockOutput, type OutputLock } from './output-lock.js';
import { checkConfigFile, checkOutputFolder, checkSiteFolder, UsageError } from './out-guard.js';
import { renderPage } from './render.js';
import { markdownFromDisk } from './llms.js';
import { themeStylesheet, withThemeCss } from '../theme/theme.js';
import { loadComponents } from '../theme/components.js';
import { bundleAssets, renderContext, siteFiles } from './parts.js';
import { checkSite, linksWithoutConfig, siteWarnings } from '../engine/checks.js';
import { pageFile } from '../site/model.js';

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
  files: number;
  outDir?: string;
  ms: number;
  /** What the build let pass but the writer should know (formatted like problems). */
  warnings: SourceProblem[];
}

/** The templates shipped with the tool (top-level templates/ of this package). */
export const TEMPLATES_DIR = join(TOOL_ROOT, 'templates') + sep;


export function normaliseBase(base = '/'): string {
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

/** Time spent per stage (ms), for the benchmark (DOCS_PROFILE=1 prints it). */
export const stageTimes: Record<string, number> = {};
export function timed<T>(stage: string, fn: () => T): T {
  const start = performance.now();
  const result = fn();
  if (result instanceof Promise) {
    return result.finally(() => (stageTimes[stage] = (stageTimes[stage] ?? 0) + performance.now() - start)) as T;
  }
  stageTimes[stage] = (stageTimes[stage] ?? 0) + performance.now() - start;
  return result;
}

/**
 * Loads and checks everything; throws InputError listing every problem found.
 * `onConfig` may return hooks that get each page as soon as its Markdown is
 * rendered (see loadPages).
 */
export async function loadSite(
  options: BuildOptions,
  onConfig?: (config: SiteConfig, base: string) => PageHooks | undefined,
): Promise<{ site: Site; base: string; root: string; markdown: Map<string, string>; warnings: SourceProblem[] }> {
  const root = resolve(options.root);
  const configPath = resolve(root, options.config ?? 'site.config.yaml');
  const base = normaliseBase(options.base);
  const only = options.only === undefined ? undefined : onlyPrefix(root, options.only);
  /** Problems in the files `--only` names (all of them without it). */
  const shownOf = (problems: SourceProblem[]) => (only ? problems.filter((p) => p.file.startsWith(only)) : problems);
  let loaded: LoadedConfig | undefined;
  let configProblems: SourceProblem[] = [];
  try {
    loaded = await withParsers(() => timed('config', () => loadConfig(configPath, relative(root, configPath))));
  } catch (e) {
    // The pages are still read and rendered, so that their own problems come with the config's at once.
    if (!(e instanceof InputError)) throw e;
    configProblems = e.problems;
  }
  const hooks = loaded && onConfig?.(loaded.config, base);
  const contentDir = join(root, 'content');
  // Loaded on first use: when every page comes from the render cache, never.
  const highlighter = () => timed('highlighter', () => loadHighlighter());
  // Page bodies wait in the render cache, not in memory, until their page is written.
  // Only regular files inside the site folder are read (see src/io/sources.ts).
  const scan = scanContent(root, contentDir);
  // Without a content folder every page would be reported missing: the one problem is enough.
  if (!scan.files.length && scan.problems.length) throw new InputError([...configProblems, ...scan.problems]);
  const { pages, problems: pageProblems, failed, unbuilt, markdown } = await timed('markdown', () => loadPages(root, contentDir, highlighter, scan.files, hooks, false, options.pool));
  pageProblems.push(...scan.problems);
  // Without a valid config the pages' links are checked against the pages alone (see linksWithoutConfig).
  if (!loaded) throw new InputError([...configProblems, ...shownOf([...pageProblems, ...(await linksWithoutConfig(root, configPath, pages, failed, unbuilt))])]);
  // (Run again with the parsers loaded if a problem needs a position in YAML: see src/config/parsers.ts.)
  const { site, problems } = await withParsers(() => timed('site', () => checkSite(root, loaded, pages, failed, unbuilt, base, resolveLinksCached)));
  problems.push(...pageProblems);
  const parsersMs = parsersLoadMs();
  if (parsersMs !== undefined) stageTimes.parsers = parsersMs;
  const warnings = siteWarnings(site, root, configPath);
  if (options.strict) problems.push(...warnings.splice(0));
  const shown = shownOf(problems);
  if (shown.length) throw new InputError(shown);
  return { site, base, root, markdown, warnings: only ? warnings.filter((p) => p.file.startsWith(only)) : warnings };
}

/**
 * The path `--only` names, as problems name files (from the site folder, with
 * `/`); refused when nothing in the site starts with it, so that a typing
 * mistake does not pass for a check that found no problem.
 */
function onlyPrefix(root: string, only: string): string {
  const prefix = (isAbsolute(only) ? relative(root, only) + (/[/\\]$/.test(only) ? '/' : '') : only).split(sep).join('/').replace(/^(?:\.\/)+/, '');
  const at = join(root, prefix);
  const folder = prefix === '' || /\/$/.test(prefix) ? at : dirname(at);
  let names: string[] = [];
  try {
    names = readdirSync(folder);
  } catch {
    // No such folder: nothing starts with the prefix.
  }
  const start = prefix === '' || /\/$/.test(prefix) ? '' : basename(at);
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
  }
}

/** Temporary folders of the build in progress (see OutputWriter), removed if the process is interrupted. */
const inProgress = new Set<OutputWriter>();

/**
 * Ctrl+C or a kill while a build runs: its temporary folder and its lock go,
 * then the process ends as the signal would have ended it. Returns the
 * function that stops listening.
 */
function interruptions(lock: OutputLock): () => void {
  const handlers = (['SIGINT', 'SIGTERM', 'SIGHUP'] as const).map((signal) => {
    const handler = () => {
      for (const out of inProgress) out.discard();
      lock.release();
      process.exit(128 + (signal === 'SIGINT' ? 2 : signal === 'SIGTERM' ? 15 : 1));
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
  const searchFeed = (config: SiteConfig, base: string) => {
    if (options.checkOnly || config.search.provider !== 'local') return undefined;
    // The index starts from the state it had at the last build into the same folder.
    const search = treeSearch(config, base, (prefix) => createSearchIndexer({ state: prefix ? `${outputFolder(options)}\0${prefix}` : outputFolder(options) }));
    indexers = search.indexers;
    return search.hooks;
  };
  const { site, base, root, markdown, warnings } = await loadSite(options, searchFeed);
  if (options.checkOnly) {
    // The site's components are compiled and loaded as the build does (in memory: nothing is written), so that check reports their problems too.
    loadComponents(root, site.config);
    return { site, pages: site.pages.length, files: 0, ms: performance.now() - started, warnings };
  }
  // (Not a problem, even with --strict: the file is right for a host that serves the sub-path at its root.)
  if (base !== '/') warnings.push({ file: 'robots.txt', line: 0, column: 0, message: robotsUnderBase(site.config.site.url, base) });

  const templatesDir = options.templates ?? TEMPLATES_DIR;
  const out = new OutputWriter(outputFolder(options));
  inProgress.add(out);
  try {
    const files = await writeSite(site, base, root, templatesDir, out, options.onProgress, indexers, markdown);
    await timed('commit', () => out.commit());
    return { site, pages: site.pages.length, files, outDir: out.target, ms: performance.now() - started, warnings };
  } catch (e) {
    await out.abort();
    throw e;
  } finally {
    inProgress.delete(out);
  }
}

async function writeSite(
  site: Site,
  base: string,
  root: string,
  templatesDir: string,
  out: OutputWriter,
  onProgress?: (done: number, total: number) => void,
  indexers: Indexers = [],
  markdown = new Map<string, string>(),
): Promise<number> {
  let files = 0;
  const write = (path: string, contents: Contents, key?: string) => {
    out.write(path, contents, key);
    files++;
  };
  /** Whether the output holds the file as made from `key` (see OutputWriter.keep): then nothing needs to make it. */
  const counted = (kept: boolean) => {
    if (kept) files++;
    return kept;
  };
  const keep = (path: string, key: string) => counted(out.keep(path, key));
  // Every page is in the index by now: its files are written while the pages render.
  const searchFiles = indexers.length
    ? Promise.all(
        indexers.map(({ prefix, indexer }) =>
          indexer.writeTo(join(out.temp, prefix, 'search-index'), {
            // The index's files live in a folder named by its version: unchanged ones move to the new folder.
            keep: (path, key) => counted(out.keepMoved(join(prefix, 'search-index', path), key)),
            written: (path, key, size) => {
              out.writtenElsewhere(join(prefix, 'search-index', path), key, size);
              files++;
            },
          }),
        ),
      )
    : undefined;
  try {
    const assets = await timed('assets', () => bundleAssets(templatesDir));
    assets.css = await withThemeCss(assets.css, themeStylesheet(root, site.config, base));
    // One render context per language and version (the site's own for a site of one: see src/build/trees.ts).
    const updated = timed('git', () => lastUpdated(root, 'content'));
    const own = loadComponents(root, site.config);
    const contexts = treeViews(site).map((view) => renderContext(view, base, assets, updated, own));
    const assetPaths = new Set<string>();
    for (const [path, contents] of contexts.flatMap((c) => c.files)) if (!assetPaths.has(path) && assetPaths.add(path)) write(path, contents);
    const allKeys = contexts.map((c) => outputKeys(c.ctx));
    const { ctx } = contexts[0]!;
    const keys = allKeys[0]!;

    const total = site.pages.length;
    let i = 0;
    for (const [t, { ctx: treeCtx }] of contexts.entries()) {
      for (const page of treeCtx.site.pages) {
        const path = pageFile(page);
        const key = allKeys[t]!.page(page);
        if (!keep(path, key)) {
          const html = timed('render', () => renderPage(treeCtx, page));
          timed('write', () => write(path, html, key));
        }
        onProgress?.(++i, total);
        // Lets the writes started so far go on while the next pages render, and waits when the disk falls behind.
        if (i % 4 === 0) await nextTurn();
        await out.ready();
      }
    }
    // One file at a time: a printable section of a large site is tens of megabytes.
    // llms-full.txt takes the Markdown read at the start (what the pages were rendered from), or reads it again.
    const fromDisk = markdownFromDisk(root);
    const markdownOf = (page: SitePage) => markdown.get(page.sourcePath) ?? fromDisk(page);
    for (const extras of [siteFiles(ctx, root, templatesDir, undefined, markdownOf, { keys, keep }), treeFiles(contexts.map((c) => c.ctx), markdownOf, allKeys.map((k) => ({ keys: k, keep })))]) {
      for (let next = timed('extras', () => extras.next()); !next.done; next = timed('extras', () => extras.next())) {
        write(...next.value);
        await out.ready();
      }
    }
    // The index's files are written beside the pages'; the time the build still waits for them.
    await timed('search-wait', () => searchFiles);
    return files;
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

export { searchInputs, searchOrder, bundleAssets, renderContext, siteFiles, contentSecurityPolicy, SECURITY_HEADERS } from './parts.js';
