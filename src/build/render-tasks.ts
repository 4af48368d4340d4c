import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import type { RenderContext } from '../../templates/types.js';
import type { SiteConfig } from '../config/schema.js';
import type { Site, SitePage } from '../site/model.js';
import { loadComponents } from '../theme/components.js';
import { contextOf, type ContextData } from './parts.js';
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

/** What a worker thread is sent to make the render contexts again, and where it writes the documents. */
export interface DocumentsData {
  root: string;
  /** The output's temporary folder (OutputWriter.temp). */
  temp: string;
  /** The site's config, whose components the worker loads. */
  config: SiteConfig;
  /** The contexts' sites (views of one site), serialised together (they share their pages). */
  sites: Uint8Array;
  contexts: ContextData[];
}

export function renderDocumentTask(contexts: RenderContext[], [kind, context, index]: DocumentTask): string {
  const ctx = contexts[context]!;
  return kind === 'page' ? renderPage(ctx, ctx.site.pages[index]!) : renderPrintable(ctx, ctx.site, ctx.site.sections[index]!);
}

/** What a worker thread needs to render the documents of `contexts` (made by renderContext). */
export function documentsData(root: string, temp: string, config: SiteConfig, contexts: RenderContext[]): DocumentsData {
  // A page's locateField (where its frontmatter's fields are, for problems) is the one function of the
  // site model, and rendering never calls it: it is left out of the bytes.
  const pages = new Set<SitePage>();
  for (const { site } of contexts) for (const list of [site.pages, site.byUrl.values(), site.byId.values()]) for (const page of list) pages.add(page);
  const located = [...pages].map((page) => [page, page.locateField] as const);
  for (const [page] of located) delete (page as Partial<SitePage>).locateField;
  try {
    return {
      root,
      temp,
      config,
      sites: serialize(contexts.map((c) => c.site)),
      contexts: contexts.map(({ site: _site, nav: _nav, components: _components, ...data }) => data),
    };
  } finally {
    for (const [page, locateField] of located) page.locateField = locateField;
  }
}

/** A document to render, and its file (relative to the output folder). */
export interface DocumentJob {
  task: DocumentTask;
  path: string;
}

/** What a worker thread answers for a document: the size of the file it wrote, or what it met writing it (an error of the system). */
export type DocumentWritten = { size: number; failure?: { message: string; code?: string; syscall?: string } };

/**
 * A worker thread's writer of documents into the output's temporary folder, from what
 * documentsData made: it renders and writes each (the build notes the file: OutputWriter.writtenElsewhere).
 */
export function documentWriter(data: DocumentsData): (job: DocumentJob) => DocumentWritten {
  const sites = deserialize(data.sites) as Site[];
  const { components } = loadComponents(data.root, data.config);
  const contexts = sites.map((site, i) => contextOf(site, data.contexts[i]!, components));
  return ({ task, path }) => {
    const html = renderDocumentTask(contexts, task);
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
