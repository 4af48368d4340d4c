import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { buildWith, exampleTracker, h3sUnder, parserHookKeys, reportCount } from './api-helpers.js';

const PAGE = 'api/module-variables';
const VALUE_HOOKS = ['expression', 'evaluateIdentifier', 'evaluateTypeof', 'typeof', 'expressionMemberChain'];

/**
 * Module variables: names webpack's parser plugins handle as values (expression,
 * evaluation and typeof hooks) in the shapes a module can use — dunder names,
 * import.meta.*, module.*, exports, require.* and define.amd, and global —
 * without the functions that are documented as module methods.
 */
function moduleVariables(keys: Map<string, Set<string>>): Set<string> {
  const calls = keys.get('call') ?? new Set<string>();
  const variables = new Set<string>();
  for (const hook of VALUE_HOOKS) {
    for (const key of keys.get(hook) ?? []) {
      const shape = /^(__\w+(\.id)?|import\.meta(\.\w+)*|module(\.\w+)*|exports|require\.\w+|define\.amd|global)$/.test(key);
      const method = calls.has(key) && /^(require(\.\w+)*|module\.require|module\.parent\.require|define)$/.test(key);
      if (shape && !method) variables.add(key);
    }
  }
  return variables;
}

describe('/api/module-variables/', () => {
  const examples = exampleTracker(PAGE);
  let keys: Map<string, Set<string>>;
  beforeAll(async () => {
    keys = await parserHookKeys();
  });

  it('has a heading for every module variable webpack recognizes, and none for names it does not', () => {
    const variables = moduleVariables(keys);
    const known = new Set([...keys.values()].flatMap((set) => [...set]));
    const documented = h3sUnder(PAGE).map((s) => s.text);
    reportCount('module variables', variables.size);
    expect([...variables].filter((v) => !documented.includes(v)).sort(), 'variables without a heading').toEqual([]);
    expect(documented.filter((d) => !known.has(d)), 'headings for names webpack does not recognize').toEqual([]);
  });

  it('build-info.js evaluates import.meta.env, import.meta.webpack, __resourceQuery and import.meta.main', async () => {
    const files = { 'src/build-info.js': examples.code('src/build-info.js') };
    const run = async (mode: 'development' | 'production') => {
      const build = await buildWith(`api-variables-${mode}`, files, { mode, target: 'node', entry: './src/build-info.js?lang=en' });
      try {
        const printed = execFileSync(process.execPath, [join(build.dir, 'dist', 'main.js')], { encoding: 'utf8' }).trim().split('\n');
        return { printed, code: build.outputs['main.js']! };
      } finally {
        build.cleanup();
      }
    };
    const dev = await run('development');
    expect(dev.printed).toEqual([
      'debugging helpers enabled',
      JSON.stringify({ mode: 'development', development: true, webpackMajor: 5, query: '?lang=en', isEntry: true }),
    ]);
    const prod = await run('production');
    expect(prod.printed).toEqual([JSON.stringify({ mode: 'production', development: false, webpackMajor: 5, query: '?lang=en', isEntry: true })]);
    expect(prod.code).not.toContain('debugging helpers enabled');
  });

  it('public-path.js sets the public path at run time', async () => {
    const files = {
      'src/public-path.js': examples.code('src/public-path.js'),
      'src/index.js': "import './public-path.js';\nconsole.log(__webpack_public_path__);\n",
    };
    const build = await buildWith('api-variables-public-path', files, { target: 'node', output: { publicPath: '/from-config/' } });
    try {
      const printed = execFileSync(process.execPath, [join(build.dir, 'dist', 'main.js')], { encoding: 'utf8' }).trim();
      expect(printed).toBe('/assets/');
      const withGlobal = execFileSync(process.execPath, ['-e', `globalThis.ASSET_BASE_URL = 'https://cdn.example/'; require(${JSON.stringify(join(build.dir, 'dist', 'main.js'))})`], { encoding: 'utf8' }).trim();
      expect(withGlobal).toBe('https://cdn.example/');
    } finally {
      build.cleanup();
    }
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
