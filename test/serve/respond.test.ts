import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { EventHub } from '../../src/serve/events.js';
import { Entry, FileStore, RELOAD_SCRIPT_URL, RELOAD_TAG } from '../../src/serve/files.js';
import type { HeaderRule } from '../../src/serve/http.js';
import { hostAllowed, Responder, type EarlyFiles, type Served } from '../../src/serve/respond.js';

/*
 * How the preview answers a request (src/serve/respond.ts), over real HTTP: the request
 * handler of `docs serve` behind a server of this process, with the served files, the
 * header rules and the first build's on-demand pages given by the test. Each answer is
 * read as a browser gets it: status, headers and body.
 */

const FALLBACK_CSP = "default-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

interface Answer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

function storeOf(files: Record<string, string>): FileStore {
  const store = new FileStore();
  store.apply(Object.entries(files), []);
  return store;
}

interface Setup extends Partial<Omit<Served, 'err'>> {
  store?: FileStore;
}

/** A preview answering with `setup` (the built files, rules…); what it writes to the terminal is in `err()`. */
async function preview(setup: Setup = {}): Promise<{ get: (path: string, options?: { method?: string; host?: string }) => Promise<Answer>; err: () => string; responder: Responder }> {
  let err = '';
  let responder!: Responder;
  const hub = new EventHub((path) => responder.hashOf(path));
  responder = new Responder({
    store: setup.store ?? new FileStore(),
    hub: setup.hub ?? (() => hub),
    host: setup.host ?? '127.0.0.1',
    rules: setup.rules ?? (() => []),
    security: setup.security ?? (() => ({})),
    reloadScript: setup.reloadScript ?? (() => undefined),
    early: setup.early,
    searchPending: setup.searchPending,
    err: { write: (s: string) => (err += s) },
  });
  const server = createServer((req: IncomingMessage, res: ServerResponse) => responder.handle(req, res));
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const get = (path: string, options: { method?: string; host?: string } = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: { host: options.host ?? `localhost:${port}`, connection: 'close' } }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
        res.on('error', reject);
      });
      req.on('error', reject);
      // A handler that never answers fails its test here, rather than when the whole run gives up.
      req.setTimeout(10_000, () => req.destroy(new Error(`no answer to ${path} within 10 s`)));
      req.end();
    });
  return { get, err: () => err, responder };
}

/** Header rules as the built `_headers` file gives them: one for "/" alone, one for every path. */
const RULES: HeaderRule[] = [
  { pattern: /^\/$/, headers: [['X-Top', 'yes']] },
  { pattern: /^.*$/, headers: [['Content-Security-Policy', "default-src 'none'"]] },
];

const SITE = {
  '/index.html': '<!DOCTYPE html><html><head></head><body>home</body></html>',
  '/guides/index.html': '<!DOCTYPE html><html><head></head><body>guides</body></html>',
  '/style.css': 'body{}',
};

