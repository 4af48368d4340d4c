import { createHash } from 'node:crypto';
import { readSourceText } from '../io/sources.js';
import { join, relative, sep } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { InputError, type SourceProblem } from '../shared/errors.js';
import { timed } from '../shared/stages.js';
import { readFrontmatter, type Frontmatter } from '../config/frontmatter-schema.js';
import { splitSource, type RawSource } from '../config/split-source.js';
import { PARALLEL_MIN_BYTES, renderInWorkers, workerCount, type PageTask, type PoolOptions } from './pool.js';
import { cacheHas, layerEnabled, cacheKey, pipelineVersion, flushCacheWrites, readCache, writeCache } from '../io/cache.js';
import { currentRecord } from '../io/record.js';
import { registerTokenClasses, tokenClassesIn, type HighlighterSource, type TokenClass } from './highlight.js';
import { highlightThreadFor, PAGES_IN_FLIGHT } from './highlight-thread.js';
import { renderMarkdown, type RenderedMarkdown } from './markdown.js';
import { locate, parseLocatedYaml } from '../config/yaml-positions.js';
import { codeBlocksIn } from './plugins/code-blocks.js';
import { createBodyReader, entryOf, type PageEntry, type SearchBody, type SearchPlace } from './search-sections.js';

/** What the render cache keeps of a page (see readCache): its render without the tree, and the frontmatter it was made with. */
type CachedMarkdown = Omit<RenderedMarkdown, 'ids' | 'problems'> & {
  ids: string[];
  tokenClasses: Record<string, TokenClass>;
  /** The frontmatter the page had, as written and as read (so that the same YAML is not parsed again). */
  fm?: { yaml: string; frontmatter: Frontmatter };
};

export interface SourcePage extends Omit<RenderedMarkdown, 'problems'> {
  /** Page path without slashes: '' (home), 'concepts' (section index), 'concepts/output'. */
  id: string;
  /** Display path of the source, relative to the site root: content/concepts/output.md. */
  sourcePath: string;
  frontmatter: Frontmatter;
  bodyLineOffset: number;
  /** The render cache key of the page's Markdown: a hash of its body, place and the pipeline's code. */
  sourceKey: string;
  /** The code token classes its body uses, by name: the stylesheet lists those of the site's pages. */
  tokenClasses: string[];
  /** `html` came from the render cache of an earlier build and was left there (it is ''): see pageHtml. */
  htmlInCache?: boolean;
  locateField(path: readonly PropertyKey[]): { line: number; column: number };
}

export { duplicatePage, pageIdOf, PageProblems, type UnbuiltPage } from './pages.js';
import { duplicatePage, FrontmatterProblems, pageIdOf, PageProblems, withBodyProblems, type UnbuiltPage } from './pages.js';

/**
 * A page read and split, before (or instead of) rendering its Markdown. Its frontmatter is read
 * where the page renders (see frontmatterOf), unless the page's render or last build had it.
 */
export interface Prepared extends RawSource, Pick<SourcePage, 'locateField' | 'sourcePath'> {
  relPath: string;
  frontmatter?: Frontmatter;
  key: string;
}

/**
 * Reads and splits a page, and with `lookup` takes its render from the cache.
 * The frontmatter of a cached render is parsed only when it differs from the
 * one the render was made with: YAML parsing is most of the time of a cached
 * page.
 */
