import { createHash } from 'node:crypto';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { readdirSync, readFileSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import type { SiteConfig } from '../config/schema.js';
import { loadHighlighter } from '../content/highlight.js';
import { loadPages, type PageHooks, type SourcePage, type UnbuiltPage } from '../content/load.js';
import { scanContent, staticWarnings } from '../content/sources.js';
import { readCached, writeCached } from '../content/cache.js';
import { InputError, type SourceProblem } from '../errors.js';
import { loadParsers, parsersLoadMs, withParsers } from '../parsers.js';
import { TOOL_ROOT } from '../paths.js';
import { checkRelated, checkUnbuiltLinks, resolveLinks, type LinkTargets } from '../site/links.js';
import { buildSite, GENERATED, routeOf, type Site, type SitePage } from '../site/model.js';
import { createSearchWorker, type SearchWorker } from './search.js';
import { lastUpdated } from './git.js';
import { outputKeys } from './keys.js';
import { OutputWriter, type Contents } from './output.js';
import { lockOutput, type OutputLock } from './output-lock.js';
import { checkConfigFile, checkOutputFolder, checkSiteFolder, OUTPUT_MARKER, UsageError } from './out-guard.js';
import { renderPagePieces } from './render.js';
import { markdownFromDisk } from './llms.js';
import { loadComponents, themeProblems, themeStylesheet, withThemeCss } from '../theme/theme.js';
import { bundleAssets, listStatic, pageFile, renderContext, searchInputs, siteFiles } from './parts.js';

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

/**
 * What a link may name besides the pages: the generated files, each section's
 * printable document, the files of static/; and the pages that failed to
 * load (accepted unchecked).
 */
/**
 * The link problems of the pages when the config is not valid, so that they come with the config's
 * at once: each link is checked against the pages, the files of static/ and the generated files. What
 * only the config can say is taken as it is written (redirect sources, read from the file whatever
 * else is wrong in it) or given the benefit of the doubt (any folder's printable document, images
 * of other hosts).
 */
export async function linksWithoutConfig(root: string, configPath: string, sourcePages: SourcePage[], failed: ReadonlySet<string>, unbuilt: UnbuiltPage[]): Promise<SourceProblem[]> {
  const pages: SitePage[] = sourcePages.map((p) => ({ ...p, url: routeOf(p.id), title: p.frontmatter.title, group: p.frontmatter.group, section: -1, hrefs: p.links.map((l) => l.href) }) as SitePage);
  const files = new Set<string>([...GENERATED, ...listStatic(join(root, 'static'))]);
  for (const page of pages) files.add(`${page.url.replace(/[^/]*\/$/, '')}printable/`).add(`${page.url}printable/`);
  try {
    const { parseLocatedYaml, yamlValue } = await loadParsers();
    const written = yamlValue(parseLocatedYaml(readFileSync(configPath, 'utf8'), configPath).located) as { redirects?: unknown } | null;
    if (written?.redirects && typeof written.redirects === 'object') for (const from of Object.keys(written.redirects)) files.add(from).add(from.endsWith('/') ? from : `${from}/`);
  } catch {
    // A config that is not YAML at all: no redirects to know of.
  }
  const site = { pages, byUrl: new Map(pages.map((p) => [p.url, p])) } as unknown as Site;
  const targets = { files, unchecked: new Set([...failed].map(routeOf)) };
  return [...resolveLinks(site, '/', targets), ...checkUnbuiltLinks(site, targets, unbuilt)];
}

export function linkTargets(root: string, site: Site, failed: Iterable<string>, statics = listStatic(join(root, 'static'))): LinkTargets {
  const files = new Set([...GENERATED, ...statics]);
  for (const section of site.sections) if (section.pages.length && site.config.site.printable !== false) files.add(`${section.url}printable/`);
  return { files, unchecked: new Set([...failed].map(routeOf)) };
}

/**
 * Files of static/ whose path the build writes itself: a page, a printable
 * document, a redirect page, 404.html, the search index or one of the
 * generated files. Static files are copied last, so such a file would
 * silently replace the build's (a page, or the security headers of
 * _headers): each is a problem. (static/favicon.svg is the site's favicon,
 * written instead of the built-in one.)
 */
/** The names of the hashed files the build writes into assets/ (see assets.ts): a file of static/ by such a name could replace one. */
const BUILT_ASSET = /^\/assets\/(?:main|search|style|terms)\.[0-9a-f]{10}\.(?:js|css|json)$/;

export function staticCollisions(root: string, site: Site, statics = listStatic(join(root, 'static'))): SourceProblem[] {
  const written = new Map<string, string>();
  for (const page of site.pages) written.set('/' + pageFile(page).split(sep).join('/'), `the page built from ${page.sourcePath}`);
  for (const section of site.sections) if (section.pages.length && site.config.site.printable !== false) written.set(`${section.url}printable/index.html`, `the printable document of ${section.url}`);
  for (const from of Object.keys(site.config.redirects)) written.set(`${from.replace(/\/$/, '')}/index.html`, `the redirect page of ${from}`);
  if (!written.has('/404.html')) written.set('/404.html', 'the page for addresses that lead nowhere');
  for (const file of GENERATED) if (file !== '/favicon.svg' && !written.has(file)) written.set(file, 'a file it generates');
  written.set(`/${OUTPUT_MARKER}`, 'the mark of its output folder');
  const problems: SourceProblem[] = [];
  for (const file of statics) {
    const what =
      written.get(file) ??
      (file.startsWith('/search-index/') ? 'the search index' : BUILT_ASSET.test(file) ? 'the name of its script, stylesheet or search files' : undefined);
    if (what) problems.push({ file: `static${file}`, line: 0, column: 0, message: `the build writes ${file.slice(1)} itself (${what}), and this file would replace it; remove or rename it` });
    // A redirect from the file's own address makes it a folder (of the redirect page).
    else if (written.get(`${file}/index.html`)?.startsWith('the redirect page')) {
      problems.push({ file: `static${file}`, line: 0, column: 0, message: `the redirect of ${file} would make this file's address a folder (for its redirect page); remove the file or the redirect` });
    }
  }
  return problems;
}

export { GENERATED };

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
  // Only regular files inside the site folder are read (see src/content/sources.ts).
  const scan = scanContent(root, contentDir);
  // Without a content folder every page would be reported missing: the one problem is enough.
  if (!scan.files.length && scan.problems.length) throw new InputError([...configProblems, ...scan.problems]);
  const { pages, problems: pageProblems, failed, unbuilt, markdown } = await timed('markdown', () => loadPages(root, contentDir, highlighter, scan.files, hooks, false));
  pageProblems.push(...scan.problems);
  // Without a valid config the pages' links are checked against the pages alone (see linksWithoutConfig).
  if (!loaded) throw new InputError([...configProblems, ...shownOf([...pageProblems, ...(await linksWithoutConfig(root, configPath, pages, failed, unbuilt))])]);
  // (Run again with the parsers loaded if a problem needs a position in YAML: see src/parsers.ts.)
  const { site, problems } = await withParsers(() => {
    const { site, problems } = timed('model', () => buildSite(loaded, pages, failed));
    // (static/ listed once, for both.)
    const statics = listStatic(join(root, 'static'));
    const targets = linkTargets(root, site, failed, statics);
    problems.push(...themeProblems(root, loaded), ...staticCollisions(root, site, statics), ...pageProblems, ...timed('links', () => [...resolveLinksCached(site, base, targets), ...checkRelated(site, targets), ...checkUnbuiltLinks(site, targets, unbuilt)]));
    return { site, problems };
  });
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

/**
 * What a build lets pass but the writer should know: a page in content/ that
 * no section lists and no navigation or footer entry links to (it is built,
 * but no menu leads to it), and what static/ holds that is not copied.
 */
export function siteWarnings(site: Site, root: string, configPath: string): SourceProblem[] {
  const menus = new Set<string>();
  const addMenu = (entries: ReadonlyArray<{ url: string; children?: ReadonlyArray<{ url: string }> }>) => {
    for (const entry of entries) {
      menus.add(entry.url);
      if (entry.children) addMenu(entry.children);
    }
  };
  addMenu(site.config.navigation);
  addMenu([...site.config.footer.links, ...site.config.footer.secondary]);
  const config = relative(root, configPath);
  return [
    ...site.pages
      .filter((page) => page.section === -1 && page.id !== '404' && !menus.has(page.url))
      .map((page) => ({
        file: page.sourcePath,
        line: 0,
        column: 0,
        message: `this page is in no section of ${config}, nor in the navigation or the footer, so no menu leads to it; list "${page.id}" in a section's pages`,
      })),
    ...staticWarnings(root, join(root, 'static')),
  ];
}

/*
 * Where a page's links lead depends on its Markdown (its render cache key
 * stands for it) and on the site as links see it: the base, the files that
 * are not pages, and every page's URL and ids. The hrefs of the last build
 * with the same site are kept in the cache by page, so that an edit resolves
 * only the edited page's links. Only results without problems are kept.
 */
const LINKS_KIND = 'links';

function resolveLinksCached(site: Site, base: string, targets: LinkTargets): SourceProblem[] {
  const hash = createHash('sha256').update(base).update('\0');
  for (const file of [...targets.files].sort()) hash.update(file).update('\0');
  for (const url of [...(targets.unchecked ?? [])].sort()) hash.update(url).update('\0');
  for (const page of site.pages) {
    hash.update('\n').update(page.url);
    for (const id of page.ids) hash.update('\0').update(id);
  }
  const key = hash.digest('hex');
  const saved = readCached<Record<string, string[]>>(LINKS_KIND, key) ?? {};
  const rest: SitePage[] = [];
  for (const page of site.pages) {
    const hrefs = saved[page.sourceKey];
    if (hrefs && hrefs.length === page.links.length) page.hrefs = hrefs;
    else rest.push(page);
  }
  const problems = resolveLinks(site, base, targets, rest);
  if (rest.length && !problems.length) writeCached(LINKS_KIND, key, Object.fromEntries(site.pages.map((page) => [page.sourceKey, page.hrefs])));
  return problems;
}

export async function build(options: BuildOptions): Promise<BuildResult> {
  const root = resolve(options.root);
  checkSiteFolder(root, options.root);
  checkConfigFile(options.config, root);
  // (Refused here, before the output folder is touched.)
  normaliseBase(options.base);
  if (options.checkOnly) return buildLocked(options);
  // Before anything is read or written: an output folder whose replacement would lose a writer's files is refused.
  const target = checkOutputFolder(outputFolder(options), { root, config: resolve(root, options.config ?? 'site.config.yaml'), display: options.out ?? 'dist' });
  // One build at a time into a folder; the lock also lets this build remove what interrupted ones left.
  const lock = await lockOutput(target, options.onWait);
  const stop = interruptions(lock);
  try {
    // (An --out that is a symbolic link: the build writes into the folder it leads to.)
    return await buildLocked(target === outputFolder(options) ? options : { ...options, out: target });
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
  // Each page goes to the search indexer (a thread of its own) as soon as its Markdown is rendered or read from the cache.
  let indexer: SearchWorker | undefined;
  const searchFeed = (config: SiteConfig, base: string) => {
    if (options.checkOnly || config.search.provider !== 'local') return undefined;
    // The index starts from the state it had at the last build into the same folder.
    const index = (indexer = createSearchWorker({ state: outputFolder(options) }));
    const inputOf = searchInputs(config, base);
    return {
      page(page: SourcePage, fromCache: boolean) {
        const input = inputOf(page);
        // A page from the render cache goes without its body: the thread reads it from there if it needs it.
        if (input && fromCache) delete input.html;
        if (input) index.add(input);
      },
    };
  };
  let loaded: Awaited<ReturnType<typeof loadSite>>;
  try {
    loaded = await loadSite(options, searchFeed);
  } catch (e) {
    await indexer?.close();
    throw e;
  }
  const { site, base, root, markdown, warnings } = loaded;
  if (options.checkOnly) return { site, pages: site.pages.length, files: 0, ms: performance.now() - started, warnings };

  const templatesDir = options.templates ?? TEMPLATES_DIR;
  const out = new OutputWriter(outputFolder(options));
  inProgress.add(out);
  try {
    const files = await writeSite(site, base, root, templatesDir, out, options.onProgress, indexer, markdown);
    await timed('commit', () => out.commit());
    return { site, pages: site.pages.length, files, outDir: out.target, ms: performance.now() - started, warnings };
  } catch (e) {
    await indexer?.close();
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
  indexer?: SearchWorker,
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
  const searchFiles =
    indexer &&
    indexer.writeTo(join(out.temp, 'search-index'), {
      // The index's files live in a folder named by its version: unchanged ones move to the new folder.
      keep: (path, key) => counted(out.keepMoved(join('search-index', path), key)),
      written: (path, key, size) => {
        out.writtenElsewhere(join('search-index', path), key, size);
        files++;
      },
    });
  try {
    const assets = await timed('assets', () => bundleAssets(templatesDir));
    assets.css = await withThemeCss(assets.css, themeStylesheet(root, site.config, base));
    const { ctx, files: assetFiles } = renderContext(site, base, assets, timed('git', () => lastUpdated(root, 'content')), loadComponents(root, site.config));
    for (const [path, contents] of assetFiles) write(path, contents);
    const keys = outputKeys(ctx);

    const total = site.pages.length;
    for (const [i, page] of site.pages.entries()) {
      const path = pageFile(page);
      const key = keys.page(page);
      if (!keep(path, key)) {
        const html = timed('render', () => renderPagePieces(ctx, page));
        timed('write', () => write(path, html, key));
      }
      onProgress?.(i + 1, total);
      // Lets the writes started so far go on while the next pages render, and waits when the disk falls behind.
      if (i % 4 === 3) await nextTurn();
      await out.ready();
    }
    // One file at a time: a printable section of a large site is tens of megabytes. Made while the
    // search thread finishes the index.
    // llms-full.txt takes the Markdown read at the start (what the pages were rendered from), or reads it again.
    const fromDisk = markdownFromDisk(root);
    const markdownOf = (page: SitePage) => markdown.get(page.sourcePath) ?? fromDisk(page);
    const extras = siteFiles(ctx, root, templatesDir, undefined, markdownOf, { keys, keep });
    for (let next = timed('extras', () => extras.next()); !next.done; next = timed('extras', () => extras.next())) {
      write(...next.value);
      await out.ready();
    }
    // The index is made beside the pages; the time the build still waits for it after its own work.
    await timed('search-wait', () => searchFiles);
    return files;
  } catch (e) {
    // The indexer writes into the temporary output folder: it must be done before that folder goes.
    await searchFiles?.catch(() => undefined);
    throw e;
  }
}

const outputFolder = (options: BuildOptions) => resolve(options.root, options.out ?? 'dist');

export { searchInputs, searchOrder, pageFile, bundleAssets, renderContext, siteFiles, listStatic, contentSecurityPolicy, SECURITY_HEADERS } from './parts.js';
