import { themeStylesheet, withThemeCss } from '../theme/theme.js';
import { loadComponents } from '../theme/components.js';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { join, relative, resolve } from 'node:path';
import type { RenderContext } from '../../templates/types.js';
import { bundleClient, bundleCss, type Asset, type ClientAsset } from '../build/assets.js';
import { checkSite, linksWithoutConfig, siteWarnings } from '../engine/checks.js';
import { lastUpdated } from '../build/git.js';
import { loadConfig, type LoadedConfig } from '../config/load.js';
import { loadParsers } from '../config/parsers.js';
import { loadHighlighter, tokenStylesheet } from '../content/highlight.js';
import { loadPage, PageProblems } from '../content/load.js';
import { scanContent } from '../io/sources.js';
import { cachePath } from '../io/cache.js';
import { formatProblem, InputError, type SourceProblem } from '../shared/errors.js';
import type { Site } from '../site/model.js';
import type { BuildResult, Change, FileList } from './protocol.js';
import { BASE, collectPages, esbuildProblems, failed, sameContents, searchIndexFiles, UNKNOWN, urlPath, type Source } from './builder-parts.js';
import { FirstPass } from './first-pass.js';
import { renderOutput, type Rendered, type Renderer, type StalePrintable } from './builder-render.js';

export type { Renderer } from './builder-render.js';

/*
 * The incremental build behind `docs serve`. It keeps what `docs build`
 * computes from scratch: the parsed pages (by file, with a hash of their
 * text), the rendered pages (with the key they were rendered for) and the
 * output files. A change parses only the files whose text changed; the site
 * model, link checks and cheap files are rebuilt every time (milliseconds);
 * a page is rendered again only when its key changes:
 *
 *   - the site key: config, assets (their hashed URLs), and every section's
 *     title and page titles (the mobile menu of every page lists them);
 *   - its section's key: titles, groups and h2 anchors of the section's
 *     pages (the sidebar, previous and next links);
 *   - its own key: its source text, its resolved link targets, its last
 *     update date.
 *
 * So a body edit that keeps the title and h2 anchors renders one page, a new
 * h2 renders its section, a new title renders every page. Links are checked
 * on every build, so renaming an anchor reports the pages linking to it.
 *
 * Printable sections and the search index cover many pages; they are brought
 * up to date right after the build, in the background, so that a save shows
 * in the browser first.
 */

export interface BuilderOptions {
  root: string;
  configPath: string;
  templatesDir: string;
  renderer: Renderer;
}


interface Current {
  site: Site;
  ctx: RenderContext;
  /** Printable sections whose cached HTML is out of date, with the key to render them for. */
  stalePrintables: StalePrintable[];
  searchDirty: boolean;
}

export class SiteBuilder {
  private readonly root: string;
  private readonly contentDir: string;
  private config?: LoadedConfig;
  private configProblems: SourceProblem[] = [];
  /** Problems of the content folder's shape (links outside the site, pipes, bad names): see scanContent. */
  private scanProblems: SourceProblem[] = [];
  private readonly sources = new Map<string, Source>();
  private js?: ClientAsset;
  private css?: Asset;
  private tokenCss = '';
  private readonly assetProblems: { js: SourceProblem[]; css: SourceProblem[] } = { js: [], css: [] };
  private updated = new Map<string, string>();
  private pages = new Map<string, Rendered>();
  private readonly printables = new Map<string, Rendered>();
  private search: FileList = [];
  private output = new Map<string, string | Uint8Array>();
  private current?: Current;
  /** Counts builds; background work started for an older build is dropped. */
  private generation = 0;
  /** Files parsed since the last build (some ahead of it, see prefetch). */
  private parsed = 0;
  private started = false;
  /** Parses under way, by file (a page asked for during the first build may be the one being parsed). */
  private readonly parsing = new Map<string, Promise<void>>();
  /** The Markdown files of the last listing. */
  private listing: string[] = [];
  /** Resolves once the first build has read the config and listed the content folder. */
  private readonly listed: Promise<void>;
  private onListed!: () => void;
  private firstPass?: FirstPass;
  /** Pages asked for during the first build and not answered yet; the build waits for `earlyDone` meanwhile. */
  private earlyActive = 0;
  private earlyDone?: Promise<void>;
  private resumeBuild?: () => void;