export function prepare(rootDir: string, contentDir: string, relPath: string, lookup: boolean, withHtml = true): { prepared: Prepared; cached?: CachedMarkdown; packed?: boolean } {
  const sourcePath = relative(rootDir, join(contentDir, relPath)).split(sep).join('/');
  const { yaml, body, bodyLineOffset } = splitSource(readSourceText(join(contentDir, relPath), sourcePath), sourcePath);
  const key = cacheKey(sourcePath, bodyLineOffset, body);
  // From the last build's record, while the cache still holds the body it stands for.
  const packed = lookup && !withHtml && lastBuild?.metas.has(key) && cacheHas(key) ? lastBuild.metas.get(key) : undefined;
  let cached = packed ? { ...packed, html: '' } : lookup ? readCache<CachedMarkdown>(key, withHtml) : undefined;
  const same = cached?.fm?.yaml === yaml;
  // The frontmatter as read before: with the cached render, or (a page whose body changed) at the last build.
  const last = lastBuild?.metas.get(lastBuild.keys.get(sourcePath) ?? '')?.fm;
  const known = same ? cached!.fm : last?.yaml === yaml ? last : undefined;
  /*
   * Places of frontmatter fields, for problems found later (a related link): the YAML is parsed again when one is asked for
   * (rare), so that no page keeps its parsed document, and a page whose frontmatter came from the cache was never parsed at all.
   */
  const locateField: Prepared['locateField'] = (path) => locate(parseLocatedYaml(yaml, sourcePath, 1).located, path);
  const prepared: Prepared = { relPath, sourcePath, body, bodyLineOffset, yaml, key, locateField };
  prepared.frontmatter = known || !cached ? known?.frontmatter : frontmatterOf(prepared);
  if (cached && !same) {
    // The same body under new frontmatter: the cached render is kept with the frontmatter it now has.
    const fresh = { yaml, frontmatter: prepared.frontmatter! };
    const whole = withHtml ? cached : readCache<CachedMarkdown>(key);
    if (whole) writeCache<CachedMarkdown>(key, { ...whole, fm: fresh });
    cached = { ...cached, fm: fresh };
  }
  return { prepared, cached, packed: !!packed && same };
}

/** This thread's reader of page bodies for the search index (it learns the site's words as it goes). */
let readBody: ((html: string) => SearchBody) | undefined;

/**
 * Renders a prepared page's Markdown and stores the result in the cache (`cached`: whether that worked); throws InputError on problems.
 * With `reuseCode`, the tokens of code blocks the page had at its last render (`lastKey`, or the last build's) are reused.
 * With `place` (where the search index shows the page), the page's search entry is made too.
 */
async function renderFresh(prepared: Prepared, highlighter: HighlighterSource, reuseCode: boolean, place?: SearchPlace | null, lastKey?: string) {
  // (All of it is what the worker pool shares out: the frontmatter, the Markdown, the page's search entry, the cache's file.)
  return timed('markdown-pages', async () => {
    const { relPath, sourcePath, body, bodyLineOffset } = prepared;
    const frontmatter = prepared.frontmatter ?? frontmatterOf(prepared);
    // (The code blocks' tokens are read back from the last render's markup, with the classes they use: see codeBlocksIn.)
    const lastRender = reuseCode && layerEnabled('markup-tokens') ? (lastKey ?? lastBuild?.keys.get(sourcePath)) : undefined;
    const last = lastRender === undefined ? undefined : readCache<CachedMarkdown>(lastRender);
    if (last) registerTokenClasses(last.tokenClasses);
    const fresh = await renderMarkdown(body, { file: sourcePath, lineOffset: bodyLineOffset, highlighter, codeBlocks: last && codeBlocksIn(last.html) });
    if (fresh.problems.length) throw new PageProblems(fresh.problems, { id: pageIdOf(relPath)!, sourcePath, bodyLineOffset, links: fresh.links, ids: [...fresh.ids] });
    const { problems: _problems, ids, ...rest } = fresh;
    const result: CachedMarkdown = { ...rest, ids: [...ids], tokenClasses: tokenClassesIn(rest.html), fm: { yaml: prepared.yaml, frontmatter } };
    const search = place ? entryOf({ ...place, title: frontmatter.title }, (readBody ??= createBodyReader())(rest.html)) : undefined;
    return { rendered: result, cached: writeCache(prepared.key, result), search };
  });
}

/** Reads a page's frontmatter; throws FrontmatterProblems (see withBodyProblems). */
export function frontmatterOf(page: Prepared): Frontmatter {
  try {
    return readFrontmatter(page.yaml, page.sourcePath);
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    throw new FrontmatterProblems(e.problems, page);
  }
}

