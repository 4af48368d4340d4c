import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import type { ComponentType } from 'react';
import { loadHighlighter } from '../content/highlight.js';
import { cachePath } from '../io/cache.js';
import { BuildRecord } from '../io/record.js';
import { formatProblem, InputError, type SourceProblem } from '../shared/errors.js';
import { siteFiles, TEMPLATES_DIR } from '../build/parts.js';
import { renderPage, renderPrintable } from '../build/render.js';
import { treeFiles } from '../build/trees.js';
import { pageFile, type SidebarSection, type Site } from '../site/model.js';
import type { PageProps, RenderContext } from '../../templates/types.js';
import type { SiteConfig } from '../config/schema.js';
import type { SourcePage } from '../content/load.js';
import { Engine, type EngineChange, type EngineOptions, type Rendering } from './engine.js';
import { FirstPass } from './first-pass.js';
import { BASE, sameContents, searchIndexFiles, UNKNOWN, urlPath, type FileList, type PageRenderer } from './preview-render.js';

export type { FileList } from './preview-render.js';

/*
 * The preview's build, behind `docs serve`: the engine kept from save to save (a change parses only
 * the files whose text changed), and the output files kept in memory. A page is rendered again only
 * when its output key changes (the keys of `docs build`, src/build/keys.ts): a body edit that keeps
 * the title and headings renders one page, a new heading its section, a new title every page.
 * Links are checked on every build, so renaming an anchor reports the pages linking to it.
 *
 * Printable sections and the search index cover many pages; they are brought up to date right
 * after the build, in the background (settle), so that a save shows in the browser first.
 */

/** What changed since the last build; several saves are merged into one (see src/serve/protocol.ts). */
export interface PreviewChange extends EngineChange {
  /** static/ or the favicon changed: the site files are written again and links re-checked. */
  files?: boolean;
  /** A template module changed: the render worker is replaced (ESM modules cannot be unloaded). */
  templates?: boolean;
  /** For a new worker's first build: the paths the server holds, so that its first answer also removes stale ones. */
  known?: string[];
}

export interface BuildStats {
  pages: number;
  /** Markdown files parsed again. */
  parsed: number;
  /** Pages rendered again. */
  rendered: number;
  ms: number;
  /** Time per stage (ms): update (config, pages, site, assets), render, diff. */
  stages: Record<string, number>;
  /** What docs build warns of (a page no menu leads to, a link in static/), as its terminal lines say it. */
  warnings: string[];
}

export type BuildResult =
  | { ok: true; set: FileList; remove: string[]; stats: BuildStats }
  /** Bad input: every problem, located, exactly as `docs build` reports them. */
  | { ok: false; problems: SourceProblem[]; message: string }
  /** A bug or a broken template: the stack, printed and shown as is. */
  | { ok: false; unexpected: string };

export function failed(problems: SourceProblem[]): BuildResult {
  const error = new InputError(problems);
  return { ok: false, problems: error.problems, message: error.message };
}

export type PreviewOptions = Pick<EngineOptions, 'root' | 'configPath' | 'templatesDir'>;

interface Rendered {
  key: string;
  html: string;
}

interface Current {
  site: Site;
  ctx: RenderContext;
  /** What the search index is made of (see searchIndexFiles). */
  indexed: { config: SiteConfig; pages: SourcePage[] };
  /** Printable sections whose cached HTML is out of date, with the key to render them for. */
  stalePrintables: Array<{ section: SidebarSection; key: string }>;
  searchDirty: boolean;
}

export class Preview {
  private readonly engine: Engine;
  /** The record of the last build of this site root (src/io/record.ts). */
  readonly record: BuildRecord;
  /** The pages the last build rendered, by id. */
  private pages = new Map<string, Rendered>();
  private readonly printables = new Map<string, Rendered>();
  private search: FileList = [];
  private output = new Map<string, string | Uint8Array>();
  private current?: Current;
  /** Counts builds (none started while 0); background work started for an older build is dropped. */
  private generation = 0;
  /** Resolves once the first build has read the config and listed the content folder. */
  private readonly listed: Promise<void>;
  private onListed!: () => void;
  private firstPass?: FirstPass;
  /** Pages asked for during the first build and not answered yet; the build waits for `earlyDone` meanwhile. */
  private earlyActive = 0;
  private earlyDone?: Promise<void>;
  private resumeBuild?: () => void;

