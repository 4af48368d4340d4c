#!/usr/bin/env node
// Mutation testing of the code that guards users: npm run mutate [-- --only=<name>,…] [-- --concurrency=<n>]
//
// For each module below, StrykerJS (with its vitest runner) changes the module's code one small
// way at a time (a condition turned round, a constant changed, a call removed…) and runs the
// module's own test files against each change: a change that no test notices is a survivor. The
// tests listed are those that run the module in the test's own process (a test that runs the
// command as a child process uses the unmutated code, so it cannot see a mutant). Prints the score
// of each module, and writes Stryker's HTML report to reports/mutation/<name>/.
// Slow (minutes per module): not part of npm test.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/** Each guarded module and the test files that exercise it in-process. */
export const MODULES = [
  { name: 'decisions', mutate: ['templates/client/decisions.ts'], tests: ['test/chrome/decisions.test.ts'] },
  { name: 'sanitiser', mutate: ['src/content/plugins/raw-html.ts'], tests: ['test/generator/raw-html-edges.test.ts', 'test/robustness/placeholders.test.ts', 'test/generator/raw-html.test.ts'] },
  { name: 'out-guard', mutate: ['src/build/out-guard.ts'], tests: ['test/generator/out-guard.test.ts'] },
  { name: 'request-handling', mutate: ['src/serve/respond.ts'], tests: ['test/serve/respond.test.ts', 'test/serve/host.test.ts', 'test/serve/http.test.ts', 'test/serve/first-pass.test.ts', 'test/serve/events.test.ts'] },
  { name: 'config-checks', mutate: ['src/config/load.ts'], tests: ['test/generator/config.test.ts'] },
  { name: 'link-checker', mutate: ['src/site/links.ts', 'src/content/link-kinds.ts'], tests: ['test/generator/links.test.ts'] },
  { name: 'output-writer', mutate: ['src/build/output.ts', 'src/build/output-lock.ts'], tests: ['test/generator/output.test.ts', 'test/generator/output-edges.test.ts', 'test/generator/output-lock-edges.test.ts'] },
];

/**
 * Survivors that no test can kill because no behaviour differs (each named by its place and change,
 * with why). Printed under the module's score; kept to a few per module.
 */
export const EQUIVALENT = {
  'link-checker': [
    ["links.ts withBase: `base === '/'` made false (or its '/' made '')", "'/' without its last slash is '', so the URL comes out the same"],
    ["links.ts resolveHref: `let hash = ''` made 'Stryker was here!'", 'the try block sets it (or returns) before it is read'],
    ['links.ts resolveHref: `normal !== candidate` made true', 'when they are equal, targets.files.has(candidate) was asked just above'],
  ],
  sanitiser: [
    ['raw-html.ts: the `end` position of the two problems of unclosed raw HTML made {}', 'report() reads only the start of a position'],
    ["raw-html.ts clean: any change to `alone.type === 'root' && alone.children.length === 1`", 'hast-util-sanitize already unwraps a result of one node, so a root never has exactly one child here'],
    ["raw-html.ts SCHEMA: clobber ['Stryker was here'], clobberPrefix 'Stryker was here!', h2 ['Stryker was here']", 'no attribute a writer can write has that name (it holds spaces)'],
  ],
  'output-writer': [
    ['output.ts commit: `existsSync(this.target)` made false (no write-access check before the swap)', 'access(2) asks for the real user, and the tests run as root, which may write anywhere; a test process cannot become another user and come back'],
    ['output.ts commit: `if (this.previous)` made true, `if (hadOutput)` made true', 'what the guard skips throws when it has nothing to act on (no kept file, no old folder), and the throw is caught'],
    ['output.ts / output-lock.ts: `force: true` of rmSync made false (the old output, the temporary lock, a released lock, leftovers)', 'the path exists when it is removed (just listed or read), and where it could be gone the error is caught'],
    ['output.ts write(): `if (!made)` and linkKept: `!made.has(folder)` made true; keepMoved: `if (!this.byKey)` made true', 'only how often a folder is made (recursively, which is harmless again) or the index of keys is built changes'],
    ["output.ts write(): `typeof contents === 'string'` made true", 'Buffer.byteLength of a Buffer is its length'],
    ["output.ts write() failure, output-lock.ts's errors of the lock file: `typeof e === 'object'` (and `e &&` made `e ||`) made true", 'the errors of fs calls are always Error objects'],
    ['output.ts slot(): `this.open < MAX_OPEN` made `<=`', 'one file more open at once (129): nothing a test sees but a count of descriptors, which others in the process move by more'],
    ["output.ts: keepMoved `?? []` made ['Stryker was here']; the catch block of intact() emptied", 'an unknown key moves nothing, and an unreadable file gives false either way'],
    ["output-lock.ts readHolder: readFileSync(file, '') and its two catch blocks emptied", 'a Buffer reads as the same text, and a failed read or parse returns undefined either way'],
    ['output-lock.ts mayBeRunning: `boot !== undefined` made true; `program &&` made true; `started === undefined` made false (and its `return true` made false)', 'Linux always has a boot id, and a live process its program and start time; they differ only if the process ends between two reads'],
    ['output-lock.ts mayBeRunning: `started <= lockWritten + 1000` made `<`', "a file's time is not exact to the nanosecond, so no lock can be dated exactly a second before its process started"],
    ['output-lock.ts processStarted: `bootTimeMs === undefined` made false, its catch emptied; machineBoot: catch emptied', 'only where /proc is missing (not Linux), or returns undefined either way'],
    ["output-lock.ts processStarted: the btime pattern without ^ or $, `?.[1]` made `[1]`, readFileSync('/proc/stat', '')", '/proc/stat has one btime line, always; a Buffer matches as its text'],
    ["output-lock.ts takeLock: after a refused link, the catch of the exclusive create emptied or its EEXIST test made true; `code ?? ''`", 'an exclusive create that fails otherwise than EEXIST cannot be caused as root; every fs error has a code'],
    ["output-lock.ts lockOutput: `let taken = false` made true; the temporary lock's options `{ mode: 0o644, flag: 'wx' }` made {} (or its flag '')", 'taken is set before it is read; the temporary name is random and new; under the usual umask (022) the default mode is the same 0644, and a test thread may not change the umask'],
    ['output-lock.ts removeLeftovers: `time > latest.time` made `>=`; the catch of readdirSync emptied; lockOutput: the catch of the taken-over unlink emptied', 'of two folders set aside at the same instant either is the latest; the folder was just made; the catch is empty already'],
  ],
  'request-handling': [
    ['respond.ts answerEarly: `this.served.early?.()` made `this.served.early()`', 'answerEarly is only reached through served.early, which is then defined'],
  ],
};

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')));
const only = args.only ? new Set(args.only.split(',')) : undefined;
// One test process at a time by default: a run is long, and it shares the computer.
const concurrency = Number(args.concurrency ?? 1);
const unknown = [...(only ?? [])].filter((name) => !MODULES.some((m) => m.name === name));
if (unknown.length) {
  console.error(`No module named ${unknown.join(', ')}; the modules are ${MODULES.map((m) => m.name).join(', ')}.`);
  process.exit(2);
}
const work = join(root, '.stryker-tmp');
rmSync(work, { recursive: true, force: true });
mkdirSync(work, { recursive: true });

