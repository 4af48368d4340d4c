#!/usr/bin/env node
// Benchmark of `docs serve` (a benchmark, not a test: timings vary on a shared machine).
//
//   1. Live reload: starts `docs serve` on a copy of the real site (content/,
//      site.config.yaml, static/) in .bench/serve-site, opens a page in
//      Chromium, saves a body edit of that page N times and measures the time
//      from the file write to the browser holding the new text (p50, p95);
//      then the same for a site.config.yaml edit (the sidebar title of the
//      page's section), which rebuilds every page.
//   0. Start to first page: spawns `docs serve` and asks for the edited page
//      every 10 ms until it is answered; cold (an empty cache folder: nothing
//      rendered before, as on a fresh clone) and warm (the cache of the run
//      before), three runs each, medians printed. The command's own bundle is
//      made when the project is installed, so it is there on a fresh clone too.
//   2. Load: 100 concurrent keep-alive connections for 10 s each on the page,
//      the stylesheet and the script, with a bounded generator on node:http;
//      prints requests/s, latency p50/p99, errors and non-2xx answers.
//
// The copy keeps the real files untouched (writers edit them meanwhile). When
// the real site does not build yet (pages listed but not written, links to
// them), the copy gets small placeholder pages for what is missing, so that
// the site has its full size; the numbers of real and placeholder pages are
// printed. The edited files are restored at the end.
//
// Usage: node scripts/bench-serve.mjs [--edits 20] [--config-edits 10] [--page content/guides/installation.md]
//          [--duration 10] [--connections 100] [--gap 400] [--no-first-page] [--no-browser] [--no-load] [--json]
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { createServer } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SITE = join(ROOT, '.bench', 'serve-site');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];
// Other hosts (badges, avatars) fail at once instead of adding network noise. Routing requests through
// the driver would do the same but disables the HTTP cache, which a real reload relies on.
const OFFLINE = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const flag = (name) => args.includes(`--${name}`);
const EDITS = Number(option('edits', 20));
const CONFIG_EDITS = Number(option('config-edits', 10));
const DURATION_S = Number(option('duration', 10));
const CONNECTIONS = Number(option('connections', 100));
const GAP_MS = Number(option('gap', 400));

const log = (s = '') => process.stdout.write(s + '\n');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const percentile = (values, p) => {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};
const ms = (v) => (Number.isFinite(v) ? `${v.toFixed(v < 10 ? 1 : 0)} ms` : 'n/a');

// ---------------------------------------------------------------- the site copy

function copySite() {
  rmSync(SITE, { recursive: true, force: true });
  mkdirSync(SITE, { recursive: true });
  cpSync(join(ROOT, 'content'), join(SITE, 'content'), { recursive: true });
  cpSync(join(ROOT, 'site.config.yaml'), join(SITE, 'site.config.yaml'));
  if (existsSync(join(ROOT, 'static'))) cpSync(join(ROOT, 'static'), join(SITE, 'static'), { recursive: true });
}

