// A minimal static server for built sites, for the benchmarks (index.html for folders, 404.html for misses).
// Text, script and WebAssembly answers are gzip-compressed when the client accepts it, as static hosts do;
// the search index's .bin files are gzipped by the build already and go as they are.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { gzipSync } from 'node:zlib';
import { extname, join, normalize, resolve, sep } from 'node:path';

const TYPES = { '.html': 'text/html; charset=utf-8', '.css': 'text/css', '.js': 'text/javascript', '.json': 'application/json', '.svg': 'image/svg+xml', '.wasm': 'application/wasm' };

export async function serveStatic(dir) {
  const root = resolve(dir);
  const server = createServer((req, res) => {
    let file = normalize(join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
    if (!file.startsWith(root + sep) && file !== root) return void res.writeHead(400).end();
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    const found = existsSync(file);
    if (!found) file = join(root, '404.html');
    const type = TYPES[extname(file)];
    let body = readFileSync(file);
    const headers = { 'Content-Type': type ?? 'application/octet-stream' };
    if (type && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
      body = gzipSync(body);
      headers['Content-Encoding'] = 'gzip';
    }
    res.writeHead(found ? 200 : 404, headers);
    res.end(body);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return { url: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((r) => server.close(r)) };
}
