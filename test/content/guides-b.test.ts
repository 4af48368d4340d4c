import { spawn } from 'node:child_process';
import { cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { get, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runInContext, runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { readPage, removeDir } from '../helpers/content.js';
import {
  buildProject,
  copyFixture,
  diffAfter,
  diffBefore,
  driftProblems,
  fakeBrowser,
  type FakeNode,
  fixtureFiles,
  followPage,
  loadConfig,
  type ReadingOptions,
  runWebpackCli,
  shownOutputs,
  startDevServer,
} from '../helpers/guides.js';
import type { Configuration, MultiStats, Stats } from 'webpack';
import { webpack } from '../helpers/webpack.js';

/*
 * The guides of writer B. Every guide is backed by a fixture project in
 * test/fixtures/guides/<slug>/; for each one this file checks
 *   - the page: frontmatter, sidebar group, and that every titled code block
 *     equals the fixture file of that path (and every fixture file is shown);
 *   - the build: the fixture really compiles with the installed webpack and
 *     does what the guide promises;
 *   - the terminal output the guide shows: every line shown (build output,
 *     error messages, console output) occurs in what the real project prints;
 *     build times may differ and "…" stands for a left-out absolute path.
 * Fixtures are copied into scratch folders under test/.tmp, never built in place.
 */

const WEBPACK_VERSION = (webpack as unknown as { version: string }).version;

const GROUPS: Record<string, string> = {
  caching: 'Optimisation',
  'build-performance': 'Further topics',
  'author-libraries': 'Further topics',
  shimming: 'Further topics',
  'progressive-web-application': 'Further topics',
  'web-workers': 'Further topics',
  'ecma-script-modules': 'Further topics',
  'package-exports': 'Further topics',
  'public-path': 'Further topics',
  csp: 'Further topics',
  'dependency-management': 'Further topics',
  'development-vagrant': 'Further topics',
  integrations: 'Further topics',
  migrating: 'Further topics',
};

/** Code blocks of a page written with the `diff` option. */
function diffBlocks(slug: string) {
  return readPage(`guides/${slug}`).blocks.filter((b) => /(^|\s)diff(\s|$)/.test(b.meta));
}

/** Applies a diff block to a file's text: its "before" side must occur in the text exactly once. */
function applyDiff(text: string, code: string): string {
  const before = diffBefore(code);
  const after = diffAfter(code);
  const at = text.indexOf(before);
  if (at < 0 || text.indexOf(before, at + 1) >= 0) throw new Error(`diff does not apply exactly once:\n${before}`);
  return text.slice(0, at) + after + text.slice(at + before.length);
}

/** The diff blocks of a page that apply to the given text. */
function diffsFor(slug: string, text: string): string[] {
  return diffBlocks(slug)
    .map((b) => b.code)
    .filter((code) => {
      const before = diffBefore(code);
      return before.trim() !== '' && text.includes(before);
    });
}

/** Names listed on the `Entrypoint <name> … = a.js 1 KiB b.js 2 KiB` lines of shown output. */
function shownEntrypoints(slug: string): Array<{ name: string; files: string[] }> {
  const found: Array<{ name: string; files: string[] }> = [];
  for (const block of readPage(`guides/${slug}`).blocks) {
    for (const line of block.code.split('\n')) {
      const m = /^Entrypoint (\S+) [\d.]+ (?:bytes|KiB|MiB) = (.*)$/.exec(line);
      if (m) found.push({ name: m[1]!, files: [...m[2]!.matchAll(/(\S+\.\w+) [\d.]+ (?:bytes|KiB|MiB)/g)].map((x) => x[1]!) });
    }
  }
  return found;
}

/** Context and output folder as webpack-cli would resolve them inside `dir`, with quiet logging. */
function projectDefaults(dir: string, config: Configuration): Configuration {
  return {
    ...config,
    context: config.context ?? dir,
    output: { ...config.output, path: config.output?.path ?? join(dir, 'dist') },
    infrastructureLogging: { level: 'error' },
  };
}

/**
 * One compiler for several builds of the same project folder, with webpack's
 * memory cache on so that unchanged modules (and their minified output) are
 * reused: much faster than a fresh compiler for every rebuild. The cache does
 * not change what webpack emits.
 */
async function rebuilder(dir: string) {
  const loaded = await loadConfig(dir);
  if (Array.isArray(loaded)) throw new Error('expected one configuration');
  const config = projectDefaults(dir, { ...loaded, cache: { type: 'memory' } });
  const compiler = webpack(config);
  const outputPath = config.output!.path!;
  return {
    async build(): Promise<Stats> {
      const stats = await new Promise<Stats>((resolve, reject) =>
        compiler.run((err, result) => (err ? reject(err) : resolve(result as Stats))),
      );
      if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
      return stats;
    },
    read: (file: string) => readFileSync(join(outputPath, file), 'utf8'),
    close: () => new Promise<void>((resolve) => compiler.close(() => resolve())),
  };
}

function entryFiles(stats: Stats, name: string): string[] {
  return (stats.toJson({ all: false, entrypoints: true }).entrypoints?.[name]?.assets ?? []).map((a) => a.name);
}

function assetNames(stats: Stats): string[] {
  return (stats.toJson({ all: false, assets: true, cachedAssets: true }).assets ?? []).map((a) => a.name);
}

/**
 * Fails unless every line of a shown output block occurs in `real`. Build times
 * may differ, and "…" in a shown line stands for text left out (such as an
 * absolute path of the machine that built it).
 */
function expectLinesShownIn(block: { code: string; line: number }, real: string, file: string): void {
  const normalize = (line: string) => line.replace(/\s+$/, '').replace(/ in \d+ ms$/, ' in N ms');
  const lines = real.split('\n').map(normalize);
  for (const line of block.code.split('\n')) {
    const shown = normalize(line);
    if (shown === '') continue;
    const pattern = new RegExp(`^${shown.split('…').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`);
    expect(lines.some((l) => pattern.test(l)), `${file}:${block.line}: shown line not in the real output:\n${line}\n--- real output:\n${real}`).toBe(true);
  }
}

function statsText(stats: Stats): string {
  return stats.toString({ colors: false });
}

function writeProjectFile(dir: string, file: string, text: string): void {
  writeFileSync(join(dir, file), text);
}

function readProjectFile(dir: string, file: string): string {
  return readFileSync(join(dir, file), 'utf8');
}

describe('guides by writer B: pages match their fixture projects', () => {
  for (const [slug, group] of Object.entries(GROUPS)) {
    it(`${slug}: frontmatter, group and code blocks in sync with test/fixtures/guides/${slug}`, () => {
      const page = readPage(`guides/${slug}`);
      expect(page.frontmatter.description ?? '').not.toBe('');
      expect(page.frontmatter.group).toBe(group);
      expect(driftProblems(`guides/${slug}`, slug)).toEqual([]);
      // Every guide closes with the same section name.
      expect([...page.body.matchAll(/^## (.+)$/gm)].at(-1)?.[1]).toBe('Next steps');
      for (const shown of shownOutputs(`guides/${slug}`)) {
        if (shown.result) expect(shown.result.version, `${page.file}:${shown.block.line}`).toBe(WEBPACK_VERSION);
      }
    });
  }
});

/*
 * Reading order: each page is followed from top to bottom in an empty project
 * (see followPage): files are written when the page shows them, diffs are
 * applied to the file they belong to, and the project is built wherever the
 * page builds. No build may fail because of a file the page introduces later.
 */
function readingOptions(slug: string): ReadingOptions {
  switch (slug) {
    case 'public-path':
    case 'author-libraries':
    case 'shimming':
    case 'progressive-web-application':
    case 'web-workers':
    case 'csp':
    case 'dependency-management':
    case 'integrations':
      return {};
    case 'caching':
      return {
        untitled: { "const path = require('node:path');": 'webpack.config.js' },
        // The edit that shows which hashes change; the fixture keeps the code before it.
        tried: ['${words.length}'],
      };
    case 'build-performance':
      // ProfilingPlugin is added "for one build" to a configuration the page has not reached yet, then removed.
      // thread-loader is an experiment to measure, not part of the finished project.
      return { notFollowed: ['new webpack.debug.ProfilingPlugin'], tried: ["{ loader: 'thread-loader'"] };
    // Error output shown for a variation the page describes (an import without its extension).
    case 'ecma-script-modules':
      return { notFollowed: ['resolved as fully specified'] };
    case 'migrating': {
      // The reader starts from the webpack 4 project: the "before" sides of the
      // two diffs, and the application code, which the page says did not change.
      const blocks = diffBlocks('migrating');
      const source = (lang: string) => diffBefore(blocks.find((b) => b.lang === lang)!.code);
      const start: Record<string, string> = { 'package.json': source('json'), 'webpack.config.js': source('js') };
      for (const [path, contents] of fixtureFiles('migrating')) if (path.startsWith('src/')) start[path] = contents.toString('utf8');
      return {
        start,
        // Shown for runs after edits the page describes in prose, and for an experiment without resolve.fallback.
        notFollowed: ['Invalid configuration object', 'BREAKING CHANGE: webpack < 5'],
      };
    }
    default:
      throw new Error(`no reading options for ${slug}`);
  }
}

describe('guides by writer B: followed in reading order', () => {
  const slugs = ['caching', 'build-performance', 'author-libraries', 'shimming', 'progressive-web-application', 'web-workers', 'ecma-script-modules', 'public-path', 'csp', 'dependency-management', 'integrations', 'migrating'];
  for (const slug of slugs) {
    it(`${slug}: every build the page asks for works at that point, and the page ends with the fixture's files`, async () => {
      const result = await followPage(`guides/${slug}`, slug, readingOptions(slug));
      expect(result.problems, result.steps.join('\n')).toEqual([]);
      expect(result.builds.length, result.steps.join('\n')).toBeGreaterThan(0);
    });
  }

  it('migrating: the first build of the webpack 4 configuration fails where the page says, at the uninstalled plugin', async () => {
    const result = await followPage('guides/migrating', 'migrating', readingOptions('migrating'));
    expect(result.builds.map((b) => b.expected)).toEqual(['error', 'success']);
    expect(result.builds[0]!.output).toContain("Cannot find module 'clean-webpack-plugin'");
  });
});

describe('caching', () => {
  it('hashes file names, and a change in application code keeps the runtime and vendors names', async () => {
    const dir = copyFixture('caching');
    const project = await rebuilder(dir);
    try {
      const first = await project.build();
      const files = entryFiles(first, 'main');
      expect(files).toHaveLength(3);
      expect(files[0]).toMatch(/^runtime\.[0-9a-f]{20}\.js$/);
      expect(files[1]).toMatch(/^vendors\.[0-9a-f]{20}\.js$/);
      expect(files[2]).toMatch(/^main\.[0-9a-f]{20}\.js$/);
      expect(project.read(files[1]!)).toContain('__lodash_hash_undefined__');
      expect(project.read(files[2]!)).not.toContain('__lodash_hash_undefined__');
      expect(project.read('index.html')).toContain(files[1]);

      // The output shown under "Build it" is this build's.
      const [shownFirst, shownSecond] = shownOutputs('guides/caching');
      expect([...shownFirst!.assets].sort()).toEqual(assetNames(first).filter((a) => !a.endsWith('.LICENSE.txt')).sort());
      const [entryFirst, entrySecond] = shownEntrypoints('caching');
      expect(entryFirst!.files).toEqual(files);

      // The edit of src/render.js shown in the guide, then a rebuild.
      const render = readProjectFile(dir, 'src/render.js');
      const edits = diffsFor('caching', render);
      expect(edits).toHaveLength(1);
      writeProjectFile(dir, 'src/render.js', applyDiff(render, edits[0]!));
      const second = await project.build();
      const after = entryFiles(second, 'main');
      expect(after[0]).toBe(files[0]);
      expect(after[1]).toBe(files[1]);
      expect(after[2]).not.toBe(files[2]);
      expect(entrySecond!.files).toEqual(after);
      expectLinesShownIn(shownFirst!.block, statsText(first), 'caching.md');
      expectLinesShownIn(shownSecond!.block, statsText(second), 'caching.md');

      // A new module of our own does not shift the vendors hash either (deterministic ids).
      writeProjectFile(dir, 'src/extra.js', "export const note = 'added later';\n");
      const index = readProjectFile(dir, 'src/index.js');
      writeProjectFile(dir, 'src/index.js', `import { note } from './extra.js';\n${index}console.log(note);\n`);
      const third = await project.build();
      const withNewModule = entryFiles(third, 'main');
      expect(withNewModule[1]).toBe(files[1]);
      expect(withNewModule[2]).not.toBe(after[2]);
    } finally {
      await project.close();
      removeDir(dir);
    }
  });
});

describe('build-performance', () => {
  it('writes the filesystem cache and serves the second build from it', async () => {
    const dir = copyFixture('build-performance');
    try {
      const argv = { mode: 'production' };
      const first = await buildProject(dir, { argv });
      const cacheFolder = join(dir, 'node_modules/.cache/webpack/default-production');
      expect(existsSync(cacheFolder)).toBe(true);
      expect(readdirSync(cacheFolder).some((f) => f.endsWith('.pack'))).toBe(true);
      expect(first.files.sort()).toEqual(['main.js', 'main.js.map']);

      const second = await buildProject(dir, { argv });
      const modules = (second.stats.toJson({ all: false, modules: true, cachedModules: true }).modules ?? []).filter((m) => m.name);
      expect(modules.length).toBeGreaterThan(0);
      expect(modules.every((m) => m.cached === true && m.built === false)).toBe(true);

      const [shownFirst, shownSecond] = shownOutputs('guides/build-performance');
      expectLinesShownIn(shownFirst!.block, statsText(first.stats), 'build-performance.md');
      expectLinesShownIn(shownSecond!.block, statsText(second.stats), 'build-performance.md');

      // The development build uses the eval-based source map the guide recommends.
      const dev = (await loadConfig(dir, { argv: { mode: 'development' } })) as Configuration;
      expect(dev.devtool).toBe('eval-cheap-module-source-map');
    } finally {
      removeDir(dir);
    }
  });

  it('builds with the thread-loader and ProfilingPlugin changes shown in the guide', async () => {
    const dir = copyFixture('build-performance');
    try {
      let config = readProjectFile(dir, 'webpack.config.js');
      const edits = diffsFor('build-performance', config);
      expect(edits).toHaveLength(2);
      for (const edit of edits) config = applyDiff(config, edit);
      writeProjectFile(dir, 'webpack.config.js', `const webpack = require('webpack');\n${config}`);
      const build = await buildProject(dir, { argv: { mode: 'production' }, adjust: (c) => ({ ...c, cache: false }) });
      const rule = ((build.stats.compilation.options.module.rules[0] as { use: Array<{ loader: string }> }).use);
      expect(rule.map((u) => u.loader)).toEqual(['thread-loader', 'babel-loader']);
      expect(build.read('main.js')).toContain('Page ready after');
      expect(existsSync(join(dir, 'profiling/events.json'))).toBe(true);
    } finally {
      removeDir(dir);
    }
  });
});

/** Builds every configuration a project's config file exports (an array), like webpack-cli does. */
async function buildAll(dir: string): Promise<MultiStats> {
  const loaded = await loadConfig(dir);
  const configs = (Array.isArray(loaded) ? loaded : [loaded]).map((c) => projectDefaults(dir, c));
  const compiler = webpack(configs);
  const stats = await new Promise<MultiStats>((resolve, reject) =>
    compiler.run((err, result) => compiler.close(() => (err ? reject(err) : resolve(result as MultiStats)))),
  );
  if (stats.hasErrors()) throw new Error(stats.toString({ all: false, errors: true }));
  return stats;
}

/** Runs a shell command line from a guide in a project folder; resolves with its standard output. */
function runCommand(dir: string, command: string, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, {
      cwd: dir,
      shell: true,
      env: { ...process.env, ...env, PATH: `${dirname(process.execPath)}${delimiter}${process.env.PATH ?? ''}` },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`${command} exited with ${code}:\n${stderr}`))));
  });
}

