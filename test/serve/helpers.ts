import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from '../../src/engine/build.js';
import { EventEmitter } from 'node:events';
import type { ServeOptions } from '../../src/serve/serve.js';
import type { BuildResult } from '../../src/serve/protocol.js';
import type { BuildState } from '../../src/serve/events.js';
import { PreviewServer } from '../../src/serve/serve.js';
import { expect } from 'vitest';

/*
 * Helpers of the preview server tests: a small site of their own (never the
 * real content, which writers change while tests run), with a private copy
 * of the templates so that template edits can be tested without touching
 * templates/; raw HTTP requests; a Server-Sent Events client.
 */

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export const SECRET = 'TOP-SECRET-4f1c9e';

const CONFIG = `site:
  title: Serve fixture
  url: https://serve.example.org
  description: A small site for the preview server tests.
  repository: https://github.com/example/serve
navigation:
  - title: Guides
    url: /guides/
  - title: Reference
    url: /reference/
links:
  repository: https://github.com/example/serve
  questions: https://stackoverflow.com/questions/tagged/example
sections:
  - title: Home
    url: ""
  - title: Guides
    url: guides
    pages:
      - guides/alpha
      - guides/beta
  - title: Reference
    url: reference
    pages:
      - reference/one
      - reference/two
redirects:
  /old-alpha/: /guides/alpha/
`;

