#!/usr/bin/env node
// Lighthouse benchmark: builds the site, serves it on loopback with the
// production headers, and runs Lighthouse (mobile and desktop presets) on the
// home page, a long configuration page and a plugin page. Prints the four
// category scores plus LCP, TBT, CLS and bytes transferred. Timings vary on a
// shared machine: this is a benchmark, not a test.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { createGzip } from 'node:zlib';
import { existsSync, statSync, createReadStream } from 'node:fs';
import { extname, normalize, sep } from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import * as chromeLauncher from 'chrome-launcher';

const root = join(import.meta.dirname, '..');
const out = mkdtempSync(join(tmpdir(), 'docs-lighthouse-'));
const pages = process.argv.slice(2).length ? process.argv.slice(2) : ['/', '/configuration/output/', '/plugins/normal-module-replacement-plugin/'];

// DOCS_SITE_ROOT measures another site folder (for example the test fixture) instead of this repository's.
const siteRoot = process.env.DOCS_SITE_ROOT ?? root;
const built = spawnSync(process.execPath, [join(root, 'bin/docs.js'), 'build', '--root', siteRoot, '--out', out, '--quiet'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);

// The production headers from _headers, plus long caching for hashed assets, and gzip.
const lines = readFileSync(join(out, '_headers'), 'utf8').split('\n');
const headers = {};
for (const line of lines.slice(1, lines.indexOf('/assets/*'))) {
  const m = /^\s+([\w-]+): (.*)$/.exec(line);
  if (m) headers[m[1]] = m[2];
}
const types = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.json': 'application/json', '.svg': 'image/svg+xml', '.txt': 'text/plain', '.xml': 'application/xml' };
const server = createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
  let file = normalize(join(out, path));
  if (!file.startsWith(out + sep) && file !== out) return void res.writeHead(400).end();
  if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
  const found = existsSync(file);
  if (!found) file = join(out, '404.html');
  const type = types[extname(file)] ?? 'application/octet-stream';
  const cache = path.startsWith('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
  const gzip = /gzip/.test(req.headers['accept-encoding'] ?? '') && /text|json|svg|xml|javascript/.test(type);
  res.writeHead(found ? 200 : 404, { ...headers, 'Content-Type': type, 'Cache-Control': cache, ...(gzip ? { 'Content-Encoding': 'gzip' } : {}) });
  const stream = createReadStream(file);
  (gzip ? stream.pipe(createGzip()) : stream).pipe(res);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const origin = `http://127.0.0.1:${server.address().port}`;

const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const rows = [];
try {
  for (const preset of ['mobile', 'desktop']) {
    for (const page of pages) {
      const result = await lighthouse(origin + page, { port: chrome.port, output: 'json', logLevel: 'error' }, preset === 'desktop' ? desktopConfig : undefined);
      const { categories, audits } = result.lhr;
      const score = (c) => Math.round((categories[c]?.score ?? 0) * 100);
      rows.push({
        preset,
        page,
        performance: score('performance'),
        accessibility: score('accessibility'),
        'best-practices': score('best-practices'),
        seo: score('seo'),
        'LCP ms': Math.round(audits['largest-contentful-paint'].numericValue),
        'TBT ms': Math.round(audits['total-blocking-time'].numericValue),
        CLS: Number(audits['cumulative-layout-shift'].numericValue.toFixed(3)),
        'KB transferred': Math.round(audits['total-byte-weight'].numericValue / 1024),
      });
      const failing = Object.values(audits).filter((a) => a.score !== null && a.score < 1 && a.scoreDisplayMode === 'binary').map((a) => a.id);
      if (failing.length) console.log(`${preset} ${page}: audits below 1: ${failing.join(', ')}`);
      for (const item of audits['errors-in-console'].details?.items ?? []) console.log(`  console: ${item.description ?? item.source} ${item.url ?? ''}`);
    }
  }
} finally {
  await chrome.kill();
  server.close();
  rmSync(out, { recursive: true, force: true });
}
console.table(rows);