/**
 * A page rendered, whether it is in the render cache (a worker thread has waited for the write) and
 * its search entry (when asked for); or its problems.
 */
export type WorkerResult = { ok: true; rendered: CachedMarkdown; cached: boolean | Promise<boolean>; search?: PageEntry } | { ok: false; problems: SourceProblem[]; unbuilt?: UnbuiltPage };

/*
 * What the last build's loadPages had, a part of its record (src/io/record.ts): each page's
 * render cache key, and its cached result without the body. A build reads that instead of a file
 * per page, and an edited page finds its last render by it (and takes its code blocks' tokens from
 * that render's markup). Made by another version of the pipeline (whose frontmatter was checked by
 * other code), it is not used: the version is in its key.
 */
type Meta = Omit<CachedMarkdown, 'html'>;
type Renders = Array<[sourcePath: string, key: string, meta: Meta]>;
let lastBuild: ReturnType<typeof readLastBuild>;

function readLastBuild(key: string) {
  const saved = currentRecord()?.get<Renders>('renders', key);
  if (!Array.isArray(saved)) return undefined;
  return { keys: new Map(saved.map(([path, key]) => [path, key])), metas: new Map(saved.map(([, key, meta]) => [key, meta])) };
}

function assemble(prepared: Prepared, rendered: CachedMarkdown): SourcePage {
  registerTokenClasses(rendered.tokenClasses);
  const { tokenClasses, fm: _fm, ids, ...rest } = rendered;
  return {
    ...rest,
    tokenClasses: Object.keys(tokenClasses),
    ids: new Set(ids),
    id: pageIdOf(prepared.relPath)!,
    sourcePath: prepared.sourcePath,
    // (Read where the page rendered, unless known before: see prepare.)
    frontmatter: prepared.frontmatter ?? rendered.fm!.frontmatter,
    bodyLineOffset: prepared.bodyLineOffset,
    sourceKey: prepared.key,
    locateField: prepared.locateField,
  };
}

/**
 * One page, and its Markdown body as written (which a SourcePage does not keep). `lastKey`: the
 * render cache key of the page's last render (SourcePage.sourceKey), whose code tokens are reused.
 */
export async function loadPage(rootDir: string, contentDir: string, relPath: string, highlighter: HighlighterSource, lastKey?: string) {
  try {
    const { prepared, cached } = prepare(rootDir, contentDir, relPath, true);
    return { page: assemble(prepared, cached ?? (await renderFresh(prepared, highlighter, true, undefined, lastKey)).rendered), markdown: prepared.body };
  } catch (e) {
    throw await withBodyProblems(e);
  }
}

/**
 * Renders a page that was not in the cache, on a worker thread (the main thread renders the pages it
 * read in pass 1 of loadPages). A worker has no record of the last build, so it highlights every code
 * block: workers render only when megabytes of Markdown changed, where pages edited one at a time
 * (whose tokens are read back from their last render) are the few.
 */
export async function renderForWorker(rootDir: string, contentDir: string, { file, place }: PageTask, highlighter: HighlighterSource): Promise<WorkerResult> {
  return renderPrepared(() => prepare(rootDir, contentDir, file, false).prepared, highlighter, false, place);
}

/** Renders a page once `prepared` has read it; problems of the page come back as a result, not thrown. */
async function renderPrepared(prepared: () => Prepared, highlighter: HighlighterSource, reuseCode: boolean, place?: SearchPlace | null): Promise<WorkerResult> {
  try {
    return { ok: true, ...(await renderFresh(prepared(), highlighter, reuseCode, place)) };
  } catch (caught) {
    const e = await withBodyProblems(caught);
    if (e instanceof InputError) return { ok: false, problems: e.problems, unbuilt: e instanceof PageProblems ? e.unbuilt : undefined };
    throw e;
  }
}

