#!/usr/bin/env node
// What each cache layer saves: npm run bench:layers [-- --runs=3 --sizes=1000 --no-real --layers=links,config --once=pages]
//
// Times `docs build` as scripts/bench.mjs does (cold, warm, one edit), with every layer on, with
// DOCS_CACHE=0, and with one layer off at a time. Each round makes a cold build with every layer
// on (and one with DOCS_CACHE=0), then for each setting: a build with every layer on that is not
// timed (so that every layer holds the site as it is), the same build again with the setting
// (warm: nothing changed) and a build after changing one page (edit). The settings take turns,
// in an order that moves by one place per round, so that a change of the machine's load falls on
// all of them alike. A cold build has nothing in its caches, so a layer off can only spare it
// that layer's writes: the cold row with DOCS_CACHE=0 bounds what every layer together costs there.
//
// A layer is turned off through DOCS_CACHE_OFF (src/io/cache.ts): a kind (pages, record) or a part
// of the record of the last build (src/io/record.ts); the bundle of the command by DOCS_BUNDLE=0. Prints per row the
// median and range of the wall time and of the CPU time (user + system), and what the setting
// saves: (median with it off - median with every layer on) / median with it off.
// --pairs=N measures differently, for layers whose saving is small beside the noise of a busy
// machine: after one cold build, per layer and N times, a build with every layer on and one with
// the layer off run back to back (their order alternating), each after the untimed build; it
// prints the median of the pairs' differences (as a share of the run with the layer off).
// --kinds=cold,warm,edit chooses the kinds of build of --pairs (default warm,edit); a cold build
// of a pair starts from no cache and no output. --layers may name DOCS_CACHE=0 there too.
// --once=SETTING,… runs those settings in the first round only (DOCS_CACHE=0 and the render cache
// by default: without them a warm build renders every page, which is a cold build's time).
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBenchConfig } from './bench-config.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(process.argv.slice(2).map((a) => /^--([^=]+)(?:=(.*))?$/.exec(a) ?? []).map(([, k, v]) => [k, v ?? '1']));
const sizes = (args.sizes ?? '1000').split(',').filter(Boolean).map(Number);
const runs = Number(args.runs ?? 3);
const corpusScript = resolve(root, args.corpus ?? 'scripts/make-corpus.mjs');
const work = join(root, '.bench');
const cacheDir = join(work, 'layers-cache');
/**
 * The layers: the kinds of the cache (folders of node_modules/.cache/docs: pages, record), the parts
 * of the record (renders, links, config, assets, search, output), code tokens from the last render
 * (markup-tokens, no folder), and the command's bundle.
 */
const LAYERS = (args.layers ?? 'pages,record,renders,markup-tokens,links,config,assets,search,output,bundle').split(',');
const settings = ['all on', 'DOCS_CACHE=0', ...LAYERS];
const once = new Set((args.once ?? 'DOCS_CACHE=0,pages').split(','));

function buildOnce(siteRoot, out, setting) {
  const env = { ...process.env, DOCS_CACHE_DIR: cacheDir };
  delete env.DOCS_CACHE_OFF;
  delete env.DOCS_CACHE;
  if (setting === 'bundle') env.DOCS_BUNDLE = '0';
  else if (setting === 'DOCS_CACHE=0') env.DOCS_CACHE = '0';
  else if (setting !== 'all on') env.DOCS_CACHE_OFF = setting;
  const started = process.hrtime.bigint();
  const child = spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', process.execPath, join(root, 'bin/docs.js'), 'build', '--root', siteRoot, '--out', out, '--quiet'], {
    env,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) throw new Error(`build failed (${setting}):\n${child.stderr.slice(0, 2000)}`);
  const [, user, system] = /CPU ([\d.]+) ([\d.]+)/.exec(child.stderr) ?? [];
  return { ms, cpu: (Number(user) + Number(system)) * 1000 };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms) => (ms / 1000).toFixed(2);

/** Every time measured, by site, setting and kind of build (written to --json=FILE). */
const raw = {};

