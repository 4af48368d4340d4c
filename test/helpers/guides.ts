import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, isAbsolute, join, posix, relative, resolve } from 'node:path';
import { createContext, runInContext, type Context } from 'node:vm';
import type { Compiler, Configuration, Stats, StatsAsset } from 'webpack';
import { listFiles, readPage, removeDir, ROOT, scratchDir, type CodeBlock } from './content.js';
import { evaluateConfig, webpack } from './webpack.js';

/*
 * Helpers for the guides: every guide is backed by a fixture project in
 * test/fixtures/guides/<slug>/ that holds the guide's final files.
 *
 * Stable API (other guide tests import it; add to it, do not change it):
 *   FIXTURES                                    absolute path of test/fixtures/guides
 *   fixtureDir(slug) / fixtureFiles(slug)       the fixture folder and its files (path → Buffer)
 *   driftProblems(pageId, slug, options?)       titled code blocks vs fixture files; [] means in sync
 *   diffAfter(code) / diffBefore(code)          the two sides of a ```lang diff block
 *   shownOutputs(pageId)                        build output shown in the page (asset names, result line)
 *   copyFixture(slug)                           a scratch copy of the fixture inside test/.tmp
 *   loadConfig(dir, options?)                   evaluates a config file like webpack-cli does (env, argv)
 *   buildProject(dir, options?)                 compiles a project folder with the real webpack
 *   buildFixture(slug, options?)                copyFixture + buildProject; call cleanup() in finally
 *   runWebpackCli(dir, args)                    runs the installed webpack-cli in a project folder
 *   startDevServer(dir, config)                 webpack-dev-server 5 on 127.0.0.1 and a free port
 *   fakeBrowser(outputPath, options?)           runs emitted scripts against a tiny fake DOM
 *   followPage(pageId, slug, options?)          follows a guide in reading order, building where the page builds
 */

const require = createRequire(import.meta.url);

export const FIXTURES = join(ROOT, 'test', 'fixtures', 'guides');

/** test/fixtures/guides/<slug> (absolute). */
export function fixtureDir(slug: string): string {
  return join(FIXTURES, slug);
}

/** Every file of a fixture project: relative POSIX path → contents. */
export function fixtureFiles(slug: string): Map<string, Buffer> {
  const dir = fixtureDir(slug);
  const files = new Map<string, Buffer>();
  for (const file of listFiles(dir)) files.set(file.split('\\').join('/'), readFileSync(join(dir, file)));
  return files;
}

/** Trailing whitespace of every line and trailing blank lines removed. */
export function normalizeText(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/\s+$/, ''))
    .join('\n')
    .replace(/\n+$/, '');
}

export interface DriftOptions {
  /**
   * Fixture files the page does not show in a titled block (binary files such
   * as images and fonts). Each must still be named in the page's text so the
   * reader knows to provide it.
   */
  notShown?: string[];
}

/**
 * Compares a guide with its fixture project. Returns human-readable problems
 * (empty when in sync):
 * - every code block with a title must equal the fixture file of that path
 *   (trailing whitespace ignored), and the file must exist;
 * - every fixture file must be shown in a titled block, unless listed in
 *   options.notShown (then the page must at least mention its path);
 * - a path shown twice with a title is reported: earlier versions must be
 *   untitled or shown as a diff.
 */
export function driftProblems(pageId: string, slug: string, options: DriftOptions = {}): string[] {
  const page = readPage(pageId);
  const files = fixtureFiles(slug);
  const notShown = new Set(options.notShown ?? []);
  const problems: string[] = [];
  const shown = new Set<string>();
  for (const block of page.blocks) {
    if (!block.title) continue;
    const where = `${page.file}:${block.line}`;
    if (shown.has(block.title)) problems.push(`${where}: "${block.title}" is shown with a title more than once`);
    shown.add(block.title);
    const fixture = files.get(block.title);
    if (!fixture) {
      problems.push(`${where}: titled block "${block.title}" has no file test/fixtures/guides/${slug}/${block.title}`);
      continue;
    }
    if (/\bdiff\b/.test(block.meta.replace(/title=("[^"]*"|'[^']*'|\S+)/, ''))) {
      problems.push(`${where}: "${block.title}" is a diff; the titled block must be the final file`);
      continue;
    }
    const expected = normalizeText(fixture.toString('utf8'));
    const actual = normalizeText(block.code);
    if (expected !== actual) {
      problems.push(`${where}: "${block.title}" differs from the fixture:\n${firstDifference(expected, actual)}`);
    }
  }
  for (const [file] of files) {
    if (notShown.has(file)) {
      if (!page.body.includes(file)) problems.push(`${page.file}: fixture file ${file} is neither shown nor mentioned`);
      continue;
    }
    if (!shown.has(file)) problems.push(`${page.file}: fixture file ${file} is not shown in a block titled "${file}"`);
  }
  for (const file of notShown) {
    if (!files.has(file)) problems.push(`${page.file}: notShown lists ${file}, which is not in the fixture`);
  }
  return problems;
}

function firstDifference(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) return `  line ${i + 1}\n  fixture: ${JSON.stringify(a[i])}\n  page:    ${JSON.stringify(b[i])}`;
  }
  return '  (same lines)';
}

