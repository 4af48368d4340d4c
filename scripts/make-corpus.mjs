#!/usr/bin/env node
// The synthetic documentation corpus of the benchmarks: deterministic, no dependencies.
//
//   node scripts/make-corpus.mjs CONTENT_DIR N [--seed=S] [--links=dir|abs] [--index=0|1]
//
// Writes N pages over eight section folders (CONTENT_DIR/<section>/<slug>.md) and, unless
// --index=0, CONTENT_DIR/index.md, a home page linking to the first page of each section.
// Every page has the shapes a real reference page has: YAML frontmatter (title, description),
// an introduction, four to eight `##` sections with some `###` under them, paragraphs with inline
// code and links to other pages (some with an #anchor of a heading that exists), bullet lists,
// one table, and two to four fenced code blocks (a webpack config in JavaScript, package.json,
// shell commands). The same N and seed give byte-identical files; page i does not depend on
// how many random draws the pages before it made.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const SECTIONS = ['concepts', 'configuration', 'guides', 'api', 'loaders', 'plugins', 'migrate', 'contribute'];

const TERMS = [
  'entry', 'output', 'chunk', 'module', 'loader', 'plugin', 'resolver', 'runtime', 'asset', 'cache', 'hash', 'target',
  'externals', 'manifest', 'compiler', 'compilation', 'watcher', 'snapshot', 'library', 'worker', 'stylesheet', 'template',
  'alias', 'condition', 'parser', 'generator', 'container', 'remote', 'hook', 'budget', 'minimizer', 'devtool',
];
const QUALITIES = ['lazy', 'shared', 'async', 'persistent', 'custom', 'default', 'initial', 'remote', 'inline', 'hashed', 'named', 'external'];
const VERBS = [
  'emits', 'resolves', 'splits', 'caches', 'reads', 'writes', 'rewrites', 'hashes', 'loads', 'bundles', 'watches', 'skips',
  'merges', 'inlines', 'reports', 'tracks', 'replaces', 'names', 'orders', 'groups',
];
const FILLERS = [
  'before the first build', 'for every chunk', 'when the file changes', 'in production mode', 'during development',
  'after the compilation seals', 'for each request', 'once per process', 'unless the option is false', 'by default',
  'at the start of the run', 'when two modules share it', 'for the whole graph', 'only for async chunks',
];
const CODE = [
  'output.filename', 'module.rules', 'resolve.alias', 'optimization.splitChunks', 'cache.type', 'devtool', 'mode',
  'experiments.css', 'performance.hints', 'import()', 'require.resolve', '[contenthash]', 'sideEffects', 'DefinePlugin',
  'process.env.NODE_ENV', 'this.getOptions()', 'compiler.hooks.done', 'npx webpack', 'package.json', 'asset/resource',
];
const SHELL = [
  (r) => `npm install --save-dev ${r.pick(TERMS)}-loader`,
  (r) => `npx webpack --config webpack.${r.pick(['prod', 'dev', 'common'])}.js`,
  (r) => `npx webpack serve --port ${r.int(3000, 8999)}`,
  () => 'npx webpack --mode production --stats summary',
  (r) => `npm install --save-dev ${r.pick(TERMS)}-webpack-plugin`,
];

/** A seeded generator (xorshift32 over an FNV-1a hash of the seed text). */
function random(seedText) {
  let state = 2166136261;
  for (const ch of seedText) state = Math.imul(state ^ ch.codePointAt(0), 16777619) >>> 0;
  if (state === 0) state = 1;
  const next = () => {
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state / 4294967296;
  };
  return {
    next,
    int: (lo, hi) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: (list) => list[Math.floor(next() * list.length)],
    chance: (p) => next() < p,
  };
}

const upper = (s) => s[0].toUpperCase() + s.slice(1);
const slugify = (s) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

function parseArgs(argv) {
  const positional = argv.filter((a) => !a.startsWith('--'));
  const options = Object.fromEntries(argv.filter((a) => a.startsWith('--')).map((a) => [a.slice(2).split('=')[0], a.split('=')[1] ?? '1']));
  const [dir, count] = positional;
  const n = Number(count);
  if (!dir || !Number.isInteger(n) || n < 1) {
    console.error('usage: node scripts/make-corpus.mjs CONTENT_DIR N [--seed=S] [--links=dir|abs] [--index=0|1]');
    process.exit(2);
  }
  const links = options.links ?? 'dir';
  if (links !== 'dir' && links !== 'abs') {
    console.error(`--links: expected dir or abs, got ${links}`);
    process.exit(2);
  }
  return { dir, n, seed: options.seed ?? 'corpus', links, index: options.index !== '0' };
}