function measure(label, siteRoot, editFile) {
  const out = join(work, `${label.replace(/\W+/g, '-')}-layers-dist`);
  /** times[setting][kind] = { ms, cpu } of each run */
  const times = Object.fromEntries(settings.map((s) => [s, { cold: [], warm: [], edit: [] }]));
  const loads = [];
  const log = (setting, kind) => console.error(`${label}: ${setting} ${kind} ${seconds(times[setting][kind].at(-1).ms)}s (CPU ${seconds(times[setting][kind].at(-1).cpu)}s, load ${loadavg()[0].toFixed(1)})`);
  raw[label] = times;
  let edits = 0;
  for (let r = 0; r < runs; r++) {
    for (const setting of (r % 2 ? ['DOCS_CACHE=0', 'all on'] : ['all on', 'DOCS_CACHE=0']).filter((s) => !r || !once.has(s))) {
      rmSync(cacheDir, { recursive: true, force: true, maxRetries: 5 });
      rmSync(out, { recursive: true, force: true });
      times[setting].cold.push(buildOnce(siteRoot, out, setting));
      log(setting, 'cold');
    }
    for (let i = 0; i < settings.length; i++) {
      const setting = settings[(i + r) % settings.length];
      if (r && once.has(setting)) continue;
      loads.push(loadavg()[0]);
      buildOnce(siteRoot, out, 'all on');
      times[setting].warm.push(buildOnce(siteRoot, out, setting));
      log(setting, 'warm');
      appendFileSync(editFile, `\nEdited for benchmark run ${++edits}.\n`);
      times[setting].edit.push(buildOnce(siteRoot, out, setting));
      log(setting, 'edit');
    }
  }
  rmSync(out, { recursive: true, force: true });
  const rows = [];
  for (const setting of settings) {
    for (const kind of ['cold', 'warm', 'edit']) {
      const xs = times[setting][kind];
      if (!xs.length) continue;
      const base = times['all on'][kind];
      const row = { site: label, build: kind, setting: setting === 'all on' || setting.includes('=') ? setting : `${setting} off`, runs: xs.length };
      for (const [what, of] of [['wall', (x) => x.ms], ['CPU', (x) => x.cpu]]) {
        const m = median(xs.map(of));
        const b = median(base.map(of));
        row[`${what} s`] = `${seconds(m)} (${seconds(Math.min(...xs.map(of)))}–${seconds(Math.max(...xs.map(of)))})`;
        row[`${what} saves`] = setting === 'all on' ? '' : `${(((m - b) / m) * 100).toFixed(1)}%`;
      }
      rows.push(row);
    }
  }
  console.error(`${label}: load average (1 min) during the runs ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
  return rows;
}

/** Paired runs (see --pairs): per layer and kind, the median difference of back-to-back runs. */
function measurePairs(label, siteRoot, editFile, pairs) {
  const out = join(work, `${label.replace(/\W+/g, '-')}-layers-dist`);
  rmSync(cacheDir, { recursive: true, force: true, maxRetries: 5 });
  rmSync(out, { recursive: true, force: true });
  buildOnce(siteRoot, out, 'all on');
  const rows = [];
  const loads = [];
  let edits = 0;
  for (const layer of LAYERS) {
    const runs = Object.fromEntries(pairKinds.map((kind) => [kind, []]));
    for (let i = 0; i < pairs; i++) {
      for (const kind of pairKinds) {
        const pair = {};
        for (const setting of i % 2 ? [layer, 'all on'] : ['all on', layer]) {
          loads.push(loadavg()[0]);
          if (kind === 'cold') {
            rmSync(cacheDir, { recursive: true, force: true, maxRetries: 5 });
            rmSync(out, { recursive: true, force: true });
          } else buildOnce(siteRoot, out, 'all on');
          if (kind === 'edit') appendFileSync(editFile, `\nEdited for benchmark run ${++edits}.\n`);
          pair[setting] = buildOnce(siteRoot, out, setting);
        }
        runs[kind].push(pair);
      }
    }
    for (const kind of pairKinds) {
      const row = { site: label, build: kind, setting: layer.includes('=') ? layer : `${layer} off`, pairs: pairs };
      for (const [what, of] of [['wall', (x) => x.ms], ['CPU', (x) => x.cpu]]) {
        const on = runs[kind].map((p) => of(p['all on']));
        const off = runs[kind].map((p) => of(p[layer]));
        const saves = runs[kind].map((p) => (of(p[layer]) - of(p['all on'])) / of(p[layer]));
        row[`${what} on s`] = `${seconds(median(on))} (${seconds(Math.min(...on))}–${seconds(Math.max(...on))})`;
        row[`${what} off s`] = `${seconds(median(off))} (${seconds(Math.min(...off))}–${seconds(Math.max(...off))})`;
        row[`${what} saves`] = `${(median(saves) * 100).toFixed(1)}% (${(Math.min(...saves) * 100).toFixed(0)}…${(Math.max(...saves) * 100).toFixed(0)}%)`;
      }
      rows.push(row);
      console.error(JSON.stringify(row));
    }
    raw[`${label} ${layer}`] = runs;
  }
  console.error(`${label}: load average (1 min) during the runs ${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)}`);
  rmSync(out, { recursive: true, force: true });
  return rows;
}

const pairs = Number(args.pairs ?? 0);
const pairKinds = (args.kinds ?? 'warm,edit').split(',');
const run = (label, siteRoot, editFile) => (pairs ? measurePairs(label, siteRoot, editFile, pairs) : measure(label, siteRoot, editFile));

mkdirSync(work, { recursive: true });
const table = [];
for (const n of sizes) {
  const siteRoot = join(work, `layers-corpus-${n}`);
  rmSync(siteRoot, { recursive: true, force: true });
  const made = spawnSync(process.execPath, [corpusScript, join(siteRoot, 'content'), String(n)], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(made.stderr);
  writeBenchConfig(siteRoot);
  const section = readdirSync(join(siteRoot, 'content')).find((d) => statSync(join(siteRoot, 'content', d)).isDirectory());
  const editFile = join(siteRoot, 'content', section, readdirSync(join(siteRoot, 'content', section)).find((f) => f !== 'index.md'));
  table.push(...run(`corpus-${n}`, siteRoot, editFile));
  rmSync(siteRoot, { recursive: true, force: true });
}
if (!args['no-real']) {
  const copy = join(work, 'layers-real-site');
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  for (const part of ['site.config.yaml', 'content', 'static']) {
    if (existsSync(join(root, part))) cpSync(join(root, part), join(copy, part), { recursive: true });
  }
  // A page with code blocks (the edited page of a synthetic corpus has some too), so that the layers of code tokens have work.
  table.push(...run('real site', copy, join(copy, 'content', 'guides', 'getting-started.md')));
  rmSync(copy, { recursive: true, force: true });
}
console.table(table);
if (args.json) writeFileSync(args.json, JSON.stringify({ table, raw }, null, 1));