/**
 * The "after" side of a block written with the `diff` option, as the site
 * renders it: the first column of each line is its mark ("+" kept, "-"
 * dropped, a space for a line that stays), taken out of the code.
 */
export function diffAfter(code: string): string {
  return diffSide(code, '+');
}

/** The "before" side of a `diff` block. */
export function diffBefore(code: string): string {
  return diffSide(code, '-');
}

function diffSide(code: string, keep: '+' | '-'): string {
  const out: string[] = [];
  for (const line of code.split('\n')) {
    if (line[0] === '+' || line[0] === '-') {
      if (line[0] === keep) out.push(line.slice(1));
    } else {
      out.push(line.startsWith(' ') ? line.slice(1) : line);
    }
  }
  return out.join('\n');
}

export interface ShownOutput {
  /** The code block the output was shown in. */
  block: CodeBlock;
  /** Names from lines such as `asset main.js 1.2 KiB [emitted] …`. */
  assets: string[];
  /** From the `webpack 5.x compiled …` line, if shown. */
  result?: { version: string; outcome: 'successfully' | 'warnings' | 'errors'; count: number };
}

/**
 * Terminal output of builds shown in a page: every shell/text code block that
 * contains webpack's `asset …` lines or its `webpack 5.x compiled …` line.
 */
export function shownOutputs(pageId: string): ShownOutput[] {
  const shells = new Set(['bash', 'sh', 'shell', 'shellsession', 'console', 'text']);
  const result: ShownOutput[] = [];
  for (const block of readPage(pageId).blocks) {
    if (!shells.has(block.lang)) continue;
    const assets: string[] = [];
    let outcome: ShownOutput['result'];
    for (const line of block.code.split('\n')) {
      const asset = /^asset (\S+) [\d.]+ (?:bytes|KiB|MiB)/.exec(line);
      if (asset) assets.push(asset[1]!);
      const done = /^webpack (\d+\.\d+\.\d+) compiled (successfully|with (\d+) (warning|error)s?)/.exec(line);
      if (done) {
        outcome = {
          version: done[1]!,
          outcome: done[2] === 'successfully' ? 'successfully' : done[4] === 'warning' ? 'warnings' : 'errors',
          count: done[3] ? Number(done[3]) : 0,
        };
      }
    }
    if (assets.length || outcome) result.push({ block, assets, result: outcome });
  }
  return result;
}

/** Copies test/fixtures/guides/<slug> into a fresh scratch folder under test/.tmp and returns it. */
export function copyFixture(slug: string): string {
  const dir = scratchDir(`guide-${slug}`);
  cpSync(fixtureDir(slug), dir, { recursive: true });
  return dir;
}

export interface LoadOptions {
  /** Config file relative to the project (default webpack.config.js). */
  file?: string;
  /** The `env` a function config receives (webpack-cli adds WEBPACK_BUNDLE and WEBPACK_BUILD). */
  env?: Record<string, unknown>;
  /** The `argv` a function config receives (its `env` is filled in for you). */
  argv?: Record<string, unknown>;
}

/**
 * Evaluates a project's CommonJS config file and resolves what it exports the
 * way webpack-cli does: a function is called with (env, argv), a promise is awaited.
 */
export async function loadConfig(dir: string, options: LoadOptions = {}): Promise<Configuration | Configuration[]> {
  const source = readFileSync(join(dir, options.file ?? 'webpack.config.js'), 'utf8');
  let exported = evaluateConfig(source, dir);
  const env = { WEBPACK_BUNDLE: true, WEBPACK_BUILD: true, ...options.env };
  if (typeof exported === 'function') exported = await (exported as (e: unknown, a: unknown) => unknown)(env, { ...options.argv, env });
  return (await exported) as Configuration | Configuration[];
}

export interface GuideBuild {
  /** The project folder. */
  dir: string;
  /** Absolute output folder. */
  outputPath: string;
  stats: Stats;
  /** Names of the assets webpack emitted (as in `asset …` lines). */
  assets: string[];
  /** Every file now in the output folder, relative, POSIX separators. */
  files: string[];
  /** Reads an emitted file as text. */
  read(file: string): string;
  /** Stats assets with their details (chunk names, info). */
  assetDetails: StatsAsset[];
  /** Removes the project folder (only for builds made by buildFixture). */
  cleanup(): void;
}

export interface BuildOptions extends LoadOptions {
  /** Use this configuration instead of loading the config file. */
  config?: Configuration;
  /** Changes the loaded configuration before compiling. */
  adjust?(config: Configuration): Configuration;
  /** Resolve with the stats even when the compilation has errors. */
  allowErrors?: boolean;
}

/**
 * Compiles a project folder with the installed webpack, as `npx webpack` run
 * in that folder would: context and output.path default to the folder and its
 * dist/. Rejects on compilation errors unless allowErrors is set.
 */
