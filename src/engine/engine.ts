import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { bundleClient, bundleCss, withThemeCss, type Asset, type ClientAsset } from '../build/assets.js';
import { lastUpdated } from '../build/git.js';
import { outputKeys, type OutputKeys } from '../build/keys.js';
import { markdownFromDisk } from '../build/llms.js';
import { renderContext } from '../build/parts.js';
import { treeViews } from '../build/trees.js';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import type { SiteConfig } from '../config/schema.js';
import { loadHighlighter, tokenStylesheet } from '../content/highlight.js';
import { duplicatePage, loadPage, loadPages, pageIdOf, PageProblems, type PageHooks, type SourcePage, type UnbuiltPage } from '../content/load.js';
import type { PoolOptions } from '../content/pool.js';
import { scanContent } from '../io/sources.js';
import { esbuildProblems, InputError, type SourceProblem } from '../shared/errors.js';
import { timed } from '../shared/stages.js';
import type { Site, SitePage } from '../site/model.js';
import { loadComponents } from '../theme/components.js';
import { themeStylesheet } from '../theme/theme.js';
import { checkSite, linksWithoutConfig, siteWarnings, type LinkResolver } from './checks.js';

/*
 * The engine: the config, the sources and a change in; the checked site out, with what renders it.
 * `docs build` and `docs check` run it once with everything changed; `docs serve` keeps one and runs
 * it at each save. It keeps each Markdown file's page (or problems) with a hash of its text, so that a
 * change parses only the files whose text changed; the site model and its checks are made again
 * every time (milliseconds). The first update loads every page at once (loadPages: the render cache,
 * the worker pool, the highlight thread); later ones parse the changed files one by one.
 */

export interface EngineOptions {
  /** The site folder and its config file (absolute). */
  root: string;
  configPath: string;
  templatesDir: string;
  /** The base path the site is served under ("/" or "/docs/"). */
  base: string;
  /** Whether the update prepares rendering (the script, stylesheet, components, render contexts): not for `docs check`. */
  render?: boolean;
  /** Warnings (a page in no section) are problems: `docs check --strict`. */
  strict?: boolean;
  /** How the pages of the first update are rendered across threads. */
  pool?: PoolOptions;
  /** Whether the first update reads the bodies of cached pages at once; without, they stay in the render cache until written. */
  keepHtml?: boolean;
  /** Called with a valid config before the first update loads the pages: hooks that get each page as it loads (the search index). */
  onConfig?: (config: SiteConfig) => PageHooks | undefined;
  /** How the pages' links are resolved (a build's cached version of resolveLinks). */
  resolveLinks?: LinkResolver;
  /** During the first update, between two pages: lets other work (a page asked for in the preview) go first. */
  pause?: () => Promise<void>;
  /** Updates follow the first one (the preview): it notes the hash of each file's text, so that a later one parses only the files whose text changed. */
  incremental?: boolean;
}

/** What changed since the last update (nothing was before the first). */
export interface EngineChange {
  /** Everything: the config is read again and every file's text compared. */
  full?: boolean;
  /** Markdown files (relative to content/, with "/") whose text may have changed. */
  content?: string[];
  /** Files were added or removed under content/. */
  contentTree?: boolean;
  /** The client script or the stylesheet of the templates changed. */
  client?: boolean;
  css?: boolean;
}

/** A Markdown file as the engine last read it: its text's hash ('' when not known: it is parsed again at the next change), and its page or its problems. */
export interface Source {
  hash: string;
  /** The Markdown body as written (for llms-full.txt). */
  markdown?: string;
  page?: SourcePage;
  problems: SourceProblem[];
  /** A page rendered with problems: its links are checked all the same. */
  unbuilt?: UnbuiltPage;
}

/** What renders the site: a context per language and version (the site's own for a site of one), with the asset files it points to and its output keys. */
export interface Rendering {
  contexts: Array<ReturnType<typeof renderContext> & { keys: OutputKeys }>;
  /** A page's Markdown as the build read it (for llms-full.txt). */
  markdownOf(page: SitePage): string;
}

