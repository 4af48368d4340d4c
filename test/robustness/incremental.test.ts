import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildEvents, capture, readTree, startPreview, stateOf, type Preview } from '../serve/helpers.js';
import { docs, random, treeHash, type Run } from './harness.js';
import { makeSite, Writer } from './incremental-edits.js';

/*
 * A seeded, bounded differential test of the promise that an incremental build gives what a build
 * from nothing gives. Each sequence starts from a site of three languages, two versions, a blog,
 * components, diagrams, tabs, code blocks, a redirect and a static file (incremental-edits.ts) and
 * makes random edits a writer makes, a few of them mistakes. After each edit `docs build` into the
 * same folder with the same cache folder (the command as users run it) must write byte for byte
 * what `DOCS_CACHE=0 docs build` writes into a new folder, and print the same; after a mistake both
 * exit 1 and the previous output is untouched, and the next valid state must still build right.
 * Then `docs serve`'s preview follows a sequence of edits and must serve what the build from
 * nothing writes after each. One more build sequence builds with `--base /sub/` (both builds) in a
 * site that is a folder of a git repository, and commits some of the edits (the pages' last-update
 * dates come from git), at fixed dates.
 *
 * The same seed gives the same edits: a failure names the seed and the step.
 * DOCS_INCREMENTAL_RUN=<n> draws other seeds (run 0, the default, is the one npm test runs);
 * DOCS_INCREMENTAL_SEEDS=<a,b,…> runs those seeds alone; DOCS_INCREMENTAL_STEPS=<n> sets the steps.
 */