export async function buildProject(dir: string, options: BuildOptions = {}): Promise<GuideBuild> {
  const loaded = options.config ?? (await loadConfig(dir, options));
  if (Array.isArray(loaded)) throw new Error('buildProject expects a single configuration');
  const adjusted = options.adjust ? options.adjust(loaded) : loaded;
  const config = withProjectDefaults(dir, adjusted);
  const compiler = webpack(config);
  const stats = await new Promise<Stats>((resolvePromise, reject) => {
    compiler.run((err, result) => {
      compiler.close(() => (err ? reject(err) : resolvePromise(result as Stats)));
    });
  });
  if (stats.hasErrors() && !options.allowErrors) {
    const errors = stats.toJson({ all: false, errors: true }).errors ?? [];
    throw new Error(`webpack reported errors:\n${errors.map((e) => e.message).join('\n')}`);
  }
  const outputPath = config.output!.path!;
  const assetDetails = stats.toJson({ all: false, assets: true, cachedAssets: true }).assets ?? [];
  return {
    dir,
    outputPath,
    stats,
    assets: assetDetails.map((a) => a.name),
    assetDetails,
    files: existsSync(outputPath) ? listFiles(outputPath).map((f) => f.split('\\').join('/')) : [],
    read: (file) => readFileSync(join(outputPath, file), 'utf8'),
    cleanup: () => undefined,
  };
}

/** Context and output.path as webpack-cli would resolve them when run inside `dir`; quiet logging. */
export function withProjectDefaults(dir: string, config: Configuration): Configuration {
  const context = config.context ?? dir;
  return {
    ...config,
    context,
    output: { ...config.output, path: config.output?.path ?? join(dir, 'dist') },
    infrastructureLogging: { level: 'error', ...config.infrastructureLogging },
  };
}

