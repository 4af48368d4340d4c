#!/usr/bin/env node
// Search benchmark: npm run bench:search [-- --sizes=1000,10000 --no-real --files]
// Builds the synthetic corpus (and the real site), serves it, and in Chromium
// measures what the first query downloads, how long typed words take to show
// results, and the index size on disk. The first query's transfer counts the bytes
// on the wire from a server that gzips like static hosts do (--files lists them).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
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

async function measure(label, siteRoot, words) {
  const out = join(work, `${label}-search-dist`);
  const built = spawnSync(process.execPath, [join(root, 'bin/docs.js'), 'build', '--root', siteRoot, '--out', out, '--quiet'], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(built.stderr);
  const server = await serveStatic(out);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
  const page = await browser.newPage();
  await page.route(/^https?:\/\/(?!127\.0\.0\.1)/, (r) => r.fulfill({ status: 204, body: '' }));
  // Bytes on the wire (compressed bodies), as Chromium counts them.
  let bytes = 0;
  const files = [];
  page.on('requestfinished', async (request) => {
    if (!/\/pagefind\/|\/assets\/terms\./.test(request.url())) return;
    const { responseBodySize } = await request.sizes();
    bytes += responseBodySize;
    files.push(`${request.url().replace(/^.*?\/\/[^/]+/, '')} ${(responseBodySize / 1024).toFixed(1)} KB`);
  });
  await page.goto(server.url + '/');
  const search = async (q) => {
    const started = Date.now();
    await page.fill('#search-input', q);
    await page.waitForFunction((query) => document.getElementById('search-results')?.dataset.query === query, q);
    return Date.now() - started;
  };
  await page.focus('#search-input');
  const first = await search(words[0]);
  // Finished requests report their sizes a moment later.
  await page.waitForTimeout(200);
  const firstBytes = bytes;
  if (args.files) console.error(`${label}, first query "${words[0]}":\n  ${files.join('\n  ')}`);
  const later = [];
  for (const w of words.slice(1)) later.push(await search(w));
  later.sort((a, b) => a - b);
  await browser.close();
  await server.close();
  const row = {
    site: label,
    'index on disk MB': Number((du(join(out, 'pagefind')) / 1024 / 1024).toFixed(1)),
    'first query KB': Number((firstBytes / 1024).toFixed(1)),
    'first query ms': first,
    'typed word ms (median)': later[Math.floor(later.length / 2)],
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
  spawnSync(process.execPath, [resolve(root, '../shared/bench/make-corpus.mjs'), join(siteRoot, 'content'), String(n)]);
  writeBenchConfig(siteRoot);
  rows.push(await measure(`corpus-${n}`, siteRoot, corpusWords));
  rmSync(siteRoot, { recursive: true, force: true });
}
if (!args['no-real']) {
  const copy = join(work, 'search-real');
  rmSync(copy, { recursive: true, force: true });
  mkdirSync(copy, { recursive: true });
  for (const part of ['site.config.yaml', 'content', 'static']) if (existsSync(join(root, part))) cpSync(join(root, part), join(copy, part), { recursive: true });
  rows.push(await measure('real site', copy, ['webpack', 'entry', 'output', 'splitChunks', 'loader', 'devtool', 'publicPath']));
  rmSync(copy, { recursive: true, force: true });
}
console.table(rows);
