import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPage, removeDir } from '../helpers/content.js';
import {
  buildProject,
  loadConfig,
  withProjectDefaults,
  copyFixture,
  diffAfter,
  diffBefore,
  driftProblems,
  shownOutputs,
  type GuideBuild,
} from '../helpers/guides.js';
import type { Configuration, Stats } from 'webpack';
import { webpack } from '../helpers/webpack.js';

/*
 * The guides of writer B. Every guide is backed by a fixture project in
 * test/fixtures/guides/<slug>/; for each one this file checks
 *   - the page: frontmatter, sidebar group, and that every titled code block
 *     equals the fixture file of that path (and every fixture file is shown);
 *   - the build: the fixture really compiles with the installed webpack and
 *     does what the guide promises;
 *   - the terminal output the guide shows: asset names and result lines are
 *     the ones the real build reports.
 */

const WEBPACK_VERSION = (webpack as unknown as { version: string }).version;

const GROUPS: Record<string, string> = {
  caching: 'Optimisation',
  'build-performance': 'Optimisation',
  'author-libraries': 'Advanced',
  shimming: 'Advanced',
  'progressive-web-application': 'Advanced',
  'web-workers': 'Advanced',
  'ecma-script-modules': 'Advanced',
  'package-exports': 'Advanced',
  'public-path': 'Advanced',
  csp: 'Advanced',
  'dependency-management': 'Advanced',
  'development-vagrant': 'Advanced',
  integrations: 'Advanced',
  migrating: 'Advanced',
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

/**
 * One compiler for several builds of the same project folder, with webpack's
 * memory cache on so that unchanged modules (and their minified output) are
 * reused: much faster than a fresh compiler for every rebuild. The cache does
 * not change what webpack emits.
 */
async function rebuilder(dir: string) {
  const loaded = await loadConfig(dir);
  if (Array.isArray(loaded)) throw new Error('expected one configuration');
  const config = withProjectDefaults(dir, { ...loaded, cache: { type: 'memory' } });
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
      for (const shown of shownOutputs(`guides/${slug}`)) {
        if (shown.result) expect(shown.result.version, `${page.file}:${shown.block.line}`).toBe(WEBPACK_VERSION);
      }
    });
  }
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
      expect(shownSecond!.result?.outcome).toBe('successfully');

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
      const modules = second.stats.toJson({ all: false, modules: true, cachedModules: true }).modules ?? [];
      expect(modules.length).toBeGreaterThan(0);
      expect(modules.every((m) => m.cached === true && m.built === false)).toBe(true);

      const [shownFirst, shownSecond] = shownOutputs('guides/build-performance');
      expect(shownFirst!.assets).toEqual(first.assets.filter((a) => !a.endsWith('.map')));
      expect(shownSecond!.assets).toEqual(second.assets.filter((a) => !a.endsWith('.map')));
      expect(shownSecond!.block.code).toMatch(new RegExp(`^cached modules [\\d.]+ bytes \\[cached\\] ${modules.length} modules$`, 'm'));

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