describe('the answers of the preview', () => {
  it('sends the fallback policy and the security headers until a _headers file exists, and no-cache on every file', async () => {
    const { get } = await preview({ store: storeOf(SITE), security: () => ({ 'X-Content-Type-Options': 'nosniff' }) });
    const page = await get('/guides/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('guides');
    expect(page.headers['content-security-policy']).toBe(FALLBACK_CSP);
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['cache-control']).toBe('no-cache');
  });

  it('sends the headers of the _headers rules that match the path, and not the fallback', async () => {
    const { get } = await preview({ store: storeOf(SITE), rules: () => RULES, security: () => ({ 'X-Content-Type-Options': 'nosniff' }) });
    const top = await get('/');
    expect(top.headers['x-top']).toBe('yes');
    expect(top.headers['content-security-policy']).toBe("default-src 'none'");
    expect(top.headers['x-content-type-options']).toBeUndefined();
    const css = await get('/style.css');
    expect(css.headers['x-top']).toBeUndefined();
    expect(css.headers['cache-control']).toBe('no-cache');
  });

  it('refuses another host name on a loopback address with 403, whichever loopback name it is bound to', async () => {
    for (const host of ['127.0.0.1', '::1', 'localhost']) {
      const { get } = await preview({ store: storeOf(SITE), host, rules: () => RULES });
      const refused = await get('/guides/', { host: 'evil.example' });
      expect(refused.status, host).toBe(403);
      expect(refused.headers['x-top'], host).toBe('yes');
      expect(refused.body).toBe('Forbidden: the preview answers only to localhost names on a loopback address.\n');
      expect((await get('/', { host: 'localhost' })).status, host).toBe(200);
    }
    // Bound to another interface on purpose: any name.
    const open = await preview({ store: storeOf(SITE), host: '0.0.0.0' });
    expect((await open.get('/', { host: 'evil.example' })).status).toBe(200);
  });

  it('answers 405 with an Allow header to methods other than GET and HEAD', async () => {
    const { get } = await preview({ store: storeOf(SITE), rules: () => RULES });
    const answer = await get('/', { method: 'POST' });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, HEAD');
    expect(answer.headers['x-top']).toBe('yes');
    expect(answer.body).toBe('Method not allowed: the preview answers GET and HEAD.\n');
  });

  it('answers 400 to a path that climbs out, with the headers of the top', async () => {
    const { get } = await preview({ store: storeOf(SITE), rules: () => RULES });
    const answer = await get('/guides/%2e%2e/%2e%2e/etc/passwd');
    expect(answer.status).toBe(400);
    expect(answer.body).toBe('Bad request: this path is not allowed.\n');
    expect(answer.headers['x-top']).toBe('yes');
  });

  it('answers a folder named without its slash with a 301 that is not cached', async () => {
    const { get } = await preview({ store: storeOf(SITE) });
    const answer = await get('/guides?x=1');
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe('/guides/?x=1');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['content-length']).toBe('0');
  });

  it('answers a missing file with the 404 page when there is one, and with a short text when not', async () => {
    const withPage = await preview({ store: storeOf({ ...SITE, '/404.html': '<html><head></head><body>lost</body></html>' }) });
    const page = await withPage.get('/nowhere.txt');
    expect(page.status).toBe(404);
    expect(page.body).toContain('lost');
    const without = await preview({ store: storeOf(SITE) });
    const text = await without.get('/nowhere.txt');
    expect(text.status).toBe(404);
    expect(text.body).toBe('Not found.\n');
    expect(without.err()).toBe('');
  });

  it('says the search index is being made (503, ask again in a second) only for its files, and only while it is', async () => {
    let pending = true;
    const asked: string[] = [];
    const searchPending = (prefix: string) => (asked.push(prefix), pending);
    const { get } = await preview({ store: storeOf({ ...SITE, '/search-index/index.json': '{}', '/zh-cn/search-index/index.json': '{}' }), searchPending });
    // A language's or version's index too, under its prefix.
    expect((await get('/zh-cn/search-index/index.json')).status).toBe(503);
    expect((await get('/4.x/zh-cn/search-index/a1b2c3/s0.bin')).status).toBe(503);
    expect(asked).toEqual(['/zh-cn/', '/4.x/zh-cn/']);
    const waiting = await get('/search-index/index.json');
    expect(waiting.status).toBe(503);
    expect(waiting.headers['retry-after']).toBe('1');
    expect(waiting.headers['cache-control']).toBe('no-store');
    expect(waiting.headers['content-security-policy']).toBe(FALLBACK_CSP);
    expect(waiting.body).toBe('The search index is being built.\n');
    // Not for other paths that merely hold the name.
    expect((await get('/guides/search-index/')).status).toBe(404);
    pending = false;
    expect((await get('/search-index/index.json')).status).toBe(200);
    // A server that does not make a search index answers its files as any other.
    const plain = await preview({ store: storeOf({ ...SITE, '/search-index/index.json': '{}' }) });
    expect((await plain.get('/search-index/index.json')).body).toBe('{}');
  });

  it('before the first good build, answers every path with the page that waits for it (503), and HEAD with its headers alone', async () => {
    const { get } = await preview({});
    const answer = await get('/guides/');
    expect(answer.status).toBe(503);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['server-timing']).toBe('docs;desc=placeholder');
    expect(answer.headers['content-security-policy']).toBe(FALLBACK_CSP);
    expect(answer.body).toMatch(/^<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">/);
    expect(answer.body).toContain('<title>The site has problems</title>');
    expect(answer.body).toContain(RELOAD_TAG);
    expect(answer.body).toContain('<h1>The site could not be built yet</h1>');
    expect(answer.body).toContain('Fix them and this page reloads by itself.</p></main></body></html>');
    expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body));
    const head = await get('/guides/', { method: 'HEAD' });
    expect(head.status).toBe(503);
    expect(head.headers['content-length']).toBe(answer.headers['content-length']);
    expect(head.body).toBe('');
  });

  it('serves its reload script, cached for ten minutes, and its event stream; any other path of its own is not found', async () => {
    const script = new Entry(RELOAD_SCRIPT_URL, 'console.log("reload")');
    const { get } = await preview({ store: storeOf(SITE), rules: () => RULES, reloadScript: () => script });
    const js = await get(RELOAD_SCRIPT_URL);
    expect(js.status).toBe(200);
    expect(js.body).toBe('console.log("reload")');
    expect(js.headers['cache-control']).toBe('max-age=600');
    expect(js.headers['x-top']).toBe('yes');
    expect(js.headers['content-security-policy']).toBe("default-src 'none'");
    const events = await get('/__docs/events?path=/', { method: 'HEAD' });
    expect(events.status).toBe(200);
    expect(events.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(events.headers['x-top']).toBe('yes');
    const other = await get('/__docs/other.js');
    expect(other.status).toBe(404);
    expect(other.body).toBe('Not found.\n');
    expect(other.headers['x-top']).toBe('yes');
  });

  it('answers 404 for the reload script while it is not made yet', async () => {
    const { get } = await preview({ store: storeOf(SITE) });
    expect((await get(RELOAD_SCRIPT_URL)).status).toBe(404);
  });

  it('answers 500 and prints the stack in the terminal when answering throws', async () => {
    const { get, err } = await preview({
      store: storeOf(SITE),
      rules: () => {
        throw new Error('the rules broke');
      },
    });
    const answer = await get('/guides/');
    expect(answer.status).toBe(500);
    expect(answer.body).toBe('Internal error; see the terminal.\n');
    expect(err()).toMatch(/^Unexpected error while answering \/guides\/:\nError: the rules broke\n\s+at /);
  });

  it('prints a thrown value that is no Error as it is', async () => {
    const { get, err } = await preview({
      store: storeOf(SITE),
      rules: () => {
        throw 'not an error object';
      },
    });
    expect((await get('/')).status).toBe(500);
    expect(err()).toBe('Unexpected error while answering /:\nnot an error object\n');
  });

  it('cuts the connection when it fails after the answer began (it cannot send a 500 then)', async () => {
    const { get, err } = await preview({
      store: storeOf(SITE),
      hub: () =>
        ({
          connect(_req: IncomingMessage, res: ServerResponse) {
            res.writeHead(200, { 'Content-Type': 'text/event-stream' });
            res.write('retry: 1000\n\n');
            throw new Error('the stream broke');
          },
        }) as unknown as EventHub,
    });
    await expect(get('/__docs/events')).rejects.toThrow(/aborted|socket hang up|ECONNRESET/);
    expect(err()).toContain('Unexpected error while answering /__docs/events:\nError: the stream broke');
  });
});

