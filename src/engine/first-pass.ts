import { join } from 'node:path';
import type { ClientAsset } from '../build/assets.js';
import { bundleCss } from '../build/assets.js';
import { renderContext, siteFiles } from '../build/parts.js';
import { linkTargets } from './checks.js';
import { listStatic } from '../io/sources.js';
import { pageFile } from '../site/model.js';
import type { LoadedConfig } from '../config/load.js';
import type { SourcePage } from '../content/load.js';
import { pageIdOf } from '../content/load.js';
import { outlinePages } from '../content/outline.js';
import { InputError } from '../shared/errors.js';
import { resolveLinks } from '../site/links.js';
import type { SitePage } from '../site/model.js';
import { buildTrees } from '../site/trees.js';
import { themeStylesheet, withThemeCss } from '../theme/theme.js';
import { loadComponents } from '../theme/components.js';
import { BASE, urlPath, type FileList } from './preview-render.js';
import type { SourceProblem } from '../shared/errors.js';

/*
 * The first pass of `docs serve`: a page asked for before the whole site is
 * built is rendered at once, from what is known so far. Pages already parsed
 * take part as they are; the others by their outline (frontmatter and
 * headings, see src/content/outline.ts), which is what the page's menus,
 * sidebar and previous/next links show of them. With every page in the
 * cache this is the page `docs build` writes. Otherwise it may still differ
 * (the stylesheet lists the colours of every code block highlighted so far),
 * and the server makes the browser reload it when the full build is in.
 *
 * Problems are not looked for here: the full build reports them.
 */

export interface FirstPassInputs {
  root: string;
  contentDir: string;
  templatesDir: string;
  config: LoadedConfig;
  /** The Markdown files of content/ (relative, with "/"), sorted. */
  files: readonly string[];
  /** Parses a file fully (once); its page, or undefined when it has problems. */
  parse(file: string): Promise<SourcePage | undefined>;
  /** A file's page when it is parsed already; null when it was parsed and has problems. */
  parsed(file: string): SourcePage | null | undefined;
  script(): Promise<ClientAsset | SourceProblem[]>;
  /** The pages' last-update dates. */
  updated(): Map<string, string>;
  renderPage(ctx: ReturnType<typeof renderContext>['ctx'], page: SitePage): string;
}

/** The page a URL path serves: "/guides/" and "/guides/index.html" are the page of content/guides.md or content/guides/index.md. */
export function fileForPath(files: readonly string[], path: string): string | undefined {
  const wanted = path.endsWith('/') ? `${path}index.html` : path;
  return files.find((file) => {
    const id = pageIdOf(file);
    return id !== null && urlPath(pageFile({ id } as SitePage)) === wanted;
  });
}

export class FirstPass {
  /** Outlines by file, made for every file not parsed when the first page was asked for (see outlinePages). */
  private outlines?: Map<string, SourcePage | null | InputError>;

  constructor(private readonly inputs: FirstPassInputs) {}

  /**
   * The files a browser needs to show the page at `path`: the page, the
   * script, stylesheet and search terms it points to, the headers file (its
   * Content-Security-Policy), the favicon and the static files. Undefined
   * when `path` is no page, or the page cannot be rendered (the full build
   * says why).
   */
  async files(path: string): Promise<FileList | undefined> {
    const { inputs } = this;
    const file = fileForPath(inputs.files, path);
    if (!file || !(await inputs.parse(file))) return undefined;
    this.outlines ??= await outlinePages(inputs.root, inputs.contentDir, inputs.files.filter((f) => inputs.parsed(f) === undefined));
    const pages: SourcePage[] = [];
    const failed = new Set<string>();
    const seen = new Set<string>();
    for (const other of inputs.files) {
      const id = pageIdOf(other)!;
      if (seen.has(id)) continue; // two files for one page: the full build reports it
      seen.add(id);
      const page = await this.known(other);
      if (page) pages.push(page);
      else failed.add(id);
    }
    const { site } = buildTrees(inputs.config, pages, failed);
    const page = site.byId.get(pageIdOf(file)!);
    if (!page) return undefined;
    const targets = linkTargets(site, failed, listStatic(join(inputs.root, 'static')));
    resolveLinks(site, BASE, targets, [page]);
    let own: ReturnType<typeof loadComponents>;
    try {
      own = loadComponents(inputs.root, site.config);
    } catch (e) {
      if (e instanceof InputError) return undefined;
      throw e;
    }
    const [js, plainCss] = await Promise.all([inputs.script(), bundleCss(inputs.templatesDir)]);
    if (Array.isArray(js)) return undefined; // the full build reports the script's problems
    const css = await withThemeCss(plainCss, themeStylesheet(inputs.root, site.config));
    // (In a site of several languages or versions, the context of the page's own: see src/site/trees.ts.)
    const { ctx, files } = renderContext(site.trees?.[page.tree ?? 0]!.site ?? site, BASE, { js, css }, inputs.updated(), own);
    const out: FileList = files.map(([p, contents]) => [urlPath(p), contents]);
    out.push([urlPath(pageFile(page)), inputs.renderPage(ctx, page)]);
    // The small site files; printable sections and llms-full.txt are made by the full build.
    for (const [p, contents] of siteFiles(ctx, inputs.root, inputs.templatesDir, () => '', () => '')) {
      if (p.endsWith(join('printable', 'index.html')) || p === 'llms-full.txt') continue;
      out.push([urlPath(p), contents]);
    }
    return out;
  }

  /** A page as parsed, or by its outline (parsed after all when its render is in the cache); undefined when it has problems. */
  private async known(file: string): Promise<SourcePage | undefined> {
    const parsed = this.inputs.parsed(file);
    if (parsed !== undefined) return parsed ?? undefined;
    const outline = this.outlines?.get(file);
    if (outline instanceof InputError) return undefined;
    // In the cache (null), or added since the outlines were made.
    return outline ?? this.inputs.parse(file);
  }
}