function check() {
  const result = spawnSync(process.execPath, [join(ROOT, 'bin/docs.js'), 'check', '--root', SITE], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return { ok: result.status === 0, problems: result.stderr.split('\n').filter((l) => /^\S+:\d+:\d+ /.test(l)) };
}

const titleOf = (id) => {
  const last = id.split('/').pop() || 'Home';
  return last.replace(/-/g, ' ').replace(/^./, (c) => c.toUpperCase());
};

/** Adds placeholder pages until the copy builds; returns what was added. */
function makeBuildable() {
  const stubs = new Set();
  const replaced = new Set();
  const fileOfId = (id) => (existsSync(join(SITE, 'content', id, 'index.md')) ? `content/${id}/index.md` : `content/${id}.md`);
  const writeStub = (file, title, headings = []) => {
    mkdirSync(dirname(join(SITE, file)), { recursive: true });
    writeFileSync(join(SITE, file), `---\ntitle: ${JSON.stringify(title)}\n---\n\nThis page is not written yet.\n${headings.map((h) => `\n## ${h}\n`).join('')}`);
    stubs.add(file);
  };
  for (let round = 1; round <= 8; round++) {
    const { ok, problems } = check();
    if (ok) return { stubs, replaced };
    let fixed = 0;
    const anchors = new Map();
    for (const line of problems) {
      const [where] = line.split(' ');
      const file = where.replace(/:\d+:\d+$/, '');
      let m;
      if ((m = /(?:has no file|has no index page: create) (content\/\S+?\.md)/.exec(line))) {
        if (!existsSync(join(SITE, m[1]))) {
          writeStub(m[1], titleOf(m[1].slice('content/'.length, -3).replace(/\/index$/, '')));
          fixed++;
        }
      } else if ((m = /links to "(\/[^"#?]*?)\/?(?:#[^"]*)?", which is not a page/.exec(line)) && m[1] && !/\.\w+$/.test(m[1])) {
        const stub = `content${m[1]}.md`;
        if (!existsSync(join(SITE, stub)) && !existsSync(join(SITE, `content${m[1]}/index.md`))) {
          writeStub(stub, titleOf(m[1].slice(1)));
          fixed++;
        }
      } else if ((m = /links to "#([^"]+)", but \/(\S*?)\/? has no such anchor/.exec(line)) && stubs.has(fileOfId(m[2]))) {
        const list = anchors.get(fileOfId(m[2])) ?? new Set();
        list.add(m[1]);
        anchors.set(fileOfId(m[2]), list);
      } else if (file.startsWith('content/') && !stubs.has(file)) {
        // A real page with a problem of its own: a placeholder with its title takes its place.
        const text = readFileSync(join(SITE, file), 'utf8');
        const title = /^title:\s*(.+)$/m.exec(text)?.[1]?.replace(/^["']|["']$/g, '') ?? titleOf(file);
        writeStub(file, title);
        replaced.add(file);
        fixed++;
      }
    }
    for (const [file, ids] of anchors) {
      const text = readFileSync(join(SITE, file), 'utf8');
      writeFileSync(join(SITE, file), text + [...ids].map((id) => `\n## ${id}\n\n<a id="${id}"></a>\n`).join(''));
      fixed++;
    }
    if (!fixed) throw new Error(`the copy of the site does not build and placeholders cannot fix it:\n${problems.slice(0, 20).join('\n')}`);
  }
  const { ok, problems } = check();
  if (!ok) throw new Error(`the copy of the site still does not build:\n${problems.slice(0, 20).join('\n')}`);
  return { stubs, replaced };
}

// ---------------------------------------------------------------- the server

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** One start of `docs serve` with the cache folder `cache`: ms from the spawn to the page's answer, and to "Ready". */
async function firstPage(cache, path) {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'bin/docs.js'), 'serve', '--root', SITE, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DOCS_CACHE_DIR: cache },
  });
  let output = '';
  child.stdout.on('data', (c) => (output += c));
  child.stderr.on('data', (c) => (output += c));
  const exit = new Promise((resolve) => child.on('exit', resolve));
  const status = () =>
    new Promise((resolve) => {
      const req = request({ host: '127.0.0.1', port, path, agent: false, headers: { host: `localhost:${port}` } }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode));
      });
      req.on('error', () => resolve(0));
      req.end();
    });
  let page = NaN;
  while (performance.now() - started < 120_000) {
    if ((await status()) === 200) {
      page = performance.now() - started;
      break;
    }
    await sleep(10);
  }
  while (!/^Ready in/m.test(output) && performance.now() - started < 300_000) await sleep(20);
  const ready = performance.now() - started;
  child.kill('SIGINT');
  await exit;
  if (!Number.isFinite(page)) throw new Error(`no answer for ${path}:\n${output}`);
  return { page, ready };
}

async function measureFirstPage(path, runs = 3) {
  const rows = { cold: [], warm: [] };
  for (let i = 0; i < runs; i++) {
    const cache = join(ROOT, '.bench', `serve-cache-${i}`);
    rmSync(cache, { recursive: true, force: true });
    rows.cold.push(await firstPage(cache, path));
    rows.warm.push(await firstPage(cache, path));
    rmSync(cache, { recursive: true, force: true });
  }
  return rows;
}