describe('the hash of the document at a path (what tells an open page to reload)', () => {
  it('is the served hash of a file, "redirect", the 404 page\'s hash, or a marker', async () => {
    const store = storeOf(SITE);
    const { responder } = await preview({ store });
    expect(responder.hashOf('/guides/')).toBe(store.get('/guides/index.html')!.hash);
    expect(responder.hashOf('/guides')).toBe('redirect');
    expect(responder.hashOf('/nowhere/')).toBe('missing');
    expect(responder.hashOf('/../x')).toBe('bad-request');
    const with404 = storeOf({ ...SITE, '/404.html': 'lost' });
    expect((await preview({ store: with404 })).responder.hashOf('/nowhere/')).toBe(with404.get('/404.html')!.hash);
  });

  it('is "placeholder" before the first build, and the hash of a page rendered on request during it', async () => {
    expect((await preview({})).responder.hashOf('/guides/')).toBe('placeholder');
    expect((await preview({ early: () => undefined })).responder.hashOf('/guides/')).toBe('placeholder');
    const build = earlyBuild({}, {}, { rendered: { '/guides/index.html': '<html><head></head><body>early</body></html>' } });
    const { responder } = await preview({ store: build.main, early: build.early });
    expect(responder.hashOf('/guides/')).toBe(build.files.get('/guides/index.html')!.hash);
    expect(responder.hashOf('/other/')).toBe('missing');
    // An early build that rendered nothing yet: still the placeholder.
    const none = earlyBuild({});
    expect((await preview({ store: none.main, early: none.early })).responder.hashOf('/guides/')).toBe('placeholder');
  });
});