const scores = [];
for (const module of MODULES) {
  if (only && !only.has(module.name)) continue;
  // At the top of the project, so that Stryker copies it into its sandbox and the tests run the mutated copy.
  const vitestConfig = `vitest.mutate-${module.name}.config.mjs`;
  writeFileSync(
    join(root, vitestConfig),
    `import { defineConfig } from 'vitest/config';\nexport default defineConfig({ test: { include: ${JSON.stringify(module.tests)}, testTimeout: 120000, hookTimeout: 240000, pool: 'forks' } });\n`,
  );
  const strykerConfig = join(work, `stryker.${module.name}.json`);
  writeFileSync(
    strykerConfig,
    JSON.stringify(
      {
        testRunner: 'vitest',
        plugins: ['@stryker-mutator/vitest-runner'],
        mutate: module.mutate,
        vitest: { configFile: vitestConfig, related: false },
        coverageAnalysis: 'perTest',
        concurrency,
        timeoutMS: 60_000,
        reporters: ['clear-text', 'html', 'json'],
        htmlReporter: { fileName: `reports/mutation/${module.name}/index.html` },
        jsonReporter: { fileName: `reports/mutation/${module.name}/mutation.json` },
        tempDirName: join(work, `sandbox-${module.name}`),
        // (Anchored at the project's top: a bare name would also leave out src/content.)
        ignorePatterns: ['/dist', '/.bench', '/test/.tmp', '/reports', '/.stryker-tmp', '/node_modules/.cache'],
        cleanTempDir: true,
      },
      null,
      2,
    ),
  );
  console.log(`\n== ${module.name}: ${module.mutate.join(', ')} (tests: ${module.tests.join(', ')})`);
  const run = spawnSync(process.execPath, [join(root, 'node_modules/@stryker-mutator/core/bin/stryker.js'), 'run', strykerConfig], {
    cwd: root,
    // No caches: every mutant runs the same instrumented code, so a render or config cached by one would answer for the next.
    env: { ...process.env, DOCS_CACHE: '0' },
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  process.stdout.write(run.stdout.split('\n').filter((line) => /Survived|NoCoverage|^[-+] |^templates|^src|score|All files|\|/.test(line)).join('\n') + '\n');
  rmSync(join(root, vitestConfig), { force: true });
  const score = /All files\s*\|\s*([\d.]+)/.exec(run.stdout)?.[1];
  scores.push({ module: module.name, 'mutation score %': score ? Number(score) : `failed (exit ${run.status}): ${run.stderr.slice(-300)}` });
}
console.log('');
console.table(scores);
const named = scores.filter(({ module }) => EQUIVALENT[module]?.length);
if (named.length) {
  console.log('\nSurvivors named equivalent (no behaviour can tell them from the code):');
  for (const { module } of named) for (const [where, why] of EQUIVALENT[module]) console.log(`  ${module}: ${where} — ${why}`);
}
