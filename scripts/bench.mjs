#!/usr/bin/env node
// Build benchmark: npm run bench [-- --sizes=100,1000,10000 --runs=3 --no-real --no-shapes --against=../other-checkout --site=../a-checkout]
//
// For each size, writes the deterministic synthetic corpus (scripts/make-corpus.mjs)
// with a generated site.config.yaml, then times `docs build` as a separate process:
//   cold  - no caches (cache folder removed, fresh output folder)
//   warm  - the same build again, with caches and the previous output
//   edit  - after changing one page
//   cold, one thread - a cold build with DOCS_WORKERS=0, and its one-thread share: the part of it
//          that runs on one thread whatever the number of cores, that is all but the stages of
//          DOCS_PROFILE that the worker pool shares out (POOL_STAGES of src/shared/stages.ts: the
//          pages' Markdown, markdown-pages, and their documents, documents)
// It reports the median wall time of the runs, pages per second, peak RSS, output
// size and the slowest stages (from DOCS_PROFILE), and does the same for this
// repository's own site. Beside the cold build it shows how long remark-parse alone
// takes to parse the same pages on one thread (scripts/parse-floor.mjs).
// --against names another checkout of the tool (with its node_modules), a commit to compare with:
// each run then builds with both, taking turns in an order that changes from run to run, and the
// table has a row per tool; the real site is then each checkout's own, or for both the one of the
// checkout --site names. Before each timed build the disk is synced, so that one build's output
// being written back does not slow the next.
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBenchConfig } from './bench-config.mjs';
import { shapeRows } from './bench-shapes.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? '1']));
const sizes = (args.sizes ?? '100,1000,10000').split(',').filter(Boolean).map(Number);
const runs = Number(args.runs ?? 3);
const corpusScript = resolve(root, args.corpus ?? 'scripts/make-corpus.mjs');
const work = join(root, '.bench');
/** The tools measured: this checkout, and the one --against names. Each has a cache of the benchmark's own, so that nothing else touches it between runs. */
const tools = [{ name: 'this', root, cacheDir: join(work, 'cache') }];
if (args.against) tools.push({ name: 'against', root: resolve(args.against), cacheDir: join(work, 'cache-against') });

function duSize(dir) {
  let total = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const st = statSync(path);
    total += st.isDirectory() ? duSize(path) : st.size;
  }
  return total;
}