/** Pairs of (command, output) from a page: a bash block of one `node …` line followed directly by a text block. */
function shownNodeRuns(slug: string): Array<{ command: string; output: string }> {
  const blocks = readPage(`guides/${slug}`).blocks;
  const runs: Array<{ command: string; output: string }> = [];
  blocks.forEach((block, i) => {
    const next = blocks[i + 1];
    if (block.lang === 'bash' && /^node /.test(block.code) && !block.code.includes('\n') && next?.lang === 'text') {
      runs.push({ command: block.code, output: next.code });
    }
  });
  return runs;
}

describe('author-libraries', () => {
  it('builds a UMD and an ES module library that expose their exports and leave lodash external', async () => {
    const dir = copyFixture('author-libraries');
    try {
      const stats = await buildAll(dir);
      const [shown] = readPage('guides/author-libraries').blocks.filter((b) => b.lang === 'bash' && b.code.includes('compiled successfully'));
      expectLinesShownIn(shown!, stats.toString({ colors: false }), 'author-libraries.md');

      const umd = readProjectFile(dir, 'dist/text-stats.js');
      const esm = readProjectFile(dir, 'dist/text-stats.mjs');
      for (const code of [umd, esm]) expect(code).not.toContain('__lodash_hash_undefined__');
      expect(esm).toMatch(/^import\{default as \w+\}from"lodash";/);

      // CommonJS consumers get the exports, with lodash from require().
      const requireFromProject = createRequire(join(dir, 'package.json'));
      const viaRequire = requireFromProject('./dist/text-stats.js') as { wordCount(t: string): number };
      expect(viaRequire.wordCount('one two three')).toBe(3);

      // A page gets the global textStats, with lodash from the global _.
      const page: Record<string, unknown> = { _: requireFromProject('lodash') };
      runInNewContext(umd, page);
      expect((page.textStats as { wordCount(t: string): number }).wordCount('a b')).toBe(2);

      // An AMD loader gets a define() call that asks for lodash.
      const defined: unknown[][] = [];
      const define = Object.assign((...args: unknown[]) => defined.push(args), { amd: {} });
      runInNewContext(umd, { define });
      expect(defined[0]?.[0]).toEqual(['lodash']);

      // Every entry point named in package.json exists after the build.
      const pkg = JSON.parse(readProjectFile(dir, 'package.json')) as { main: string; module: string; exports: Record<string, Record<string, string> | string> };
      const targets = [pkg.main, pkg.module, ...Object.values(pkg.exports['.'] as Record<string, string>)];
      for (const target of targets) expect(existsSync(join(dir, target)), target).toBe(true);

      // The node commands shown in the guide print what the guide says.
      const runs = shownNodeRuns('author-libraries');
      expect(runs).toHaveLength(2);
      for (const run of runs) expect((await runCommand(dir, run.command)).trim()).toBe(run.output.trim());
    } finally {
      removeDir(dir);
    }
  });
});

