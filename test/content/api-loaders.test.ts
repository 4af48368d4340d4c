import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Configuration } from 'webpack';
import { webpack } from '../helpers/webpack.js';
import { buildWith, exampleTracker, fixtureFiles, h3sUnder, loadModule, reportCount } from './api-helpers.js';

const require = createRequire(import.meta.url);
const PAGE = 'api/loaders';

/** Members of the loader context interfaces in webpack's types.d.ts. */
function typedMembers(): Set<string> {
  const types = readFileSync(require.resolve('webpack/types.d.ts'), 'utf8');
  const names = new Set<string>();
  for (const iface of [
    'NormalModuleLoaderContext',
    'LoaderRunnerMutableContext',
    'LoaderRunnerReadonlyContext',
    'LoaderPluginLoaderContext',
    'HotModuleReplacementPluginLoaderContext',
  ]) {
    const start = types.search(new RegExp(`^declare interface ${iface}\\b[^{]*\\{`, 'm'));
    expect(start, `interface ${iface} in types.d.ts`).toBeGreaterThan(-1);
    const body = types.slice(start, types.indexOf('\n}', start));
    for (const m of body.matchAll(/^\t(?:readonly )?([A-Za-z_]\w*)\??[:(]/gm)) names.add(m[1]!);
  }
  return names;
}

const PROBE_LOADER = `
module.exports = function probe(source) {
  const members = {};
  for (let o = this; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) {
    for (const key of Object.getOwnPropertyNames(o)) {
      if (key === 'constructor' || key in members) continue;
      const d = Object.getOwnPropertyDescriptor(o, key);
      members[key] = d.get ? typeof this[key] : typeof d.value;
    }
  }
  globalThis.__apiDocsLoaderContext = members;
  return source;
};
`;

describe('/api/loaders/', () => {
  const examples = exampleTracker(PAGE);

  it('has a heading for every member of the real loader context and the typed one, and none for others', async () => {
    const build = await buildWith('api-loaders-probe', { ...fixtureFiles('app'), 'probe-loader.js': PROBE_LOADER }, (dir) => ({
      plugins: [new webpack.HotModuleReplacementPlugin()],
      module: { rules: [{ test: /greeting\.js$/, use: join(dir, 'probe-loader.js') }] },
    }));
    build.cleanup();
    const runtime = (globalThis as Record<string, unknown>).__apiDocsLoaderContext as Record<string, string>;
    const typed = typedMembers();
    const required = new Set([...Object.keys(runtime), ...typed]);
    const headings = h3sUnder(PAGE, 'The loader context').map((s) => s.text);
    const documented = new Map(headings.map((h) => [h.replace(/^this\./, '').replace(/\(\)$/, ''), h]));
    reportCount('loader context members (runtime)', Object.keys(runtime).length);
    reportCount('loader context members (runtime + types.d.ts)', required.size);
    expect([...required].filter((m) => !documented.has(m)), 'members without a heading').toEqual([]);
    expect([...documented.keys()].filter((m) => !required.has(m)), 'headings for members that do not exist').toEqual([]);
    expect(headings.filter((h) => !h.startsWith('this.')), 'headings are written this.member').toEqual([]);
    const callStyle = Object.entries(runtime)
      .filter(([name, type]) => documented.has(name) && documented.get(name)!.endsWith('()') !== (type === 'function'))
      .map(([name, type]) => `${documented.get(name)} (${type})`);
    expect(callStyle, 'methods are written with (), properties without').toEqual([]);
  });

  it('banner-loader, used from the config shown, prefixes modules and validates its options', async () => {
    const files = { ...fixtureFiles('app'), 'loaders/banner-loader.js': examples.code('loaders/banner-loader.js') };
    const build = await buildWith('api-loaders-banner', files, (dir) => loadModule<Configuration>(examples.code('webpack.config.js', 0), dir));
    try {
      expect(build.outputs['main.js']).toContain('/* Reviewed */');
    } finally {
      build.cleanup();
    }
    const invalid = await buildWith(
      'api-loaders-banner-invalid',
      files,
      (dir) => ({ module: { rules: [{ test: /\.js$/, include: join(dir, 'src'), use: [{ loader: join(dir, 'loaders/banner-loader.js'), options: {} }] }] } }),
      { allowErrors: true },
    );
    try {
      const errors = invalid.stats.toJson({ all: false, errors: true }).errors!.map((e) => e.message).join('\n');
      expect(errors).toContain("misses the property 'text'");
    } finally {
      invalid.cleanup();
    }
  });

  it('include-loader inlines the file asynchronously and watches it', async () => {
    const files = {
      'src/index.js': '// @include "./notes.txt"\n',
      'src/notes.txt': 'Remember the milk.\n',
      'loaders/include-loader.js': examples.code('loaders/include-loader.js'),
    };
    const build = await buildWith('api-loaders-include', files, (dir) => ({
      module: { rules: [{ test: /\.js$/, include: join(dir, 'src'), use: join(dir, 'loaders/include-loader.js') }] },
    }));
    try {
      expect(build.outputs['main.js']).toContain('included: () => (/* binding */ included)');
      expect(build.outputs['main.js']).toContain('"Remember the milk.\\n"');
      expect([...build.stats.compilation.fileDependencies].some((f) => f.endsWith('notes.txt'))).toBe(true);
    } finally {
      build.cleanup();
    }
  });

  it('hashed-file-loader, from the second config shown, receives a Buffer and emits the file', async () => {
    const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0x00, 0x80]);
    const files = {
      'src/index.js': "import logo from './logo.png';\nconsole.log(logo);\n",
      'loaders/hashed-file-loader.js': examples.code('loaders/hashed-file-loader.js'),
    };
    const build = await buildWith('api-loaders-raw', files, (dir) => {
      writeFileSync(join(dir, 'src', 'logo.png'), png);
      return { ...loadModule<Configuration>(examples.code('webpack.config.js', 1), dir), output: { publicPath: '/static/' } };
    });
    try {
      const emitted = Object.keys(build.outputs).filter((f) => f.startsWith('files/'));
      expect(emitted).toHaveLength(1);
      expect(emitted[0]).toMatch(/^files\/[0-9a-f]{8}\.png$/);
      expect(readFileSync(join(build.dir, 'dist', emitted[0]!)).equals(png)).toBe(true);
      expect(build.outputs['main.js']).toContain(JSON.stringify(emitted[0]));
    } finally {
      build.cleanup();
    }
  });

  it('freeze-loader pitches: the module it generates imports the rest of the chain and freezes it', async () => {
    const files = {
      'src/index.js': "import settings from './app.config.js';\nconsole.log(Object.isFrozen(settings), settings.theme);\n",
      'src/app.config.js': "export default { theme: 'dark' };\n",
      'loaders/freeze-loader.js': examples.code('loaders/freeze-loader.js'),
    };
    const build = await buildWith('api-loaders-pitch', files, (dir) => ({
      target: 'node',
      module: { rules: [{ test: /\.config\.js$/, use: join(dir, 'loaders/freeze-loader.js') }] },
    }));
    try {
      const printed = execFileSync(process.execPath, [join(build.dir, 'dist', 'main.js')], { encoding: 'utf8' });
      expect(printed.trim()).toBe('true dark');
    } finally {
      build.cleanup();
    }
  });

  it('this.target names the platform: the values the page lists are the ones webpack derives', () => {
    const targets: [Configuration['target'], boolean][] = [
      ['web', false],
      ['webworker', false],
      ['browserslist:last 1 chrome version', false],
      ['node', false],
      ['node18', false],
      ['async-node', false],
      ['electron-main', false],
      ['electron-preload', false],
      ['electron-renderer', false],
      ['nwjs', false],
      ['deno', false],
      ['bun', false],
      [['web', 'node'], true],
    ];
    const seen = new Map<string, string>();
    for (const [target, esm] of targets) {
      const compiler = webpack({
        mode: 'none',
        entry: './nothing.js',
        target,
        ...(esm ? { output: { module: true }, experiments: { outputModule: true } } : {}),
        infrastructureLogging: { level: 'none' },
      });
      seen.set(JSON.stringify(target), String(compiler.options.loader?.target));
    }
    expect(seen.get('"webworker"')).toBe('web');
    expect(seen.get('"node18"')).toBe('node');
    const section = h3sUnder(PAGE, 'The loader context').find((s) => s.text === 'this.target')!;
    const listed = section.body.trim().split('\n\n')[0]!.split('one of ')[1]!.split('. ')[0]!;
    const named = [...listed.matchAll(/`"([\w-]+)"`/g)].map((m) => m[1]!);
    expect(new Set(named)).toEqual(new Set(seen.values()));
    expect(section.body).not.toContain('`"webworker"`');
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
