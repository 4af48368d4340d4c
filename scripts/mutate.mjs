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
  { name: 'config-checks', mutate: ['src/config/checked.ts'], tests: ['test/generator/config.test.ts'] },
  { name: 'link-checker', mutate: ['src/site/links.ts', 'src/content/link-kinds.ts'], tests: ['test/generator/links.test.ts'] },
  { name: 'output-writer', mutate: ['src/build/output.ts', 'src/build/output-lock.ts'], tests: ['test/generator/output.test.ts', 'test/generator/output-edges.test.ts'] },
];

/**
 * Survivors that no test can kill because no behaviour differs (each named by its place and change,
 * with why). Printed under the module's score; kept to a few per module.
 */
export const EQUIVALENT = {
  'link-checker': [
    ['links.ts resolved(): any change to `resolvedPaths.size >= 100_000` (the bound of the memo of resolved paths)', 'only how much is remembered changes, never a resolved path'],
    ["links.ts withBase: `base === '/'` made false (or its '/' made '')", "'/' without its last slash is '', so the URL comes out the same"],
    ["links.ts resolveHref: `let hash = ''` made 'Stryker was here!'", 'the try block sets it (or returns) before it is read'],
    ['links.ts resolveHref: `normal !== candidate` made true', 'when they are equal, targets.files.has(candidate) was asked just above'],
  ],
  sanitiser: [
    ['raw-html.ts: the `end` position of the two problems of unclosed raw HTML made {}', 'report() reads only the start of a position'],
    ["raw-html.ts clean: any change to `alone.type === 'root' && alone.children.length === 1`", 'hast-util-sanitize already unwraps a result of one node, so a root never has exactly one child here'],
    ["raw-html.ts SCHEMA: clobber ['Stryker was here'], clobberPrefix 'Stryker was here!', h2 ['Stryker was here']", 'no attribute a writer can write has that name (it holds spaces)'],
  ],
  'request-handling': [
    ["respond.ts hashOf: `found.kind === 'file'` made false (or its 'file' made '')", 'the last line returns found.entry?.hash, the same hash of the same entry'],
    ["respond.ts handle: the search index's 503 with 'Cache-Control': '' instead of 'no-store'", 'sendText sets Cache-Control: no-store over the headers it is given'],
    ['respond.ts answerEarly: `this.served.early?.()` made `this.served.early()`', 'answerEarly is only reached through served.early, which is then defined'],
    ["respond.ts placeholder: `req.method === 'HEAD'` made false (or its 'HEAD' made '')", "Node's HTTP server sends no body to a HEAD request, whatever res.end is given"],
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
