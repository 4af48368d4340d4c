import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { ROOT } from '../helpers/content.js';

/*
 * The adversarial suite's harness: a copy of test/fixtures/site in a scratch
 * folder, `node bin/docs.js …` run as a child process with a time limit, and
 * hashes of whole folder trees to show that a failed command changed nothing.
 */

export { ROOT };
export const BIN = join(ROOT, 'bin', 'docs.js');

/** Longest any single command of the suite may take before it counts as a hang. */
export const TIME_LIMIT_MS = 60_000;

export interface Scratch {
  /** The scratch folder (holds site/ and cache/). */
  dir: string;
  /** The copy of the fixture site. */
  site: string;
  /** DOCS_CACHE_DIR of every command run in this scratch folder (never the tool's own cache). */
  cache: string;
  remove(): void;
}

/** A fresh copy of the fixture site at <scratch>/site. */
export function scratchSite(): Scratch {
  const dir = mkdtempSync(join(tmpdir(), 'docs-robust-'));
  // mkdtemp makes it 0700; the tests that run as another user need to reach inside.
  chmodSync(dir, 0o755);
  const site = join(dir, 'site');
  cpSync(join(ROOT, 'test/fixtures/site'), site, { recursive: true });
  const cache = join(dir, 'cache');
  mkdirSync(cache);
  return { dir, site, cache, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  /** DOCS_CACHE_DIR (and anything else) for the child. */
  env?: NodeJS.ProcessEnv;
  timeoutMs?: number;
  /** Runs `prefix… node bin/docs.js args…` (setpriv, unshare, sh -c). */
  prefix?: string[];
}

/** Starts `node bin/docs.js args…`; the caller waits with `finished`. */
export function startDocs(args: string[], options: RunOptions): { child: ChildProcess; finished: Promise<Run> } {
  const command = [...(options.prefix ?? []), process.execPath, BIN, ...args];
  const child = spawn(command[0]!, command.slice(1), {
    cwd: options.cwd,
    env: { ...process.env, DOCS_DEBUG: '', NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
  const limit = options.timeoutMs ?? TIME_LIMIT_MS;
  const finished = new Promise<Run>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`docs ${args.join(' ')} did not finish within ${limit / 1000} s (killed).\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, limit);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
  return { child, finished };
}

/**
 * What `docs serve` prints when the site has problems, up to "the site is served
 * once they are fixed" (or until it ends); it is stopped then.
 */
export async function serveProblems(s: Scratch): Promise<string> {
  const { child, finished } = startDocs(['serve', '--port', '0'], { cwd: s.site, env: { DOCS_CACHE_DIR: s.cache } });
  let out = '';
  await new Promise<void>((resolve) => {
    const seen = (c: Buffer) => {
      out += c.toString();
      if (out.includes('the site is served once they are fixed')) resolve();
    };
    child.stdout!.on('data', seen);
    child.stderr!.on('data', seen);
    void finished.then(() => resolve(), () => resolve());
  });
  child.kill('SIGTERM');
  await finished;
  return out;
}

export function docs(args: string[], options: RunOptions): Promise<Run> {
  return startDocs(args, options).finished;
}

/** Runs docs in a scratch site with its own cache folder. */
export function docsIn(s: Scratch, args: string[], options: Partial<RunOptions> = {}): Promise<Run> {
  return docs(args, { cwd: s.site, ...options, env: { DOCS_CACHE_DIR: s.cache, ...options.env } });
}

/**
 * Every entry under `dir` with what identifies it: a file's SHA-256, a
 * link's target, a folder, or the kind of a special file. Two equal maps
 * mean byte-identical trees.
 */
export function treeHash(dir: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs).sort()) {
      const path = join(abs, name);
      const r = rel ? `${rel}/${name}` : name;
      if (skip(r)) continue;
      const st = lstatSync(path);
      if (st.isSymbolicLink()) out.set(r, `link ${readlinkSync(path)}`);
      else if (st.isDirectory()) {
        out.set(r, 'dir');
        walk(path, r);
      } else if (st.isFile()) out.set(r, `file ${createHash('sha256').update(readFileSync(path)).digest('hex')}`);
      else out.set(r, `special ${st.mode.toString(8)}`);
    }
  };
  walk(dir, '');
  return out;
}

/** The cache folder changes with every build; it is not a writer's file nor output. */
export const notCache = (rel: string) => rel === 'cache' || rel.startsWith('cache/');

/** Asserts that nothing in the output looks like a Node stack trace or an uncaught error. */
export function expectNoStack(run: Run): void {
  for (const text of [run.stdout, run.stderr]) {
    expect(text).not.toMatch(/^\s+at /m);
    expect(text).not.toMatch(/^(?:\w*Error|Uncaught|node:internal)\b/m);
    expect(text).not.toMatch(/Node\.js v\d+/);
  }
}

/** A failed build's last line. */
export const UNTOUCHED = (n: number) => `${n} problem${n === 1 ? '' : 's'} found; the previous output was left untouched.`;

/**
 * A bad input: exit 1, exactly these problem lines (then the summary), no
 * stack trace, and the scratch folder (sources and previous output) the same
 * before and after.
 */
export async function expectRejected(s: Scratch, args: string[], problems: string[], options: Partial<RunOptions> = {}): Promise<Run> {
  const before = treeHash(s.dir, notCache);
  const run = await docsIn(s, args, options);
  expectNoStack(run);
  const summary = args[0] === 'check' ? `${problems.length} problem${problems.length === 1 ? '' : 's'} found; fix them and run docs check again.` : UNTOUCHED(problems.length);
  expect(run.stderr).toBe([...problems, summary, ''].join('\n'));
  expect(run.code).toBe(1);
  expect(treeHash(s.dir, notCache)).toEqual(before);
  return run;
}

/** The warning about a page that no section lists and no menu links to. */
export const unlistedWarning = (file: string, id: string) =>
  `${file}: this page is in no section of site.config.yaml, nor in the navigation or the footer, so no menu leads to it; list "${id}" in a section's pages`;

/** A good build of the scratch site into dist/ (the "previous output" of a probe). */
export async function goodBuild(s: Scratch, args: string[] = []): Promise<void> {
  const run = await docsIn(s, ['build', '-q', ...args]);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
}

/** Writes a file of the scratch site (relative path). */
export function put(s: Scratch, rel: string, contents: string | Uint8Array): void {
  const path = join(s.site, rel);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, contents);
}

/** Whether `command args…` runs and exits 0 (a probe of what this machine allows). */
export function works(command: string, args: string[]): boolean {
  const r = spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 });
  return r.status === 0;
}

/** Names in `dir` left by builds: temporary folders and lock files. */
export function leftovers(dir: string): string[] {
  return readdirSync(dir).filter((name) => /^\..*-build-/.test(name) || /^\..*\.lock$/.test(name));
}

/** A seeded random generator (xorshift): the same seed gives the same draws, so a failure names the case that reproduces it. */
export function random(seed: number) {
  // (The seed mixed first: xorshift's first draws from close seeds are close.)
  let state = Math.imul((seed ^ 0x9e3779b9) >>> 0, 0x85ebca6b) >>> 0;
  state = (Math.imul(state ^ (state >>> 13), 0xc2b2ae35) ^ (state >>> 16)) >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
  for (let i = 0; i < 8; i++) next();
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)), pick: <T>(list: readonly T[]) => list[Math.floor(next() * list.length)]! };
}
export type Random = ReturnType<typeof random>;