  /**
   * A preview whose pages render as `docs build` renders them; another templates folder than the
   * tool's own (tests edit a copy) provides its own Layout, rendered the same way.
   */
  static async open(options: PreviewOptions): Promise<Preview> {
    const layoutFile = join(options.templatesDir, 'Layout.tsx');
    if (resolve(options.templatesDir) === resolve(TEMPLATES_DIR) || !existsSync(layoutFile)) return new Preview(options, renderPage);
    const { Layout } = (await import(pathToFileURL(layoutFile).href)) as { Layout: ComponentType<PageProps> };
    return new Preview(options, (ctx, page) => renderPage(ctx, page, Layout));
  }

  private constructor(
    private readonly options: PreviewOptions,
    private readonly renderPage: PageRenderer,
  ) {
    this.listed = new Promise((r) => (this.onListed = r));
    this.record = new BuildRecord(`docs serve ${resolve(options.root)}`);
    this.engine = new Engine({
      root: options.root,
      configPath: options.configPath,
      templatesDir: options.templatesDir,
      base: BASE,
      render: true,
      // The pages stay in memory from save to save.
      keepHtml: true,
      incremental: true,
      // During the first build: lets a page asked for meanwhile be rendered, and waits until it is (see early).
      pause: () => {
        this.onListed();
        return this.pause();
      },
    });
  }

  /**
   * During the first build, the files that show the page at `path` at once
   * (see first-pass.ts); undefined once the first build is done (the server
   * has the files then), when `path` is no page, or when it cannot be rendered yet.
   */
  early(path: string): Promise<FileList | undefined> {
    return this.record.run(() => this.earlyNow(path));
  }

  private async earlyNow(path: string): Promise<FileList | undefined> {
    // With nothing rendered before (no render cache), the page will need the highlighter:
    // it loads (its WebAssembly compiles on other threads) while the content folder is read.
    if (!existsSync(cachePath('pages'))) void loadHighlighter().catch(() => undefined);
    // The first build pauses between two files or pages until this page is out (see pause).
    if (this.earlyActive++ === 0) this.earlyDone = new Promise((r) => (this.resumeBuild = r));
    try {
      await this.listed;
      if (this.current) return undefined;
      this.firstPass ??= new FirstPass(this.engine, this.renderPage);
      return await this.firstPass.files(path);
    } finally {
      if (--this.earlyActive === 0) this.resumeBuild?.();
    }
  }

  /** Applies a change; returns the output files that changed, or every problem found. */
  build(change: PreviewChange): Promise<BuildResult> {
    return this.record.run(() => this.buildNow(change));
  }

  private async buildNow(change: PreviewChange): Promise<BuildResult> {
    const started = performance.now();
    const stages: Record<string, number> = {};
    let last = started;
    const lap = (stage: string) => {
      const now = performance.now();
      stages[stage] = Math.round((now - last) * 10) / 10;
      last = now;
    };
    const first = ++this.generation === 1;
    if (change.known) {
      // A new worker: the server holds files of the previous one; compare against nothing, remove what is gone.
      for (const path of change.known) if (!this.output.has(path)) this.output.set(path, UNKNOWN);
      this.search = change.known.filter((p) => p.startsWith('/search-index/')).map((p) => [p, UNKNOWN]);
    }
    // (A page asked for meanwhile finds the listing, or no page, once the first update is over.)
    const update = await this.engine.update(change).finally(() => this.onListed());
    lap('update');
    if (!update.ok) return failed(update.problems);
    const { site, rendering, parsed } = update;
    // (What the search index is made of, taken before the pages render: the sources are the site's then.)
    const { sources, validConfig } = this.engine;
    const indexed = { config: validConfig!.config, pages: [...sources.keys()].sort().flatMap((file) => sources.get(file)!.page ?? []) };

    const { output, ctx, rendered, stalePrintables } = await this.render(site, rendering!);
    lap('render');
    const set = this.changed(output);
    const remove = [...this.output.keys()].filter((path) => !output.has(path));
    const searchDirty = (this.current?.searchDirty ?? false) || first || rendered > 0 || remove.some((p) => p.endsWith('.html'));
    this.output = output;
    this.current = { site, ctx, indexed, stalePrintables, searchDirty };
    lap('diff');
    const warnings = update.warnings.map((w) => `${formatProblem(w)} (warning)`);
    return { ok: true, set, remove, stats: { pages: site.pages.length, parsed, rendered, ms: performance.now() - started, stages, warnings } };
  }