export interface PageHooks {
  /**
   * A page loaded; `fromCache`: its render came from the render cache (which holds its body HTML);
   * `search`: its search entry, made as it was rendered (see searchPlace).
   */
  page(page: SourcePage, fromCache: boolean, search?: PageEntry): void;
  /** Where the search index shows a page, by its id (null: nowhere): a page rendered then gets its search entry where it renders (on a worker thread, say). */
  searchPlace?: (id: string) => SearchPlace | null;
  pause?: () => Promise<void>; // awaited between two pages read or rendered here: lets other work go first
}

/**
 * A page's body HTML (with link placeholders): in memory, or (a page whose render an earlier build
 * cached, and that let it stay there) read from the render cache.
 */
export function pageHtml(page: SourcePage): string {
  if (!page.htmlInCache) return page.html;
  const html = readCache(page.sourceKey)?.html;
  if (html === undefined) throw new Error(`the render cache lost ${page.sourcePath} during the build (was the cache folder deleted?); build again`);
  return html;
}

/** How many characters of Markdown bodies loadPages keeps for llms-full.txt: the whole of a site of a few thousand pages. */
const MARKDOWN_KEPT = 24_000_000;

/**
 * Loads every page, collecting the problems of all files (nothing stops at the
 * first). `hooks.page` gets each page that loaded as soon as it and every
 * page before it (in file order) are done, so that later work (the search
 * index) can start while the rest still renders.
 */