/** The first ```text block of a page that follows a paragraph mentioning `marker`. */
function textBlockAfter(slug: string, marker: string): string {
  const page = readPage(`guides/${slug}`);
  const at = page.body.indexOf(marker);
  if (at < 0) throw new Error(`${page.file}: no "${marker}"`);
  const line = page.body.slice(0, at).split('\n').length;
  const block = page.blocks.find((b) => b.lang === 'text' && b.line > line);
  if (!block) throw new Error(`${page.file}: no text block after "${marker}"`);
  return block.code;
}

const WITH_RESOLVERS =
  'Promise.withResolvers = function () { let resolve, reject; const promise = new Promise((a, b) => { resolve = a; reject = b; }); return { promise, resolve, reject }; };';

describe('shimming', () => {
  it('runs the legacy scripts through the shims and loads the polyfill only when the feature is missing', async () => {
    const dir = copyFixture('shimming');
    try {
      const build = await buildProject(dir);
      expect(build.files.filter((f) => f.endsWith('.js')).sort()).toEqual(['main.js', 'polyfills.js']);
      // Why the page asks for <meta charset="utf-8">: the minified lodash is not pure ASCII.
      expect(/[^\x00-\x7f]/.test(build.read('main.js'))).toBe(true);
      expectLinesShownIn(shownOutputs('guides/shimming')[0]!.block, statsText(build.stats), 'shimming.md');
      const expectedConsole = textBlockAfter('shimming', 'the browser console shows').split('\n');

      const old = fakeBrowser(build.outputPath);
      runInContext('delete Promise.withResolvers;', old.window);
      old.runScript('main.js');
      await old.settle();
      expect(old.requestedScripts).toEqual(['http://localhost/polyfills.js']);
      expect(old.logs.join('\n').split('\n')).toEqual(expectedConsole);

      const modern = fakeBrowser(build.outputPath);
      runInContext(WITH_RESOLVERS, modern.window);
      modern.runScript('main.js');
      await modern.settle();
      expect(modern.requestedScripts).toEqual([]);
      expect(modern.logs.join('\n').split('\n')).toEqual(expectedConsole);

      // Without the shims the same sources break: `this` in byte-size.js is not window.
      const bare = await buildProject(dir, { adjust: (c) => ({ ...c, module: { rules: [] }, plugins: [] }) });
      const broken = fakeBrowser(bare.outputPath);
      runInContext(WITH_RESOLVERS, broken.window);
      expect(() => broken.runScript('main.js')).toThrow(/byteSize is not a function/);
    } finally {
      removeDir(dir);
    }
  });
});