export type Update =
  | {
      ok: false;
      problems: SourceProblem[];
      /** The config's own problems, when it failed (shown whatever `--only` says). */
      configProblems: SourceProblem[];
      /** The site, when the config was valid (`docs check --only` passes when no problem is in its files). */
      site?: Site;
      warnings?: SourceProblem[];
    }
  | { ok: true; site: Site; warnings: SourceProblem[]; rendering?: Rendering; /** Files parsed by this update. */ parsed: number };

export class Engine {
  readonly contentDir: string;
  private config?: LoadedConfig;
  private configProblems: SourceProblem[] = [];
  /** Problems of the content folder's shape (links outside the site, pipes, bad names): see scanContent. */
  private scanProblems: SourceProblem[] = [];
  readonly sources = new Map<string, Source>();
  /** The Markdown files of the last listing. */
  listing: string[] = [];
  private js?: Promise<ClientAsset | SourceProblem[]>;
  private css?: Promise<Asset | SourceProblem[]>;
  private tokenCss = '';
  /** Last-update dates from git history, which saving files does not change: read once. */
  private updated?: Map<string, string>;
  private updates = 0;
  private parsed = 0;
  /** Parses under way, by file (a page asked for during the first update may be the one being parsed). */
  private readonly parsing = new Map<string, Promise<void>>();

  constructor(readonly options: EngineOptions) {
    this.contentDir = join(options.root, 'content');
  }

  /** The config of the last update, when it was valid. */
  get validConfig(): LoadedConfig | undefined {
    return this.configProblems.length ? undefined : this.config;
  }

  /** The client script, bundled once and again when it changes (a page asked for during the first update needs it). */
  private script(): Promise<ClientAsset | SourceProblem[]> {
    return (this.js ??= this.bundle(bundleClient));
  }

  async update(change: EngineChange): Promise<Update> {
    const { root, configPath, base } = this.options;
    const first = this.updates++ === 0;
    const full = first || !!change.full;
    if (change.client) this.js = undefined;
    if (change.css) this.css = undefined;
    // (Started now, so that a page asked for during the first update finds the script, and esbuild, ready.)
    if (first && this.options.render) void this.script();
    if (full) await this.readConfig();
    if (first) await this.loadAll();
    else if (full || change.content?.length || change.contentTree) await this.sync(full || change.contentTree ? null : new Set(change.content));
    const parsed = this.parsed;
    this.parsed = 0;

    const { pages, problems, failed, unbuilt } = this.collect();
    problems.push(...this.scanProblems);
    if (this.configProblems.length) {
      const links = await linksWithoutConfig(root, configPath, pages, failed, unbuilt);
      return { ok: false, problems: [...this.configProblems, ...problems, ...links], configProblems: this.configProblems };
    }
    const { site, problems: siteProblems } = timed('site', () => checkSite(root, this.config!, pages, failed, unbuilt, base, this.options.resolveLinks));
    problems.unshift(...siteProblems);
    const warnings = siteWarnings(site, root, configPath);
    if (this.options.strict) problems.push(...warnings.splice(0));
    if (!this.options.render) {
      if (!problems.length) this.components(site, problems);
      return problems.length ? { ok: false, problems, configProblems: [], site, warnings } : { ok: true, site, warnings, parsed };
    }
    const parts = await this.renderParts(site, problems);
    if (!parts) return { ok: false, problems, configProblems: [], site, warnings };
    const updated = this.dates();
    const contexts = timed('contexts', () =>
      treeViews(site).map((view) => {
        const made = renderContext(view, base, parts.assets, updated, parts.own);
        return { ...made, keys: outputKeys(made.ctx) };
      }),
    );
    const fromDisk = markdownFromDisk(root);
    const markdownOf = (page: SitePage) => this.sources.get(this.fileOf(page.sourcePath))?.markdown ?? fromDisk(page);
    return { ok: true, site, warnings, parsed, rendering: { contexts, markdownOf } };
  }

