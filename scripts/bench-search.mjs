#!/usr/bin/env node
// Search benchmark: npm run bench:search [-- --sizes=1000,10000 --no-real --files --misses]
// Builds the synthetic corpus (and the real site), serves it, and in Chromium
// measures what a first query downloads (each word of a list as the first query
// of a fresh page: median and largest), how long words typed one after another
// take to show results (as the test driver sees it, and measured inside the page
// from the input event to the rendered results), the index size on disk, and on the real
// site the relevance of the queries of test/quality/search-relevance-queries.json. Transfers are bytes on the
// wire from a server that gzips like static hosts do (--files lists them).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { writeBenchConfig } from './bench-config.mjs';
import { serveStatic } from './static-server.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')).map(([k, v]) => [k, v ?? '1']));
const sizes = (args.sizes ?? '1000,10000').split(',').map(Number).filter(Boolean);
const work = join(root, '.bench');

const du = (dir) => readdirSync(dir).reduce((n, f) => {
  const p = join(dir, f);
  const st = statSync(p);
  return n + (st.isDirectory() ? du(p) : st.size);
}, 0);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The relevance queries of test/quality/search-relevance.browser.test.ts: each with the pages one of which must come within the first `within` results. */
const relevanceQueries = JSON.parse(readFileSync(join(root, 'test/quality/search-relevance-queries.json'), 'utf8'));

async function measure(label, siteRoot, words, relevance) {
  const out = join(work, `${label}-search-dist`);
  const built = spawnSync(process.execPath, [join(root, 'bin/docs.js'), 'build', '--root', siteRoot, '--out', out, '--quiet'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(built.stderr);
  const server = await serveStatic(out);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
  /** A fresh page (empty cache) on the home page, counting the search's bytes on the wire (compressed bodies) as Chromium does. */
  const open = async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (r) => r.fulfill({ status: 204, body: '' }));
    const meter = { bytes: 0, files: [] };
    page.on('requestfinished', async (request) => {
      if (!/\/search-index\/|\/assets\/(search|terms)\./.test(request.url())) return;
      const { responseBodySize } = await request.sizes();
      meter.bytes += responseBodySize;
      meter.files.push(`${request.url().replace(/^.*?\/\/[^/]+/, '')} ${(responseBodySize / 1024).toFixed(1)} KB`);
    });
    await page.goto(server.url + '/');
    await page.focus('#search-input');
    const search = async (q) => {
      const started = Date.now();
      await page.fill('#search-input', q);
      await page.waitForFunction((query) => document.getElementById('search-results')?.dataset.query === query, q);
      return Date.now() - started;
    };
    return { context, meter, search };
  };
  // Each word as the first query of a fresh page: what it downloads.
  const firstBytes = [];
  const firstMs = [];
  for (const word of words) {
    const { context, meter, search } = await open();
    firstMs.push(await search(word));
    await new Promise((r) => setTimeout(r, 200)); // finished requests report their sizes a moment later
    firstBytes.push(meter.bytes);
    if (args.files) console.error(`${label}, first query "${word}": ${(meter.bytes / 1024).toFixed(1)} KB\n  ${meter.files.join('\n  ')}`);
    await context.close();
  }
  // Then words typed one after another in one page: how long until their results show, as the test
  // driver sees it (its round trips included), and inside the page (input event to results rendered).
  const { context, search } = await open();
  await search(words[0]);
  const later = [];
  for (const w of words.slice(1)) later.push(await search(w));
  await context.close();
  const inPage = await (async () => {
    const { context: fresh, search: first } = await open();
    await first(words[0]);
    const page = fresh.pages()[0];
    const times = await page.evaluate(async (list) => {
      const input = document.getElementById('search-input');
      const results = document.getElementById('search-results');
      const out = [];
      for (const word of list) {
        await new Promise((r) => setTimeout(r, 100));
        const started = performance.now();
        const shown = new Promise((resolve) => {
          const observer = new MutationObserver(() => {
            if (results.dataset.query === word) {
              observer.disconnect();
              resolve();
            }
          });
          observer.observe(results, { attributes: true });
        });
        input.value = word;
        input.dispatchEvent(new Event('input'));
        await shown;
        out.push(performance.now() - started);
      }
      return out;
    }, words.slice(1));
    await fresh.close();
    return times;
  })();
  // Relevance (the real site): the queries whose expected page comes within their first results, and the mean reciprocal rank of the first expected page.
  let relevant;
  if (relevance) {
    const { context: fresh, search } = await open();
    const page = fresh.pages()[0];
    let hits = 0;
    let reciprocal = 0;
    for (const [query, expected, within = 1] of relevance) {
      await search(query);
      const urls = await page.$$eval('#search-results [role="option"]', (links) => links.map((a) => new URL(a.href).pathname));
      const rank = urls.findIndex((u) => expected.includes(u));
      if (rank >= 0 && rank < within) hits++;
      else if (args.misses) console.error(`${label}, "${query}": ${urls.slice(0, 5).join(', ')}`);
      if (rank >= 0) reciprocal += 1 / (rank + 1);
    }
    await fresh.close();
    relevant = `${hits}/${relevance.length}, MRR ${(reciprocal / relevance.length).toFixed(3)}`;
  }
  await browser.close();
  await server.close();
  const kb = (b) => Number((b / 1024).toFixed(1));
  const row = {
    site: label,
    'index on disk MB': Number((du(join(out, 'search-index')) / 1024 / 1024).toFixed(1)),
    'first query KB (median / max of the words)': `${kb(median(firstBytes))} / ${kb(Math.max(...firstBytes))}`,
    'first query ms (median)': median(firstMs),
    'typed word ms (median)': median(later),
    'typed word ms in page (median / max)': `${Math.round(median(inPage))} / ${Math.round(Math.max(...inPage))}`,
    ...(relevant ? { 'relevance (expected page first / MRR)': relevant } : {}),
  };
  rmSync(out, { recursive: true, force: true });
  return row;
}

mkdirSync(work, { recursive: true });
const rows = [];
const corpusWords = ['configuration', 'chunk', 'resolver', 'plugin', 'cache', 'runtime', 'federation'];
for (const n of sizes) {
  const siteRoot = join(work, `search-corpus-${n}`);
  rmSync(siteRoot, { recursive: true, force: true });
  spawnSync(process.execPath, [join(root, 'scripts/make-corpus.mjs'), join(siteRoot, 'content'), String(n)]);
  writeBenchConfig(siteRoot);
  rows.push(await measure(`corpus-${n}`, siteRoot, corpusWords));
  rmSync(siteRoot, { recursive: true, force: true });
}
if (!args['no-real']) {
  const copy = join(work, 'search-real');
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  for (const part of ['site.config.yaml', 'content', 'static']) if (existsSync(join(root, part))) cpSync(join(root, part), join(copy, part), { recursive: true });
  rows.push(await measure('real site', copy, ['webpack', 'entry', 'output', 'splitChunks', 'loader', 'devtool', 'publicPath'], relevanceQueries));
  rmSync(copy, { recursive: true, force: true });
}
console.table(rows);