/** Copies a fixture into a scratch folder and builds it. Call cleanup() in finally. */
export async function buildFixture(slug: string, options: BuildOptions = {}): Promise<GuideBuild> {
  const dir = copyFixture(slug);
  try {
    const build = await buildProject(dir, options);
    return { ...build, cleanup: () => removeDir(dir) };
  } catch (error) {
    removeDir(dir);
    throw error;
  }
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the installed webpack-cli (`webpack …args`) with `dir` as the working directory, without colours. */
export function runWebpackCli(dir: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const cli = join(ROOT, 'node_modules', 'webpack-cli', 'bin', 'cli.js');
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [cli, ...args, '--no-color'], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

export interface DevServerHandle {
  /** For example http://127.0.0.1:41234 */
  origin: string;
  compiler: Compiler;
  /** GET a path from the server; rejects on a non-2xx status. */
  fetchText(path: string): Promise<string>;
  /** Stats of the first compilation (resolved once the server is ready). */
  firstBuild: Stats;
  /**
   * Resolves with the stats of the next compilation that finishes after this
   * call and passes `accept` (by default any). A watcher may rebuild once on
   * its own (noticing the files it has just written); `accept` lets a test
   * wait for the rebuild its edit caused instead.
   */
  nextBuild(accept?: (stats: Stats) => boolean): Promise<Stats>;
  stop(): Promise<void>;
}

interface DevServerLike {
  start(): Promise<void>;
  stop(): Promise<void>;
  server?: { address(): unknown };
}

/**
 * Starts webpack-dev-server 5 from its Node API for a project: the config's
 * devServer options, but host 127.0.0.1, a free port, no browser, no signal
 * handlers, no stats printed by the middleware; relative `static` folders
 * resolved against the project (no `static` at all when the config has none).
 */
export async function startDevServer(dir: string, loaded: Configuration): Promise<DevServerHandle> {
  const Server = require('webpack-dev-server') as new (options: object, compiler: Compiler) => DevServerLike;
  const { devServer: devServerOptions, ...config } = withProjectDefaults(dir, loaded) as Configuration & {
    devServer?: Record<string, unknown>;
  };
  const devServer = { ...devServerOptions };
  devServer.static = resolveStatic(dir, devServer.static);
  // The middleware would print every build's stats; the caller reads them from the handle instead.
  devServer.devMiddleware = { stats: 'none', ...(devServer.devMiddleware as object | undefined) };
  const compiler = webpack(config);
  let waiting: Array<{ accept: (stats: Stats) => boolean; resolve: (stats: Stats) => void }> = [];
  let first: Stats | undefined;
  let firstResolve: ((stats: Stats) => void) | undefined;
  const firstBuild = new Promise<Stats>((r) => (firstResolve = r));
  compiler.hooks.done.tap('guides-test', (stats) => {
    if (!first) {
      first = stats;
      firstResolve?.(stats);
      return;
    }
    const ready = waiting.filter((w) => w.accept(stats));
    waiting = waiting.filter((w) => !ready.includes(w));
    for (const w of ready) w.resolve(stats);
  });
  const server = new Server(
    { ...devServer, host: '127.0.0.1', port: 0, open: false, setupExitSignals: false },
    compiler,
  );
  await server.start();
  const address = server.server?.address() as { port: number } | null;
  if (!address) throw new Error('webpack-dev-server did not report its address');
  const origin = `http://127.0.0.1:${address.port}`;
  const stats = await firstBuild;
  return {
    origin,
    compiler,
    firstBuild: stats,
    async fetchText(path: string) {
      const response = await fetch(new URL(path, origin));
      if (!response.ok) throw new Error(`GET ${path}: HTTP ${response.status}`);
      return response.text();
    },
    nextBuild: (accept = () => true) => new Promise<Stats>((resolve) => waiting.push({ accept, resolve })),
    stop: () => server.stop(),
  };
}

function resolveStatic(dir: string, value: unknown): unknown {
  if (value === undefined) return false;
  const one = (item: unknown): unknown => {
    if (typeof item === 'string') return isAbsolute(item) ? item : resolve(dir, item);
    if (item && typeof item === 'object' && typeof (item as { directory?: unknown }).directory === 'string') {
      const directory = (item as { directory: string }).directory;
      return { ...item, directory: isAbsolute(directory) ? directory : resolve(dir, directory) };
    }
    return item;
  };
  return Array.isArray(value) ? value.map(one) : one(value);
}

/* ------------------------------------------------------------------------ */
/* A very small fake browser: enough DOM for webpack's runtime (script      */
/* loading for chunks, automatic publicPath), style-loader and the guides'  */
/* examples. Not a real DOM: unknown APIs simply do not exist.              */
/* ------------------------------------------------------------------------ */

type Listener = (event: FakeEvent) => unknown;

export interface FakeEvent {
  type: string;
  target: FakeNode;
}

const REFLECTED = ['src', 'href', 'id', 'rel', 'as', 'type', 'charset', 'alt', 'title', 'nonce', 'crossOrigin'];

export class FakeNode {
  readonly children: FakeNode[] = [];
  parentNode: FakeNode | null = null;
  readonly attributes = new Map<string, string>();
  readonly style: Record<string, string> = {};
  readonly listeners = new Map<string, Listener[]>();
  text = '';
  onload: Listener | null = null;
  onerror: Listener | null = null;
  [key: string]: unknown;

  constructor(
    readonly ownerDocument: FakeDocument | null,
    readonly tagName: string,
  ) {
    for (const name of REFLECTED) {
      Object.defineProperty(this, name, {
        get: () => this.attributes.get(name.toLowerCase()) ?? '',
        set: (v: unknown) => this.setAttribute(name.toLowerCase(), String(v)),
        enumerable: true,
      });
    }
  }

  get nodeName(): string {
    return this.tagName;
  }
  get firstChild(): FakeNode | null {
    return this.children[0] ?? null;
  }
  get childNodes(): FakeNode[] {
    return this.children;
  }
  get textContent(): string {
    return this.tagName === '#text' ? this.text : this.children.map((c) => c.textContent).join('');
  }
  set textContent(value: string) {
    if (this.tagName === '#text') {
      this.text = String(value);
      return;
    }
    for (const child of [...this.children]) this.removeChild(child);
    this.appendChild(this.ownerDocument!.createTextNode(String(value)));
  }
  get innerHTML(): string {
    return this.textContent;
  }
  get className(): string {
    return this.attributes.get('class') ?? '';
  }
  set className(value: string) {
    this.setAttribute('class', value);
  }
  get classList() {
    const list = () => this.className.split(/\s+/).filter(Boolean);
    return {
      add: (...names: string[]) => this.setAttribute('class', [...new Set([...list(), ...names])].join(' ')),
      remove: (...names: string[]) => this.setAttribute('class', list().filter((n) => !names.includes(n)).join(' ')),
      contains: (name: string) => list().includes(name),
    };
  }
  setAttribute(name: string, value: string): void {
    this.attributes.set(name.toLowerCase(), String(value));
  }
  getAttribute(name: string): string | null {
    return this.attributes.get(name.toLowerCase()) ?? null;
  }
  hasAttribute(name: string): boolean {
    return this.attributes.has(name.toLowerCase());
  }
  removeAttribute(name: string): void {
    this.attributes.delete(name.toLowerCase());
  }
  appendChild(child: FakeNode): FakeNode {
    return this.insertBefore(child, null);
  }
  append(...nodes: Array<FakeNode | string>): void {
    for (const node of nodes) this.appendChild(typeof node === 'string' ? this.ownerDocument!.createTextNode(node) : node);
  }
  insertBefore(child: FakeNode, reference: FakeNode | null): FakeNode {
    child.parentNode?.removeChild(child);
    const at = reference ? this.children.indexOf(reference) : -1;
    if (at < 0) this.children.push(child);
    else this.children.splice(at, 0, child);
    child.parentNode = this;
    this.ownerDocument?.connected(child);
    return child;
  }
  removeChild(child: FakeNode): FakeNode {
    const at = this.children.indexOf(child);
    if (at >= 0) this.children.splice(at, 1);
    child.parentNode = null;
    return child;
  }
  remove(): void {
    this.parentNode?.removeChild(this);
  }
  addEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, [...(this.listeners.get(type) ?? []), listener]);
  }
  removeEventListener(type: string, listener: Listener): void {
    this.listeners.set(type, (this.listeners.get(type) ?? []).filter((l) => l !== listener));
  }
  dispatchEvent(event: FakeEvent): boolean {
    for (const listener of this.listeners.get(event.type) ?? []) listener.call(this, event);
    const handler = this[`on${event.type}`];
    if (typeof handler === 'function') (handler as Listener).call(this, event);
    return true;
  }
  click(): void {
    this.dispatchEvent({ type: 'click', target: this });
  }
  /** Descendants with this tag name (lower case, or "*"). */
  getElementsByTagName(tag: string): FakeNode[] {
    const found: FakeNode[] = [];
    const walk = (node: FakeNode) => {
      for (const child of node.children) {
        if (child.tagName !== '#text' && (tag === '*' || child.tagName.toLowerCase() === tag.toLowerCase())) found.push(child);
        walk(child);
      }
    };
    walk(this);
    return found;
  }
  /** Supports tag-name selectors only. */
  querySelector(selector: string): FakeNode | null {
    return this.getElementsByTagName(selector)[0] ?? null;
  }
}

