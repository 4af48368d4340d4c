import { cpSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Configuration, Stats, StatsModule } from 'webpack';
import { describe, expect, it } from 'vitest';
import { readPage, type CodeBlock, type PageSource } from '../helpers/content.js';
import { fakeBrowser } from '../helpers/guides.js';
import { compile, evaluateConfig } from '../helpers/webpack.js';

/*
 * The concept pages added for the addresses of webpack.js.org that had none here: module federation, under the
 * hood and why webpack. Each example is compiled from the page's own code blocks with the installed webpack, and
 * what the page says about the result is checked against the build (its files, its stats, what the code does).
 * concepts.test.ts validates every configuration of these pages too, as for the other concept pages.
 */

const require = createRequire(import.meta.url);
const REACT_VERSION = (require('react/package.json') as { version: string }).version;

type Match = string | ((code: string) => boolean);

/** The single block on `page` with this title (and matching `match`, when given). */
function pick(page: PageSource, title: string, match?: Match): CodeBlock {
  const test = (code: string) => match === undefined || (typeof match === 'string' ? code.includes(match) : match(code));
  const found = page.blocks.filter((b) => b.title === title && test(b.code));
  if (found.length !== 1) throw new Error(`${page.file}: expected one block titled "${title}"${match ? ` matching ${String(match)}` : ''}, found ${found.length}`);
  return found[0]!;
}

/** A module of source code, not one of federation's own (provide, consume, remote, container, external). */
const isSource = (name: string) => name !== '' && !/^(provide shared module|consume shared module|remote |container entry|external )/.test(name);

function configFrom(block: CodeBlock): (dir: string) => Configuration {
  return (dir) => evaluateConfig(block.code, dir) as Configuration;
}

function modulesOf(stats: Stats): StatsModule[] {
  return stats.toJson({ all: false, modules: true, nestedModules: true }).modules ?? [];
}

function chunkFiles(stats: Stats): Array<{ files: string[]; names: string[]; modules: string[]; initial: boolean }> {
  const json = stats.toJson({ all: false, chunks: true, chunkModules: true });
  return (json.chunks ?? []).map((c) => ({
    files: [...(c.files ?? [])],
    names: [...(c.names ?? [])],
    initial: Boolean(c.initial),
    modules: (c.modules ?? []).map((m) => m.name ?? ''),
  }));
}