  /** The script, stylesheet and site's components a render context of `site` takes, or undefined with their problems added. */
  async renderParts(site: Site, problems: SourceProblem[]) {
    const [js, plainCss] = await timed('assets', () => Promise.all([this.script(), this.stylesheet()]));
    for (const asset of [js, plainCss]) if (Array.isArray(asset)) problems.push(...asset);
    const own = problems.length ? undefined : timed('components', () => this.components(site, problems));
    if (!own || problems.length) return undefined;
    const css = await withThemeCss(plainCss as Asset, themeStylesheet(this.options.root, site.config, this.options.base));
    return { assets: { js: js as ClientAsset, css }, own };
  }

  /** The pages' last-update dates from git history (read once). */
  dates(): Map<string, string> {
    return (this.updated ??= timed('git', () => lastUpdated(this.options.root, 'content')));
  }

  /** The content file (relative to content/) of a page's source path (relative to the site). */
  fileOf(sourcePath: string): string {
    return relative(this.contentDir, join(this.options.root, sourcePath)).split(sep).join('/');
  }

  /** Reads one file and parses it when its text changed since the last parse (once at a time per file). */
  parseFile(file: string): Promise<void> {
    let parse = this.parsing.get(file);
    if (!parse) {
      parse = this.parseNow(file).finally(() => this.parsing.delete(file));
      this.parsing.set(file, parse);
    }
    return parse;
  }

  private async readConfig(): Promise<void> {
    const { root, configPath } = this.options;
    try {
      this.config = timed('config', () => loadConfig(configPath, relative(root, configPath)));
      this.configProblems = [];
    } catch (e) {
      // The pages are still read, so that their own problems come with the config's at once.
      if (!(e instanceof InputError)) throw e;
      this.configProblems = e.problems;
    }
  }

  private listContent(): string[] {
    const { files, problems } = scanContent(this.options.root, this.contentDir);
    this.scanProblems = problems;
    this.listing = files;
    // Without a content folder every page would be reported missing: the one problem is enough.
    if (!files.length && problems.length) throw new InputError([...this.configProblems, ...problems]);
    return files;
  }

  /** The first update: every page at once, from the render cache or rendered across threads. */
  private async loadAll(): Promise<void> {
    const files = this.listContent();
    const { root, pool, keepHtml, pause } = this.options;
    // (Taken before the pages are read: a file saved meanwhile then has another hash, and is parsed again.)
    const hashes = new Map(this.options.incremental ? files.map((file) => [file, this.hashOf(file) ?? '']) : []);
    const config = this.validConfig?.config;
    const feed = config && this.options.onConfig?.(config);
    const hooks: PageHooks = {
      page: (page, fromCache, search) => {
        // Known at once: a page asked for during the first update may be rendered from it.
        const file = this.fileOf(page.sourcePath);
        this.sources.set(file, { hash: hashes.get(file) ?? '', page, problems: [] });
        feed?.page(page, fromCache, search);
      },
      searchPlace: feed?.searchPlace,
      pause,
    };
    // Loaded on first use: when every page comes from the render cache, never.
    const highlighter = () => timed('highlighter', () => loadHighlighter());
    const loaded = await timed('markdown', () => loadPages(root, this.contentDir, highlighter, files, hooks, keepHtml ?? true, pool));
    this.parsed += files.length;
    const bySource = new Map<string, SourceProblem[]>();
    for (const problem of loaded.problems) bySource.set(problem.file, [...(bySource.get(problem.file) ?? []), problem]);
    const unbuilt = new Map(loaded.unbuilt.map((u) => [u.sourcePath, u]));
    for (const file of files) {
      const sourcePath = relative(root, join(this.contentDir, file)).split(sep).join('/');
      const known = this.sources.get(file);
      if (known?.page?.sourcePath === sourcePath) known.markdown = loaded.markdown.get(sourcePath);
      else this.sources.set(file, { hash: hashes.get(file) ?? '', problems: bySource.get(sourcePath) ?? [], unbuilt: unbuilt.get(sourcePath) });
    }
  }