export class FakeDocument {
  readonly documentElement: FakeNode;
  readonly head: FakeNode;
  readonly body: FakeNode;
  currentScript: FakeNode | null = null;
  title = '';
  /** Called when a node is inserted anywhere in the document. */
  onConnect: ((node: FakeNode) => void) | undefined;

  constructor() {
    this.documentElement = new FakeNode(this, 'HTML');
    this.head = new FakeNode(this, 'HEAD');
    this.body = new FakeNode(this, 'BODY');
    this.documentElement.appendChild(this.head);
    this.documentElement.appendChild(this.body);
  }
  createElement(tag: string): FakeNode {
    return new FakeNode(this, tag.toUpperCase());
  }
  createTextNode(text: string): FakeNode {
    const node = new FakeNode(this, '#text');
    node.text = String(text);
    return node;
  }
  getElementsByTagName(tag: string): FakeNode[] {
    return this.documentElement.getElementsByTagName(tag);
  }
  querySelector(selector: string): FakeNode | null {
    return this.documentElement.querySelector(selector);
  }
  connected(node: FakeNode): void {
    this.onConnect?.(node);
  }
}

export interface FakeBrowser {
  window: Context;
  document: FakeDocument;
  /** Messages passed to console.log/info/warn/error/debug, joined with spaces. */
  logs: string[];
  /** URLs of the <script> elements the page inserted (chunk loads). */
  requestedScripts: string[];
  /** Runs an emitted script (path relative to the output folder) as if loaded by <script src>. */
  runScript(file: string): void;
  /** Waits until no script load is pending and the microtask queue is drained. */
  settle(): Promise<void>;
}

/**
 * A fake page at `baseUrl` (default http://localhost/) whose scripts are files
 * in `outputPath`. Inserted <script src> elements are "loaded" from there, so
 * webpack's chunk loading works; fetch() is left undefined unless given.
 */