describe('module federation: the catalog (remote) and the storefront (host)', () => {
  const page = readPage('concepts/module-federation');
  const remoteConfig = pick(page, 'webpack.config.js', "exposes: {");
  const hostConfig = pick(page, 'webpack.config.js', 'remotes: {');
  const pkg = pick(page, 'package.json').code;
  const remotePackage = `${JSON.stringify({ ...(JSON.parse(pkg) as object), name: 'catalog', dependencies: { react: '^19.0.0' } }, null, 2)}\n`;

  it('the page says both projects list React, and the storefront also react-dom', () => {
    expect(JSON.parse(pkg)).toMatchObject({ name: 'storefront', dependencies: { react: '^19.0.0', 'react-dom': '^19.0.0' } });
    expect(page.body).toContain('Both projects list React in their `package.json`');
  });

  it('the remote writes remoteEntry.js, a chunk for the exposed module and a chunk for its React, and the container works', async () => {
    const result = await compile(
      'concepts-federation-remote',
      { 'package.json': remotePackage, 'src/ProductCard.js': `${pick(page, 'src/ProductCard.js').code}\n` },
      configFrom(remoteConfig),
    );
    try {
      const files = Object.keys(result.outputs).filter((f) => f.endsWith('.js'));
      expect(files).toContain('remoteEntry.js');
      // Three files, as the page says: the container, the exposed module's chunk and React's chunk.
      expect(files).toHaveLength(3);
      const chunks = chunkFiles(result.stats);
      const container = chunks.find((c) => c.files.includes('remoteEntry.js'))!;
      expect(container.names).toEqual(['catalog']);
      expect(container.modules.filter(isSource).some((m) => /ProductCard|react/.test(m))).toBe(false);
      const card = chunks.find((c) => c.modules.some((m) => m.endsWith('src/ProductCard.js')))!;
      expect(card.initial).toBe(false);
      expect(card.modules.some((m) => m.includes('node_modules/react/'))).toBe(false);
      const react = chunks.find((c) => c.modules.some((m) => m.includes('node_modules/react/index.js')))!;
      expect(react.files).toHaveLength(1);
      expect(react.files[0]).not.toBe(card.files[0]);
      // Both kinds of shared module, named as the page shows them.
      const names = modulesOf(result.stats).map((m) => m.name ?? '');
      expect(names.some((n) => n.startsWith('provide shared module (default) react@19.'))).toBe(true);
      expect(names.some((n) => n.startsWith('consume shared module (default) react@^19.0.0 (singleton)'))).toBe(true);
      expect(page.body).toContain(`\`provide shared module (default) react@${REACT_VERSION}\``);
      expect(names.some((n) => n.startsWith(`provide shared module (default) react@${REACT_VERSION} = `))).toBe(true);

      // The container at run time: init() with a share scope, get() a factory, the factory the module's exports.
      // Served as the page says: under /catalog/ of the storefront's server.
      const site = join(result.dir, 'site');
      cpSync(join(result.dir, 'dist'), join(site, 'catalog'), { recursive: true });
      const browser = fakeBrowser(site, { baseUrl: 'http://localhost:8080/' });
      browser.runScript('catalog/remoteEntry.js');
      const catalog = browser.window.catalog as { init(scope: object): unknown; get(name: string): Promise<() => { default: (props: object) => { type: string; props: { className: string; children: string } } }> };
      expect(Object.keys(catalog).sort()).toEqual(['get', 'init']);
      const scope: Record<string, Record<string, unknown>> = {};
      await catalog.init(scope);
      // The catalog registered its React in the share scope it was given.
      expect(Object.keys(scope)).toEqual(['react']);
      const factory = await catalog.get('./ProductCard');
      const element = factory().default({ name: 'Desk lamp', price: 39 });
      expect(element.type).toBe('article');
      expect(element.props).toEqual({ className: 'product', children: 'Desk lamp: 39.00 €' });
      // The chunks were loaded from beside remoteEntry.js (publicPath: 'auto').
      expect(browser.requestedScripts.length).toBeGreaterThan(0);
      for (const url of browser.requestedScripts) expect(url).toMatch(/^http:\/\/localhost:8080\/catalog\/\d+\.js$/);
      await expect(catalog.get('./Cart')).rejects.toThrow(/Cart/);
    } finally {
      result.cleanup();
    }
  });

  it('the host writes a small main.js that knows the remote address but none of its modules, and shares React', async () => {
    const result = await compile(
      'concepts-federation-host',
      {
        'package.json': `${pkg}\n`,
        'src/index.js': `${pick(page, 'src/index.js').code}\n`,
        'src/bootstrap.js': `${pick(page, 'src/bootstrap.js').code}\n`,
      },
      configFrom(hostConfig),
    );
    try {
      const main = result.outputs['main.js']!;
      expect(main).toContain('http://localhost:8080/catalog/remoteEntry.js');
      expect(main).not.toContain('Desk lamp');
      expect(main.length).toBeLessThan(12_000);
      const chunks = chunkFiles(result.stats);
      const initial = chunks.filter((c) => c.initial);
      expect(initial.map((c) => c.files)).toEqual([['main.js']]);
      expect(initial[0]!.modules.filter(isSource).some((m) => m.includes('node_modules/'))).toBe(false);
      const lazy = chunks.filter((c) => !c.initial);
      // bootstrap.js, react-dom (a vendors chunk) and React: three chunks, as the page lists them.
      expect(lazy).toHaveLength(3);
      const bootstrap = lazy.find((c) => c.modules.some((m) => m.endsWith('src/bootstrap.js')))!;
      expect(bootstrap.modules.filter(isSource).some((m) => m.includes('node_modules/'))).toBe(false);
      const reactDom = lazy.find((c) => c.modules.some((m) => m.includes('node_modules/react-dom/')))!;
      expect(reactDom.modules.some((m) => m.includes('node_modules/react/'))).toBe(false);
      expect(lazy.some((c) => c.modules.some((m) => m.includes('node_modules/react/index.js')))).toBe(true);
      const names = modulesOf(result.stats).map((m) => m.name ?? '');
      expect(names).toContain('remote catalog/ProductCard');
      expect(names.filter((n) => n.startsWith('consume shared module (default) react@^19.0.0 (singleton)'))).toHaveLength(1);
      expect(names.filter((n) => n.startsWith('consume shared module (default) react@^19.3.1 (singleton)'))).toHaveLength(1);
      expect(names.some((n) => n.startsWith('provide shared module (default) react@'))).toBe(true);
      expect(names.some((n) => /shared module \(default\) react-dom/.test(n))).toBe(false);
    } finally {
      result.cleanup();
    }
  }, 30_000);
});