describe('a request during the first build', () => {
  const PAGES = { '/guides/alpha/index.html': '<html><head></head><body>early alpha</body></html>', '/x.html': '<html><head></head><body>early x</body></html>' };
  const FINISHED = {
    '/guides/alpha/index.html': '<html><head></head><body>final alpha</body></html>',
    '/x.html': '<html><head></head><body>final x</body></html>',
    '/style.css': 'body{color:black}',
  };

  it('renders a page asked for by its folder, and answers it before the build ends, with the headers of its path', async () => {
    const build = earlyBuild(PAGES, FINISHED);
    const { get } = await preview({ store: build.main, early: build.early, rules: () => [{ pattern: /^\/guides\/alpha\/$/, headers: [['X-Alpha', '1']] }] });
    const answer = await get('/guides/alpha/');
    expect(build.requested).toEqual(['/guides/alpha/']);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('early alpha');
    expect(answer.headers['x-alpha']).toBe('1');
  });

  it('renders a page asked for by its .html name', async () => {
    const build = earlyBuild(PAGES, FINISHED);
    const { get } = await preview({ store: build.main, early: build.early });
    const answer = await get('/x.html');
    expect(build.requested).toEqual(['/x.html']);
    expect(answer.body).toContain('early x');
  });

  it('renders the page of a path without its last slash, and redirects to the slash', async () => {
    const build = earlyBuild(PAGES, FINISHED);
    const { get } = await preview({ store: build.main, early: build.early, rules: () => [{ pattern: /^\/guides\/alpha$/, headers: [['X-Alpha', '1']] }] });
    const answer = await get('/guides/alpha?tab=1');
    expect(build.requested).toEqual(['/guides/alpha/']);
    expect(answer.status).toBe(301);
    expect(answer.headers.location).toBe('/guides/alpha/?tab=1');
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.headers['x-alpha']).toBe('1');
  });

  it('renders nothing for a file with an extension that is not a page: it waits for the build and answers from it', async () => {
    const build = earlyBuild(PAGES, FINISHED);
    const { get } = await preview({ store: build.main, early: build.early });
    const answer = await get('/style.css');
    expect(build.requested).toEqual([]);
    expect(answer.status).toBe(200);
    expect(answer.body).toBe('body{color:black}');
    const nested = await get('/guides/alpha/app.js');
    expect(build.requested).toEqual([]);
    expect(nested.status).toBe(404);
  });

  it('renders nothing again for a page it already holds, nor for one it already redirects', async () => {
    const build = earlyBuild({}, FINISHED, { rendered: { '/ready/index.html': '<html><head></head><body>ready</body></html>' } });
    const { get } = await preview({ store: build.main, early: build.early });
    const page = await get('/ready/');
    expect(page.status).toBe(200);
    expect(page.body).toContain('ready');
    const folder = await get('/ready');
    expect(folder.status).toBe(301);
    expect(folder.headers.location).toBe('/ready/');
    expect(build.requested).toEqual([]);
  });

  it('answers from the finished build when it ended while the page was rendered', async () => {
    const build = earlyBuild(PAGES, FINISHED, { endsWhileRendering: true });
    const { get } = await preview({ store: build.main, early: build.early });
    const answer = await get('/guides/alpha/');
    expect(build.requested).toEqual(['/guides/alpha/']);
    expect(answer.status).toBe(200);
    expect(answer.body).toContain('final alpha');
  });

  it('answers a page it could not render from the finished build (its 404 page)', async () => {
    const build = earlyBuild({}, { ...FINISHED, '/404.html': '<html><head></head><body>lost</body></html>' });
    const { get } = await preview({ store: build.main, early: build.early });
    const answer = await get('/nowhere/');
    expect(build.requested).toEqual(['/nowhere/']);
    expect(answer.status).toBe(404);
    expect(answer.body).toContain('lost');
  });

  it('answers 500 and prints the stack when rendering on request fails', async () => {
    const build = earlyBuild(PAGES, FINISHED, { fails: true });
    const { get, err } = await preview({ store: build.main, early: build.early });
    const answer = await get('/guides/alpha/');
    expect(answer.status).toBe(500);
    expect(answer.body).toBe('Internal error; see the terminal.\n');
    expect(err()).toMatch(/^Unexpected error while answering \/guides\/alpha\/:\nError: the render broke\n\s+at /);
  });
});

