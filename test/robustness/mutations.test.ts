import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRejected, ROOT, scratchSite, type Scratch } from './harness.js';

/*
 * A property of every input (report sections 1 and F6-F11): 200 seeded
 * random mutations of real pages (lines deleted or swapped, fences and
 * directive markers duplicated or left open, random bytes, truncated
 * frontmatter or files, runs of markup characters) are each checked with
 * `docs check`. Every run succeeds, or fails with messages that each name a
 * file (and a line:column where there is one) — never a stack trace, an
 * unexpected-error line or an exception, and never a hang: the runner is
 * one child process that prints a line per mutation, killed if no line
 * comes for 30 s.
 */

const COUNT = 200;
const SEED = 20;
const SILENCE_MS = 30_000;

/** Real pages of the site with directives and code blocks, a handful, chosen by size and path. */
function realPages(): string[] {
  const content = join(ROOT, 'content');
  return (readdirSync(content, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => join(content, f))
    .filter((path) => {
      const size = statSync(path).size;
      if (size < 3000 || size > 15000) return false;
      const text = readFileSync(path, 'utf8');
      return text.includes('\n:::') && text.includes('\n```');
    })
    .slice(0, 6);
}

interface Done {
  done: number;
  page: string;
  ops: string[];
  code?: number;
  ms: number;
  stdout: string;
  stderr: string;
  thrown?: string;
}

let s: Scratch;
beforeAll(() => {
  s = scratchSite();
});
afterAll(() => s?.remove());

/** A line of a check's stderr that is a message of ours: a file, maybe line:column, then the text; or the summary. */
const PROBLEM = /^[^:\s][^:]*:(\d+:\d+)? \S/;
const SUMMARY = /^\d+ problems? found; fix them and run docs check again\.$/;

describe('200 random mutations of real pages', () => {
  it('each check succeeds or reports positioned problems, and at least half report problems; no crash, no hang', async () => {
    const real = realPages();
    expect(real.length).toBe(6);
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'test/robustness/mutation-runner.ts'), s.site, String(SEED), String(COUNT), ...real], {
      cwd: ROOT,
      env: { ...process.env, DOCS_CACHE_DIR: s.cache, DOCS_WORKERS: '0', DOCS_DEBUG: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let childErr = '';
    child.stderr!.on('data', (c: Buffer) => (childErr += c.toString()));
    const results: Done[] = [];
    let current: { start: number; page: string; ops: string[] } | undefined;
    let hung: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    const watch = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        hung = current ? `mutation ${current.start} (${current.page}: ${current.ops.join(', ')}; seed ${SEED})` : 'the runner before its first mutation';
        child.kill('SIGKILL');
      }, SILENCE_MS);
    };
    watch();
    const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    for await (const line of createInterface({ input: child.stdout! })) {
      watch();
      const record = JSON.parse(line) as Done | { start: number; page: string; ops: string[] };
      if ('start' in record) current = record;
      else results.push(record);
    }
    clearTimeout(timer);
    const code = await exit;
    expect(hung, `no answer for ${SILENCE_MS / 1000} s: ${hung}`).toBeUndefined();
    expect(code, `the runner ended with ${code} after ${results.length} mutations (last: ${JSON.stringify(current)}):\n${childErr}`).toBe(0);
    expect(results.length).toBe(COUNT);

    const bad: string[] = [];
    for (const r of results) {
      const name = `mutation ${r.done} (${r.page}: ${r.ops.join(', ')})`;
      if (r.thrown) bad.push(`${name} threw: ${r.thrown}`);
      else if (r.code !== 0 && r.code !== 1) bad.push(`${name} exited ${r.code}`);
      for (const line of r.stderr.split('\n').filter(Boolean)) {
        if (!PROBLEM.test(line) && !SUMMARY.test(line)) bad.push(`${name}: not a positioned message: ${line}`);
        else if (/^docs: /.test(line)) bad.push(`${name}: ${line}`);
        else if (/^\s+at |Error: /.test(line)) bad.push(`${name}: a stack trace: ${line}`);
      }
      if (r.code === 1 && !SUMMARY.test(r.stderr.trimEnd().split('\n').at(-1) ?? '')) bad.push(`${name}: failed without a summary line`);
    }
    expect(bad).toEqual([]);
    const failed = results.filter((r) => r.code === 1).length;
    const slowest = results.reduce((a, b) => (b.ms > a.ms ? b : a));
    console.info(`mutations: ${COUNT - failed} checked clean, ${failed} with problems; slowest ${slowest.ms} ms (mutation ${slowest.done}, ${slowest.page}: ${slowest.ops.join(', ')})`);
    // Most of these mutations break a page (163 of 200 when this was written): a check that lost its problems would pass them all.
    expect(failed, 'mutations reported with problems').toBeGreaterThanOrEqual(COUNT / 2);
  }, 600_000);
});

describe('mutations that must be problems', () => {
  const SECOND = 'content/guides/second.md';
  const end = () => readFileSync(join(ROOT, 'test/fixtures/site', SECOND), 'utf8').split('\n').length + 1;
  const CASES: Array<[string, (page: string) => string | Buffer, () => string]> = [
    ['the frontmatter left open', (page) => page.replace('---\n\n', '\n'), () => '1:1 frontmatter is not closed: add a "---" line after it'],
    ['a NUL byte', (page) => `${page}\nA \0 byte.\n`, () => `${end()}:3 a NUL character (byte 0) is not text; remove it`],
    ['a byte that is not UTF-8', (page) => Buffer.concat([Buffer.from(`${page}\nCaf`), Buffer.from([0xe9]), Buffer.from('.\n')]), () => `${end()}:4 byte 0xe9 is not UTF-8 text; save the file as UTF-8 (it looks like Latin-1 or Windows-1252)`],
    ['a footnote without its definition', (page) => `${page}\nA footnote.[^nope]\n`, () => `${end()}:12 the footnote [^nope] has no definition: add a line "[^nope]: …" below (the reference shows as text until then)`],
    ['a link to a page that does not exist', (page) => `${page}\nSee [nothing](/nope/).\n`, () => `${end()}:5 links to "/nope/", which is not a page of this site`],
    ['a related: link to a page that does not exist', (page) => page.replace('group: Basics\n', 'group: Basics\nrelated:\n  - title: X\n    url: /nope/\n'), () => '6:10 frontmatter.related[0].url: links to "/nope/", which is not a page of this site'],
    ['raw HTML never closed', (page) => `${page}\n<details>\n\nOpen.\n`, () => `${end()}:1 <details> is opened here and never closed: add </details> where it ends (the rest of the page is inside it until then)`],
    ['a heading level skipped', (page) => `${page}\n#### Skipped\n`, () => `${end()}:1 heading level skips from h2 to h4`],
  ];
  for (const [name, mutate, problem] of CASES) {
    it(`${name}: docs check exits 1 with the problem at its place`, async () => {
      const path = join(s.site, SECOND);
      const original = readFileSync(path, 'utf8');
      writeFileSync(path, mutate(original));
      try {
        await expectRejected(s, ['check'], [`${SECOND}:${problem()}`]);
      } finally {
        writeFileSync(path, original);
      }
    });
  }
});
