#!/usr/bin/env node
// Input shapes benchmark: npm run bench:shapes [-- --shapes=prose-1,lists-1,tables-1] [--floor]
//
// Builds a site whose one page is as large as a page may be (just under 1 MB of prose, short
// lists or a table), cold (no cache), and prints wall time and peak RSS against the targets:
// within 3 s, peak memory at most ten times the input plus 300 MB. Each page is valid Markdown that a writer could have written.
// `npm run bench` prints these rows too (its "shapes" rows). With --floor, it times the parser
// alone on the same pages instead (see floorRows): what no work around the parser can go below.
import { spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeBenchConfig } from './bench-config.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const MB = 1024 * 1024;

/** Markdown of about `bytes` bytes in one shape. */
export function shapeMarkdown(shape, bytes) {
  const parts = [];
  let size = 0;
  const add = (s) => {
    parts.push(s);
    size += s.length;
  };
  for (let i = 0; size < bytes; i++) {
    if (shape === 'prose') {
      add(
        `## Section ${i}\n\nThe loader reads \`source\` and returns the module's code; see [the loader API](/shape/big/#section-${Math.max(0, i - 1)}) ` +
          `for the context it gets. Each paragraph is ordinary prose with *emphasis*, **strong text** and a footnote-free sentence.\n\n` +
          `- first point of section ${i}\n- second point, with \`inline code\`\n\n` +
          '```js\n' + `module.exports = { mode: 'production', name: 'section-${i}' };\n` + '```\n\n',
      );
    } else if (shape === 'lists') {
      if (i % 200 === 0) add(`\n## List ${i / 200}\n\n`);
      add(`- item ${i} with \`code\` and a [link](/shape/big/)\n`);
    } else if (shape === 'tables') {
      if (i === 0) add('## Table\n\n| Option | Type | Default | Description |\n| --- | --- | --- | --- |\n');
      add(`| \`option${i}\` | \`string\` | \`'value-${i}'\` | What option ${i} does, in [the guide](/shape/big/). |\n`);
    } else throw new Error(`unknown shape ${shape}`);
  }
  return parts.join('');
}

function site(dir, shape, megabytes) {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'content', 'shape'), { recursive: true });
  writeFileSync(join(dir, 'content', 'index.md'), '---\ntitle: Shapes\ndescription: One very large page.\n---\n\nThe large page is under /shape/big/.\n');
  // (Under the limit of a page, MAX_PAGE_BYTES, with room for the frontmatter and the last part.)
  const body = shapeMarkdown(shape, megabytes * MB - 4096);
  writeFileSync(join(dir, 'content', 'shape', 'big.md'), `---\ntitle: ${shape}\ndescription: ${megabytes} MB of ${shape}.\n---\n\n${body}`);
  writeBenchConfig(dir);
  return Buffer.byteLength(body);
}

/** Builds each shape once, cold; returns one row per shape. */
export function shapeRows(list = ['prose-1', 'lists-1', 'tables-1']) {
  const work = join(root, '.bench', 'shapes');
  const rows = [];
  // "Cold" is a build without the render cache: the tool's own bundle (made once per change of its sources) is made first, untimed.
  spawnSync(process.execPath, [join(root, 'bin/docs.js'), '--version'], { stdio: 'ignore' });
  for (const name of list) {
    const [shape, mb] = name.split('-');
    const megabytes = Number(mb);
    const dir = join(work, name);
    const bytes = site(dir, shape, megabytes);
    const cache = join(dir, '.cache');
    const started = process.hrtime.bigint();
    const child = spawnSync('/usr/bin/time', ['-f', 'MAXRSS %M', process.execPath, join(root, 'bin/docs.js'), 'build', '--root', dir, '--quiet'], {
      env: { ...process.env, DOCS_CACHE_DIR: cache, DOCS_PROFILE: '1' },
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      timeout: 600_000,
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const rss = Number(/MAXRSS (\d+)/.exec(child.stderr ?? '')?.[1] ?? 0) / 1024;
    const target = megabytes <= 1 ? 3 : 30;
    const rssLimit = 10 * (bytes / MB) + 300;
    const stages = JSON.parse(/DOCS_PROFILE (.*)/.exec(child.stderr ?? '')?.[1] ?? '{"stages":{}}').stages;
    const slowest = Object.entries(stages).sort((a, b) => b[1] - a[1]).slice(0, 3).map(([s, v]) => `${s} ${(v / 1000).toFixed(2)}s`).join(', ');
    rows.push({
      site: `shape ${shape}`,
      'input MB': Number((bytes / MB).toFixed(1)),
      status: child.status === 0 ? 'built' : child.error ? 'killed' : `exit ${child.status}`,
      'wall s': Number(seconds.toFixed(2)),
      'target s': target,
      'peak RSS MB': Math.round(rss),
      'RSS limit MB': Math.round(rssLimit),
      'meets targets': child.status === 0 && seconds <= target && rss <= rssLimit ? 'yes' : 'no',
      'slowest stages': slowest,
    });
    rmSync(dir, { recursive: true, force: true });
  }
  return rows;
}

/**
 * The floor under each row: how long the parser alone (remark-parse with GFM and directives, as
 * the build runs it) takes on the same page, without and with the search for autolink literals.
 * Medians of `runs`, in one process.
 */
export async function floorRows(list = ['prose-1', 'lists-1', 'tables-1'], runs = 3) {
  const { tsImport } = await import('tsx/esm/api');
  const { parser, parserWithoutAutolinks } = await tsImport(join(root, 'src/content/mdast-parse.ts'), import.meta.url);
  const seconds = (ms) => Number((ms / 1000).toFixed(2));
  const median = (values) => values.sort((a, b) => a - b)[values.length >> 1];
  const rows = [];
  for (const name of list) {
    const [shape, mb] = name.split('-');
    const body = shapeMarkdown(shape, Number(mb) * MB - 4096);
    parserWithoutAutolinks.parse(shapeMarkdown(shape, 64 * 1024)); // compiled before timing
    const whole = [];
    const withAutolinks = [];
    for (let run = 0; run < runs; run++) {
      let started = performance.now();
      parserWithoutAutolinks.parse(body);
      whole.push(performance.now() - started);
      started = performance.now();
      parser.parse(body);
      withAutolinks.push(performance.now() - started);
    }
    rows.push({ page: `${shape} ${mb} MB`, 'parse s': seconds(median(whole)), 'parse with autolinks s': seconds(median(withAutolinks)) });
  }
  return rows;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = process.argv.find((a) => a.startsWith('--shapes='));
  const shapes = arg ? arg.slice('--shapes='.length).split(',') : undefined;
  if (process.argv.includes('--floor')) console.table(await floorRows(shapes));
  else console.table(shapeRows(shapes));
}