  constructor(private readonly options: BuilderOptions) {
    this.root = resolve(options.root);
    this.contentDir = join(this.root, 'content');
    this.listed = new Promise((r) => (this.onListed = r));
  }

  /**
   * During the first build, the files that show the page at `path` at once
   * (see first-pass.ts); undefined once the first build is done (the server
   * has the files then), when `path` is no page, or when it cannot be rendered yet.
   */
  async early(path: string): Promise<FileList | undefined> {
    // With nothing rendered before (no render cache), the page will need the highlighter:
    // it loads (its WebAssembly compiles on other threads) while the content folder is read.
    if (!existsSync(cachePath('pages'))) void loadHighlighter().catch(() => undefined);
    // The first build pauses between two files or pages until this page is out (see pause).
    if (this.earlyActive++ === 0) this.earlyDone = new Promise((r) => (this.resumeBuild = r));
    try {
      await this.listed;
      return await this.renderEarly(path);
    } finally {
      if (--this.earlyActive === 0) this.resumeBuild?.();
    }
  }

  private renderEarly(path: string): Promise<FileList | undefined> {
    if (this.current || !this.config || this.configProblems.length) return Promise.resolve(undefined);
    this.firstPass ??= new FirstPass({
      root: this.root,
      contentDir: this.contentDir,
      templatesDir: this.options.templatesDir,
      config: this.config,
      files: this.listing,
      parse: async (file) => {
        await this.parseFile(file);
        return this.sources.get(file)?.page;
      },
      parsed: (file) => (this.sources.has(file) ? (this.sources.get(file)!.page ?? null) : undefined),
      script: async () => (this.js ??= await bundleClient(this.options.templatesDir)),
      updated: this.updated,
      renderPage: (ctx, page) => this.options.renderer.page(ctx, page),
    });
    return this.firstPass.files(path);
  }

