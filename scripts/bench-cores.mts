// The part of a build that only the main thread can do: npm run bench:cores [-- --pages=1000 --workers=2]
//
// Builds the synthetic corpus cold (scripts/make-corpus.mjs, an empty cache) with the worker pool
// doing all the pages' Markdown and all their documents (the main thread renders none of them),
// and prints how long the main thread was busy (its event loop's active time) beside the wall time.
// That busy time is what no number of cores takes away: compare it with a cold build on one
// thread (DOCS_WORKERS=0, `npm run bench`). Runs from the sources (tsx), in this process.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { writeBenchConfig } from './bench-config.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => /^--([^=]+)=(.*)$/.exec(a) ?? []).map(([, k, v]) => [k, v]));
const pages = Number(args.pages ?? 1000);
const scratch = mkdtempSync(join(tmpdir(), 'docs-bench-cores-'));
try {
  const here = dirname(fileURLToPath(import.meta.url));
  spawnSync(process.execPath, [join(here, 'make-corpus.mjs'), join(scratch, 'site', 'content'), String(pages)], { stdio: 'ignore' });
  writeBenchConfig(join(scratch, 'site'));
  process.env.DOCS_CACHE_DIR = join(scratch, 'cache');
  process.env.DOCS_WORKERS = args.workers ?? '2';
  process.env.NODE_ENV ??= 'production';
  const { build } = await import('../src/engine/build.js');
  const before = performance.eventLoopUtilization();
  const started = performance.now();
  await build({ root: join(scratch, 'site'), out: join(scratch, 'out'), pool: { mainThread: false, minBytes: 1, minDocuments: 1 } });
  const busy = performance.eventLoopUtilization(before).active;
  console.log(`${pages} pages, ${process.env.DOCS_WORKERS} worker threads, cold: wall ${((performance.now() - started) / 1000).toFixed(1)} s; main thread busy ${Math.round(busy)} ms`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