describe('under the hood: the build the page follows', () => {
  const page = readPage('concepts/under-the-hood');
  const files: Record<string, string> = {
    // The output shown on the page comes from a project named "party": the runtime contains the name, so it counts in the sizes.
    'package.json': `${JSON.stringify({ name: 'party', private: true }, null, 2)}\n`,
    ...Object.fromEntries(['src/index.js', 'src/greeting.js', 'src/colors.js', 'src/confetti.js'].map((f) => [f, `${pick(page, f).code}\n`])),
  };

  it('the trace plugin prints the steps in the order shown, and the stats say what the page says', async () => {
    const printed: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => void printed.push(args.join(' '));
    let result: Awaited<ReturnType<typeof compile>>;
    try {
      result = await compile('concepts-under-the-hood', files, configFrom(pick(page, 'webpack.config.js')));
    } finally {
      console.log = original;
    }
    try {
      const shown = page.blocks.find((b) => b.lang === 'shellsession' && b.code.startsWith('$ npx webpack'))!.code.split('\n').slice(1);
      // The trace lines, in order, exactly as the page shows them.
      expect(printed).toEqual(shown.filter((l) => l.startsWith('[trace] ')));
      // The summary lines webpack prints (the last one, with the time, is not shown).
      const summary = result!.stats.toString({ colors: false }).split('\n');
      for (const line of shown.filter((l) => !l.startsWith('[trace] '))) expect(summary, line).toContain(line);

      const json = result!.stats.toJson({ all: false, modules: true, reasons: true, chunks: true, chunkModules: true, chunkGroups: true, entrypoints: true, assets: true });
      const sources = (json.modules ?? []).filter((m) => m.moduleType === 'javascript/auto').map((m) => m.name);
      expect(sources).toEqual(['./src/index.js', './src/greeting.js', './src/colors.js', './src/confetti.js']);
      expect(page.body).toContain(`This build has ${sources.length} modules`);
      const colors = (json.modules ?? []).find((m) => m.name === './src/colors.js')!;
      expect(new Set(colors.reasons!.map((r) => r.moduleName))).toEqual(new Set(['./src/index.js', './src/confetti.js']));
      const chunks = new Map((json.chunks ?? []).map((c) => [c.names![0], c]));
      expect([...chunks.keys()].sort()).toEqual(['confetti', 'main']);
      const { compilation } = result!.stats;
      const modulesOfChunk = (name: string) =>
        compilation.chunkGraph
          .getChunkModules([...compilation.chunks].find((c) => c.name === name)!)
          .map((m) => m.readableIdentifier(compilation.requestShortener))
          .filter((n) => n.startsWith('./src/'))
          .sort();
      expect(modulesOfChunk('main')).toEqual(['./src/colors.js', './src/greeting.js', './src/index.js']);
      expect(modulesOfChunk('confetti')).toEqual(['./src/confetti.js']);
      expect(Object.keys(json.namedChunkGroups ?? {}).sort()).toEqual(['confetti', 'main']);
      expect(Object.keys(json.entrypoints ?? {})).toEqual(['main']);
      expect(compilation.entrypoints.get('main')!.chunks.map((c) => c.name)).toEqual(['main']);
      expect(compilation.namedChunkGroups.get('confetti')!.chunks.map((c) => c.name)).toEqual(['confetti']);
      expect((json.assets ?? []).map((a) => a.name).sort()).toEqual(['confetti.js', 'main.js']);
      // The runtime is in main.js only: the confetti chunk just registers its module.
      expect(result!.outputs['main.js']).toContain('__webpack_require__');
      expect(result!.outputs['confetti.js']).not.toContain('function __webpack_require__');
      const runtime = [...compilation.chunks].flatMap((c) => [...compilation.chunkGraph.getChunkRuntimeModulesIterable(c)]);
      const line = /^runtime modules ([\d.]+ KiB) (\d+) modules$/m.exec(shown.join('\n'))!;
      expect(runtime).toHaveLength(Number(line[2]));
      expect(page.body).toContain(`This build needs ${line[2]} of them, ${line[1]} in development mode`);
    } finally {
      result!.cleanup();
    }
  });

  it('in production the unnamed chunk ids are numbers and the modules are concatenated', async () => {
    const block = pick(page, 'webpack.config.js');
    const production = { ...block, code: block.code.replace("mode: 'development'", "mode: 'production'") };
    const original = console.log;
    console.log = () => undefined;
    let result: Awaited<ReturnType<typeof compile>>;
    try {
      result = await compile('concepts-under-the-hood-production', { ...files, 'src/index.js': files['src/index.js']!.replace('/* webpackChunkName: "confetti" */ ', '') }, configFrom(production));
    } finally {
      console.log = original;
    }
    try {
      expect(Object.keys(result!.outputs).sort()).toEqual([expect.stringMatching(/^\d+\.js$/), 'main.js']);
      const names = (result!.stats.toJson({ all: false, modules: true }).modules ?? []).map((m) => m.name ?? '');
      // greeting.js joins index.js; colors.js stays a module of its own because the confetti chunk uses it too.
      expect(names).toContain('./src/index.js + 1 modules');
      expect(names).toContain('./src/colors.js');
    } finally {
      result!.cleanup();
    }
  });
});

