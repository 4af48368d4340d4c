import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsIn, random, scratchSite, type Random, type Run, type Scratch } from './harness.js';

/*
 * A bounded fuzz job: a few hundred seeded pages and configs, careless and hostile, each built by
 * the command as a user runs it. Whatever the input, the build ends (no hang: 90 s at most), exits
 * 0, 1 or 2, prints no stack trace and no "bug in docs", and peaks under 1 GB (DOCS_PROFILE's
 * maxRssMB). The same seed gives the same cases, so a failure names the case that reproduces it.
 * DOCS_FUZZ_RUN=<n> draws another set of cases (run 0, the default, is the one npm test runs).
 */

const MARKDOWN_CASES = 160;
const CONFIG_CASES = 100;
const HANG_MS = 90_000;
/** Which set of cases: the seeds of run n start at 1000 + 10,000 n (pages) and 5000 + 10,000 n (configs). */
const RUN = Number(process.env.DOCS_FUZZ_RUN ?? 0);


/** Pieces of Markdown, each a construct a writer might get wrong or an attacker might try. */
const PIECES: Array<(r: Random) => string> = [
  (r) => `${'#'.repeat(r.int(1, 7))} Heading ${r.int(0, 99)}\n`,
  (r) => `Text with *emphasis*, **strong**, \`code\` and a [link](${r.pick(['/guides/second/', '#setup', '../first/', '/nope/', 'javascript:alert(1)', 'https://example.org', '#'])}).\n`,
  (r) => Array.from({ length: r.int(1, 30) }, (_, i) => `${'  '.repeat(r.int(0, 4))}- item ${i}`).join('\n') + '\n',
  (r) => `| a | b |\n| --- | --- |\n${Array.from({ length: r.int(0, 40) }, (_, i) => `| ${i} | \`x|y\` |`).join('\n')}\n`,
  (r) => '```' + r.pick(['js', 'ts', 'json', 'bash', 'text', 'diff', 'nope', 'js title="a.js" {1,3}', 'js title="x']) + '\n' + 'const a = 1;\n'.repeat(r.int(0, 30)) + (r.next() < 0.8 ? '```\n' : ''),
  (r) => `:::${r.pick(['note', 'tip', 'warning', 'danger', 'nope', 'tabs'])}\nInside.\n${r.next() < 0.8 ? ':::\n' : ''}`,
  (r) => r.pick(['<div>', '<details><summary>s</summary>', '<table><tr><td>x', '<!-- comment', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '<a href="docs-link:0">x</a>', '<iframe src="/"></iframe>', '<meta http-equiv="refresh" content="0;url=https://evil.example">', '<img name="querySelector" src="/x.png" alt="">', '</div>']) + '\n',
  (r) => '> '.repeat(r.int(1, 120)) + 'quoted\n',
  (r) => '*'.repeat(r.int(1, 400)) + 'stars' + '_'.repeat(r.int(0, 300)) + '\n',
  (r) => '&amp;&#0;&#x110000;&nosuch;'.repeat(r.int(1, 200)) + '\n',
  (r) => '[l](#setup) '.repeat(r.int(1, 2000)) + '\n',
  (r) => `[^${r.int(1, 3)}] and [^${r.int(1, 3)}]: note\n`,
  (r) => `[ref]: /guides/second/\n[x][ref] and [y][missing]\n`,
  (r) => 'a'.repeat(r.int(1, 200_000)) + '\n',
  (r) => '中文段落，没有空格。'.repeat(r.int(1, 200)) + '\n',
  (r) => String.fromCharCode(...Array.from({ length: r.int(1, 200) }, () => r.int(1, 0x2fff))) + '\n',
  () => '---\n',
  () => '\t\t    indented\n',
  () => '\n\n\n',
];

/** Pieces a careful writer writes: a page of only these builds. */
const CLEAN = [0, 2, 3, 14, 17, 18].map((i) => PIECES[i]!);
const cleanLink = () => 'See [the second guide](/guides/second/) and [this page](#start).\n';