export function fakeBrowser(outputPath: string, options: { baseUrl?: string; globals?: Record<string, unknown> } = {}): FakeBrowser {
  const baseUrl = options.baseUrl ?? 'http://localhost/';
  const document = new FakeDocument();
  const logs: string[] = [];
  const requestedScripts: string[] = [];
  let pending = 0;
  const log = (...args: unknown[]) => logs.push(args.map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(' '));
  const window: Context = {
    document,
    console: { log, info: log, warn: log, error: log, debug: log },
    location: new URL(baseUrl),
    navigator: { userAgent: 'fake-browser' },
    setTimeout,
    clearTimeout,
    queueMicrotask,
    URL,
    Image: function Image(this: unknown) {
      return document.createElement('img');
    },
    ...options.globals,
  };
  window.window = window;
  window.self = window;
  window.globalThis = window;
  createContext(window);

  const runScript = (file: string) => {
    const script = document.createElement('script');
    script.src = new URL(file, baseUrl).href;
    document.currentScript = script;
    try {
      runInContext(readFileSync(join(outputPath, file), 'utf8'), window, { filename: file });
    } finally {
      document.currentScript = null;
    }
  };

  document.onConnect = (node) => {
    if (node.tagName !== 'SCRIPT' || !node.src) return;
    const url = String(node.src);
    requestedScripts.push(url);
    pending++;
    setTimeout(() => {
      const file = posix.normalize(new URL(url).pathname.replace(/^\//, ''));
      const path = join(outputPath, file);
      const ok = url.startsWith(new URL(baseUrl).origin) && !relative(outputPath, path).startsWith('..') && existsSync(path);
      try {
        if (ok) runScript(file);
      } finally {
        pending--;
        node.dispatchEvent({ type: ok ? 'load' : 'error', target: node });
      }
    }, 0);
  };

  return {
    window,
    document,
    logs,
    requestedScripts,
    runScript,
    async settle() {
      for (let i = 0; i < 100; i++) {
        await new Promise((r) => setTimeout(r, 5));
        if (pending === 0) {
          await new Promise((r) => setTimeout(r, 5));
          if (pending === 0) return;
        }
      }
      throw new Error('fake browser: script loads did not settle');
    },
  };
}

/** Deletes a file or folder inside a scratch project (for tests that change a copy). */
export function removePath(dir: string, path: string): void {
  rmSync(join(dir, path), { recursive: true, force: true });
}

/* ------------------------------------------------------------------------ */
/* Reading order: follow a guide from top to bottom the way a reader does,  */
/* writing each file when the page shows it and building wherever the page */
/* builds, so that no step depends on a file the page only introduces later. */
/* ------------------------------------------------------------------------ */

export interface ReadingOptions {
  /**
   * Files the reader already has when the page begins, because the page says
   * so (for example the webpack 4 project that a migration starts from):
   * path → text.
   */
  start?: Record<string, string>;
  /**
   * Untitled blocks that hold a whole earlier version of a file: the block's
   * first line → the file's path. Every other untitled block that is not a
   * diff, a build command or a build output is an excerpt and is not written.
   */
  untitled?: Record<string, string>;
  /**
   * Files the page asks the reader to supply rather than showing them (images,
   * fonts): fixture path → a phrase of the page. The fixture's file is copied
   * into the project where the phrase first occurs in the page.
   */
  supplied?: Record<string, string>;
  /**
   * Blocks that show a variation the reader is not asked to make at that
   * point (an experiment, a "what if"): a string that occurs in exactly one
   * block. Such a block is neither written nor built.
   */
  notFollowed?: string[];
  /**
   * Changes the page asks the reader to try and then undo (a deliberate typo,
   * a type error, an edit while the dev server runs): a string that occurs in
   * exactly one block. The block is applied like any other; the files it
   * changed are restored after the next build point, or at the end of the page.
   */
  tried?: string[];
}

export interface ReadingBuild {
  /** Line of the page where the build happens (the output block, or the command when no output follows). */
  line: number;
  /** webpack-cli arguments, from the package.json script or the npx command. */
  args: string[];
  /** Set when the page runs a build script of the project with Node.js instead of webpack-cli. */
  script?: string;
  expected: 'success' | 'error';
  code: number | null;
  /** stdout and stderr of webpack-cli. */
  output: string;
}

export interface ReadingResult {
  /** What the walk did, one entry per step, for messages: "12: write src/index.js". */
  steps: string[];
  builds: ReadingBuild[];
  /** Empty when the page can be followed in order and ends with the fixture's files. */
  problems: string[];
}

const SHELLS = new Set(['bash', 'sh', 'shell', 'shellsession', 'console', 'text']);
const BUILD_COMMAND = /^(?:npm run ([\w:-]+)|npx webpack((?:\s+\S+)*)|node ([\w./-]+\.[cm]?js))\s*$/;
const OTHER_RUNNER = /^(?:yarn|pnpm)\s/;
const ERROR_OUTPUT = /^(?:ERROR in |Invalid configuration object|\[webpack-cli\] (?:✖ )?(?:Failed|\w*Error)|\w*Error: |Module not found: )/m;

/**
 * The build a command block runs, if it is one: webpack-cli arguments, or a
 * build script of the project run with Node.js (`node scripts/build.js`).
 */
function buildCommand(block: CodeBlock, scripts: Record<string, string>): { args: string[]; script?: string } | { problem: string } | undefined {
  if (!SHELLS.has(block.lang)) return undefined;
  const lines = block.code.split('\n').map((l) => l.trim()).filter(Boolean);
  if (lines.length !== 1) return undefined;
  const m = BUILD_COMMAND.exec(lines[0]!);
  if (!m) return undefined;
  if (m[3] !== undefined) return { args: [], script: m[3] };
  if (m[1] === undefined) return { args: (m[2] ?? '').trim().split(/\s+/).filter(Boolean) };
  const script = scripts[m[1]];
  if (script === undefined) return { problem: `"npm run ${m[1]}" but package.json has no such script at this point` };
  const words = script.trim().split(/\s+/);
  if (words[0] !== 'webpack') return undefined; // not a webpack build (a server, a test runner…)
  const args = words.slice(1);
  if (args[0] === 'serve' || args[0] === 'watch' || args.includes('--watch') || args.includes('-w')) return undefined;
  return { args: args[0] === 'build' || args[0] === 'bundle' ? args.slice(1) : args };
}

/** What a shown output block expects, if the block is build output. */
function outputExpectation(block: CodeBlock): 'success' | 'error' | undefined {
  if (!SHELLS.has(block.lang)) return undefined;
  const done = /^webpack \d+\.\d+\.\d+ compiled (successfully|with \d+ (warning|error)s?)/m.exec(block.code);
  if (done) return done[2] === 'error' ? 'error' : 'success';
  if (/^asset \S+ [\d.]+ (?:bytes|KiB|MiB)/m.test(block.code)) return 'success';
  if (ERROR_OUTPUT.test(block.code)) return 'error';
  return undefined;
}

function lineOccursIn(shown: string, realLines: string[]): boolean {
  const text = shown.replace(/\s+$/, '').replace(/ in \d+ ms$/, '');
  const pattern = new RegExp(text.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+'));
  return realLines.some((line) => pattern.test(line.replace(/\s+$/, '')));
}

/**
 * Problems of one build against the output block the page shows for it (if
 * any). A rebuild into a folder that already holds identical files summarises
 * them ("assets by status … [cached] 2 assets"), as the reader also sees, so a
 * shown asset counts as emitted when its line is printed or its file is in
 * the output folder.
 */
function buildProblems(build: ReadingBuild, shown: CodeBlock | undefined, where: string, outputPath: string): string[] {
  const problems: string[] = [];
  const ok = build.code === 0;
  if (build.expected === 'success' && !ok) {
    return [`${where}: the page builds here and expects success, but webpack ${build.args.join(' ')} exited with ${build.code}:\n${build.output}`];
  }
  if (build.expected === 'error' && ok) return [`${where}: the page shows an error here, but the build succeeded:\n${build.output}`];
  if (!shown) return problems;
  const realLines = build.output.split('\n');
  if (build.expected === 'success') {
    const real = new Set(realLines.map((l) => /^asset (\S+) /.exec(l)?.[1]).filter(Boolean));
    for (const line of shown.code.split('\n')) {
      const asset = /^asset (\S+) [\d.]+ (?:bytes|KiB|MiB)/.exec(line)?.[1];
      if (asset && !real.has(asset) && !existsSync(join(outputPath, asset.replace(/\?.*$/, '')))) problems.push(`${where}: shown asset ${asset} was not emitted; real output:\n${build.output}`);
    }
    const done = /^webpack \d+\.\d+\.\d+ (compiled .*?)(?: in \d+ ms)?$/m.exec(shown.code)?.[1];
    if (done && !realLines.some((l) => l.includes(done))) problems.push(`${where}: the page shows "${done}"; real output:\n${build.output}`);
  } else {
    for (const line of shown.code.split('\n')) {
      if (line.trim() && !lineOccursIn(line, realLines)) problems.push(`${where}: shown line not in the real output: ${line}\n--- real output:\n${build.output}`);
    }
  }
  return problems;
}

/** Runs a script of a project with Node.js, the project folder as working directory, without colours. */
function runNode(dir: string, args: string[]): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, args, {
      cwd: dir,
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
  });
}

/** The output folder of the project's webpack.config.js (dist/ when it has none or sets none). */
async function outputFolder(dir: string): Promise<string> {
  if (!existsSync(join(dir, 'webpack.config.js'))) return join(dir, 'dist');
  try {
    const loaded = await loadConfig(dir);
    const first = Array.isArray(loaded) ? loaded[0] : loaded;
    return first?.output?.path ?? join(dir, 'dist');
  } catch {
    return join(dir, 'dist');
  }
}

/**
 * Follows a guide in reading order in an empty scratch project:
 * - a block with a title writes that file (the page's final version of it);
 * - an untitled block listed in options.untitled writes an earlier version;
 * - a `diff` block patches the one file whose current text contains its
 *   "before" side, which must occur exactly once;
 * - a build command (`npm run <script>` whose script runs webpack, or
 *   `npx webpack …`, or `node <build script>`) and every block of build
 *   output is a build point: the project is built with the installed
 *   webpack-cli (or the page's script) as it stands, and the
 *   result must match the page (success and the shown assets, or the shown
 *   error lines). A command directly followed by its output is one build.
 * Blocks listed in options.tried are undone after the next build point. At
 * the end every fixture file must have been written with the fixture's text,
 * and nothing else. Stops at the first problem.
 */
export async function followPage(pageId: string, slug: string, options: ReadingOptions = {}): Promise<ReadingResult> {
  const page = readPage(pageId);
  const raw = readFileSync(join(ROOT, page.file), 'utf8').split('\n');
  const fixture = fixtureFiles(slug);
  const steps: string[] = [];
  const builds: ReadingBuild[] = [];
  const problems: string[] = [];
  const files = new Map<string, string | Buffer>(Object.entries(options.start ?? {}));
  // At the same depth as copyFixture's folders, so that module paths (and the
  // content hashes that depend on them) come out the same as in the other tests.
  const dir = scratchDir(`reading-${slug}`);
  const save = (path: string) => {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, files.get(path)!);
  };

  const marked = (markers: string[] | undefined, what: string) => {
    const set = new Set<CodeBlock>();
    for (const marker of markers ?? []) {
      const found = page.blocks.filter((b) => b.code.includes(marker));
      if (found.length !== 1) problems.push(`${page.file}: ${what} "${marker}" matches ${found.length} blocks, not 1`);
      else set.add(found[0]!);
    }
    return set;
  };
  const skipped = marked(options.notFollowed, 'notFollowed');
  const tried = marked(options.tried, 'tried');
  /** Files as they were before a tried change, restored after the next build. */
  let undo = new Map<string, string | Buffer | undefined>();
  const restore = () => {
    for (const [path, previous] of undo) {
      if (previous === undefined) {
        files.delete(path);
        rmSync(join(dir, path), { force: true });
      } else {
        files.set(path, previous);
        save(path);
      }
      steps.push(`   undo the tried change to ${path}`);
    }
    undo = new Map();
  };
  for (const first of Object.keys(options.untitled ?? {})) {
    if (!page.blocks.some((b) => !b.title && b.code.split('\n')[0] === first)) problems.push(`${page.file}: no untitled block starts with "${first}"`);
  }
  const diffTargets = (block: CodeBlock) => {
    const before = diffBefore(block.code);
    return [...files].filter(([, text]) => typeof text === 'string' && before.trim() !== '' && text.includes(before));
  };
  const diffTarget = (block: CodeBlock) => {
    if (!/(^|\s)diff(\s|$)/.test(block.meta)) return undefined;
    const targets = diffTargets(block);
    return targets.length === 1 ? targets[0]![0] : undefined;
  };
  type Event = { line: number; block?: CodeBlock; supply?: string };
  const events: Event[] = page.blocks.map((block) => ({ line: block.line, block }));
  for (const [path, phrase] of Object.entries(options.supplied ?? {})) {
    const at = raw.findIndex((l) => l.includes(phrase));
    if (at < 0) problems.push(`${page.file}: the phrase for supplied file ${path} does not occur: "${phrase}"`);
    else if (!fixture.has(path)) problems.push(`${page.file}: supplied file ${path} is not in the fixture`);
    else events.push({ line: at + 1, supply: path });
  }
  events.sort((a, b) => a.line - b.line);
  if (problems.length) {
    removeDir(dir);
    return { steps, builds, problems };
  }

  try {
    for (const path of files.keys()) save(path);
    for (let i = 0; i < events.length && problems.length === 0; i++) {
      const event = events[i]!;
      const where = `${page.file}:${event.line}`;
      if (event.supply) {
        files.set(event.supply, fixture.get(event.supply)!);
        save(event.supply);
        steps.push(`${event.line}: supply ${event.supply}`);
        continue;
      }
      const block = event.block!;
      if (skipped.has(block)) continue;
      if (tried.has(block)) {
        const path = block.title ?? options.untitled?.[block.code.split('\n')[0]!] ?? diffTarget(block);
        if (path && !undo.has(path)) undo.set(path, files.get(path));
      }
      if (block.title) {
        files.set(block.title, `${block.code}\n`);
        save(block.title);
        steps.push(`${event.line}: write ${block.title}`);
        continue;
      }
      if (/(^|\s)diff(\s|$)/.test(block.meta)) {
        const before = diffBefore(block.code);
        const after = diffAfter(block.code);
        const targets = diffTargets(block);
        if (targets.length !== 1) {
          problems.push(`${where}: the diff applies to ${targets.length} files of the project at this point (${[...files.keys()].join(', ') || 'none'}), not 1`);
          break;
        }
        const [path, text] = targets[0]! as [string, string];
        if (text.indexOf(before) !== text.lastIndexOf(before)) {
          problems.push(`${where}: the diff's "before" side occurs more than once in ${path}`);
          break;
        }
        files.set(path, text.replace(before, () => after));
        save(path);
        steps.push(`${event.line}: patch ${path}`);
        continue;
      }
      const untitledPath = options.untitled?.[block.code.split('\n')[0]!];
      if (untitledPath) {
        files.set(untitledPath, `${block.code}\n`);
        save(untitledPath);
        steps.push(`${event.line}: write ${untitledPath} (earlier version)`);
        continue;
      }
      const pkg = files.get('package.json');
      let scripts: Record<string, string> = {};
      if (typeof pkg === 'string') {
        try {
          scripts = (JSON.parse(pkg) as { scripts?: Record<string, string> }).scripts ?? {};
        } catch {
          // A package.json that does not parse fails the build below.
        }
      }
      const command = buildCommand(block, scripts);
      if (command && 'problem' in command) {
        problems.push(`${where}: ${command.problem}`);
        break;
      }
      let shown: CodeBlock | undefined;
      let args: string[] | undefined;
      let script: string | undefined;
      if (command) {
        args = command.args;
        script = command.script;
        // The output shown right after the command (alternative yarn/pnpm tabs in between) belongs to it.
        let j = i + 1;
        while (events[j]?.block && OTHER_RUNNER.test(events[j]!.block!.code.trim())) j++;
        const next = events[j]?.block;
        if (next && !skipped.has(next) && outputExpectation(next)) {
          shown = next;
          i = j;
        }
      } else if (outputExpectation(block)) {
        shown = block;
        args = [];
      } else {
        continue;
      }
      const expected = shown ? outputExpectation(shown)! : 'success';
      // A reader always has some package.json (npm init writes one). Until the page
      // shows its own, a neutral one stands in for the build, so that the project
      // is not taken for part of this repository, whose package.json says "type": "module".
      const standIn = !files.has('package.json');
      if (standIn) writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
      const result = script ? await runNode(dir, [script]) : await runWebpackCli(dir, args);
      if (standIn) rmSync(join(dir, 'package.json'), { force: true });
      const build: ReadingBuild = { line: (shown ?? block).line, args, script, expected, code: result.code, output: `${result.stdout}${result.stderr}` };
      builds.push(build);
      steps.push(`${build.line}: build (${script ? `node ${script}` : ['webpack', ...args].join(' ')}) → ${build.code === 0 ? 'success' : `exit ${build.code}`}`);
      problems.push(...buildProblems(build, shown, `${page.file}:${build.line}`, await outputFolder(dir)));
      restore();
    }
    restore();
    if (problems.length === 0) {
      for (const [path, contents] of fixture) {
        const written = files.get(path);
        if (written === undefined) problems.push(`${page.file}: following the page never writes ${path}`);
        else if (Buffer.isBuffer(written) ? !written.equals(contents) : normalizeText(written) !== normalizeText(contents.toString('utf8'))) {
          problems.push(`${page.file}: following the page leaves ${path} different from the fixture:\n${firstDifference(normalizeText(contents.toString('utf8')), normalizeText(String(written)))}`);
        }
      }
      for (const path of files.keys()) if (!fixture.has(path)) problems.push(`${page.file}: following the page leaves ${path}, which the fixture does not have`);
    }
  } finally {
    removeDir(dir);
  }
  return { steps, builds, problems };
}
