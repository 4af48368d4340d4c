#!/usr/bin/env node
// Languages and versions benchmark: npm run bench:trees [-- --pages=100 --runs=3]
//
// Builds, cold (a new cache folder each time), two sites of the same number of pages: one tree
// (6 × pages pages in content/), and 3 languages × 2 versions (pages pages in each of the six
// trees, every page translated). Runs alternate; prints wall time and CPU time (user + system) of
// each run. A site in several languages and versions should build in time proportional to its
// pages: its figures should be those of the one-tree site, within the noise.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback);
const PAGES = arg('pages', 100);
const RUNS = arg('runs', 3);

/** A page of a few kilobytes: prose, a list, a code block and links to its neighbours. */
function page(title, i, count) {
  const parts = [`---\ntitle: ${title} ${i}\ndescription: Page ${i} of the benchmark.\n---\n`];
  for (let s = 0; s < 6; s++) {
    parts.push(
      `## Part ${s}\n\nThe tide table of page ${i} lists *high* and **low** water; see [the next page](./page-${(i + 1) % count}.md) ` +
        `and [part ${Math.max(0, s - 1)}](#part-${Math.max(0, s - 1)}). Each paragraph is ordinary prose of a guide.\n\n` +
        `- first point of part ${s}\n- second point, with \`inline code\`\n\n` +
        '```js\n' + `module.exports = { mode: 'production', name: 'page-${i}-${s}' };\n` + '```\n',
    );
  }
  return parts.join('\n');
}

function writeTree(dir, count) {
  mkdirSync(join(dir, 'guides'), { recursive: true });
  writeFileSync(join(dir, 'index.md'), '---\ntitle: Home\ndescription: The home page.\n---\n\nRead the [guides](guides/index.md).\n');
  writeFileSync(join(dir, 'guides', 'index.md'), '---\ntitle: Guides\ndescription: Every guide.\n---\n\nThe guides.\n');
  for (let i = 0; i < count; i++) writeFileSync(join(dir, 'guides', `page-${i}.md`), page('Guide', i, count));
}

function config(count, trees) {
  const pages = Array.from({ length: count }, (_, i) => `      - guides/page-${i}`).join('\n');
  return (
    `site:\n  title: Bench\n  url: https://bench.example.org\n  description: A benchmark site.\nnavigation:\n  - title: Guides\n    url: /guides/\n` +
    (trees ? 'languages:\n  - code: en\n    label: English\n  - code: zh-CN\n    label: 简体中文\n  - code: fr\n    label: Français\nversions:\n  - name: 2.x\n  - name: 1.x\n' : '') +
    `sections:\n  - title: Home\n    url: ""\n  - title: Guides\n    url: guides\n    pages:\n${pages}\n`
  );
}

function makeSites(work) {
  rmSync(work, { recursive: true, force: true });
  const one = join(work, 'one-tree');
  writeTree(join(one, 'content'), PAGES * 6 + 10);
  writeFileSync(join(one, 'site.config.yaml'), config(PAGES * 6 + 10, false));
  const six = join(work, 'six-trees');
  for (const prefix of ['', 'zh-cn/', 'fr/', '1.x/', '1.x/zh-cn/', '1.x/fr/']) writeTree(join(six, 'content', prefix), PAGES);
  writeFileSync(join(six, 'site.config.yaml'), config(PAGES, true));
  return { one, six };
}

function timedBuild(dir) {
  const cache = join(dir, '.cache');
  rmSync(cache, { recursive: true, force: true });
  rmSync(join(dir, 'dist'), { recursive: true, force: true });
  const started = process.hrtime.bigint();
  const child = spawnSync('/usr/bin/time', ['-f', 'CPU %U %S', process.execPath, join(root, 'bin/docs.js'), 'build', '--root', dir], {
    env: { ...process.env, DOCS_CACHE_DIR: cache },
    encoding: 'utf8',
    timeout: 900_000,
  });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (child.status !== 0) throw new Error(`the build of ${dir} failed:\n${child.stdout}\n${child.stderr}`);
  const [, user, sys] = /CPU ([\d.]+) ([\d.]+)/.exec(child.stderr) ?? [];
  const pages = /Built (\d+) pages/.exec(child.stdout)?.[1];
  return { wall, cpu: Number(user) + Number(sys), pages: Number(pages) };
}

const work = join(root, '.bench', 'trees');
const { one, six } = makeSites(work);
// The tool's own bundle is made first, untimed.
spawnSync(process.execPath, [join(root, 'bin/docs.js'), '--version'], { stdio: 'ignore' });
const rows = { one: [], six: [] };
for (let run = 0; run < RUNS; run++) {
  rows.one.push(timedBuild(one));
  rows.six.push(timedBuild(six));
}
for (const [name, list] of Object.entries(rows)) {
  const label = name === 'one' ? '1 language × 1 version' : '3 languages × 2 versions';
  console.log(`${label.padEnd(26)} ${String(list[0].pages).padStart(5)} pages  wall ${list.map((r) => r.wall.toFixed(1)).join(' / ')} s  CPU ${list.map((r) => r.cpu.toFixed(1)).join(' / ')} s`);
}
