import { join } from 'node:path';
import { renderContext, siteFiles } from '../build/parts.js';
import { linkTargets } from './checks.js';
import { listStatic } from '../io/sources.js';
import { pageFile, type SitePage } from '../site/model.js';
import { pageIdOf, type SourcePage } from '../content/load.js';
import { outlinePages } from '../content/outline.js';
import { InputError } from '../shared/errors.js';
import { resolveLinks } from '../site/links.js';
import { buildTrees } from '../site/trees.js';
import type { Engine } from './engine.js';
import { BASE, urlPath, type FileList, type PageRenderer } from './preview-render.js';

/*
 * The first pass of `docs serve`: a page asked for before the whole site is
 * built is rendered at once, from what is known so far. Pages already parsed
 * take part as they are; the others by their outline (frontmatter and
 * headings, see src/content/outline.ts), which is what the page's menus,
 * sidebar and previous/next links show of them. With every page in the
 * cache this is the page `docs build` writes. Otherwise it may still differ
 * (the stylesheet lists the code colours of the pages parsed so far),
 * and the server makes the browser reload it when the full build is in.
 *
 * Problems are not looked for here: the full build reports them.
 */

export class FirstPass {
  /** Outlines by file, made for every file not parsed when the first page was asked for (see outlinePages). */
  private outlines?: Map<string, SourcePage | null | InputError>;

  constructor(private readonly engine: Engine, private readonly renderPage: PageRenderer) {}

  /**
   * The files a browser needs to show the page at `path`: the page, the
   * script, stylesheet and search terms it points to, the headers file (its
   * Content-Security-Policy), the favicon and the static files. Undefined
   * when `path` is no page, or the page cannot be rendered (the full build
   * says why).
   */
  async files(path: string): Promise<FileList | undefined> {
    const { engine } = this;
    const { root, templatesDir } = engine.options;
    const config = engine.validConfig;
    // "/guides/" and "/guides/index.html" are the page of content/guides.md or content/guides/index.md.
    const wanted = path.endsWith('/') ? `${path}index.html` : path;
    const file = engine.listing.find((f) => urlPath(pageFile({ id: pageIdOf(f)! } as SitePage)) === wanted);
    if (!config || !file || !(await this.parse(file))) return undefined;
    this.outlines ??= await outlinePages(root, engine.contentDir, engine.listing.filter((f) => !engine.sources.has(f)));
    // Each page by id, undefined when it has problems (two files for one page: the full build reports it).
    const byId = new Map<string, SourcePage | undefined>();
    for (const other of engine.listing) {
      const id = pageIdOf(other)!;
      if (!byId.has(id)) byId.set(id, await this.known(other));
    }
    const failed = new Set([...byId].filter(([, page]) => !page).map(([id]) => id));
    const { site } = buildTrees(config, [...byId.values()].filter((page) => page !== undefined), failed);
    const page = site.byId.get(pageIdOf(file)!);
    if (!page) return undefined;
    const targets = linkTargets(site, failed, listStatic(join(root, 'static')));
    resolveLinks(site, BASE, targets, [page]);
    // (The full build reports the problems of the script, the stylesheet and the components.)
    const parts = await engine.renderParts(site, []);
    if (!parts) return undefined;
    // (In a site of several languages or versions, the context of the page's own: see src/site/trees.ts.)
    const { ctx, files } = renderContext(site.trees?.[page.tree ?? 0]!.site ?? site, BASE, parts.assets, engine.dates(), parts.own);
    const out: FileList = files.map(([p, contents]) => [urlPath(p), contents]);
    out.push([urlPath(pageFile(page)), this.renderPage(ctx, page)]);
    // The small site files; printable sections and llms-full.txt are made by the full build.
    for (const [p, contents] of siteFiles(ctx, root, templatesDir, () => '', () => '')) {
      if (p.endsWith(join('printable', 'index.html')) || p === 'llms-full.txt') continue;
      out.push([urlPath(p), contents]);
    }
    return out;
  }

  /** A page as parsed, or by its outline (parsed after all when its render is in the cache); undefined when it has problems. */
  private async known(file: string): Promise<SourcePage | undefined> {
    const source = this.engine.sources.get(file);
    if (source) return source.page;
    const outline = this.outlines?.get(file);
    if (outline instanceof InputError) return undefined;
    // In the cache (null), or added since the outlines were made.
    return outline ?? this.parse(file);
  }

  /** Parses a file fully (once); its page, or undefined when it has problems. */
  private async parse(file: string): Promise<SourcePage | undefined> {
    await this.engine.parseFile(file);
    return this.engine.sources.get(file)?.page;
  }
}
