#!/usr/bin/env node
// What each patch of patches/ saves: node scripts/bench-patches.mjs [--shape=lists] [--kb=1024] [--runs=4] [--rounds=2]
//
// Parses a page of one shape of bench-shapes.mjs (prose, lists, tables) and turns its tree into
// HTML's (remark-rehype), in a process of its own for each setting: every patch applied, none, and
// each patch left out alone. A file left out is loaded as installed, made by reversing its patch
// (test/helpers/patched-files-hooks.mjs): nothing in node_modules changes. Prints the CPU time of
// each run, the settings alternated in rounds, then the range and median of each.
import { spawnSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PATCHES } from './patches.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const option = (name, fallback) => process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const [shape, kb, runs, rounds] = [option('shape', 'lists'), Number(option('kb', 1024)), Number(option('runs', 4)), Number(option('rounds', 2))];

if (process.argv.includes('--child')) {
  // Under tsx and the hooks: the project's parser, and remark-rehype as the build uses it.
  const { parser } = await import('../src/content/mdast-parse.ts');
  const { default: remarkRehype } = await import('remark-rehype');
  const { unified } = await import('unified');
  const { shapeMarkdown } = await import('./bench-shapes.mjs');
  const toHast = unified().use(remarkRehype, { allowDangerousHtml: true });
  const text = shapeMarkdown(shape, kb * 1024);
  toHast.runSync(parser.parse(shapeMarkdown(shape, 32 * 1024))); // compiled before timing
  const times = [];
  for (let run = 0; run < runs; run++) {
    const start = process.cpuUsage();
    toHast.runSync(parser.parse(text));
    const used = process.cpuUsage(start);
    times.push(Math.round((used.user + used.system) / 1000));
  }
  process.stdout.write(JSON.stringify(times));
} else {
  const settings = [['every patch', ''], ['none', '1'], ...PATCHES.map((patch) => [`without ${patch.package}`, patch.package])];
  const results = new Map(settings.map(([name]) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const [name, unpatched] of settings) {
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--import', './test/helpers/patched-files-hooks.mjs', 'scripts/bench-patches.mjs', '--child', ...process.argv.slice(2)], {
        cwd: root,
        env: { ...process.env, DOCS_TEST_UNPATCHED: unpatched },
        encoding: 'utf8',
      });
      if (child.status !== 0) throw new Error(child.stderr);
      // The hooks say which files they loaded as installed.
      if (unpatched && !child.stderr.includes('unpatched: ')) throw new Error(`${name}: no file was loaded as installed`);
      const times = JSON.parse(child.stdout);
      results.get(name).push(...times);
      console.log(`${shape} ${kb} KB, ${name}: ${times.join(', ')} ms`);
    }
  }
  for (const [name, times] of results) {
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    console.log(`${name.padEnd(40)} ${sorted[0]}–${sorted[sorted.length - 1]} ms, median ${median} ms (${sorted.length} runs)`);
  }
}
