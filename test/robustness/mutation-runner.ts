/*
 * The child process of mutations.test.ts: checks a site once per random
 * mutation of one of its pages, in turn, in this one process (no start-up
 * per mutation), and prints a JSON line before and after each:
 *   {"start":i,"page":…,"ops":[…]}   then   {"done":i,"code":…,"ms":…,"stderr":…,"thrown":…}
 * Run as: node --import tsx test/robustness/mutation-runner.ts <site> <seed> <count> <extra pages…>
 * The extra pages (real pages of the webpack site) are put into content/real/ one at a time.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { main } from '../../src/cli/cli.js';

const [site, seedText, countText, ...extra] = process.argv.slice(2);
if (!site || !seedText || !countText) throw new Error('usage: mutation-runner.ts <site> <seed> <count> <extra pages…>');

/** mulberry32: a small seeded generator, so that a failing mutation can be made again. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = random(Number(seedText));
const int = (n: number) => Math.floor(rand() * n);
const pick = <T>(list: readonly T[]): T => list[int(list.length)]!;

const content = join(site, 'content');
const own = (readdirSync(content, { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).sort().map((f) => join(content, f));
const pages = [...own.map((path) => ({ path, original: readFileSync(path) })), ...extra.map((from) => ({ path: join(content, 'real', basename(from)), original: readFileSync(from) }))];

type Op = (bytes: Buffer) => Buffer;
const lines = (b: Buffer) => b.toString('latin1').split('\n');
const join1 = (l: string[]) => Buffer.from(l.join('\n'), 'latin1');
const FENCES = ['```', '```js', '~~~', ':::', ':::tip', ':::warning[Title', '::::tabs', ':::tab[One]', '---', '> [!NOTE]'];
const NOISE = ['*'.repeat(50), '['.repeat(60), '`'.repeat(7), '<details>', '</div>', '<!--', '{', '\\', '| a | b |\n|---|', '[^x]', '&#0;', '&#xD800;', '> '.repeat(150) + 'deep', '- '.repeat(120) + 'deep', '#'.repeat(7) + ' h'];

/** The mutations, by name: each takes the page's bytes and returns new ones. */
const OPS: Record<string, Op> = {
  'delete lines': (b) => {
    const l = lines(b);
    const at = int(l.length);
    l.splice(at, 1 + int(5));
    return join1(l);
  },
  'duplicate a fence': (b) => {
    const l = lines(b);
    const fences = l.map((line, i) => [line, i] as const).filter(([line]) => /^\s*(```|~~~|:::|---)/.test(line));
    const [line, i] = fences.length ? pick(fences) : [pick(FENCES), int(l.length)];
    l.splice(i, 0, line);
    return join1(l);
  },
  'unbalanced directive': (b) => {
    const l = lines(b);
    l.splice(int(l.length + 1), 0, pick(FENCES));
    return join1(l);
  },
  'random bytes': (b) => {
    const at = int(b.length + 1);
    const noise = Buffer.from(Array.from({ length: 1 + int(16) }, () => int(256)));
    return Buffer.concat([b.subarray(0, at), noise, b.subarray(at)]);
  },
  'truncate frontmatter': (b) => {
    const text = b.toString('latin1');
    const end = text.indexOf('\n---', 3);
    const cut = 1 + int(Math.max(1, end > 0 ? end + 4 : text.length));
    return Buffer.concat([b.subarray(0, cut), rand() < 0.5 ? Buffer.alloc(0) : b.subarray(end > 0 ? end + 4 : cut)]);
  },
  'truncate the file': (b) => b.subarray(0, int(b.length + 1)),
  'swap lines': (b) => {
    const l = lines(b);
    const i = int(l.length);
    const j = int(l.length);
    [l[i], l[j]] = [l[j]!, l[i]!];
    return join1(l);
  },
  'markup noise': (b) => {
    const l = lines(b);
    const i = int(l.length);
    l[i] = `${l[i]!.slice(0, int(l[i]!.length + 1))}${pick(NOISE)}${l[i]!.slice(int(l[i]!.length + 1))}`;
    return join1(l);
  },
};
const NAMES = Object.keys(OPS);

const out = (record: unknown) => process.stdout.write(`${JSON.stringify(record)}\n`);

for (let i = 0; i < Number(countText); i++) {
  const page = pick(pages);
  const ops = Array.from({ length: 1 + int(3) }, () => pick(NAMES));
  let bytes: Buffer = page.original;
  for (const op of ops) bytes = OPS[op]!(bytes);
  const rel = relative(site, page.path);
  out({ start: i, page: rel, ops });
  mkdirSync(join(page.path, '..'), { recursive: true });
  writeFileSync(page.path, bytes);
  let stderr = '';
  let stdout = '';
  let thrown: string | undefined;
  let code: number | undefined;
  const started = performance.now();
  // Anything written straight to the process's stderr (not through the CLI's io) counts too.
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string | Uint8Array) => {
    stderr += chunk.toString();
    return true;
  }) as typeof process.stderr.write;
  try {
    code = await main(['node', 'docs', 'check', '--root', site], {
      out: { write: (s: string) => (stdout += s), isTTY: false },
      err: { write: (s: string) => (stderr += s) },
    });
  } catch (e) {
    thrown = e instanceof Error ? (e.stack ?? e.message) : String(e);
  } finally {
    process.stderr.write = write;
  }
  const ms = Math.round(performance.now() - started);
  if (page.path.startsWith(join(content, 'real'))) rmSync(page.path);
  else writeFileSync(page.path, page.original);
  out({ done: i, page: rel, ops, code, ms, stdout, stderr, thrown });
}
