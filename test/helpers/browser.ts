import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';

/*
 * The browser harness: Debian's Chromium driven by playwright-core, and a tiny
 * static server for built sites. Outside CI, a missing Chromium skips the
 * browser tests with a loud notice; in CI it is an error.
 */

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) {
  if (process.env.CI) throw new Error(`Chromium is required for the browser tests in CI, but ${CHROMIUM} does not exist`);
  console.warn(`\n*** BROWSER TESTS SKIPPED: no Chromium at ${CHROMIUM} (install Debian's chromium package) ***\n`);
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export const DESKTOP: BrowserContextOptions = { viewport: { width: 1280, height: 800 } };
export const PHONE: BrowserContextOptions = { viewport: { width: 375, height: 667 }, hasTouch: true, isMobile: true, deviceScaleFactor: 2 };

/** Third-party hosts never load in tests: requests to them get an empty answer, so pages stay offline and fast. */
export async function offline(page: Page): Promise<void> {
  await page.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) =>
    route.request().resourceType() === 'image'
      ? route.fulfill({ status: 200, contentType: 'image/svg+xml', body: '<svg xmlns="http://www.w3.org/2000/svg" width="90" height="20"/>' })
      : route.fulfill({ status: 204, body: '' }),
  );
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/** Serves a built site folder (index.html for folders, 404.html for misses), optionally with extra headers. */
export async function serveStatic(dir: string, headers: Record<string, string> = {}): Promise<StaticServer> {
  const root = resolve(dir);
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root + sep) && file !== root) {
      res.writeHead(400).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    const found = existsSync(file);
    const body = readFileSync(found ? file : join(root, '404.html'));
    res.writeHead(found ? 200 : 404, { 'Content-Type': TYPES[extname(found ? file : '404.html')] ?? 'application/octet-stream', ...headers });
    res.end(body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

/** Saves a screenshot of the page as <name>.png in DOCS_SCREENSHOTS, when that folder is given (to look at by hand). */
export async function screenshot(page: Page, name: string): Promise<void> {
  const dir = process.env.DOCS_SCREENSHOTS;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`) });
}