// Code blocks use small grammars (ini): the highlighter gives up on a line after 500 ms, which compiling the
// large JavaScript grammar can take on a loaded machine, and the output would then depend on the load.
const PAGES: Record<string, string> = {
  'index.md': '---\ntitle: Home\ndescription: The home page.\n---\n\nStart with [alpha](/guides/alpha/#setup) or the [reference](./reference/index.md).\n',
  '404.md': '---\ntitle: Page not found\n---\n\nThere is no such page. Go [home](/).\n',
  'guides/index.md': '---\ntitle: Guides\n---\n\nThe guides: [alpha](./alpha.md) and [beta](./beta.md).\n',
  'guides/alpha.md':
    '---\ntitle: Alpha guide\ndescription: The first guide.\n---\n\nAlpha body text.\n\n## Setup\n\nInstall it.\n\n```ini\n[alpha]\nanswer = 42\n```\n\n## Usage\n\nUse it.\n\n' +
    Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1} of the alpha guide, long enough to scroll the page.\n`).join('\n'),
  'guides/beta.md': '---\ntitle: Beta guide\n---\n\nBeta body text. See [alpha usage](./alpha.md#usage).\n\n## Details\n\nMore.\n',
  'reference/index.md': '---\ntitle: Reference\n---\n\nReference pages.\n',
  'reference/one.md': '---\ntitle: Reference one\n---\n\nOne body text.\n\n## Options\n\nSome options.\n',
  'reference/two.md': '---\ntitle: Reference two\n---\n\nTwo body text.\n',
  'extra.md': '---\ntitle: Extra page\n---\n\nAn unlisted page.\n',
};

export interface Fixture {
  /** The site root (site.config.yaml, content/, static/). */
  site: string;
  /** The private copy of the templates. */
  templates: string;
  /** The TypeScript config that compiles the copy (and the tool's sources). */
  tsconfig: string;
  path(rel: string): string;
  read(rel: string): string;
  write(rel: string, text: string): void;
  edit(rel: string, from: string | RegExp, to: string): void;
  remove(rel: string): void;
  rename(from: string, to: string): void;
  cleanup(): void;
}

export function makeFixture(): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'docs-serve-'));
  const site = join(dir, 'site');
  const templates = join(dir, 'templates');
  cpSync(join(ROOT, 'templates'), templates, { recursive: true });
  // The copied templates import ../src/... and packages, as the originals do.
  symlinkSync(join(ROOT, 'src'), join(dir, 'src'), 'dir');
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  // ES modules, as in the tool's own package.
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  const tsconfig = join(dir, 'tsconfig.json');
  writeFileSync(
    tsconfig,
    JSON.stringify({ extends: join(ROOT, 'tsconfig.json'), include: [templates, join(ROOT, 'src'), join(ROOT, 'templates')] }, null, 2),
  );
  mkdirSync(site);
  writeFileSync(join(site, 'site.config.yaml'), CONFIG);
  writeFileSync(join(dir, 'secret.txt'), SECRET);
  writeFileSync(join(site, 'secret.txt'), SECRET);
  for (const [file, text] of Object.entries(PAGES)) {
    mkdirSync(dirname(join(site, 'content', file)), { recursive: true });
    writeFileSync(join(site, 'content', file), text);
  }
  mkdirSync(join(site, 'static'));
  writeFileSync(join(site, 'static', 'notes.txt'), 'Static notes.\n');
  const path = (rel: string) => join(site, rel);
  return {
    site,
    templates,
    tsconfig,
    path,
    read: (rel) => readFileSync(path(rel), 'utf8'),
    write(rel, text) {
      mkdirSync(dirname(path(rel)), { recursive: true });
      writeFileSync(path(rel), text);
    },
    edit(rel, from, to) {
      const before = readFileSync(path(rel), 'utf8');
      const after = before.replace(from, to);
      if (before === after) throw new Error(`the edit did not apply to ${rel}: ${String(from)}`);
      writeFileSync(path(rel), after);
    },
    remove: (rel) => rmSync(path(rel)),
    rename: (from, to) => renameSync(path(from), path(to)),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** A path in the fixture's templates copy. */
export const templatePath = (fixture: Fixture, rel: string) => join(fixture.templates, rel);

export interface Captured {
  out: string;
  err: string;
  io: { out: { write(s: string): boolean }; err: { write(s: string): boolean } };
}

export function capture(): Captured {
  const captured: Captured = {
    out: '',
    err: '',
    io: {
      out: { write: (s: string) => ((captured.out += s), true) },
      err: { write: (s: string) => ((captured.err += s), true) },
    },
  };
  return captured;
}

export type Preview = PreviewServer;

/** The builds each preview of these tests applies, as events ('build', with its result). */
const builds = new WeakMap<Preview, EventEmitter<{ build: [result: BuildResult] }>>();
export const buildEvents = (preview: Preview) => builds.get(preview)!;

/** Builds, starts serving and watching; resolves once the first build is served and the watcher is ready. */
export async function startPreview(options: ServeOptions, io: Captured['io']): Promise<Preview> {
  const events = new EventEmitter<{ build: [result: BuildResult] }>();
  const preview = new PreviewServer({ ...options, onBuild: (result) => events.emit('build', result) }, io);
  builds.set(preview, events);
  await preview.start().catch(async (e: unknown) => {
    await preview.close();
    throw e;
  });
  return preview;
}

export async function startFixturePreview(fixture: Fixture, captured = capture()): Promise<{ preview: Preview; captured: Captured }> {
  const preview = await startPreview(
    { root: fixture.site, config: 'site.config.yaml', port: 0, host: '127.0.0.1', open: false, templates: fixture.templates, tsconfig: fixture.tsconfig },
    captured.io,
  );
  return { preview, captured };
}

/** startFixturePreview for a fixture whose first build must pass: throws with the output when it failed. */
export async function startBuiltPreview(fixture: Fixture): Promise<{ preview: Preview; captured: Captured }> {
  const started = await startFixturePreview(fixture);
  if (!(await stateOf(started.preview)).ok) throw new Error(`the first build failed:\n${started.captured.out}\n${started.captured.err}`);
  return started;
}

export interface Response {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text: string;
}

/** A GET (or other method) with node:http; `path` is sent as given (fetch would normalise it). */
export function get(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Response> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode!, headers: res.headers, body, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** A request written byte for byte on a socket (for targets node:http would refuse to send). */
export function rawRequest(base: string, target: string): Promise<{ status: number; text: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    let data = '';
    socket.on('connect', () => socket.write(`GET ${target} HTTP/1.1\r\nHost: ${url.host}\r\nConnection: close\r\n\r\n`));
    socket.on('data', (c) => (data += c.toString('latin1')));
    socket.on('end', () => {
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(data)?.[1] ?? 0);
      resolve({ status, text: data });
    });
    socket.on('error', reject);
  });
}

export interface SseEvent {
  event: string;
  data: unknown;
}

/** A Server-Sent Events connection to the preview, as reload.js opens it. */
export class EventClient {
  readonly events: SseEvent[] = [];
  private waiters: Array<() => void> = [];
  private buffer = '';
  private closeRequest?: () => void;
  readonly closed: Promise<void>;
  private cursor = 0;

  constructor(base: string, pagePath: string, hash = '') {
    const url = new URL(base);
    this.closed = new Promise((resolveClosed) => {
      const req = request(
        { host: url.hostname, port: url.port, path: `/__docs/events?path=${encodeURIComponent(pagePath)}&hash=${encodeURIComponent(hash)}`, agent: false },
        (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => this.receive(chunk));
          res.on('end', () => resolveClosed());
          res.on('close', () => resolveClosed());
        },
      );
      req.on('error', () => resolveClosed());
      req.end();
      this.closeRequest = () => req.destroy();
    });
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n\n')) >= 0) {
      const block = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 2);
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (event) this.events.push({ event, data: data ? JSON.parse(data) : undefined });
    }
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  /** Waits for the next event named `name` after the ones already consumed; returns its data. */
  async next(name: string, timeoutMs = 30_000): Promise<unknown> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const index = this.events.findIndex((e, i) => i >= this.cursor && e.event === name);
      if (index >= 0) {
        this.cursor = index + 1;
        return this.events[index]!.data;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no "${name}" event within ${timeoutMs} ms; got ${JSON.stringify(this.events.slice(this.cursor))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** Marks every event received so far as seen. */
  skip(): void {
    this.cursor = this.events.length;
  }

  /** Names of the events received after the ones consumed. */
  unseen(): string[] {
    return this.events.slice(this.cursor).map((e) => e.event);
  }

  close(): void {
    this.closeRequest?.();
  }
}

/** The build state the preview sends a page that opens its event stream now (what the overlay shows). */
export async function stateOf(preview: Preview, path = '/'): Promise<BuildState> {
  const client = new EventClient(preview.url, path);
  try {
    return (await client.next('state')) as BuildState;
  } finally {
    client.close();
  }
}

/** Resolves once the preview has applied its next build (or background update settles). */
export function nextBuild(preview: Preview, timeoutMs = 30_000): Promise<BuildResult> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no build within ${timeoutMs} ms`)), timeoutMs);
    buildEvents(preview).once('build', (result) => {
      clearTimeout(timer);
      resolve(result);
    });
  });
}