  /** Applies a change; returns the output files that changed, or every problem found. */
  async build(change: Change): Promise<BuildResult> {
    // The config, frontmatter and problem positions below are read synchronously.
    await loadParsers();
    const started = performance.now();
    const stages: Record<string, number> = {};
    let last = started;
    const lap = (stage: string) => {
      const now = performance.now();
      stages[stage] = Math.round((now - last) * 10) / 10;
      last = now;
    };
    this.generation++;
    const first = !this.started;
    this.started = true;
    const full = first || !!change.full;
    // Last-update dates come from git history, which saving files does not change: read once per worker.
    if (first) {
      this.updated = lastUpdated(this.root, 'content');
      // Started now, so that a page asked for during the first build finds the script (and esbuild) ready.
      void this.bundle({ js: true, css: false });
    }
    if (full) this.loadConfig();

    if (change.known) {
      // A new worker: the server holds files of the previous one; compare against nothing, remove what is gone.
      for (const path of change.known) if (!this.output.has(path)) this.output.set(path, UNKNOWN);
      this.search = change.known.filter((p) => p.startsWith('/search-index/')).map((p) => [p, UNKNOWN]);
    }

    if (full || change.content?.length || change.contentTree) {
      await this.syncContent(full || change.contentTree ? null : new Set(change.content));
    }
    const parsed = this.parsed;
    this.parsed = 0;
    lap('parse');
    // The stylesheet lists the token colours of every code block highlighted so far.
    const tokenCss = tokenStylesheet();
    await this.bundle({ js: !!change.client, css: !!change.css || tokenCss !== this.tokenCss });
    this.tokenCss = tokenCss;
    lap('bundle');

    const { pages, problems, failed: failedIds, unbuilt } = collectPages(this.sources, this.root, this.contentDir);
    // With the pages' own problems and their links', at once.
    if (this.configProblems.length) {
      const links = await linksWithoutConfig(this.root, this.options.configPath, pages, failedIds, unbuilt);
      return failed([...this.configProblems, ...this.scanProblems, ...problems, ...links]);
    }
    const { site, problems: siteProblems } = checkSite(this.root, this.config!, pages, failedIds, unbuilt, BASE);
    lap('site');
    problems.unshift(...siteProblems, ...this.scanProblems);
    problems.push(...this.assetProblems.js, ...this.assetProblems.css);
    let own: ReturnType<typeof loadComponents> | undefined;
    if (!problems.length) {
      try {
        own = loadComponents(this.root, site.config);
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        problems.push(...e.problems);
      }
    }
    if (problems.length) return failed(problems);
    const css = await withThemeCss(this.css!, themeStylesheet(this.root, site.config));
    lap('links');

    const { output, ctx, rendered, stalePrintables, pages: renderedPages } = await renderOutput(
      { ...this.options, root: this.root, contentDir: this.contentDir, js: this.js!, updated: this.updated, pages: this.pages, search: this.search, printables: this.printables, sources: this.sources, pause: this.current ? undefined : () => this.pause() },
      site,
      css,
      own!,
    );
    this.pages = renderedPages;
    lap('render');
    const set: FileList = [];
    for (const [path, contents] of output) {
      if (contents === UNKNOWN) continue; // the previous worker's search index, kept until the new one is written
      const old = this.output.get(path);
      if (old === undefined || !sameContents(old, contents)) set.push([path, contents]);
    }
    const remove = [...this.output.keys()].filter((path) => !output.has(path));
    const searchDirty = (this.current?.searchDirty ?? false) || first || rendered > 0 || remove.some((p) => p.endsWith('.html'));
    this.output = output;
    this.current = { site, ctx, stalePrintables, searchDirty };
    lap('diff');
    const warnings = siteWarnings(site, this.root, this.options.configPath).map((w) => `${formatProblem(w)} (warning)`);
    return { ok: true, set, remove, stats: { pages: site.pages.length, parsed, rendered, ms: performance.now() - started, stages, warnings } };
  }

  /** Whether background work is left (printable sections, search index). */
  get unsettled(): boolean {
    return !!this.current && (this.current.stalePrintables.length > 0 || this.current.searchDirty);
  }

  /**
   * Brings the printable sections and the search index up to date, posting
   * each finished file. Stops early (returns false) when a newer build started.
   */
  async settle(post: (set: FileList, remove: string[]) => void, searchDelayMs = 0): Promise<boolean> {
    const generation = this.generation;
    const current = this.current;
    if (!current) return true;
    while (current.stalePrintables.length) {
      const { section, key } = current.stalePrintables.shift()!;
      const html = this.options.renderer.printable(current.ctx, current.site, section);
      this.printables.set(section.url, { key, html });
      const path = urlPath(join(section.url, 'printable', 'index.html'));
      if (this.output.has(path) && this.output.get(path) !== html) {
        this.output.set(path, html);
        post([[path, html]], []);
      }
      await new Promise((r) => setImmediate(r));
      if (generation !== this.generation) return false;
    }
    if (current.searchDirty) {
      // The index takes a second of work for a few hundred pages: wait until saving pauses.
      if (searchDelayMs) await new Promise((r) => setTimeout(r, searchDelayMs));
      if (generation !== this.generation) return false;
      const files = await searchIndexFiles(current.site);
      if (generation !== this.generation) return false;
      current.searchDirty = false;
      {
        const set: FileList = [];
        const next = new Map(files);
        for (const [path, contents] of files) {
          const old = this.output.get(path);
          if (old === undefined || !sameContents(old, contents)) set.push([path, contents]);
        }
        const remove = this.search.map(([path]) => path).filter((path) => !next.has(path));
        this.search = files;
        // The index sits between the pages and the site files in the build's write order;
        // its paths never collide with either, so updating the map in place keeps it equal.
        for (const path of remove) this.output.delete(path);
        for (const [path, contents] of set) this.output.set(path, contents);
        if (set.length || remove.length) post(set, remove);
      }
    }
    return true;
  }