function markdownCase(seed: number): string {
  const r = random(seed);
  // A quarter of the pages are written with care: the build must succeed on them whatever their size and mix.
  if (seed % 4 === 0) {
    // (The headings other pages of the site link to.)
    const parts = ['---\ntitle: Fuzzed\n---\n\n## Start\n\n', cleanLink(), '\n## Install\n\n## Configure\n\n## Upgrade\n\n'];
    for (let n = r.int(1, 60); n > 0; n--) parts.push(r.pick(CLEAN)(r).replace(/^#{1,7} Heading/, '## Heading').replace(/^#{3,7} /, '## '), '\n');
    return parts.join('');
  }
  const frontmatter = r.pick([
    '---\ntitle: Fuzzed\n---\n',
    '---\ntitle: Fuzzed\nrelated:\n  - title: x\n    url: /nope/\n---\n',
    '---\ntitle: [unclosed\n---\n',
    '---\ntitle: Fuzzed\ngroup: 42\nunknown: true\n---\n',
    '---\ntitle: Fuzzed\n',
    '',
    `---\ntitle: Fuzzed\ndeep: ${'['.repeat(200)}${']'.repeat(200)}\n---\n`,
  ]);
  const parts: string[] = [];
  let size = 0;
  const target = r.next() < 0.1 ? 400_000 : 20_000;
  while (size < target) {
    const piece = r.pick(PIECES)(r);
    parts.push(piece, r.next() < 0.7 ? '\n' : '');
    size += piece.length;
  }
  return `${frontmatter}\n${parts.join('')}`;
}

/** The config with one of several kinds of damage, seeded. */
function configCase(seed: number, config: string): string {
  const r = random(seed);
  const lines = config.split('\n');
  const damage = r.int(0, 9);
  switch (damage) {
    case 0: // a line removed
      lines.splice(r.int(0, lines.length - 1), 1);
      return lines.join('\n');
    case 1: // a value replaced by something of another type
      return config.replace(new RegExp(`(${r.pick(['title', 'url', 'version', 'package', 'label', 'text'])}: ).*`), `$1${r.pick(['[1, 2]', '{a: 1}', '~', '12', 'true', '"\u0000"', "'</script><script>alert(1)</script>'", '"javascript:alert(1)"', '"/\\\\evil.example"'])}`);
    case 2: // indentation broken
      lines.splice(r.int(1, lines.length - 1), 0, ' '.repeat(r.int(1, 5)) + 'stray: value');
      return lines.join('\n');
    case 3: // garbage appended
      return `${config}\n${r.pick(['{a: 1}: 2', '- list at the top', '? complex key\n: value', '&anchor x: *anchor', 'x: *nope', '%YAML 9.9', '--- \nsecond: doc', '\t tab: indent'])}\n`;
    case 4: // aliases that expand a lot
      return `${config}\nlol: &a ["x","x","x","x","x","x","x","x","x"]\nlol2: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nlol3: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nlol4: [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n`;
    case 5: // nesting
      return `${config}\ndeep: ${'['.repeat(r.int(10, 4000))}\n`;
    case 6: // a huge string
      return config.replace(/(title: ).*/, `$1${'x'.repeat(r.int(1000, 2_000_000))}`);
    case 7: // csp, redirects and components with hostile values
      return `${config}\n${r.pick(['csp:\n  img: ["https://a.example/,script-src"]', 'redirects:\n  /%2e%2e/x/: /guides/first/', 'components:\n  Footer: ../../etc/passwd', 'theme:\n  css: /etc/passwd', 'csp:\n  img: ["*"]'])}\n`;
    case 8: // bytes cut off at a random place
      return config.slice(0, r.int(0, config.length));
    default: // random bytes in the middle
      return config.slice(0, r.int(0, config.length)) + String.fromCharCode(...Array.from({ length: r.int(1, 40) }, () => r.int(0, 0xffff))) + config.slice(r.int(0, config.length));
  }
}

let sites: Scratch[] = [];
let config: string;
let firstPage: string;
const FIRST = 'content/guides/first.md';

beforeAll(() => {
  sites = [scratchSite(), scratchSite()];
  config = readFileSync(join(sites[0]!.site, 'site.config.yaml'), 'utf8');
  firstPage = readFileSync(join(sites[0]!.site, FIRST), 'utf8');
});
afterAll(() => {
  for (const s of sites) s.remove();
});

/** A long text by its start and its end. */
const ends = (text: string) => (text.length <= 1200 ? text : `${text.slice(0, 600)} … ${text.slice(-600)}`);

/** What was wrong with a run, or nothing. */
function judge(run: Run): string | undefined {
  // (A fatal error of Node or V8, the usual cause of SIGABRT, names itself in its first line and prints its stacks after.)
  if (run.signal) return `ended by ${run.signal}${run.stderr ? `: ${ends(run.stderr)}` : ''}`;
  if (![0, 1, 2].includes(run.code ?? -1)) return `exit ${run.code}`;
  if (/a bug in docs|\n\s+at .+\(.*:\d+:\d+\)|^\s+at /m.test(run.stderr)) return `a stack trace or a bug: ${run.stderr.slice(0, 400)}`;
  const profile = /DOCS_PROFILE (.*)/.exec(run.stderr);
  if (run.code !== 2 && !profile) return `no DOCS_PROFILE line: ${run.stderr.slice(0, 400)}`;
  const mb = profile ? (JSON.parse(profile[1]!) as { maxRssMB: number }).maxRssMB : 0;
  if (mb >= 1000) return `peaked at ${mb} MB`;
  return undefined;
}

/** Runs the cases on the scratch sites, two at a time; the failures, by case, and how many ended with each exit code. */
async function runCases(count: number, prepare: (s: Scratch, i: number) => void): Promise<{ failures: string[]; exits: Record<string, number> }> {
  const failures: string[] = [];
  const exits: Record<string, number> = {};
  let next = 0;
  await Promise.all(
    sites.map(async (s) => {
      for (let i = next++; i < count; i = next++) {
        prepare(s, i);
        try {
          const run = await docsIn(s, ['build', '-q', '--out', 'out'], { env: { DOCS_PROFILE: '1', DOCS_CACHE: i % 2 ? '0' : '1' }, timeoutMs: HANG_MS });
          const wrong = judge(run);
          if (wrong) failures.push(`case ${i}: ${wrong}`);
          exits[String(run.code)] = (exits[String(run.code)] ?? 0) + 1;
        } catch (e) {
          failures.push(`case ${i}: ${(e as Error).message.split('\n')[0]}`);
        }
      }
    }),
  );
  return { failures, exits };
}

describe('fuzzed input (seeded; the case number reproduces a failure)', () => {
  it('the judge refuses each kind of failure', () => {
    const run = (code: number | null, stderr: string, signal: NodeJS.Signals | null = null): Run => ({ code, stderr, stdout: '', signal });
    const fine = 'DOCS_PROFILE {"stages":{},"maxRssMB":300}\n';
    expect(judge(run(0, fine))).toBeUndefined();
    expect(judge(run(1, `content/a.md:1:1 x\n${fine}`))).toBeUndefined();
    expect(judge(run(3, fine))).toBe('exit 3');
    expect(judge(run(null, '', 'SIGKILL'))).toBe('ended by SIGKILL');
    const fatal = `FATAL ERROR: v8::FromJust Maybe value is Nothing\n----- Native stack trace -----\n${' 1: 0x1 node::Abort()\n'.repeat(100)}`;
    expect(judge(run(null, fatal, 'SIGABRT'))).toMatch(/^ended by SIGABRT: FATAL ERROR: v8::FromJust Maybe value is Nothing\n[^]* … [^]*node::Abort\(\)\n$/);
    expect(judge(run(1, `docs: unexpected error (a bug in docs, not in your files; please report it): x\n${fine}`))).toMatch(/^a stack trace or a bug/);
    expect(judge(run(1, `TypeError: x\n    at f (/a/b.js:1:2)\n${fine}`))).toMatch(/^a stack trace or a bug/);
    expect(judge(run(0, 'DOCS_PROFILE {"stages":{},"maxRssMB":1200}\n'))).toBe('peaked at 1200 MB');
  });

  it(`${MARKDOWN_CASES} pages: exit 0, 1 or 2, no stack trace, no hang, under 1 GB`, async () => {
    const { failures, exits } = await runCases(MARKDOWN_CASES, (s, i) => {
      writeFileSync(join(s.site, 'site.config.yaml'), config);
      writeFileSync(join(s.site, FIRST), markdownCase(1000 + 10_000 * RUN + i));
    });
    expect(failures).toEqual([]);
    // The cases reach past the first check: some build, most have problems.
    expect(exits['0'], JSON.stringify(exits)).toBeGreaterThan(5);
    expect(exits['1'], JSON.stringify(exits)).toBeGreaterThan(50);
  }, 1_800_000);

  it(`${CONFIG_CASES} configs: exit 0, 1 or 2, no stack trace, no hang, under 1 GB`, async () => {
    const { failures, exits } = await runCases(CONFIG_CASES, (s, i) => {
      writeFileSync(join(s.site, FIRST), firstPage);
      writeFileSync(join(s.site, 'site.config.yaml'), configCase(5000 + 10_000 * RUN + i, config));
    });
    expect(failures).toEqual([]);
    expect(exits['0'], JSON.stringify(exits)).toBeGreaterThan(5);
    expect(exits['1'], JSON.stringify(exits)).toBeGreaterThan(30);
  }, 1_800_000);
});