const RUN = Number(process.env.DOCS_INCREMENTAL_RUN ?? 0);
const STEPS = Number(process.env.DOCS_INCREMENTAL_STEPS ?? 20);
const SERVE_STEPS = Number(process.env.DOCS_INCREMENTAL_STEPS ?? 16);
const chosen = process.env.DOCS_INCREMENTAL_SEEDS?.split(',').map(Number);
/** The seeds of run n: 10,000 n + 1, 2, 3 (builds) and + 101 (the preview). */
const BUILD_SEEDS = chosen ?? [1, 2, 3].map((i) => 10_000 * RUN + i);
const SERVE_SEEDS = chosen ?? [10_000 * RUN + 101];
/** The seed of the sequence under `--base /sub/` in a git repository (+ 201). */
const GIT_SEEDS = chosen ?? [10_000 * RUN + 201];
/** Whether git runs here (CI has it): without it the sequence under a base path runs without commits. */
const GIT = (() => {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
/**
 * Sequences that found a bug once: the seed, its steps, what differed, and the edit of its last step
 * that showed it. (A change of the edits changes every sequence: the test says when a seed no longer
 * makes that edit, and another seed must be found that does.)
 */
const REGRESSIONS: Array<{ seed: number; steps: number; bug: string; edit: RegExp }> = chosen
  ? []
  : [{ seed: 38, steps: 2, bug: "the stylesheet kept the colours of a yaml block's last render after its language changed", edit: /a code block's language yaml → / }];

/** DOCS_INCREMENTAL_LOG=1 prints each step. */
const LOG = !!process.env.DOCS_INCREMENTAL_LOG;

const scratches: string[] = [];
afterAll(() => {
  for (const dir of scratches) rmSync(dir, { recursive: true, force: true });
});

type Scratch = ReturnType<typeof scratch>;
/** How a sequence builds: under a base path, and whether the scratch folder is a git repository whose commits it makes. */
interface Options {
  base?: string;
  git?: boolean;
}

function scratch() {
  const dir = mkdtempSync(join(tmpdir(), 'docs-incremental-'));
  scratches.push(dir);
  const site = join(dir, 'site');
  makeSite(site);
  mkdirSync(join(dir, 'cache'));
  return { dir, site, cache: join(dir, 'cache'), out: join(dir, 'out'), fresh: join(dir, 'fresh') };
}

/** What differs between two trees of files, one line each (the first bytes that differ, with some context). */
function differences(actual: Map<string, Buffer>, expected: Map<string, Buffer>, name: string, expectedName = 'fresh'): string[] {
  const lines: string[] = [];
  for (const file of expected.keys()) if (!actual.has(file)) lines.push(`${file}: missing from ${name}`);
  for (const file of actual.keys()) if (!expected.has(file)) lines.push(`${file}: only in ${name}`);
  for (const [file, bytes] of expected) {
    const other = actual.get(file);
    if (!other || other.equals(bytes)) continue;
    let at = 0;
    while (at < bytes.length && at < other.length && bytes[at] === other[at]) at++;
    const around = (b: Buffer) => JSON.stringify(b.subarray(Math.max(0, at - 80), at + 120).toString('utf8'));
    lines.push(`${file}: differs at byte ${at}\n  ${name}: ${around(other)}\n  ${expectedName}: ${around(bytes)}`);
  }
  // (A change of the stylesheet's name changes every page: the first few say enough.)
  return lines.length > 8 ? [...lines.slice(0, 8), `and ${lines.length - 8} more files`] : lines;
}

/** `docs build --root site --out <out> --quiet [--base …]`: incremental (the sequence's cache folder) or from nothing (DOCS_CACHE=0, an empty folder). */
function build(s: Scratch, fresh: boolean, options: Options = {}): Promise<Run> {
  if (fresh) rmSync(s.fresh, { recursive: true, force: true });
  const env = fresh ? { DOCS_CACHE: '0', DOCS_CACHE_DIR: join(s.dir, 'no-cache') } : { DOCS_CACHE_DIR: s.cache };
  const base = options.base ? ['--base', options.base] : [];
  return docs(['build', '--root', s.site, '--out', fresh ? s.fresh : s.out, '--quiet', ...base], { cwd: s.dir, env, timeoutMs: 120_000 });
}

/** Commits every change of the site at a fixed date (the scratch folder is the repository: the site is a folder of it). */
function commit(s: Scratch, day: number, message: string) {
  const date = new Date(Date.UTC(2026, 2, day, 12)).toISOString();
  const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 'Writer', GIT_AUTHOR_EMAIL: 'writer@example.org', GIT_COMMITTER_NAME: 'Writer', GIT_COMMITTER_EMAIL: 'writer@example.org' };
  const git = (...args: string[]) => execFileSync('git', args, { cwd: s.dir, env, stdio: 'ignore' });
  git('add', '-A', 'site');
  // (Whatever the machine's git config says about signing.)
  git('-c', 'commit.gpgsign=false', 'commit', '-q', '--allow-empty', '--no-verify', '-m', message);
}

function gitInit(s: Scratch) {
  execFileSync('git', ['init', '-q'], { cwd: s.dir, stdio: 'ignore' });
  writeFileSync(join(s.dir, '.gitignore'), '/cache/\n/out/\n/fresh/\n/no-cache/\n');
  commit(s, 1, 'The site');
}

/** Builds the site both ways after an edit and compares; whether the site was valid. */
async function compareBuilds(s: Scratch, label: string, options: Options = {}): Promise<boolean> {
  const before = existsSync(s.out) ? treeHash(s.out) : undefined;
  const [incremental, fresh] = await Promise.all([build(s, false, options), build(s, true, options)]);
  expect(fresh.code === 0 || fresh.code === 1, `${label}: the build from nothing exits ${fresh.code}: ${fresh.stderr}`).toBe(true);
  expect(incremental.code, `${label}: the incremental build's exit code (fresh: ${fresh.stderr})`).toBe(fresh.code);
  expect(incremental.stderr, `${label}: what the incremental build printed`).toBe(fresh.stderr);
  if (fresh.code === 0) {
    expect(differences(readTree(s.out), readTree(s.fresh), 'incremental'), `${label}: the incremental output`).toEqual([]);
  } else if (before) {
    expect(treeHash(s.out), `${label}: the previous output after a failed build`).toEqual(before);
  }
  return fresh.code === 0;
}

async function buildSequence(seed: number, steps: number, options: Options = {}): Promise<{ valid: number; invalid: number; commits: number; edits: string[] }> {
  const s = scratch();
  if (options.git) gitInit(s);
  const writer = new Writer(s.site, seed);
  // (The commits' own random source: the edits stay those of the seed without git.)
  const commits = random(seed + 7);
  const counts = { valid: 0, invalid: 0, commits: 0, edits: [] as string[] };
  let valid = await compareBuilds(s, `seed ${seed}, step 0 (the first build)`, options);
  expect(valid, `seed ${seed}: the site builds before any edit`).toBe(true);
  for (let step = 1; step <= steps; step++) {
    let what = writer.step(valid);
    if (options.git && commits.next() < 0.4) {
      commit(s, step + 1, what);
      counts.commits++;
      what += `, committed (day ${step + 1})`;
    }
    valid = await compareBuilds(s, `seed ${seed}, step ${step} (${what})`, options);
    if (LOG) process.stderr.write(`seed ${seed}, step ${step}: ${valid ? 'valid' : 'invalid'}: ${what}\n`);
    counts[valid ? 'valid' : 'invalid']++;
    counts.edits.push(what);
  }
  rmSync(s.dir, { recursive: true, force: true });
  return counts;
}

/** Serves the site and makes `steps` edits; after each the preview serves what a build from nothing writes (the last good build after a mistake). */
async function serveSequence(seed: number, steps: number): Promise<string[]> {
  const s = scratch();
  const saved = process.env.DOCS_CACHE_DIR;
  process.env.DOCS_CACHE_DIR = s.cache;
  const captured = capture();
  const edits: string[] = [];
  let preview: Preview | undefined;
  try {
    preview = await startPreview({ root: s.site, config: 'site.config.yaml', port: 0, host: '127.0.0.1', open: false }, captured.io);
    let builds = 0;
    buildEvents(preview).on('build', () => builds++);
    await preview.settled();
    const writer = new Writer(s.site, seed);
    let served = preview.files();
    let valid = true;
    for (let step = 0; step <= steps; step++) {
      const what = step ? writer.step(valid) : 'the first build';
      edits.push(what);
      const label = `seed ${seed}, step ${step} (${what})`;
      if (step) await quiet(preview, () => builds, label);
      const fresh = await build(s, true);
      if (LOG) process.stderr.write(`${label}: ${fresh.code ? 'invalid' : 'valid'}\n`);
      expect(fresh.code === 0 || fresh.code === 1, `${label}: the build from nothing exits ${fresh.code}: ${fresh.stderr}`).toBe(true);
      valid = fresh.code === 0;
      const state = await stateOf(preview);
      expect(state.ok, `${label}: the preview's state (${JSON.stringify(state)}; the build printed ${fresh.stderr})`).toBe(valid);
      if (valid) {
        served = preview.files();
        expect(differences(served, readTree(s.fresh), 'preview'), `${label}: what the preview serves`).toEqual([]);
      } else {
        // The last good build stays served.
        expect(differences(preview.files(), served, 'preview', 'last good build'), `${label}: what the preview serves after a mistake`).toEqual([]);
      }
    }
  } finally {
    await preview?.close();
    if (saved === undefined) delete process.env.DOCS_CACHE_DIR;
    else process.env.DOCS_CACHE_DIR = saved;
  }
  if (captured.err.includes('Unexpected error')) throw new Error(captured.err);
  return edits;
}

describe('an incremental build writes what a build from nothing writes (seeded edits; the seed and step reproduce a failure)', () => {
  for (const { seed, steps, bug, edit } of REGRESSIONS) {
    it(`seed ${seed}, ${steps} edits, docs build after each (found: ${bug})`, async () => {
      expect((await buildSequence(seed, steps)).edits.at(-1), 'the edit that showed the bug').toMatch(edit);
    }, 600_000);
    it(`seed ${seed}, ${steps} edits, docs serve's preview after each (found: ${bug})`, async () => {
      expect((await serveSequence(seed, steps)).at(-1), 'the edit that showed the bug').toMatch(edit);
    }, 600_000);
  }

  for (const seed of BUILD_SEEDS) {
    it(`seed ${seed}: ${STEPS} edits, docs build after each`, async () => {
      const { valid } = await buildSequence(seed, STEPS);
      // (Not stuck in an invalid state: a mistake and the edits made before it is undone are invalid.)
      expect(valid, `seed ${seed}: valid steps`).toBeGreaterThanOrEqual(STEPS / 4);
    }, 600_000);
  }

  for (const seed of GIT_SEEDS) {
    it(`seed ${seed}: ${STEPS} edits, docs build --base /sub/ after each, in a git repository${GIT ? ' committing some of them' : ' (no git here: no commits)'}`, async () => {
      const { valid, commits } = await buildSequence(seed, STEPS, { base: '/sub/', git: GIT });
      expect(valid, `seed ${seed}: valid steps`).toBeGreaterThanOrEqual(STEPS / 4);
      if (GIT) expect(commits, `seed ${seed}: commits`).toBeGreaterThan(0);
    }, 600_000);
  }

  for (const seed of SERVE_SEEDS) {
    it(`seed ${seed}: ${SERVE_STEPS} edits, docs serve's preview after each`, () => serveSequence(seed, SERVE_STEPS), 600_000);
  }
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits for the preview to build the edit and settle, and for no further build to start for a while (the watcher may tell a change in parts). */
async function quiet(preview: Preview, builds: () => number, label: string): Promise<void> {
  const start = builds();
  for (const end = Date.now() + 20_000; builds() === start; await sleep(20)) {
    if (Date.now() > end) throw new Error(`${label}: the preview did not build within 20 s`);
  }
  for (;;) {
    const seen = builds();
    await preview.settled();
    await sleep(300);
    if (builds() === seen) break;
  }
  await preview.settled();
}