  /** Every output file, as `docs build` would write it (for tests and checks). */
  files(): Map<string, string | Uint8Array> {
    return new Map(this.output);
  }

  private loadConfig(): void {
    try {
      this.config = loadConfig(this.options.configPath, relative(this.root, this.options.configPath));
      this.configProblems = [];
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      this.configProblems = e.problems;
    }
  }

  /** During the first build: lets a page asked for meanwhile be rendered, and waits until it is (see early). */
  private async pause(): Promise<void> {
    await nextTurn();
    while (this.earlyActive) await this.earlyDone;
  }

  /** Parses the Markdown files that changed (all of them when `changed` is null); forgets deleted ones. */
  private async syncContent(changed: Set<string> | null): Promise<void> {
    const { files, problems } = scanContent(this.root, this.contentDir);
    this.scanProblems = problems;
    this.listing = files;
    this.onListed();
    const present = new Set(files);
    for (const file of [...this.sources.keys()]) if (!present.has(file)) this.sources.delete(file);
    for (const file of files) {
      if (this.sources.has(file) && changed && !changed.has(file)) continue;
      await this.parseFile(file);
      if (!this.current) await this.pause();
    }
  }

  /**
   * Parses saved files ahead of the build they will be part of: the server
   * asks as soon as the watcher reports them, so the parsing overlaps the
   * debounce of the build. The build then finds them parsed (same text hash).
   */
  async prefetch(files: string[]): Promise<void> {
    if (!this.started) return;
    for (const file of files) await this.parseFile(file);
  }

  /** Reads one file and parses it when its text changed since the last parse (once at a time per file). */
  private parseFile(file: string): Promise<void> {
    let parse = this.parsing.get(file);
    if (!parse) {
      parse = this.parseNow(file).finally(() => this.parsing.delete(file));
      this.parsing.set(file, parse);
    }
    return parse;
  }

  private async parseNow(file: string): Promise<void> {
    let text: Buffer;
    try {
      // Only regular files: reading a pipe would wait forever (the listing reports what else is there).
      if (!statSync(join(this.contentDir, file)).isFile()) throw new Error('not a file');
      text = readFileSync(join(this.contentDir, file));
    } catch {
      this.sources.delete(file); // deleted since the listing; the watcher reports it next
      return;
    }
    const hash = createHash('sha1').update(text).digest('base64url');
    if (this.sources.get(file)?.hash === hash) return;
    this.parsed++;
    try {
      // The highlighter is loaded when a page first needs one (pages from the render cache do not, nor
      // code blocks the page had at its last render: their tokens are read back from its markup).
      const { page, markdown } = await loadPage(this.root, this.contentDir, file, loadHighlighter, this.sources.get(file)?.page?.sourceKey);
      this.sources.set(file, { hash, page, markdown, problems: [] });
    } catch (e) {
      if (!(e instanceof InputError)) throw e;
      this.sources.set(file, { hash, problems: e.problems, unbuilt: e instanceof PageProblems ? e.unbuilt : undefined });
    }
  }

  private async bundle(which: { js: boolean; css: boolean }): Promise<void> {
    const { templatesDir } = this.options;
    const tasks: Array<Promise<void>> = [];
    if (which.js || !this.js) {
      tasks.push(
        bundleClient(templatesDir).then(
          (asset) => {
            this.js = asset;
            this.assetProblems.js = [];
          },
          (e: unknown) => {
            this.assetProblems.js = esbuildProblems(e, this.root, this.options.templatesDir);
          },
        ),
      );
    }
    if (which.css || !this.css) {
      tasks.push(
        bundleCss(templatesDir).then(
          (asset) => {
            this.css = asset;
            this.assetProblems.css = [];
          },
          (e: unknown) => {
            this.assetProblems.css = esbuildProblems(e, this.root, this.options.templatesDir);
          },
        ),
      );
    }
    await Promise.all(tasks);
  }
}