describe('progressive-web-application', () => {
  it('emits a service worker that precaches the build, and the dev server serves it', async () => {
    const dir = copyFixture('progressive-web-application');
    try {
      const build = await buildProject(dir);
      const main = build.assets.find((a) => /^main\.[0-9a-f]{20}\.js$/.test(a));
      expect(main).toBeDefined();
      expect(build.assets).toContain('service-worker.js');
      const runtime = build.assets.find((a) => /^workbox-[0-9a-f]+\.js$/.test(a));
      expect(runtime).toBeDefined();

      const worker = build.read('service-worker.js');
      expect(worker).toContain(`./${runtime!.replace(/\.js$/, '')}`);
      const precached = [...worker.matchAll(/\{url:"([^"]+)",revision:(null|"[0-9a-f]+")\}/g)].map((m) => [m[1], m[2]]);
      expect(precached).toEqual([
        ['index.html', expect.stringMatching(/^"[0-9a-f]+"$/)],
        [main, 'null'],
      ]);
      for (const call of ['self.skipWaiting()', '.clientsClaim()', '.cleanupOutdatedCaches()']) expect(worker).toContain(call);
      expectLinesShownIn(shownOutputs('guides/progressive-web-application')[0]!.block, statsText(build.stats), 'progressive-web-application.md');

      // `npm start`: the dev server serves the same files, without its client script.
      removeDir(build.outputPath);
      const config = (await loadConfig(dir)) as Configuration;
      const server = await startDevServer(dir, { ...config, stats: 'none' });
      try {
        const served = await server.fetchText('/service-worker.js');
        expect(served).toContain('precacheAndRoute');
        const html = await server.fetchText('/');
        expect(html).toContain(`src=${main}`);
        const bundle = await server.fetchText(`/${main}`);
        expect(bundle).not.toContain('webpack-dev-server');
      } finally {
        await server.stop();
      }
    } finally {
      removeDir(dir);
    }
  });
});

describe('web-workers', () => {
  it('emits the worker as a separate chunk that the main bundle starts by URL', async () => {
    const dir = copyFixture('web-workers');
    try {
      const build = await buildProject(dir);
      expectLinesShownIn(shownOutputs('guides/web-workers')[0]!.block, statsText(build.stats), 'web-workers.md');
      const main = build.assets.find((a) => /^main\.[0-9a-f]{20}\.js$/.test(a))!;
      const workerFile = build.assets.find((a) => /^prime-counter\.[0-9a-f]{20}\.js$/.test(a))!;
      expect(workerFile).toBeDefined();
      const chunks = build.stats.toJson({ all: false, chunks: true }).chunks ?? [];
      expect(chunks.find((c) => c.names?.includes('prime-counter'))?.initial).toBe(false);
      expect(build.read(main)).not.toContain('Uint8Array');
      expect(build.read(workerFile)).toContain('Uint8Array');
      expect(build.read('index.html')).not.toContain('prime-counter');

      // The page starts a worker from the emitted chunk's URL, with the name it gave.
      const started: Array<{ url: string; options: unknown }> = [];
      const page = fakeBrowser(build.outputPath, {
        globals: {
          Worker: class {
            constructor(url: URL | string, options: unknown) {
              started.push({ url: String(url), options });
            }
            addEventListener() {}
            postMessage() {}
          },
        },
      });
      page.runScript(main);
      expect(started).toEqual([{ url: `http://localhost/${workerFile}`, options: { name: 'prime-counter' } }]);

      // The worker chunk answers a message with the prime count.
      const replies: unknown[] = [];
      const listeners: Array<(event: { data: unknown }) => void> = [];
      const self: Record<string, unknown> = {
        performance,
        addEventListener: (type: string, listener: (event: { data: unknown }) => void) => type === 'message' && listeners.push(listener),
        postMessage: (data: unknown) => replies.push(data),
      };
      self.self = self;
      runInNewContext(build.read(workerFile), self);
      listeners[0]!({ data: { limit: 100 } });
      expect(replies).toEqual([{ limit: 100, count: 25, milliseconds: expect.any(Number) }]);
    } finally {
      removeDir(dir);
    }
  });
});

describe('ecma-script-modules', () => {
  it('builds the "type": "module" project with its ESM config into ES modules, and rejects extension-less imports', async () => {
    const dir = copyFixture('ecma-script-modules');
    try {
      const cli = await runWebpackCli(dir, []);
      expect(cli.code, cli.stderr).toBe(0);
      const [errorBlock, buildBlock] = shownOutputs('guides/ecma-script-modules');
      expectLinesShownIn(buildBlock!.block, cli.stdout, 'ecma-script-modules.md');

      const main = readProjectFile(dir, 'dist/main.mjs');
      const chunk = readProjectFile(dir, 'dist/highlight.mjs');
      expect(main).toContain('import("./highlight.mjs")');
      expect(chunk).toMatch(/^export const /);

      // Node.js runs the output as an ES module: the text is rendered and the chunk is imported natively.
      const script = [
        'globalThis.document = { body: { style: {}, textContent: "" } };',
        "await import('./dist/main.mjs');",
        'for (let i = 0; i < 200 && !document.body.style.background; i++) await new Promise((resolve) => setTimeout(resolve, 10));',
        'console.log(JSON.stringify(document.body));',
      ].join(' ');
      const body = JSON.parse(await runCommand(dir, `node --input-type=module -e "${script.replace(/"/g, '\\"')}"`)) as unknown;
      expect(body).toEqual({ style: { background: 'lightyellow' }, textContent: '3 fruits: apple, pear, and plum' });

      // The error shown for an import without its extension is the real one.
      const index = readProjectFile(dir, 'src/index.js');
      writeProjectFile(dir, 'src/index.js', index.replace("from './format.js'", "from './format'"));
      const esmConfig = ((await import(pathToFileURL(join(dir, 'webpack.config.js')).href)) as { default: Configuration }).default;
      const failed = await buildProject(dir, { config: esmConfig, allowErrors: true });
      expect(failed.stats.hasErrors()).toBe(true);
      expect(errorBlock!.result?.outcome).toBe('errors');
      expectLinesShownIn(errorBlock!.block, statsText(failed.stats), 'ecma-script-modules.md');
    } finally {
      removeDir(dir);
    }
  });
});

/** Runs an emitted script in a fresh context and returns what it logged. */
function runLogging(code: string, globals: Record<string, unknown> = {}): string[] {
  const logs: string[] = [];
  runInNewContext(code, { console: { log: (...args: unknown[]) => logs.push(args.join(' ')) }, ...globals });
  return logs;
}

describe('package-exports', () => {
  it('picks the file of the first matching condition for each mode and target', async () => {
    const dir = copyFixture('package-exports');
    try {
      const scripts = (JSON.parse(readProjectFile(dir, 'package.json')) as { scripts: Record<string, string> }).scripts;
      const blocks = readPage('guides/package-exports').blocks;
      const runs = blocks.flatMap((block, i) => {
        const m = /^npm run (\S+)\nnode dist\/main\.js$/.exec(block.code);
        return m && blocks[i + 1]?.lang === 'text' ? [{ script: scripts[m[1]!]!, output: blocks[i + 1]!.code }] : [];
      });
      expect(runs.map((r) => r.script)).toEqual(Object.values(scripts));
      for (const run of runs) {
        const mode = /--mode (\S+)/.exec(run.script)![1] as Configuration['mode'];
        const target = /--target (\S+)/.exec(run.script)?.[1];
        const build = await buildProject(dir, { adjust: (c) => ({ ...c, mode, ...(target ? { target } : {}) }) });
        const logs = runLogging(build.read('main.js'), target === 'node' ? { require: createRequire(import.meta.url), process } : {});
        expect(logs, run.script).toEqual(run.output.split('\n'));
      }

      // A custom condition with '...' keeps the defaults; without it the development build is lost.
      const withDefaults = await buildProject(dir, {
        adjust: (c) => ({ ...c, mode: 'development', resolve: { ...c.resolve, conditionNames: ['my-company-source', '...'] } }),
      });
      expect(runLogging(withDefaults.read('main.js'))).toEqual(['[browser, development build] Hello from the entry point']);
      const replaced = await buildProject(dir, {
        adjust: (c) => ({ ...c, mode: 'development', resolve: { ...c.resolve, conditionNames: ['my-company-source'] } }),
      });
      expect(runLogging(replaced.read('main.js'))).toEqual(['[browser] Hello from the entry point']);

      // Importing a file that the package does not export fails with the error the guide shows.
      const deepImport = blocks.find((b) => b.lang === 'js' && !b.title && b.code.includes('tiny-logger/lib/'))!.code;
      const index = readProjectFile(dir, 'src/index.js').split('\n');
      index[1] = deepImport.trim();
      writeProjectFile(dir, 'src/index.js', index.join('\n'));
      const failed = await buildProject(dir, { allowErrors: true, adjust: (c) => ({ ...c, mode: 'production' }) });
      const errorBlock = shownOutputs('guides/package-exports').find((o) => o.result?.outcome === 'errors')!;
      expectLinesShownIn(errorBlock.block, statsText(failed.stats), 'package-exports.md');
    } finally {
      removeDir(dir);
    }
  });
});

describe('public-path', () => {
  it("finds chunks and assets next to the bundle with 'auto', and follows __webpack_public_path__ when the page sets it", async () => {
    const dir = copyFixture('public-path');
    try {
      const build = await buildProject(dir);
      expectLinesShownIn(shownOutputs('guides/public-path')[0]!.block, statsText(build.stats), 'public-path.md');
      const logoFile = build.assets.find((a) => /^assets\/logo\.[0-9a-f]{20}\.svg$/.test(a))!;
      expect(logoFile).toBeDefined();

      // The table of URLs in the guide, row by row.
      const page = readPage('guides/public-path');
      const rows = [...page.body.matchAll(/^\| `(https:\/\/[^`]+\/main\.js)` \| `([^`]+)` \| `([^`]+)` \|$/gm)];
      expect(rows).toHaveLength(2);
      for (const [, scriptUrl, logoUrl, chunkUrl] of rows) {
        const browser = fakeBrowser(build.outputPath, { baseUrl: new URL('.', scriptUrl).href });
        browser.runScript('main.js');
        const [img] = browser.document.body.getElementsByTagName('img');
        expect(img!.src).toBe(logoUrl);
        expect(logoUrl!.endsWith(logoFile)).toBe(true);
        browser.document.body.getElementsByTagName('button')[0]!.click();
        await browser.settle();
        expect(browser.requestedScripts).toEqual([chunkUrl]);
      }

      // At the site root the chunk really loads and adds its paragraph.
      const root = fakeBrowser(build.outputPath, { baseUrl: 'https://shop.example.com/' });
      root.runScript('main.js');
      root.document.body.getElementsByTagName('button')[0]!.click();
      await root.settle();
      expect(root.document.body.getElementsByTagName('p')[0]?.textContent).toBe('This paragraph came from a chunk loaded on demand.');

      // A page that announces its CDN wins over 'auto'.
      const cdn = /window\.STATIC_ASSETS_URL = '([^']+)';/.exec(page.body)![1]!;
      const regional = fakeBrowser(build.outputPath, { baseUrl: 'https://shop.example.com/', globals: { STATIC_ASSETS_URL: cdn } });
      regional.runScript('main.js');
      const logo = regional.document.body.getElementsByTagName('img')[0]!.src;
      expect(logo).toBe(`${cdn}${logoFile}`);
      expect(page.body).toContain(`the logo now comes from \`${logo}\``);
    } finally {
      removeDir(dir);
    }
  });
});