/** Titles and headings of every page first, so that links can name pages and anchors that exist. */
function planPages(n, seed) {
  const pages = [];
  const taken = new Set();
  for (let i = 0; i < n; i++) {
    const r = random(`${seed}:plan:${i}`);
    const section = SECTIONS[i % SECTIONS.length];
    const words = [r.chance(0.5) ? r.pick(QUALITIES) : null, r.pick(TERMS), r.pick(TERMS)].filter(Boolean);
    let slug = slugify(words.join(' '));
    if (taken.has(`${section}/${slug}`)) slug = `${slug}-${i}`;
    taken.add(`${section}/${slug}`);
    const headings = [];
    const seen = new Set();
    for (let h = r.int(4, 8); h > 0; h--) {
      let heading;
      do heading = `${upper(r.pick(QUALITIES))} ${r.pick(TERMS)}${r.chance(0.3) ? ` and ${r.pick(TERMS)}` : ''}`;
      while (seen.has(heading));
      seen.add(heading);
      headings.push(heading);
    }
    pages.push({ i, section, slug, title: words.map(upper).join(' '), headings });
  }
  return pages;
}

function renderPage(page, pages, seed, links) {
  const r = random(`${seed}:page:${page.i}`);
  const href = (to, anchor) => {
    const hash = anchor ? `#${slugify(anchor)}` : '';
    return links === 'abs' ? `/${to.section}/${to.slug}/${hash}` : `../${to.section}/${to.slug}/${hash}`;
  };
  const link = () => {
    let to = r.pick(pages);
    if (to === page) to = pages[(page.i + 1) % pages.length];
    if (to === page) return '';
    const anchor = r.chance(0.3) ? r.pick(to.headings) : undefined;
    return ` (see [${to.title}${anchor ? `: ${anchor.toLowerCase()}` : ''}](${href(to, anchor)}))`;
  };
  const sentence = (withLink = true) => {
    let text = `The ${r.pick(QUALITIES)} ${r.pick(TERMS)} ${r.pick(VERBS)} the ${r.pick(TERMS)} ${r.pick(FILLERS)}`;
    if (r.chance(0.35)) text += `, and \`${r.pick(CODE)}\` ${r.pick(VERBS)} it ${r.pick(FILLERS)}`;
    if (withLink && r.chance(0.15)) text += link();
    return `${text}.`;
  };
  const paragraph = () => Array.from({ length: r.int(2, 5) }, sentence).join(' ');
  const list = () =>
    Array.from({ length: r.int(3, 6) }, () => `- ${r.chance(0.4) ? `\`${r.pick(CODE)}\`: ` : ''}${sentence()}${r.chance(0.15) ? link() : ''}`).join('\n');
  const table = () => {
    const rows = Array.from({ length: r.int(3, 7) }, () => {
      const name = `${r.pick(TERMS)}${upper(r.pick(TERMS))}`;
      const type = r.pick(['string', 'boolean', 'number', 'RegExp', 'function', 'string[]', 'object']);
      const fallback = r.pick(['`true`', '`false`', "`'auto'`", '`0`', '`undefined`', '`[]`']);
      return `| \`${name}\` | \`${type}\` | ${fallback} | ${sentence()} |`;
    });
    return ['| Option | Type | Default | What it does |', '| --- | --- | --- | --- |', ...rows].join('\n');
  };
  const configBlock = () => {
    const lines = ["const path = require('node:path');", '', 'module.exports = {', `  mode: '${r.pick(['production', 'development'])}',`];
    lines.push(`  entry: { main: './src/${r.pick(['index', 'app', 'main'])}.js' },`);
    const parts = [
      () => ['  output: {', "    path: path.resolve(__dirname, 'dist'),", "    filename: '[name].[contenthash].js',", '    clean: true,', '  },'],
      () => ['  module: {', '    rules: [', `      { test: /\\.${r.pick(['css', 'svg', 'png', 'txt'])}$/, type: '${r.pick(['asset/resource', 'asset/inline', 'asset/source'])}' },`, '    ],', '  },'],
      () => ['  resolve: {', "    extensions: ['.js', '.json'],", `    alias: { '@${r.pick(TERMS)}': path.resolve(__dirname, 'src/${r.pick(TERMS)}') },`, '  },'],
      () => ['  optimization: {', `    splitChunks: { chunks: '${r.pick(['all', 'async', 'initial'])}' },`, `    runtimeChunk: ${r.pick(["'single'", 'false', 'true'])},`, '  },'],
      () => [`  devtool: ${r.pick(["'source-map'", 'false', "'eval-cheap-module-source-map'"])},`],
      () => [`  // ${sentence(false)}`],
      () => [`  performance: { hints: '${r.pick(['warning', 'error'])}', maxAssetSize: ${r.int(100, 900) * 1000} },`],
    ];
    // Each kind of option at most once, in a seeded order.
    const order = parts.map((part) => ({ part, key: r.next() })).sort((a, b) => a.key - b.key);
    for (const { part } of order.slice(0, r.int(3, parts.length))) lines.push(...part());
    lines.push('};');
    return '```js\n' + lines.join('\n') + '\n```';
  };
  const packageBlock = () => {
    const deps = [...new Set(Array.from({ length: r.int(2, 5) }, () => `${r.pick(TERMS)}-${r.pick(['loader', 'plugin'])}`))];
    const json = {
      name: `${r.pick(QUALITIES)}-${r.pick(TERMS)}`,
      private: true,
      scripts: { build: 'webpack --mode production', start: 'webpack serve' },
      devDependencies: Object.fromEntries(deps.sort().map((d) => [d, `^${r.int(1, 9)}.${r.int(0, 20)}.${r.int(0, 9)}`])),
    };
    return '```json\n' + JSON.stringify(json, null, 2) + '\n```';
  };
  const shellBlock = () => '```bash\n' + Array.from({ length: r.int(1, 4) }, () => r.pick(SHELL)(r)).join('\n') + '\n```';

  const blocks = [configBlock, packageBlock, shellBlock];
  const codeIn = new Map();
  for (let k = 0, count = r.int(2, 4); k < count; k++) {
    const at = r.int(0, page.headings.length - 1);
    codeIn.set(at, [...(codeIn.get(at) ?? []), k < blocks.length ? blocks[k] : r.pick(blocks)]);
  }
  const tableIn = r.int(0, page.headings.length - 1);
  const out = [paragraph()];
  page.headings.forEach((heading, h) => {
    out.push(`## ${heading}`, paragraph());
    if (r.chance(0.5)) out.push(list());
    if (h === tableIn) out.push(table());
    for (const block of codeIn.get(h) ?? []) {
      if (r.chance(0.5)) out.push(paragraph());
      out.push(block());
    }
    if (r.chance(0.4)) {
      for (let s = r.int(1, 2); s > 0; s--) {
        out.push(`### ${upper(r.pick(TERMS))} ${r.pick(['in practice', 'defaults', 'caveats', 'example', 'options'])} ${h + 1}.${s}`, paragraph());
        if (r.chance(0.3)) out.push(list());
      }
    }
  });
  const description = `${upper(r.pick(QUALITIES))} ${r.pick(TERMS)}s and how the ${r.pick(TERMS)} ${r.pick(VERBS)} them.`;
  return `---\ntitle: ${JSON.stringify(page.title)}\ndescription: ${JSON.stringify(description)}\n---\n\n${out.join('\n\n')}\n`;
}