/** A port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as import('node:net').AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Whether something accepts connections on the port. */
export function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.on('error', () => resolve(false));
  });
}

/** Every file of a folder (relative URL paths "/a/b.html") with its bytes. */
export function readTree(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const full = join(entry.parentPath, entry.name);
    files.set('/' + relative(dir, full).split('\\').join('/'), readFileSync(full));
  }
  return files;
}

/** Loads a page as a browser would and opens its event stream with the document's hash; waits for the first state. */
export async function openPage(base: string, path: string): Promise<EventClient> {
  const res = await get(base, path);
  const hash = /desc=([\w-]+)/.exec(String(res.headers['server-timing'] ?? ''))?.[1] ?? '';
  const client = new EventClient(base, path, hash);
  await client.next('state');
  return client;
}

/** Adds 150 pages with code to a fixture: its first cold build then takes seconds (the first-pass tests need that time). */
export function addSlowPages(fixture: Fixture): void {
  for (let i = 0; i < 150; i++) {
    const body = Array.from(
      { length: 6 },
      (_, j) => `## Part ${j} of page ${i}\n\nText of part ${j}, with \`code\` and a [link](/guides/alpha/#setup).\n\n\`\`\`ini\n[part${j}]\nvalue = ${i * j}\n\`\`\`\n`,
    ).join('\n');
    fixture.write(`content/more/page-${String(i).padStart(3, '0')}.md`, `---\ntitle: Page ${i}\n---\n\n${body}`);
  }
}

export interface ServeProcess {
  child: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  exit: Promise<number | null>;
  /** Waits until the output matches `pattern`; throws with the output when it does not within `ms` or the process ends. */
  waitFor(pattern: RegExp, ms: number): Promise<RegExpExecArray>;
}

/** `docs serve --root site --port 0` in a child process, with its own cache folder. */
export function spawnServe(site: string, cache: string): ServeProcess {
  const child = spawn(process.execPath, [join(ROOT, 'bin/docs.js'), 'serve', '--root', site, '--port', '0'], {
    env: { ...process.env, DOCS_CACHE_DIR: cache },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    child,
    output: () => output,
    exit,
    async waitFor(pattern, ms) {
      for (const end = Date.now() + ms; !pattern.test(output); ) {
        if (Date.now() > end || child.exitCode !== null) throw new Error(`no ${pattern} in:\n${output}`);
        await new Promise((r) => setTimeout(r, 10));
      }
      return pattern.exec(output)!;
    },
  };
}

/** Expects the preview to serve exactly the files `docs build` writes from the fixture's sources now, byte for byte. */
export async function expectServesWhatBuildWrites(preview: Preview, fixture: Fixture): Promise<void> {
  const out = mkdtempSync(join(tmpdir(), 'docs-serve-built-'));
  try {
    await build({ root: fixture.site, out, templates: fixture.templates });
    const expected = readTree(out);
    const served = preview.files();
    expect([...served.keys()].sort()).toEqual([...expected.keys()].sort());
    for (const [path, bytes] of expected) expect(served.get(path)?.toString(), path).toBe(bytes.toString());
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