function httpGet(url: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    get(url, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (d: string) => (body += d));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    }).on('error', reject);
  });
}

describe('csp', () => {
  it('puts the nonce of the bundle on the script tags of lazy chunks and loads them through the Trusted Types policy', async () => {
    const dir = copyFixture('csp');
    try {
      const build = await buildProject(dir);
      expectLinesShownIn(shownOutputs('guides/csp')[0]!.block, statsText(build.stats), 'csp.md');
      const runtime = build.read('main.js');
      expect(runtime).toMatch(/\.setAttribute\("nonce",\w+\.nc\)/);
      expect(runtime).toContain('trustedTypes.createPolicy("csp-guide#webpack"');

      // Serve dist/ under /static/ (the public path) to a fake page whose bundle tag has a nonce.
      const site = join(dir, 'site');
      cpSync(build.outputPath, join(site, 'static'), { recursive: true });
      const policies: string[] = [];
      const checkedUrls: string[] = [];
      const browser = fakeBrowser(site, {
        globals: {
          trustedTypes: {
            createPolicy(name: string, rules: { createScriptURL(url: string): string }) {
              policies.push(name);
              return { createScriptURL: (url: string) => (checkedUrls.push(url), rules.createScriptURL(url)) };
            },
          },
        },
      });
      const inserted: FakeNode[] = [];
      const load = browser.document.onConnect;
      browser.document.onConnect = (node) => {
        if (node.tagName === 'SCRIPT') {
          inserted.push(node);
          // A browser resolves script.src against the page; the fake keeps what was assigned.
          if (node.src) node.src = new URL(String(node.src), 'http://localhost/').href;
        }
        load?.(node);
      };
      const createElement = browser.document.createElement.bind(browser.document);
      let bundleNonce: string | undefined = 'Zm9yLXRoZS10ZXN0';
      browser.document.createElement = (tag: string) => {
        const element = createElement(tag);
        if (bundleNonce !== undefined && tag === 'script') element.setAttribute('nonce', bundleNonce);
        return element;
      };
      browser.runScript('static/main.js');
      bundleNonce = undefined;
      expect(inserted).toHaveLength(0);

      browser.document.body.getElementsByTagName('button')[0]!.click();
      await browser.settle();
      expect(inserted.map((s) => [s.src, s.getAttribute('nonce')])).toEqual([['http://localhost/static/chart.js', 'Zm9yLXRoZS10ZXN0']]);
      expect(policies).toEqual(['csp-guide#webpack']);
      expect(checkedUrls).toEqual(['/static/chart.js']);
      expect(browser.document.body.getElementsByTagName('li')).toHaveLength(4);

      // The server sends a fresh nonce in the header and on the bundle's tag, and serves the bundle.
      const { createServer } = createRequire(join(dir, 'package.json'))('./server.js') as { createServer(): Server };
      const server = createServer();
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      try {
        const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        const nonces: string[] = [];
        for (let i = 0; i < 2; i++) {
          const response = await httpGet(`${origin}/`);
          const header = String(response.headers['content-security-policy']);
          const nonce = /script-src 'nonce-([^']+)'/.exec(header)![1]!;
          expect(response.body).toContain(`<script nonce="${nonce}" src="/static/main.js" defer></script>`);
          expect(header).toContain('trusted-types csp-guide#webpack');
          nonces.push(nonce);
        }
        expect(nonces[0]).not.toBe(nonces[1]);
        expect((await httpGet(`${origin}/static/main.js`)).body).toBe(runtime);
        expect((await httpGet(`${origin}/static/..%2Fserver.js`)).status).toBe(404);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
    } finally {
      removeDir(dir);
    }
  });
});