  /**
   * The files of the build: every page rendered again only when its key changed (the keys of `docs build`'s
   * output files), the printable sections, the generated files.
   */
  private async render(site: Site, { contexts, markdownOf }: Rendering) {
    const { root, templatesDir } = this.options;
    const { ctx, keys } = contexts[0]!;
    const output = new Map<string, string | Uint8Array>();
    for (const [path, contents] of contexts.flatMap((c) => c.files)) output.set(urlPath(path), contents);

    // The same keys as `docs build` (src/build/keys.ts): a page is rendered again exactly when a build would; one set per tree.
    const pages = new Map<string, Rendered>();
    let rendered = 0;
    for (const page of site.pages) {
      const tree = contexts[page.tree ?? 0]!;
      const key = tree.keys.page(page);
      let entry = this.pages.get(page.id);
      if (entry?.key !== key) {
        entry = { key, html: this.renderPage(tree.ctx, page) };
        // During the first build: lets a page asked for meanwhile be rendered.
        if (++rendered % 16 === 0 && !this.current) await this.pause();
      }
      pages.set(page.id, entry);
      output.set(urlPath(pageFile(page)), entry.html);
    }
    for (const [path, contents] of this.search) output.set(path, contents);

    const stalePrintables: Current['stalePrintables'] = [];
    const printable = (section: SidebarSection) => {
      const key = keys.printable(section);
      const cached = this.printables.get(section.url);
      if (cached) {
        if (cached.key !== key) stalePrintables.push({ section, key });
        return cached.html;
      }
      const html = renderPrintable(ctx, site, section);
      this.printables.set(section.url, { key, html });
      return html;
    };
    for (const [path, contents] of siteFiles(ctx, root, templatesDir, printable, markdownOf)) output.set(urlPath(path), contents);
    // (The other trees' printable sections and llms.txt, made again at each build: only a site in several languages or versions has them.)
    for (const [path, contents] of treeFiles(contexts.map((c) => c.ctx), markdownOf, contexts.map((c) => ({ keys: c.keys, keep: () => false })))) output.set(urlPath(path), contents);
    this.pages = pages;
    return { output, ctx, rendered, stalePrintables };
  }

  /** Whether background work is left (printable sections, search index). */
  get unsettled(): boolean {
    return !!this.current && (this.current.stalePrintables.length > 0 || this.current.searchDirty);
  }

  /**
   * Brings the printable sections and then, `searchDelayMs` later, the search index up to date, posting
   * each finished file. Stops early (returns false) when a newer build started.
   */
  async settle(post: (set: FileList, remove: string[]) => void, searchDelayMs: number): Promise<boolean> {
    const generation = this.generation;
    const current = this.current;
    if (!current) return true;
    while (current.stalePrintables.length) {
      const { section, key } = current.stalePrintables.shift()!;
      const html = renderPrintable(current.ctx, current.site, section);
      this.printables.set(section.url, { key, html });
      const path = urlPath(join(section.url, 'printable', 'index.html'));
      if (this.output.has(path) && this.output.get(path) !== html) {
        this.output.set(path, html);
        post([[path, html]], []);
      }
      await nextTurn();
      if (generation !== this.generation) return false;
    }
    if (current.searchDirty) {
      // The index takes a second of work for a few hundred pages: wait until saving pauses.
      await new Promise((r) => setTimeout(r, searchDelayMs));
      if (generation !== this.generation) return false;
      const files = searchIndexFiles(current.indexed.config, current.indexed.pages);
      current.searchDirty = false;
      const set = this.changed(files);
      const next = new Map(files);
      const remove = this.search.map(([path]) => path).filter((path) => !next.has(path));
      this.search = files;
      // The index sits between the pages and the site files in the build's write order;
      // its paths never collide with either, so updating the map in place keeps it equal.
      for (const path of remove) this.output.delete(path);
      for (const [path, contents] of set) this.output.set(path, contents);
      if (set.length || remove.length) post(set, remove);
    }
    return true;
  }

  /** The files whose contents the output lacks or has otherwise (the previous worker's search index, UNKNOWN, stays until the new one is written). */
  private changed(files: Iterable<[string, string | Uint8Array]>): FileList {
    return [...files].filter(([path, contents]) => contents !== UNKNOWN && !sameContents(this.output.get(path) ?? UNKNOWN, contents));
  }

  /**
   * Parses saved files ahead of the build they will be part of: the server
   * asks as soon as the watcher reports them, so the parsing overlaps the
   * debounce of the build. The build then finds them parsed (same text hash).
   */
  async prefetch(files: string[]): Promise<void> {
    if (!this.generation) return;
    for (const file of files) await this.engine.parseFile(file);
  }

  /** During the first build: lets a page asked for meanwhile be rendered, and waits until it is (see early). */
  private async pause(): Promise<void> {
    await nextTurn();
    while (this.earlyActive) await this.earlyDone;
  }
}