  /** Parses the Markdown files that changed (all of them when `changed` is null); forgets deleted ones. */
  private async sync(changed: Set<string> | null): Promise<void> {
    const files = this.listContent();
    const present = new Set(files);
    for (const file of [...this.sources.keys()]) if (!present.has(file)) this.sources.delete(file);
    for (const file of files) {
      if (this.sources.has(file) && changed && !changed.has(file)) continue;
      await this.parseFile(file);
    }
  }

  /** A hash of a file's text; undefined when it is not a regular file (reading a pipe would wait forever) or is gone. */
  private hashOf(file: string): string | undefined {
    try {
      if (!statSync(join(this.contentDir, file)).isFile()) return undefined;
      return createHash('sha1').update(readFileSync(join(this.contentDir, file))).digest('base64url');
    } catch {
      return undefined;
    }
  }

  private async parseNow(file: string): Promise<void> {
    const hash = this.hashOf(file);
    // Deleted since the listing, or not a file: the watcher reports it next (the listing says what else is there).
    if (hash === undefined) return void this.sources.delete(file);
    const last = this.sources.get(file);
    if (last?.hash === hash) return;
    this.parsed++;
    try {
      // The highlighter is loaded when a page first needs one (pages from the render cache do not, nor
      // code blocks the page had at its last render: their tokens are read back from its markup).
      const { page, markdown } = await loadPage(this.options.root, this.contentDir, file, loadHighlighter, last?.page?.sourceKey);
      this.sources.set(file, { hash, page, markdown, problems: [] });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      this.sources.set(file, { hash, problems: e.problems, unbuilt: e instanceof PageProblems ? e.unbuilt : undefined });
    }
  }

  /** The pages of the sources in file order, with the problems of duplicates and of files that failed. */
  private collect() {
    const pages: SourcePage[] = [];
    const problems: SourceProblem[] = [];
    const failed = new Set<string>();
    const unbuilt: UnbuiltPage[] = [];
    const seen = new Map<string, string>();
    for (const file of [...this.sources.keys()].sort()) {
      const id = pageIdOf(file)!;
      const duplicate = duplicatePage(seen, id, relative(this.options.root, join(this.contentDir, file)).split(sep).join('/'));
      if (duplicate) {
        problems.push(duplicate);
        continue;
      }
      const source = this.sources.get(file)!;
      if (source.page) pages.push(source.page);
      else {
        problems.push(...source.problems);
        failed.add(id);
        if (source.unbuilt) unbuilt.push(source.unbuilt);
      }
    }
    return { pages, problems, failed, unbuilt };
  }

  /**
   * The stylesheet, bundled again when it changed or the pages use other code token colours: those of
   * the pages now, not of every render this process made (a block's last render, a page since removed).
   */
  private stylesheet(): Promise<Asset | SourceProblem[]> {
    const names = [...this.sources.values()].flatMap((source) => source.page?.tokenClasses ?? []);
    const tokens = tokenStylesheet(names);
    if (tokens !== this.tokenCss) this.css = undefined;
    this.tokenCss = tokens;
    return (this.css ??= this.bundle((dir) => bundleCss(dir, tokens)));
  }

  /** A bundle of the templates' script or stylesheet, or esbuild's problems with it. */
  private bundle<T>(make: (templatesDir: string) => Promise<T>): Promise<T | SourceProblem[]> {
    const { root, templatesDir } = this.options;
    return make(templatesDir).catch((e: unknown) => esbuildProblems(e, root, process.cwd(), templatesDir));
  }

  /** The site's own components, or undefined with their problems added. */
  private components(site: Site, problems: SourceProblem[]): ReturnType<typeof loadComponents> | undefined {
    try {
      return loadComponents(this.options.root, site.config);
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      problems.push(...e.problems);
      return undefined;
    }
  }
}
