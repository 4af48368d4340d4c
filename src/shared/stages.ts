/*
 * Time spent per stage of a build (ms), for DOCS_PROFILE and the benchmarks. A stage may be timed in
 * several places; its times add up. A sub-stage (the Markdown of the pages within "markdown") is
 * listed apart.
 */
export const stageTimes: Record<string, number> = {};

/** Stages that are part of another one. */
export const SUBSTAGES = new Set(['markdown-pages']);

/**
 * The stages the worker pool shares out (src/content/pool.ts): the pages' Markdown, and the
 * documents (pages in their chrome, printable sections). The rest of a build runs on one thread
 * whatever the number of cores; measured with DOCS_WORKERS=0, where these render one at a time.
 */
export const POOL_STAGES = ['markdown-pages', 'documents'];

export function timed<T>(stage: string, fn: () => T): T {
  const start = performance.now();
  const add = () => (stageTimes[stage] = (stageTimes[stage] ?? 0) + performance.now() - start);
  const result = fn();
  if (result instanceof Promise) return result.finally(add) as T;
  add();
  return result;
}