function buildOnce(tool, siteRoot, out, env = {}) {
  spawnSync('sync');
  const started = process.hrtime.bigint();
  const child = spawnSync('/usr/bin/time', ['-f', 'MAXRSS %M', process.execPath, join(tool.root, 'bin/docs.js'), 'build', '--root', siteRoot, '--out', out, '--quiet'], {
    env: { ...process.env, DOCS_PROFILE: '1', DOCS_CACHE_DIR: tool.cacheDir, ...env },
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`build failed:\n${child.stderr.slice(0, 2000)}`);
  const rss = Number(/MAXRSS (\d+)/.exec(child.stderr)?.[1] ?? 0) / 1024;
  const profile = JSON.parse(/DOCS_PROFILE (.*)/.exec(child.stderr)?.[1] ?? '{"stages":{}}');
  return { ms, rss, stages: profile.stages };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Times the builds of a site per tool: `siteOf(tool)` gives the site's folder, its page count and the page the edit run changes. */
function measure(label, siteOf) {
  const rows = [];
  const measured = tools.map((tool) => ({ tool, ...siteOf(tool), out: join(work, `${label}-${tool.name}-dist`), kinds: { cold: [], warm: [], edit: [], 'cold, one thread': [] } }));
  for (let r = 0; r < runs; r++) {
    for (const { tool, siteRoot, editFile, out, kinds } of r % 2 ? [...measured].reverse() : measured) {
      rmSync(tool.cacheDir, { recursive: true, force: true, maxRetries: 5 });
      rmSync(out, { recursive: true, force: true });
      kinds.cold.push(buildOnce(tool, siteRoot, out));
      kinds.warm.push(buildOnce(tool, siteRoot, out));
      appendFileSync(editFile, `\nEdited for benchmark run ${r} at ${Date.now()}.\n`);
      kinds.edit.push(buildOnce(tool, siteRoot, out));
      rmSync(tool.cacheDir, { recursive: true, force: true, maxRetries: 5 });
      rmSync(out, { recursive: true, force: true });
      kinds['cold, one thread'].push(buildOnce(tool, siteRoot, out, { DOCS_WORKERS: '0' }));
    }
  }
  // What the brief's parser alone needs for the same pages (one thread): the floor under a cold build.
  for (const { tool, siteRoot, pageCount, out, kinds } of measured) {
    const floor = spawnSync(process.execPath, [join(root, 'scripts/parse-floor.mjs'), join(siteRoot, 'content')], { encoding: 'utf8' });
    const floorMs = floor.status === 0 ? JSON.parse(floor.stdout).ms : NaN;
    rows.push(...tableRows(label, tool, out, pageCount, floorMs, kinds));
  }
  return rows;
}

function tableRows(label, tool, out, pageCount, floorMs, kinds) {
  const rows = [];
  const size = duSize(out);
  for (const [kind, results] of Object.entries(kinds)) {
    const ms = median(results.map((x) => x.ms));
    const stageNames = Object.keys(results[0].stages);
    const stages = Object.fromEntries(stageNames.map((s) => [s, median(results.map((x) => x.stages[s] ?? 0))]));
    const slowest = Object.entries(stages).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([s, v]) => `${s} ${(v / 1000).toFixed(2)}s`).join(', ');
    rows.push({
      site: label,
      ...(tools.length > 1 ? { tool: tool.name } : {}),
      pages: pageCount,
      build: kind,
      'wall s (median)': Number((ms / 1000).toFixed(2)),
      'pages/s': Math.round(pageCount / (ms / 1000)),
      'peak RSS MB': Math.round(Math.max(...results.map((x) => x.rss))),
      'output MB': Number((size / 1024 / 1024).toFixed(1)),
      'remark-parse alone s': kind === 'cold' ? Number((floorMs / 1000).toFixed(2)) : '',
      'slowest stages': slowest,
      'one-thread share': kind === 'cold, one thread' ? `${Math.round(100 * median(results.map((x) => 1 - ((x.stages['markdown-pages'] ?? 0) + (x.stages.documents ?? 0)) / x.ms)))} %` : '',
    });
  }
  rmSync(out, { recursive: true, force: true });
  return rows;
}

mkdirSync(work, { recursive: true });
const table = [];
for (const n of sizes) {
  const siteRoot = join(work, `corpus-${n}`);
  if (!existsSync(join(siteRoot, 'site.config.yaml'))) {
    rmSync(siteRoot, { recursive: true, force: true });
    const made = spawnSync(process.execPath, [corpusScript, join(siteRoot, 'content'), String(n)], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(made.stderr);
    writeBenchConfig(siteRoot);
  }
  const section = readdirSync(join(siteRoot, 'content')).find((d) => statSync(join(siteRoot, 'content', d)).isDirectory());
  const editFile = join(siteRoot, 'content', section, readdirSync(join(siteRoot, 'content', section)).find((f) => f !== 'index.md'));
  console.error(`measuring ${n} pages (${runs} runs)…`);
  table.push(...measure(`corpus-${n}`, () => ({ siteRoot, pageCount: n + 1 + 8, editFile })));
  rmSync(siteRoot, { recursive: true, force: true });
}
if (!args['no-real']) {
  // A copy, so that the edit run never touches the working tree. With --against, each tool builds its
  // own checkout's site (an older tool may not know what the site's config and pages use today), or
  // both build the site of the checkout --site names.
  console.error('measuring the real site…');
  const copies = [];
  table.push(
    ...measure('real site', (tool) => {
      const copy = join(work, `real-site-${tool.name}`);
      rmSync(copy, { recursive: true, force: true });
      mkdirSync(copy, { recursive: true });
      const from = args.site ? resolve(args.site) : tool.root;
      for (const part of ['site.config.yaml', 'content', 'static']) {
        if (existsSync(join(from, part))) cpSync(join(from, part), join(copy, part), { recursive: true });
      }
      copies.push(copy);
      const pageCount = readdirSync(join(copy, 'content'), { recursive: true }).filter((f) => String(f).endsWith('.md')).length;
      return { siteRoot: copy, pageCount, editFile: join(copy, 'content', 'index.md') };
    }),
  );
  for (const copy of copies) rmSync(copy, { recursive: true, force: true });
}
console.table(table);
if (!args['no-shapes']) {
  // One page as large as a page may be, per shape (scripts/bench-shapes.mjs): within 3 s.
  console.error('measuring input shapes…');
  console.table(shapeRows());
}