export async function loadPages(
  rootDir: string,
  contentDir: string,
  highlighter: HighlighterSource,
  files: string[],
  hooks: PageHooks,
  /**
   * Whether a page whose render an earlier build cached has its body HTML read now. Without, the
   * body stays in the cache until the page is written (pageHtml), and often is never needed: an
   * unchanged page's file is kept from the last output.
   */
  keepHtml = true,
  pool: PoolOptions = {},
) {
  keepHtml ||= !layerEnabled('pages');
  const rendersKey = createHash('sha256').update(contentDir).update('\0').update(pipelineVersion()).digest('hex');
  lastBuild = readLastBuild(rendersKey);
  /** Each page's cached result without its body, for the next build's record; and whether any is not the record's. */
  const metas = new Map<string, Meta>();
  let changed = false;
  /** Pages that failed to load but were rendered, with problems: their links are checked all the same. */
  const unbuilt: UnbuiltPage[] = [];
  const problems: SourceProblem[] = [];
  const seen = new Map<string, string>();
  // Pass 1: read every file, check its frontmatter, and take what the cache has.
  /** `cached`: whether the render is in the cache (a page may let its HTML go only then). */
  type Slot = { prepared: Prepared; rendered?: CachedMarkdown; cached?: boolean | Promise<boolean>; search?: PageEntry; fromCache?: boolean; packed?: boolean; failed?: true; page?: SourcePage };
  const slots: Slot[] = [];
  /** The Markdown bodies as read, by source path, while they fit in MARKDOWN_KEPT characters (llms-full.txt reads the others again). */
  const markdown = new Map<string, string>();
  let kept = 0;
  let next = 0;
  const emit = () => {
    for (; next < slots.length; next++) {
      const slot = slots[next]!;
      if (slot.failed) continue;
      if (!slot.rendered) return;
      slot.page = assemble(slot.prepared, slot.rendered);
      // (The last build's record as it was, or this render without its body.)
      const packed = slot.packed ? lastBuild?.metas.get(slot.prepared.key) : undefined;
      if (!packed) changed = true;
      metas.set(slot.prepared.key, packed ?? (({ html: _html, ...meta }) => meta)(slot.rendered));
      hooks.page(slot.page, slot.cached === true, slot.search);
      slot.rendered = slot.search = undefined;
      // The page has what it needs of its source; the body text goes (but for llms-full.txt, while it fits).
      const body = slot.prepared.body;
      if (kept + body.length <= MARKDOWN_KEPT) {
        kept += body.length;
        markdown.set(slot.prepared.sourcePath, body);
      }
      slot.prepared = { ...slot.prepared, body: '' };
      // (A page rendered in this build keeps its body in memory: the cache is never read in the build that wrote it.)
      if (slot.fromCache && !keepHtml) slot.page.htmlInCache = true;
    }
  };
  for (const file of files) {
    const id = pageIdOf(file)!;
    const displayPath = relative(rootDir, join(contentDir, file)).split(sep).join('/');
    const duplicate = duplicatePage(seen, id, displayPath);
    if (duplicate) {
      problems.push(duplicate);
      continue;
    }
    try {
      // Without keepHtml, a cached page's body stays in the cache (see pageHtml).
      const { prepared, cached, packed } = prepare(rootDir, contentDir, file, true, keepHtml);
      slots.push({ prepared, rendered: cached, cached: !!cached, fromCache: !!cached, packed });
      // (A page from the cache goes out at once: a page the preview is asked for meanwhile finds it.)
      emit();
      await hooks.pause?.();
    } catch (caught) {
      const e = await withBodyProblems(caught);
      if (!(e instanceof InputError)) throw e;
      problems.push(...e.problems);
      if (e instanceof PageProblems) unbuilt.push(e.unbuilt);
    }
  }
  const settle = (slot: Slot, result: WorkerResult) => {
    if (result.ok) {
      slot.rendered = result.rendered;
      slot.cached = result.cached;
      slot.search = result.search;
    } else {
      problems.push(...result.problems);
      if (result.unbuilt) unbuilt.push(result.unbuilt);
      slot.failed = true;
    }
    emit();
  };
  // Pass 2: render the rest, on this thread or with worker threads when there is enough Markdown to pay for them.
  const misses = slots.filter((slot) => !slot.fromCache);
  // Code tokens are worth keeping when some pages came from the cache: this is an edit, not a first build.
  const reuseCode = misses.length < slots.length;
  const placeOf = (slot: Slot) => hooks.searchPlace?.(pageIdOf(slot.prepared.relPath)!);
  if (misses.reduce((bytes, m) => bytes + m.prepared.body.length, 0) >= (pool.minBytes ?? PARALLEL_MIN_BYTES) && workerCount() > 0) {
    const tasks = misses.map((m): PageTask => ({ file: m.prepared.relPath, place: placeOf(m) }));
    await renderInWorkers(
      { kind: 'markdown', rootDir, contentDir },
      tasks,
      (i) => renderPrepared(() => misses[i]!.prepared, highlighter, reuseCode, tasks[i]!.place),
      (i, result: WorkerResult) => settle(misses[i]!, result),
      pool,
    );
  } else {
    // (Pages rendered before have their tokens in their last render.)
    const thread = highlightThreadFor(misses.filter((m) => !lastBuild?.keys.has(m.prepared.sourcePath)).map((m) => m.prepared.body), highlighter);
    // With a highlight thread, a page waiting for its tokens lets the next ones parse meanwhile.
    let taken = 0;
    const renderNext = async () => {
      while (taken < misses.length) {
        const miss = misses[taken++]!;
        // Read and split in pass 1 already: rendered from that.
        settle(miss, await renderPrepared(() => miss.prepared, thread ?? highlighter, reuseCode, placeOf(miss)));
        // Lets the page's cache write go on (and, in the preview, a request in). That turn is still the
        // page's render, as on a worker thread, which answers once its pages' cache files are written.
        await (hooks.pause ?? (() => timed('markdown-pages', nextTurn)))();
      }
    };
    try {
      await Promise.all(Array.from({ length: thread ? PAGES_IN_FLIGHT : 1 }, renderNext));
    } finally {
      await thread?.close();
    }
  }
  const pages = slots.flatMap((slot) => (slot.page ? [slot.page] : []));
  if (changed || pages.length !== lastBuild?.keys.size) {
    currentRecord()?.set('renders', rendersKey, pages.map((page) => [page.sourcePath, page.sourceKey, metas.get(page.sourceKey)!]) satisfies Renders);
  }
  lastBuild = undefined;
  await flushCacheWrites();
  return { problems, unbuilt, markdown };
}