async function startServe() {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'bin/docs.js'), 'serve', '--root', SITE, '--port', String(port)], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const rebuilds = [];
  const onData = (chunk) => {
    const text = chunk.toString();
    output += text;
    for (const m of text.matchAll(/^(?:Fixed; rebuilt|Rebuilt)[^\n]* in (\d+) ms: (\d+) files? parsed, (\d+) pages? rendered/gm)) {
      rebuilds.push({ ms: Number(m[1]), parsed: Number(m[2]), rendered: Number(m[3]), at: performance.now() });
    }
    // With DOCS_PROFILE set, the server prints the time of each stage after each rebuild line.
    for (const m of text.matchAll(/^DOCS_PROFILE (\{.*\})$/gm)) if (rebuilds.length) rebuilds.at(-1).stages = JSON.parse(m[1]);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  const exit = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`docs serve did not start in 180 s:\n${output}`)), 180_000);
    const poll = setInterval(() => {
      const m = /Serving (http:\/\/\S+\/) /.exec(output);
      // Edits are measured once the first build is in and the watcher is ready.
      if (m && /^Ready in/m.test(output)) {
        clearTimeout(timer);
        clearInterval(poll);
        resolve(m[1]);
      }
    }, 20);
    exit.then(() => reject(new Error(`docs serve exited:\n${output}`)));
  });
  return { child, url, exit, output: () => output, rebuilds, startup: performance.now() - started, pages: Number(/Built (\d+) pages/.exec(output)?.[1] ?? 0) };
}

// ---------------------------------------------------------------- live reload in Chromium

async function measureReloads(server, pageFile) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, OFFLINE] });
  const results = { page: [], config: [], pageWrites: [], configWrites: [] };
  const pageUrl = new URL(urlOf(pageFile), server.url).href;
  const originalPage = readFileSync(join(SITE, pageFile), 'utf8');
  const configFile = join(SITE, 'site.config.yaml');
  const originalConfig = readFileSync(configFile, 'utf8');
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    let waiting = null;
    await page.exposeFunction('__benchLoaded', (html) => {
      const now = performance.now();
      if (waiting && html.includes(waiting.marker)) {
        waiting.resolve(now);
        waiting = null;
      }
    });
    await page.addInitScript(() => {
      document.addEventListener('DOMContentLoaded', () => window.__benchLoaded(document.documentElement.outerHTML));
    });
    const seen = (marker) =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the browser never showed "${marker}"`)), 30_000);
        waiting = { marker, resolve: (t) => (clearTimeout(timer), resolve(t)) };
      });
    const connected = page.waitForResponse((r) => r.url().includes('/__docs/events'));
    await page.goto(pageUrl);
    await connected;

    // Page edits: a paragraph at the end of the body changes; title and headings stay.
    let previous = 'bench-start';
    let shown = seen(previous);
    writeFileSync(join(SITE, pageFile), originalPage.replace(/\s*$/, `\n\nBench marker ${previous}.\n`));
    await shown;
    for (let i = 1; i <= EDITS; i++) {
      await sleep(GAP_MS);
      const marker = `bench-${i}-${Math.random().toString(36).slice(2, 8)}`;
      shown = seen(marker);
      const text = readFileSync(join(SITE, pageFile), 'utf8').replace(`Bench marker ${previous}.`, `Bench marker ${marker}.`);
      const t0 = performance.now();
      writeFileSync(join(SITE, pageFile), text);
      results.pageWrites.push(t0);
      results.page.push((await shown) - t0);
      previous = marker;
    }

    // Config edits: the sidebar title of the page's section (every page is rendered again).
    const section = sectionTitleFor(originalConfig, pageFile);
    let title = section;
    for (let i = 1; i <= CONFIG_EDITS; i++) {
      await sleep(GAP_MS * 2);
      const next = `${section} bench${i}${Math.random().toString(36).slice(2, 6)}`;
      shown = seen(next);
      const text = readFileSync(configFile, 'utf8').replace(`  - title: ${title}\n`, `  - title: ${next}\n`);
      if (text === readFileSync(configFile, 'utf8')) throw new Error(`cannot find the section title "${title}" in the config`);
      const t0 = performance.now();
      writeFileSync(configFile, text);
      results.configWrites.push(t0);
      results.config.push((await shown) - t0);
      title = next;
    }
  } finally {
    writeFileSync(join(SITE, pageFile), originalPage);
    writeFileSync(configFile, originalConfig);
    await browser.close();
  }
  return results;
}

function urlOf(file) {
  const id = file.slice('content/'.length, -3).replace(/(^|\/)index$/, '');
  return id ? `/${id}/` : '/';
}

/** The title of the config section that lists the page (the text of its sidebar label). */
function sectionTitleFor(config, file) {
  const id = file.slice('content/'.length, -3).replace(/(^|\/)index$/, '');
  const sections = config.split(/\n(?=  - title: )/);
  for (const block of sections) {
    const title = /^ {2}- title: (.+)$/m.exec(block)?.[1];
    const url = /^ {4}url: "?([^"\n]*)"?$/m.exec(block)?.[1];
    if (title && (url === id || new RegExp(`^ {6}- ${id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm').test(block))) return title.trim();
  }
  throw new Error(`${file} is in no section of the config`);
}

