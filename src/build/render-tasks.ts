import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { RenderContext } from '../../templates/types.js';
import type { SiteConfig } from '../config/schema.js';
import type { Site, SitePage } from '../site/model.js';
import { loadComponents } from '../theme/components.js';
import { contextOf } from './parts.js';
import { renderPage, renderPrintable } from './render.js';

/*
 * The documents of a build (each page in its chrome, each printable section) as tasks that any
 * thread of the worker pool can do: the main thread with its render contexts, a worker thread with
 * the same contexts made again from what it is sent (the site model as bytes, and each context's
 * data; it loads the site's own components itself).
 */

/**
 * Documents to render from which a build hands them to the worker pool, and the worker threads
 * that takes: with one, its start (loading the code, taking in the site model) costs about what it
 * saves (measured on 2 cores: this site and the 1,000-page corpus, cold, as fast or 3 % slower;
 * docs/benchmarks.md). Each further thread takes a share of the documents.
 */
export const POOL_MIN_DOCUMENTS = 200;
export const POOL_MIN_DOCUMENT_WORKERS = 2;

/** A document to render: a page or a printable section (by its index in the site's list) of the render context `context`. */
export type DocumentTask = [kind: 'page' | 'printable', context: number, index: number];

export function renderDocumentTask(contexts: RenderContext[], [kind, context, index]: DocumentTask): string {
  const ctx = contexts[context]!;
  return kind === 'page' ? renderPage(ctx, ctx.site.pages[index]!) : renderPrintable(ctx, ctx.site, ctx.site.sections[index]!);
}

/**
 * What a worker thread needs to render the documents of `contexts` (made by renderContext) and write them
 * into `temp`, the output's temporary folder (OutputWriter.temp); it loads the components of `config`. The
 * pages' bodies are left out (each goes with the documents that show it: see documentJob), and so
 * is a page's locateField (where its frontmatter's fields are, for problems), the one function of
 * the site model, which rendering never calls.
 */
export function documentsData(root: string, temp: string, config: SiteConfig, contexts: RenderContext[]) {
  const pages = new Set<SitePage>();
  for (const { site } of contexts) for (const list of [site.pages, site.byUrl.values(), site.byId.values()]) for (const page of list) pages.add(page);
  const taken = [...pages].map((page) => [page, page.locateField, page.html] as const);
  for (const [page] of taken) {
    delete (page as Partial<SitePage>).locateField;
    page.html = '';
  }
  try {
    return {
      root,
      temp,
      config,
      // The contexts' sites (views of one site), serialised together (they share their pages).
      sites: serialize(contexts.map((c) => c.site)),
      contexts: contexts.map(({ site: _site, nav: _nav, components: _components, ...data }) => data),
    };
  } finally {
    for (const [page, locateField, html] of taken) Object.assign(page, { locateField, html });
  }
}

/**
 * A document's job for a worker thread: the document, its file (relative to the output folder), and the
 * bodies it needs (by their page's index in its context's site): the page's own, or those of a printable
 * section's pages. (A body left in the render cache, see pageHtml, is read there.)
 */
export function documentJob(contexts: RenderContext[], task: DocumentTask, path: string, placeOf: (context: number, page: SitePage) => number) {
  const { site } = contexts[task[1]]!;
  const shown = task[0] === 'page' ? [site.pages[task[2]]!] : site.sections[task[2]]!.pages.map((entry) => site.byUrl.get(entry.url)!);
  const bodies = shown.filter((page) => !page.htmlInCache).map((page): [page: number, html: string] => [placeOf(task[1], page), page.html]);
  return { task, path, bodies };
}

/** What a worker thread answers for a document: the size of the file it wrote, or what it met writing it (an error of the system). */
export type DocumentWritten = { size: number; failure?: { message: string; code?: string; syscall?: string } };

/**
 * A worker thread's writer of documents into the output's temporary folder, from what
 * documentsData made: it renders and writes each (the build notes the file: OutputWriter.writtenElsewhere).
 */
export function documentWriter(data: ReturnType<typeof documentsData>): (job: ReturnType<typeof documentJob>) => DocumentWritten {
  const sites = deserialize(data.sites) as Site[];
  const { components } = loadComponents(data.root, data.config);
  const contexts = sites.map((site, i) => contextOf(site, data.contexts[i]!, components));
  return ({ task, path, bodies }) => {
    const { pages } = contexts[task[1]]!.site;
    for (const [page, body] of bodies) pages[page]!.html = body;
    const html = renderDocumentTask(contexts, task);
    // (A body is kept no longer than its documents need it.)
    for (const [page] of bodies) pages[page]!.html = '';
    const file = join(data.temp, path);
    try {
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, html);
      return { size: Buffer.byteLength(html) };
    } catch (e) {
      // (As plain data: a posted Error would lose its code.)
      const { message, code, syscall } = e as NodeJS.ErrnoException;
      return { size: 0, failure: { message, code, syscall } };
    }
  };
}