interface EarlyBuild {
  /** The server's store: empty until the build ends. */
  main: FileStore;
  /** The files rendered on request. */
  files: FileStore;
  early: () => EarlyFiles | undefined;
  /** The paths asked to be rendered, in order. */
  requested: string[];
}

/**
 * A first build under way: a page asked for is rendered on request from `pages` (its early
 * version); once the build ends (its `done` awaited) the server's store holds `finished`.
 */
function earlyBuild(
  pages: Record<string, string>,
  finished: Record<string, string> = {},
  options: { endsWhileRendering?: boolean; fails?: boolean; rendered?: Record<string, string> } = {},
): EarlyBuild {
  const main = new FileStore();
  const files = storeOf(options.rendered ?? {});
  const requested: string[] = [];
  const finish = () => {
    if (!main.size) main.apply(Object.entries(finished), []);
  };
  const early: EarlyFiles = {
    store: files,
    async request(path: string) {
      requested.push(path);
      if (options.fails) throw new Error('the render broke');
      const file = path.endsWith('/') ? `${path}index.html` : path;
      if (pages[file] !== undefined) files.apply([[file, pages[file]!]], []);
      if (options.endsWhileRendering) finish();
    },
    get done() {
      return Promise.resolve().then(finish);
    },
  };
  return { main, files, early: () => (main.size ? undefined : early), requested };
}


describe('hostAllowed at the edges of a Host header', () => {
  it('takes the brackets off an IPv6 address only when they hold the whole name', () => {
    expect(hostAllowed('[::1]', '::1')).toBe(true);
    expect(hostAllowed('a.localhost[]', '127.0.0.1')).toBe(false);
    expect(hostAllowed('[]localhost', '127.0.0.1')).toBe(false);
    expect(hostAllowed('[localhost]x', '127.0.0.1')).toBe(false);
  });
});