// ---------------------------------------------------------------- load

async function load(url, { connections, durationMs }) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
  const target = new URL(url);
  const latencies = [];
  let errors = 0;
  let non2xx = 0;
  let bytes = 0;
  const deadline = performance.now() + durationMs;
  const one = () =>
    new Promise((resolve) => {
      const start = performance.now();
      const req = request(
        { host: target.hostname, port: target.port, path: target.pathname, agent, headers: { 'Accept-Encoding': 'gzip, deflate, br' } },
        (res) => {
          res.on('data', (c) => (bytes += c.length));
          res.on('end', () => {
            latencies.push(performance.now() - start);
            if (res.statusCode < 200 || res.statusCode > 299) non2xx++;
            resolve();
          });
          res.on('error', () => (errors++, resolve()));
        },
      );
      req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
      req.on('error', () => (errors++, resolve()));
      req.end();
    });
  const loop = async () => {
    while (performance.now() < deadline) await one();
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  const seconds = (performance.now() - started) / 1000;
  agent.destroy();
  return {
    requests: latencies.length,
    rps: latencies.length / seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies.reduce((a, b) => Math.max(a, b), 0),
    errors,
    non2xx,
    mbPerSecond: bytes / seconds / 1e6,
  };
}

// ---------------------------------------------------------------- main