describe('dependency-management', () => {
  it('bundles context modules for the expression, require.context and import.meta.webpackContext', async () => {
    const dir = copyFixture('dependency-management');
    try {
      const build = await buildProject(dir);
      expectLinesShownIn(shownOutputs('guides/dependency-management')[0]!.block, statsText(build.stats), 'dependency-management.md');
      const names = (build.stats.toJson({ all: false, modules: true, nestedModules: true }).modules ?? []).map((m) => m.name);
      expect(names).toEqual(
        expect.arrayContaining([
          './src/locales/ sync ^\\.\\/.*\\.json$',
          './src/commands/ sync nonrecursive \\.js$',
          './src/themes/ lazy nonrecursive \\.js$ chunkName: theme-[request]',
        ]),
      );
      expect(build.files.sort()).toEqual(['main.js', 'theme-dark-js.js', 'theme-light-js.js']);
      const main = build.read('main.js');
      for (const word of ['Hallo', 'Bonjour', 'Hello']) expect(main).toContain(word);
      expect(main).not.toContain('#f2f2f2');

      const browser = fakeBrowser(build.outputPath);
      browser.runScript('main.js');
      await browser.settle();
      expect(browser.logs).toEqual(textBlockAfter('dependency-management', 'the console shows').split('\n'));
      expect(browser.requestedScripts).toEqual(['http://localhost/theme-dark-js.js']);
    } finally {
      removeDir(dir);
    }
  });
});

