import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headScript } from '../../templates/head-script.js';
import { contentSecurityPolicy, SECURITY_HEADERS } from '../../src/build/parts.js';
import { build } from '../../src/engine/build.js';
import { loadConfig } from '../../src/config/load.js';
import { RELOAD_TAG } from '../../src/serve/files.js';
import { headersFor, negotiateEncoding, parseHeadersFile, parseTarget } from '../../src/serve/http.js';
import type { PreviewServer as Preview } from '../../src/serve/serve.js';
import { get, makeFixture, rawRequest, readTree, SECRET, startBuiltPreview, type Fixture } from './helpers.js';

let fixture: Fixture;
let preview: Preview;
let base: string;

beforeAll(async () => {
  fixture = makeFixture();
  let captured;
  ({ preview, captured } = await startBuiltPreview(fixture));
  base = preview.url;
});

afterAll(async () => {
  await preview?.close();
  fixture?.cleanup();
});


describe('request targets', () => {
  it('accepts plain paths and decodes them', () => {
    expect(parseTarget('/guides/alpha/?x=1')).toEqual({ ok: true, path: '/guides/alpha/', rawPath: '/guides/alpha/', query: '?x=1' });
    expect(parseTarget('/caf%C3%A9/')).toMatchObject({ ok: true, path: '/café/' });
  });

  it.each([
    ['dot-dot segment', '/../secret.txt'],
    ['dot-dot deeper', '/guides/../../secret.txt'],
    ['encoded dot-dot', '/%2e%2e/secret.txt'],
    ['encoded dot-dot, mixed case', '/%2E%2e/%2e%2E/secret.txt'],
    ['encoded slash', '/..%2fsecret.txt'],
    ['encoded slash inside a name', '/guides%2falpha/'],
    ['backslash', '/..\\secret.txt'],
    ['encoded backslash', '/..%5csecret.txt'],
    ['NUL byte', '/index.html%00.txt'],
    ['absolute form', 'http://127.0.0.1/secret.txt'],
    ['protocol-relative path', '//etc/passwd'],
    ['empty segment', '/guides//alpha/'],
    ['single dot segment', '/./secret.txt'],
    ['malformed escape', '/%E0%A4%A'],
    ['asterisk form', '*'],
  ])('refuses %s', (_, target) => {
    expect(parseTarget(target)).toEqual({ ok: false });
  });
});

describe('encoding negotiation', () => {
  it('prefers br, honours q=0 and the wildcard', () => {
    expect(negotiateEncoding('gzip, deflate, br')).toBe('br');
    expect(negotiateEncoding('gzip')).toBe('gzip');
    expect(negotiateEncoding('br;q=0, gzip')).toBe('gzip');
    expect(negotiateEncoding('gzip;q=0.5, br;q=0.2')).toBe('gzip');
    expect(negotiateEncoding('identity')).toBe(null);
    expect(negotiateEncoding('*')).toBe('br');
    expect(negotiateEncoding('*, br;q=0')).toBe('gzip');
    expect(negotiateEncoding(undefined)).toBe(null);
  });
});

describe('the _headers file', () => {
  it('is read into rules that combine in file order', () => {
    const rules = parseHeadersFile('/*\n  A: 1\n  B: x: y\n/assets/*\n  Cache-Control: immutable\n');
    expect(headersFor(rules, '/guides/')).toEqual({ A: '1', B: 'x: y' });
    expect(headersFor(rules, '/assets/main.js')).toEqual({ A: '1', B: 'x: y', 'Cache-Control': 'immutable' });
  });
});

