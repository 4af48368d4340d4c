import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildWith, exampleTracker, fixtureFiles, h3sUnder, parserHookKeys, readPage, reportCount, sectionsOf } from './api-helpers.js';

const require = createRequire(import.meta.url);
const PAGE = 'api/module-methods';

/** Magic comment names webpack reads from parsed comment options anywhere in lib/. */
function magicComments(): Set<string> {
  const lib = join(dirname(require.resolve('webpack/package.json')), 'lib');
  const names = new Set<string>();
  for (const file of readdirSync(lib, { recursive: true }) as string[]) {
    if (!file.endsWith('.js')) continue;
    const source = readFileSync(join(lib, file), 'utf8');
    for (const m of source.matchAll(/\b(?:importOptions|requireOptions|options)\??\.(webpack[A-Z][A-Za-z]+)\b/g)) names.add(m[1]!);
  }
  return names;
}

/** Methods a module can call: `call` hook keys of webpack's parser plugins, minus HMR (its own page) and dunder variables. */
function callableMethods(keys: Map<string, Set<string>>): Set<string> {
  const methods = new Set<string>(['import']);
  for (const key of keys.get('call') ?? []) {
    if (/^(require(\.\w+)*|module\.require|module\.parent\.require|define|import\.meta\.\w+)$/.test(key)) methods.add(key);
  }
  return methods;
}

describe('/api/module-methods/', () => {
  const examples = exampleTracker(PAGE);
  let keys: Map<string, Set<string>>;
  beforeAll(async () => {
    keys = await parserHookKeys();
  });

  it('has a heading for every callable API webpack recognizes, and only for those', () => {
    const methods = callableMethods(keys);
    const headings = sectionsOf(PAGE).filter((s) => s.depth === 3).map((s) => s.text);
    const calls = headings.filter((h) => h.endsWith('()')).map((h) => h.slice(0, -2));
    reportCount('module methods (callable)', methods.size);
    expect([...methods].filter((m) => !calls.includes(m)), 'methods without a heading').toEqual([]);
    const known = new Set([...(keys.get('call') ?? []), 'import']);
    expect(calls.filter((c) => !known.has(c)), 'method headings webpack does not recognize').toEqual([]);
  });

  it('has a heading for every magic comment webpack reads, and only for those', () => {
    const real = magicComments();
    const documented = h3sUnder(PAGE, 'Magic comments').map((s) => s.text);
    reportCount('magic comments', real.size);
    expect([...real].filter((m) => !documented.includes(m)), 'magic comments without a heading').toEqual([]);
    expect(documented.filter((m) => !real.has(m)), 'headings for magic comments webpack does not read').toEqual([]);
  });

  it('runs the require.context, import.meta.webpackContext and import.meta.glob examples', async () => {
    const files = {
      ...fixtureFiles('modules'),
      'src/widgets.js': examples.code('src/widgets.js'),
      'src/pages.js': examples.code('src/pages.js'),
      'src/posts.js': examples.code('src/posts.js'),
    };
    const build = await buildWith('api-module-methods', files, { target: 'node', entry: './src/main.js' });
    try {
      // One lazy chunk per page, named by the chunkName option.
      expect(Object.keys(build.outputs).filter((f) => f.startsWith('page-')).sort()).toEqual(['page-about-js.js', 'page-home-js.js']);
      const printed = execFileSync(process.execPath, [join(build.dir, 'dist', 'main.js')], { encoding: 'utf8' }).trim().split('\n');
      expect(printed).toEqual(['["calendar","clock"]', '["./about.js","./home.js"]', 'About page', 'Second post: More words.']);
    } finally {
      build.cleanup();
    }
  });

  it('require.context returns exports directly in sync and weak mode, a promise in the others', async () => {
    const modes = ['sync', 'weak', 'eager', 'lazy', 'lazy-once', 'async-weak'];
    const files: Record<string, string> = {
      'src/parts/a.js': "module.exports = 'part a';\n",
      'src/parts/b.js': "module.exports = 'part b';\n",
      'src/only-weak/c.js': "module.exports = 'part c';\n",
      'src/only-weak/d.js': "module.exports = 'part d';\n",
      'src/index.js': [
        // Loads ./parts/a.js statically, so the weak modes find it.
        "require('./parts/a.js');",
        'const contexts = {',
        ...modes.map((mode) => `  '${mode}': require.context('./parts', false, /\\.js$/, '${mode}'),`),
        '};',
        'for (const [mode, context] of Object.entries(contexts)) {',
        "  const result = context('./a.js');",
        "  console.log(mode, result instanceof Promise ? 'promise' : result);",
        '}',
        // A directory only a weak context reads: its files are not bundled unless loaded elsewhere.
        "require('./only-weak/c.js');",
        "const weakOnly = require.context('./only-weak', false, /\\.js$/, 'weak');",
        "console.log('weak c', weakOnly('./c.js'));",
        "try { weakOnly('./d.js'); console.log('weak d loaded'); } catch (e) { console.log('weak d threw'); }",
        '',
      ].join('\n'),
    };
    const build = await buildWith('api-module-methods-context-modes', files, { target: 'node' });
    try {
      const printed = execFileSync(process.execPath, [join(build.dir, 'dist', 'main.js')], { encoding: 'utf8' }).trim().split('\n');
      expect(printed).toEqual([
        'sync part a',
        'weak part a',
        'eager promise',
        'lazy promise',
        'lazy-once promise',
        'async-weak promise',
        'weak c part c',
        'weak d threw',
      ]);
    } finally {
      build.cleanup();
    }
    expect(readPage(PAGE).body).toContain("`'weak'` returns exports directly too");
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