describe('why webpack: the small project', () => {
  const page = readPage('concepts/why-webpack');

  it('writes the files the page lists, and the bundle runs: CommonJS helper, stylesheet, image, lazy chunk', async () => {
    const files = {
      'package.json': `${JSON.stringify({ name: 'shop', private: true }, null, 2)}\n`,
      ...Object.fromEntries(['src/index.js', 'src/format-price.cjs', 'src/shop.css', 'src/stripes.svg', 'src/history.js'].map((f) => [f, `${pick(page, f).code}\n`])),
    };
    const result = await compile('concepts-why-webpack', files, configFrom(pick(page, 'webpack.config.js')));
    try {
      const names = Object.keys(result.outputs).sort();
      const main = names.find((f) => /^main\.[0-9a-f]{20}\.js$/.test(f))!;
      const css = names.find((f) => /^main\.[0-9a-f]{20}\.css$/.test(f))!;
      const svg = names.find((f) => /^[0-9a-f]{20}\.svg$/.test(f))!;
      const chunk = names.find((f) => /^\d+\.[0-9a-f]{20}\.js$/.test(f))!;
      expect(names).toEqual([chunk, svg, css, main].sort());
      expect(page.body).toContain(`The build writes ${['zero', 'one', 'two', 'three', 'four', 'five'][names.length]} files`);
      expect(result.outputs[css]).toContain(`url(${svg})`);
      expect(result.outputs[chunk]).toContain('February');
      expect(result.outputs[main]).not.toContain('February');
      expect(result.outputs[main]).toContain('toFixed(2)');

      // In a page: the total uses the CommonJS helper, and the click loads the history chunk.
      const browser = fakeBrowser(join(result.dir, 'dist'));
      let open: (() => Promise<void>) | undefined;
      (browser.document as unknown as { querySelector: (s: string) => unknown }).querySelector = () => ({ addEventListener: (_: string, fn: () => Promise<void>) => (open = fn) });
      browser.runScript(main);
      expect(browser.document.body.getElementsByTagName('p')[0]!.textContent).toBe('Total: 25.90 €');
      await open!();
      expect(browser.requestedScripts).toEqual([`http://localhost/${chunk}`]);
      expect(browser.document.body.getElementsByTagName('li').map((li) => li.textContent)).toEqual(['January', 'February', 'March']);
    } finally {
      result.cleanup();
    }
  });
});