describe('docs serve answers', () => {
  it('serves a page with the reload script, the security headers of docs build and validators', async () => {
    const res = await get(base, '/guides/alpha/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<h1>Alpha guide</h1>');
    expect(res.text).toContain(`${RELOAD_TAG}</head>`);
    expect(res.text.split(RELOAD_TAG)).toHaveLength(2);
    const { config } = loadConfig(fixture.path('site.config.yaml'), 'site.config.yaml');
    expect(res.headers['content-security-policy']).toBe(contentSecurityPolicy(config, headScript(config), true));
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers[name.toLowerCase()]).toBe(value);
    expect(res.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(new Date(res.headers['last-modified'] as string).getTime()).toBeGreaterThan(0);
    expect(res.headers['cache-control']).toBe('no-cache');
  });

  it('serves the built files from memory exactly as docs build writes them (the reload script aside)', async () => {
    await preview.settled();
    const out = mkdtempSync(join(tmpdir(), 'docs-serve-built-'));
    try {
      await build({ root: fixture.site, out, templates: fixture.templates });
      const built = readTree(out);
      const served = preview.files();
      expect([...served.keys()].sort()).toEqual([...built.keys()].sort());
      for (const [path, bytes] of built) expect(served.get(path)?.equals(bytes), path).toBe(true);
      // What the browser gets: the same page plus one script tag.
      const page = await get(base, '/guides/beta/');
      expect(page.text).toBe(readFileSync(join(out, 'guides/beta/index.html'), 'utf8').replace('</head>', `${RELOAD_TAG}</head>`));
      expect(readFileSync(join(out, 'guides/beta/index.html'), 'utf8')).not.toContain('/__docs/');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });

  it('serves assets with their content types and the immutable caching of _headers', async () => {
    const page = await get(base, '/');
    const css = /href="(\/assets\/style\.[0-9a-f]{10}\.css)"/.exec(page.text)![1]!;
    const js = /src="(\/assets\/main\.[0-9a-f]{10}\.js)"/.exec(page.text)![1]!;
    const cssRes = await get(base, css);
    expect(cssRes.status).toBe(200);
    expect(cssRes.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(cssRes.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const jsRes = await get(base, js);
    expect(jsRes.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect((await get(base, '/favicon.svg')).headers['content-type']).toBe('image/svg+xml');
    expect((await get(base, '/sitemap.xml')).headers['content-type']).toBe('application/xml; charset=utf-8');
    expect((await get(base, '/llms.txt')).headers['content-type']).toBe('text/plain; charset=utf-8');
    const notes = await get(base, '/notes.txt');
    expect(notes.status).toBe(200);
    expect(notes.text).toBe('Static notes.\n');
    const reload = await get(base, '/__docs/reload.js');
    expect(reload.status).toBe(200);
    expect(reload.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(reload.text).toContain('/__docs/events');
  });

  it('serves index.html for folders and redirects a folder named without its slash', async () => {
    expect((await get(base, '/guides/index.html')).text).toContain('<h1>Guides</h1>');
    const redirect = await get(base, '/guides');
    expect(redirect.status).toBe(301);
    expect(redirect.headers.location).toBe('/guides/');
    expect((await get(base, '/guides/alpha?tab=1')).headers.location).toBe('/guides/alpha/?tab=1');
    // Redirect pages of the config are ordinary files.
    expect((await get(base, '/old-alpha/')).text).toContain('url=/guides/alpha/');
  });

  it('answers a missing file with the site 404 page and status 404', async () => {
    const res = await get(base, '/no/such/page/');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toContain('<h1>Page not found</h1>');
    expect(res.text).toContain(RELOAD_TAG);
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect((await get(base, '/site.config.yaml')).status).toBe(404);
    expect((await get(base, '/content/index.md')).status).toBe(404);
    expect((await get(base, '/__docs/nothing')).status).toBe(404);
  });

  it('answers 304 to If-None-Match and If-Modified-Since', async () => {
    const first = await get(base, '/guides/beta/');
    const etag = first.headers.etag as string;
    const again = await get(base, '/guides/beta/', { 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    expect((await get(base, '/guides/beta/', { 'If-None-Match': `"other", W/${etag}` })).status).toBe(304);
    expect((await get(base, '/guides/beta/', { 'If-None-Match': '"other"' })).status).toBe(200);
    expect((await get(base, '/guides/beta/', { 'If-Modified-Since': first.headers['last-modified'] as string })).status).toBe(304);
    expect((await get(base, '/guides/beta/', { 'If-Modified-Since': new Date(0).toUTCString() })).status).toBe(200);
  });

  it('compresses with gzip or brotli when asked, and not otherwise', async () => {
    const plain = await get(base, '/guides/alpha/');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toBe('Accept-Encoding');
    const gz = await get(base, '/guides/alpha/', { 'Accept-Encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).toString()).toBe(plain.text);
    expect(Number(gz.headers['content-length'])).toBe(gz.body.length);
    expect(gz.body.length).toBeLessThan(plain.body.length / 2);
    const br = await get(base, '/guides/alpha/', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.body).toString()).toBe(plain.text);
    // Tiny files are not worth it.
    expect((await get(base, '/notes.txt', { 'Accept-Encoding': 'gzip' })).headers['content-encoding']).toBeUndefined();
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    const head = await get(base, '/guides/alpha/', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expect(Number(head.headers['content-length'])).toBeGreaterThan(1000);
    const post = await get(base, '/guides/alpha/', {}, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    // The reload stream too: its headers, and the end (it used to stay open with nothing sent).
    const events = await get(base, '/__docs/events?path=/', {}, 'HEAD');
    expect(events.status).toBe(200);
    expect(events.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(events.body.length).toBe(0);
  });

  describe('answers only requests addressed to a localhost name (a page of another site could read the preview through a DNS name that points at this computer)', () => {
    const FORBIDDEN = 'Forbidden: the preview answers only to localhost names on a loopback address.';
    const port = () => new URL(base).port;

    it.each([
      ['a foreign host', () => 'evil.example'],
      ['a foreign host with the preview\'s port', () => `evil.example:${port()}`],
      ['a name that starts like the loopback address', () => `127.0.0.1.evil.example:${port()}`],
    ])('%s → 403 for a page, a file, the reload script and the event stream', async (_, host) => {
      for (const path of ['/guides/alpha/', '/notes.txt', '/__docs/reload.js', '/__docs/events?path=/']) {
        const res = await get(base, path, { Host: host() });
        expect(res.status, path).toBe(403);
        expect(res.text, path).toBe(`${FORBIDDEN}\n`);
        expect(res.headers['content-type'], path).toMatch(/^text\/plain/);
      }
    });

    it('no Host header → 403 (HTTP/1.0); an HTTP/1.1 request without one is refused as malformed', async () => {
      for (const version of ['1.0', '1.1']) {
        const res = await rawExchange(base, `GET /guides/alpha/ HTTP/${version}\r\nConnection: close\r\n\r\n`);
        expect(res.status, `HTTP/${version}`).toBe(version === '1.0' ? 403 : 400);
        if (version === '1.0') expect(res.text.endsWith(`\r\n\r\n${FORBIDDEN}\n`)).toBe(true);
        expect(res.text, `HTTP/${version}`).not.toContain('Alpha guide');
      }
    });

    it('localhost names and loopback addresses with the port are answered', async () => {
      for (const host of [`localhost:${port()}`, `127.0.0.1:${port()}`, `docs.localhost:${port()}`, `LOCALHOST:${port()}`]) {
        const res = await get(base, '/guides/alpha/', { Host: host });
        expect(res.status, host).toBe(200);
        expect(res.text, host).toContain('<h1>Alpha guide</h1>');
      }
    });
  });

  describe('refuses every request that tries to leave the output folder', () => {
    it.each([
      '/../secret.txt',
      '/../../secret.txt',
      '/guides/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2e%2e/%2e%2e/secret.txt',
      '/guides/%2E%2E/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%2fsecret.txt',
      '/guides%2f..%2f..%2fsecret.txt',
      '/..\\secret.txt',
      '/%5c..%5csecret.txt',
      '/..%5c..%5csecret.txt',
      '/index.html%00',
      '/secret.txt%00.html',
      '//etc/passwd',
      '/./secret.txt',
    ])('%s → 400', async (target) => {
      const res = await rawRequest(base, target);
      expect(res.status).toBe(400);
      expect(res.text).not.toContain(SECRET);
    });

    it('absolute paths and absolute-form targets never reach the file system', async () => {
      for (const target of ['/etc/passwd', `${fixture.path('secret.txt')}`, '/secret.txt']) {
        const res = await rawRequest(base, target);
        expect(res.status, target).toBe(404);
        expect(res.text).not.toContain(SECRET);
        expect(res.text).not.toContain('root:');
      }
      const absolute = await rawRequest(base, `http://127.0.0.1/../secret.txt`);
      expect(absolute.status).toBe(400);
      expect(absolute.text).not.toContain(SECRET);
    });

    it('double-encoded dots stay literal names and find nothing', async () => {
      const res = await rawRequest(base, '/%252e%252e/secret.txt');
      expect(res.status).toBe(404);
      expect(res.text).not.toContain(SECRET);
    });
  });
});

/** Writes `request` byte for byte on a socket and reads the whole answer (the server closes it). */
function rawExchange(base: string, request: string): Promise<{ status: number; text: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let data = '';
    socket.on('connect', () => socket.write(request));
    socket.on('data', (c) => (data += c.toString('latin1')));
    socket.on('end', () => resolve({ status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(data)?.[1] ?? 0), text: data }));
    socket.on('error', reject);
  });
}