function requestWithHost(origin: string, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const url = new URL(path, origin);
    request({ hostname: url.hostname, port: url.port, path: url.pathname, headers: { host } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (d: string) => (body += d));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('development-vagrant', () => {
  it("the client's socket targets the server's own port even when port is 'auto'", async () => {
    const dir = copyFixture('development-vagrant');
    const Server = createRequire(import.meta.url)('webpack-dev-server') as new (options: object, compiler: unknown) => { start(): Promise<void>; stop(): Promise<void>; options: { port: unknown } };
    const base = process.env.WEBPACK_DEV_SERVER_BASE_PORT;
    try {
      const loaded = (await loadConfig(dir)) as Configuration & { devServer?: unknown };
      const { devServer: _devServer, ...config } = loaded;
      const compiler = webpack(projectDefaults(dir, config));
      // Start the search for a free port far from 8080, which another program may hold.
      process.env.WEBPACK_DEV_SERVER_BASE_PORT = '18080';
      const server = new Server({ host: '127.0.0.1', port: 'auto', open: false, setupExitSignals: false, devMiddleware: { stats: 'none' } }, compiler);
      await server.start();
      try {
        expect(typeof server.options.port).toBe('number');
        const bundle = await (await fetch(`http://127.0.0.1:${server.options.port}/main.js`)).text();
        const clientQuery = /webpack-dev-server\/client\/index\.js\?([^"'\s\\]+)/.exec(bundle)?.[1] ?? '';
        expect(new URLSearchParams(clientQuery).get('port')).toBe(String(server.options.port));
      } finally {
        await server.stop();
      }
    } finally {
      if (base === undefined) delete process.env.WEBPACK_DEV_SERVER_BASE_PORT;
      else process.env.WEBPACK_DEV_SERVER_BASE_PORT = base;
      removeDir(dir);
    }
  });

  it('has a valid configuration whose dev server checks host names and points the socket at the page', async () => {
    const dir = copyFixture('development-vagrant');
    try {
      const config = (await loadConfig(dir)) as Configuration & { devServer: Record<string, unknown> };
      expect(() => webpack.validate(config)).not.toThrow();
      expect(config.devServer).toMatchObject({ host: '0.0.0.0', port: 8080, allowedHosts: ['.test'] });
      expect(config.watchOptions?.poll).toBe(1000);

      // The forwarding rules name the dev server's port.
      const compose = parseYaml(readProjectFile(dir, 'compose.yaml')) as { services: { web: { ports: string[] } } };
      expect(compose.services.web.ports).toEqual([`127.0.0.1:${config.devServer.port}:${config.devServer.port}`]);
      expect(readProjectFile(dir, 'Vagrantfile')).toContain(`guest: ${config.devServer.port}, host: ${config.devServer.port}`);

      // Started for real (on loopback and a free port, as the test helper does).
      const server = await startDevServer(dir, { ...config, stats: 'none' });
      try {
        expect(server.compiler.watching?.watchOptions.poll).toBe(1000);
        expect(await server.fetchText('/')).toContain('<title>Development in a VM</title>');
        const bundle = await server.fetchText('/main.js');
        expect(bundle.includes('Served from inside the VM')).toBe(true);
        const clientQuery = /webpack-dev-server\/client\/index\.js\?([^"'\s\\]+)/.exec(bundle)?.[1] ?? '';
        const socket = Object.fromEntries(new URLSearchParams(clientQuery));
        expect(socket).toMatchObject({ protocol: 'auto:', hostname: '0.0.0.0', port: '0', pathname: '/ws' });

        const port = new URL(server.origin).port;
        expect((await requestWithHost(server.origin, '/', `localhost:${port}`)).status).toBe(200);
        expect((await requestWithHost(server.origin, '/', `app.test:${port}`)).status).toBe(200);
        const rejected = await requestWithHost(server.origin, '/', `attacker.example:${port}`);
        expect(rejected).toEqual({ status: 403, body: 'Invalid Host header' });
      } finally {
        await server.stop();
      }
    } finally {
      removeDir(dir);
    }
  });
});

describe('integrations', () => {
  it('runs the npm scripts, the tests without webpack, and the Node.js API build script', async () => {
    const dir = copyFixture('integrations');
    try {
      const scripts = (JSON.parse(readProjectFile(dir, 'package.json')) as { scripts: Record<string, string> }).scripts;
      const [configtestBlock, apiBlock] = readPage('guides/integrations').blocks.filter(
        (b) => b.lang === 'bash' && (b.code.startsWith('ℹ Validating') || b.code.startsWith('asset ')),
      );

      // npm run check:config
      const configtest = await runWebpackCli(dir, scripts['check:config']!.split(' ').slice(1));
      expect(configtest.code, configtest.stderr).toBe(0);
      expectLinesShownIn(configtestBlock!, configtest.stdout + configtest.stderr, 'integrations.md');

      // The build part of npm run ci: no errors and no warnings.
      const ci = await runWebpackCli(dir, [...scripts.build!.split(' ').slice(1), '--fail-on-warnings']);
      expect(ci.code, ci.stdout + ci.stderr).toBe(0);
      expect(readProjectFile(dir, 'dist/main.js')).toContain('querySelectorAll("h2")');

      // npm test: node --test runs the tests on the sources.
      expect(await runCommand(dir, 'node --test')).toMatch(/^# pass 2$/m);

      // node scripts/build.js prints the summary the guide shows.
      removeDir(join(dir, 'dist'));
      const output = await runCommand(dir, 'node scripts/build.js');
      expectLinesShownIn(apiBlock!, output, 'integrations.md');
      expect(existsSync(join(dir, 'dist/main.js'))).toBe(true);

      // A failed compilation makes the script exit with an error code.
      writeProjectFile(dir, 'src/index.js', "import { missing } from './nowhere.js';\nconsole.log(missing);\n");
      await expect(runCommand(dir, 'node scripts/build.js')).rejects.toThrow(/exited with 1/);
    } finally {
      removeDir(dir);
    }
  });

  it('the three kinds of failure: an invalid configuration throws from webpack(), a failing plugin sets the callback error, a missing module is in stats', async () => {
    const text = readPage('guides/integrations').body;
    expect(text).toContain('throws a `ValidationError` right away');
    expect(() => webpack({ bogusOption: 1 } as unknown as Configuration)).toThrow(expect.objectContaining({ name: 'ValidationError' }));

    const failing = { apply: (compiler: { hooks: { run: { tap(name: string, fn: () => void): void } } }) => compiler.hooks.run.tap('fails', () => { throw new Error('plugin failed'); }) };
    const compiler = webpack({ mode: 'production', entry: './nowhere.js', plugins: [failing as never] });
    const [error, stats] = await new Promise<[Error | null, Stats | undefined]>((resolve) =>
      compiler.run((err, result) => compiler.close(() => resolve([err ?? null, result]))),
    );
    expect(error?.message).toBe('plugin failed');
    expect(stats).toBeUndefined();

    const dir = copyFixture('integrations');
    try {
      const missing = webpack(projectDefaults(dir, { mode: 'production', entry: './src/nowhere.js' }));
      const [missingError, missingStats] = await new Promise<[Error | null, Stats | undefined]>((resolve) =>
        missing.run((err, result) => missing.close(() => resolve([err ?? null, result]))),
      );
      expect(missingError).toBeNull();
      expect(missingStats!.hasErrors()).toBe(true);
    } finally {
      removeDir(dir);
    }
  });
});

/** Evaluates a CommonJS config source with some packages replaced by stand-ins. */
function evaluateWithStubs(source: string, dir: string, stubs: Record<string, unknown>): unknown {
  const module = { exports: {} as unknown };
  const realRequire = createRequire(join(dir, 'webpack.config.js'));
  const stubbedRequire = (request: string) => (request in stubs ? stubs[request] : realRequire(request));
  new Function('module', 'exports', 'require', '__dirname', '__filename', source)(
    module,
    module.exports,
    stubbedRequire,
    dir,
    join(dir, 'webpack.config.js'),
  );
  return module.exports;
}

/** `{ a: { b: value } }` from "a.b: value" (value is a JavaScript literal). */
function optionFromCode(code: string): Record<string, unknown> | undefined {
  const m = /^([\w.]+): (.+)$/.exec(code);
  if (!m) return undefined;
  const value = new Function(`return (${m[2]});`)() as unknown;
  return m[1]!.split('.').reduceRight<Record<string, unknown>>((inner, key) => ({ [key]: inner }), value as never) as Record<string, unknown>;
}

function validationError(config: unknown): string | undefined {
  try {
    webpack.validate(config as Configuration);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

class StubPlugin {
  apply(): void {}
}

describe('migrating', () => {
  it('turns the webpack 4 configuration of the diff into the fixture, which validates and builds with webpack 5', async () => {
    const dir = copyFixture('migrating');
    try {
      const page = readPage('guides/migrating');
      const configDiff = page.blocks.find((b) => b.lang === 'js' && /\bdiff\b/.test(b.meta))!.code;
      const packageDiff = page.blocks.find((b) => b.lang === 'json' && /\bdiff\b/.test(b.meta))!.code;
      const norm = (text: string) => text.split('\n').map((l) => l.replace(/\s+$/, '')).join('\n').trim();
      expect(norm(diffAfter(configDiff))).toBe(norm(readProjectFile(dir, 'webpack.config.js')));
      expect(norm(diffAfter(packageDiff))).toBe(norm(readProjectFile(dir, 'package.json')));
      const before = JSON.parse(diffBefore(packageDiff)) as { devDependencies: Record<string, string> };
      expect(before.devDependencies.webpack).toMatch(/^\^4\./);

      // The webpack 4 configuration: first the removed top-level plugin export, then the schema.
      const webpack4 = diffBefore(configDiff);
      const stubs = { 'clean-webpack-plugin': { CleanWebpackPlugin: StubPlugin } };
      expect(() => evaluateWithStubs(webpack4, dir, stubs)).toThrow(/webpack\.HashedModuleIdsPlugin is not a constructor/);
      const oldConfig = evaluateWithStubs(webpack4, dir, { ...stubs, webpack: { HashedModuleIdsPlugin: StubPlugin } });
      const message = validationError(oldConfig);
      expect(message).toBeDefined();
      const validationBlock = page.blocks.find((b) => b.lang === 'bash' && b.code.startsWith('Invalid configuration object'))!;
      expectLinesShownIn(validationBlock, message!, 'migrating.md');
      expect(validationError(await loadConfig(dir))).toBeUndefined();

      // The table of renamed options: old forms fail (unless marked as still accepted), new forms pass.
      const table = page.body.slice(page.body.indexOf('### Renamed and removed options'), page.body.indexOf('## The order of the upgrade'));
      let checked = 0;
      for (const row of table.split('\n').filter((l) => l.startsWith('| `'))) {
        const [oldCell, newCell] = row.split(' | ');
        const oldOption = optionFromCode(/`([^`]+)`/.exec(oldCell!)![1]!);
        const newOption = optionFromCode(/`([^`]+)`/.exec(newCell!)?.[1] ?? '');
        if (oldOption) {
          if (newCell!.includes('still accepted')) expect(validationError(oldOption), row).toBeUndefined();
          else expect(validationError(oldOption), row).toBeDefined();
          checked++;
        }
        if (newOption) {
          expect(validationError(newOption), row).toBeUndefined();
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(10);

      // The webpack 5 build: inlined SVG, emitted CSV, text as a string, crypto as an empty module.
      const build = await buildProject(dir);
      const shown = shownOutputs('guides/migrating');
      expectLinesShownIn(shown.find((o) => o.result?.outcome === 'successfully')!.block, statsText(build.stats), 'migrating.md');
      const main = build.read(build.assets.find((a) => a.startsWith('main.'))!);
      expect(main).toContain('data:image/svg+xml');
      expect(main).toContain('Prices include VAT.');
      expect(build.files).toContain(build.assets.find((a) => /^assets\/prices\.[0-9a-f]{20}\.csv$/.test(a)));
      expect(existsSync(join(dir, 'node_modules/.cache/webpack'))).toBe(true);

      // Without resolve.fallback, webpack 5 stops with the error the guide shows.
      const withoutFallback = await buildProject(dir, { allowErrors: true, adjust: (c) => ({ ...c, cache: false, resolve: {} }) });
      const errorBlock = page.blocks.find((b) => b.lang === 'bash' && b.code.includes('BREAKING CHANGE: webpack < 5'))!;
      expectLinesShownIn(errorBlock, statsText(withoutFallback.stats), 'migrating.md');
    } finally {
      removeDir(dir);
    }
  });
});