const { dir, n, seed, links, index } = parseArgs(process.argv.slice(2));
const pages = planPages(n, seed);
mkdirSync(dir, { recursive: true });
for (const section of SECTIONS) {
  rmSync(join(dir, section), { recursive: true, force: true });
  mkdirSync(join(dir, section), { recursive: true });
}
let bytes = 0;
for (const page of pages) {
  const text = renderPage(page, pages, seed, links);
  bytes += Buffer.byteLength(text);
  writeFileSync(join(dir, page.section, `${page.slug}.md`), text);
}
if (index) {
  const firsts = SECTIONS.map((s) => pages.find((p) => p.section === s)).filter(Boolean);
  const items = firsts.map((p) => `- [${upper(p.section)}: ${p.title}](${links === 'abs' ? '/' : './'}${p.section}/${p.slug}/)`);
  writeFileSync(join(dir, 'index.md'), `---\ntitle: Synthetic docs\ndescription: A generated corpus for the build benchmarks.\n---\n\nThis corpus has ${n} pages in ${SECTIONS.length} sections.\n\n## Sections\n\n${items.join('\n')}\n`);
}
console.error(`wrote ${n} pages (${(bytes / 1024).toFixed(0)} KiB, ${(bytes / n / 1024).toFixed(1)} KiB a page) to ${dir}`);