async function main() {
  log(`docs serve benchmark — ${cpus().length} CPUs, load average ${loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  copySite();
  const real = spawnSync('find', [join(SITE, 'content'), '-name', '*.md'], { encoding: 'utf8' }).stdout.trim().split('\n').filter(Boolean).length;
  const { stubs, replaced } = makeBuildable();
  log(
    `Site: a copy of content/ and site.config.yaml in ${relative(ROOT, SITE)}/ — ${real} Markdown files` +
      (stubs.size ? `, plus ${stubs.size - replaced.size} placeholder pages for pages not written yet` : '') +
      (replaced.size ? `; ${replaced.size} page${replaced.size === 1 ? '' : 's'} with problems replaced by placeholders` : '') +
      '.',
  );

  const candidates = [option('page'), 'content/guides/installation.md', 'content/concepts/index.md', 'content/configuration/devtool.md'].filter(Boolean);
  const pageFile = candidates.find((f) => existsSync(join(SITE, f)) && !stubs.has(f));
  if (!pageFile) throw new Error('no real page to edit; pass --page content/….md');
  log(`Edited page: ${pageFile} (${(statSync(join(SITE, pageFile)).size / 1024).toFixed(1)} KB)`);

  if (!flag('no-first-page')) {
    const rows = await measureFirstPage(urlOf(pageFile));
    const median = (list, key) => percentile(list.map((r) => r[key]), 50);
    log('');
    log(`Start to first page (${urlOf(pageFile)}), medians of ${rows.cold.length} starts:`);
    log(`  cold (empty cache): first page ${ms(median(rows.cold, 'page'))}, whole site built ${ms(median(rows.cold, 'ready'))}   [${rows.cold.map((r) => Math.round(r.page)).join(', ')} ms]`);
    log(`  warm (cache of the last start): first page ${ms(median(rows.warm, 'page'))}, whole site built ${ms(median(rows.warm, 'ready'))}   [${rows.warm.map((r) => Math.round(r.page)).join(', ')} ms]`);
    log('');
  }
  const server = await startServe();
  log(`docs serve: ${server.pages} pages, serving after ${(server.startup / 1000).toFixed(1)} s at ${server.url}`);
  const summary = { pages: server.pages, startupMs: Math.round(server.startup), page: pageFile };
  try {
    if (!flag('no-browser')) {
      if (!existsSync(CHROMIUM)) log(`No Chromium at ${CHROMIUM}: live reload timings skipped.`);
      else {
        const firstRebuild = server.rebuilds.length;
        const reloads = await measureReloads(server, pageFile);
        const pageBuilds = server.rebuilds.slice(firstRebuild + 1, firstRebuild + 1 + EDITS);
        const configBuilds = server.rebuilds.slice(firstRebuild + 1 + EDITS);
        const pageRebuilds = pageBuilds.map((r) => r.ms);
        const configRebuilds = configBuilds.map((r) => r.ms);
        // When the server printed its rebuild line, counted from the write (watcher, debounce, build).
        const pageBuilt = pageBuilds.map((r, i) => r.at - reloads.pageWrites[i]);
        const configBuilt = configBuilds.map((r, i) => r.at - reloads.configWrites[i]);
        log('');
        log(`Save → new text in the browser (${EDITS} page edits, ${CONFIG_EDITS} config edits):`);
        log(`  page edit:   p50 ${ms(percentile(reloads.page, 50))}, p95 ${ms(percentile(reloads.page, 95))}, min ${ms(percentile(reloads.page, 0))}, max ${ms(percentile(reloads.page, 100))}`);
        log(`               rebuild in the server p50 ${ms(percentile(pageRebuilds, 50))}; rebuilt (write → server done) p50 ${ms(percentile(pageBuilt, 50))}`);
        log(`  config edit: p50 ${ms(percentile(reloads.config, 50))}, p95 ${ms(percentile(reloads.config, 95))}, min ${ms(percentile(reloads.config, 0))}, max ${ms(percentile(reloads.config, 100))}`);
        log(`               rebuild in the server p50 ${ms(percentile(configRebuilds, 50))}; rebuilt (write → server done) p50 ${ms(percentile(configBuilt, 50))}`);
        if (process.env.DOCS_PROFILE) {
          const stages = (builds) => {
            const names = [...new Set(builds.flatMap((b) => Object.keys(b.stages ?? {})))];
            return names.map((n) => `${n} ${ms(percentile(builds.map((b) => b.stages?.[n] ?? 0), 50))}`).join(', ');
          };
          log(`  stages (p50), page edit:   ${stages(pageBuilds)}`);
          log(`  stages (p50), config edit: ${stages(configBuilds)}`);
        }
        summary.pageEdit = { p50: percentile(reloads.page, 50), p95: percentile(reloads.page, 95), rebuildP50: percentile(pageRebuilds, 50) };
        summary.configEdit = { p50: percentile(reloads.config, 50), p95: percentile(reloads.config, 95), rebuildP50: percentile(configRebuilds, 50) };
      }
    }
    if (!flag('no-load')) {
      await sleep(1500); // let the background work of the last edit finish
      const html = await new Promise((resolve, reject) => {
        request(new URL(urlOf(pageFile), server.url), (res) => {
          let text = '';
          res.on('data', (c) => (text += c));
          res.on('end', () => resolve(text));
        })
          .on('error', reject)
          .end();
      });
      const css = /href="(\/assets\/style\.[0-9a-f]+\.css)"/.exec(html)?.[1];
      const js = /src="(\/assets\/main\.[0-9a-f]+\.js)"/.exec(html)?.[1];
      log('');
      log(`Load: ${CONNECTIONS} keep-alive connections for ${DURATION_S} s each, Accept-Encoding: gzip, deflate, br (generator in this process, server in its own):`);
      summary.load = {};
      for (const [name, path] of [['page', urlOf(pageFile)], ['css', css], ['js', js]]) {
        const r = await load(new URL(path, server.url).href, { connections: CONNECTIONS, durationMs: DURATION_S * 1000 });
        log(`  ${name.padEnd(4)} ${path}: ${Math.round(r.rps)} req/s, p50 ${ms(r.p50)}, p99 ${ms(r.p99)}, max ${ms(r.max)}, ${r.requests} requests, ${r.errors} errors, ${r.non2xx} non-2xx, ${r.mbPerSecond.toFixed(1)} MB/s`);
        summary.load[name] = { path, rps: Math.round(r.rps), p50: r.p50, p99: r.p99, errors: r.errors, non2xx: r.non2xx, requests: r.requests };
      }
    }
  } finally {
    server.child.kill('SIGINT');
    const { code, signal } = await server.exit;
    log('');
    log(`docs serve stopped on SIGINT with exit code ${code ?? signal}.`);
    summary.exitCode = code;
  }
  if (flag('json')) log(JSON.stringify(summary));
}

main().catch((e) => {
  console.error(e.stack ?? String(e));
  process.exitCode = 1;
});
