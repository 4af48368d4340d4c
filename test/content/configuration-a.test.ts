import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Configuration } from 'webpack';
import { headingsOf, readPage as readPageUncached, removeDir, scratchDir, type CodeBlock, type PageSource } from '../helpers/content.ts';
import { compile, evaluateConfig, validate, webpack } from '../helpers/webpack.ts';

/*
 * Examples of the configuration pages of writer A: index, configuration-languages,
 * configuration-types, entry-context, mode, output, module, resolve, plugins and
 * dev-server. Every block titled webpack.config.js is evaluated and validated by
 * webpack; ECMAScript module, TypeScript and Babel configurations are loaded the
 * way their language needs; devServer sections are validated against the schema
 * of the installed webpack-dev-server. The main example of each page is compiled.
 */

const require = createRequire(import.meta.url);

const PAGES = [
  'configuration',
  'configuration/configuration-languages',
  'configuration/configuration-types',
  'configuration/entry-context',
  'configuration/mode',
  'configuration/output',
  'configuration/module',
  'configuration/resolve',
  'configuration/plugins',
  'configuration/dev-server',
] as const;

const GROUPS: Record<string, string> = {
  configuration: '-',
  'configuration/configuration-languages': 'Basics',
  'configuration/configuration-types': 'Basics',
  'configuration/entry-context': 'Basics',
  'configuration/mode': 'Basics',
  'configuration/output': 'Options',
  'configuration/module': 'Options',
  'configuration/resolve': 'Options',
  'configuration/plugins': 'Options',
  'configuration/dev-server': 'Options',
};

type Env = Record<string, unknown>;
/** webpack's own type has no devServer: webpack-dev-server adds it when its types are loaded. */
type WithDevServer = Configuration & { devServer?: false | Record<string, unknown> };

const pageCache = new Map<string, PageSource>();
/** Pages are parsed once: several hundred tests read the same ten files. */
function readPage(id: string): PageSource {
  let page = pageCache.get(id);
  if (!page) {
    page = readPageUncached(id);
    pageCache.set(id, page);
  }
  return page;
}

/** The code a reader ends up with: for a diff block, the file after the edit. */
function codeOf(block: CodeBlock): string {
  if (!/(^|\s)diff(\s|$)/.test(block.meta)) return block.code;
  const lines: string[] = [];
  for (const line of block.code.split('\n')) {
    const marker = /^([+-])( ?)/.exec(line);
    if (marker?.[1] === '-') continue;
    lines.push(marker ? line.slice(marker[0].length) : line.startsWith(' ') ? line.slice(1) : line);
  }
  return lines.join('\n');
}

function blocksOf(id: string, title: string): CodeBlock[] {
  return readPage(id).blocks.filter((block) => block.title === title);
}

function firstBlock(id: string, title = 'webpack.config.js'): CodeBlock {
  const block = blocksOf(id, title)[0];
  if (!block) throw new Error(`${id} has no block titled ${title}`);
  return block;
}

/** What webpack-cli would pass to webpack for an exported value. */
async function resolveExport(value: unknown, env: Env, argv: Env): Promise<WithDevServer[]> {
  let current = await value;
  if (typeof current === 'function') current = await (current as (e: Env, a: Env) => unknown)(env, argv);
  if (Array.isArray(current)) {
    const items: WithDevServer[] = [];
    for (const item of current) items.push(...(await resolveExport(item, env, argv)));
    return items;
  }
  expect(current, 'a configuration must be an object').toBeTypeOf('object');
  return [current as WithDevServer];
}

const ENVIRONMENTS: Array<{ env: Env; argv: Env }> = [
  { env: { WEBPACK_BUNDLE: true, WEBPACK_BUILD: true }, argv: {} },
  { env: { WEBPACK_BUNDLE: true, WEBPACK_BUILD: true, production: true }, argv: { mode: 'production' } },
];

const validateDevServer: (schema: unknown, options: unknown, config: { name: string; baseDataPath: string }) => void =
  require('schema-utils').validate;
const devServerSchema = require('webpack-dev-server/lib/options.json') as unknown;

async function validateAll(exported: unknown): Promise<void> {
  for (const { env, argv } of ENVIRONMENTS) {
    const configs = await resolveExport(exported, { ...env }, { ...argv, env });
    for (const config of configs) {
      validate(config);
      if (config.devServer) validateDevServer(devServerSchema, config.devServer, { name: 'Dev Server', baseDataPath: 'devServer' });
    }
  }
}

function importNative(url: string): Promise<{ default: unknown }> {
  return import(/* @vite-ignore */ url) as Promise<{ default: unknown }>;
}

let workDir: string;
beforeAll(() => {
  workDir = scratchDir('config-a-examples');
});
afterAll(() => removeDir(workDir));

describe('configuration pages of writer A: frontmatter', () => {
  for (const id of PAGES) {
    test(`${id} has a description and its sidebar group`, () => {
      const page = readPage(id);
      expect(page.frontmatter.description?.length ?? 0).toBeGreaterThan(30);
      expect(page.frontmatter.group).toBe(GROUPS[id]);
      expect(page.body).toMatch(/## Next steps\n/);
    });
  }
});

describe('configuration pages of writer A: options are documented on their own page', () => {
  const schema = require('webpack/schemas/WebpackOptions.json') as { definitions: Record<string, { properties?: Record<string, unknown> }> };
  const owned: Array<[string, string, string[]]> = [
    ['configuration/output', 'output', Object.keys(schema.definitions.Output!.properties!)],
    ['configuration/module', 'module', Object.keys(schema.definitions.ModuleOptions!.properties!)],
    ['configuration/resolve', 'resolve', Object.keys(schema.definitions.ResolveOptions!.properties!)],
    ['configuration/dev-server', 'devServer', Object.keys((devServerSchema as { properties: Record<string, unknown> }).properties)],
  ];
  for (const [id, top, names] of owned) {
    test(`${id} has a heading for ${top} and each of its ${names.length} properties`, async () => {
      const texts = new Set((await headingsOf(id)).map((heading) => heading.text));
      const missing = [top, ...names.map((name) => `${top}.${name}`)].filter((path) => !texts.has(path));
      expect(missing).toEqual([]);
    });
  }
  test('configuration/entry-context, mode and plugins document their options', async () => {
    expect((await headingsOf('configuration/entry-context')).map((h) => h.text)).toEqual(expect.arrayContaining(['entry', 'context']));
    expect((await headingsOf('configuration/mode')).map((h) => h.text)).toContain('mode');
    expect((await headingsOf('configuration/plugins')).map((h) => h.text)).toContain('plugins');
  });
});

describe('configuration pages of writer A: every webpack.config.js example is a valid configuration', () => {
  for (const id of PAGES) {
    const blocks = blocksOf(id, 'webpack.config.js');
    test(`${id} has titled examples`, () => {
      expect(blocks.length).toBeGreaterThan(0);
    });
    for (const block of blocks) {
      test(`${readPage(id).file}:${block.line}`, async () => {
        const exported = evaluateConfig(codeOf(block), workDir);
        await validateAll(exported);
      });
    }
  }
});

describe('configuration pages of writer A: other configuration languages', () => {
  test('every webpack.config.mjs example loads as an ECMAScript module and validates', async () => {
    const blocks = PAGES.flatMap((id) => blocksOf(id, 'webpack.config.mjs').map((block) => ({ id, block })));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    for (const [index, { block }] of blocks.entries()) {
      const file = join(workDir, `example-${index}.mjs`);
      writeFileSync(file, block.code);
      const loaded = await importNative(pathToFileURL(file).href);
      await validateAll(loaded.default);
    }
  });

  test('the webpack.config.babel.js example compiles with Babel to a valid configuration', async () => {
    const babel = require('@babel/core') as {
      transformSync(code: string, options: Record<string, unknown>): { code?: string | null } | null;
    };
    const block = firstBlock('configuration/configuration-languages', 'webpack.config.babel.js');
    const result = babel.transformSync(block.code, {
      babelrc: false,
      configFile: false,
      filename: join(workDir, 'webpack.config.babel.js'),
      presets: [[require.resolve('@babel/preset-env'), { targets: { node: 'current' }, modules: 'commonjs' }]],
    });
    const exported = evaluateConfig(result!.code!, workDir) as { default: unknown };
    await validateAll(exported.default);
  });

  test('every webpack.config.ts example type-checks against the installed types and validates', async () => {
    const ts = require('typescript') as typeof import('typescript');
    const blocks = PAGES.flatMap((id) => blocksOf(id, 'webpack.config.ts'));
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    const files = blocks.map((block, index) => {
      const file = join(workDir, `typed-${index}.cts`);
      // .cts: checked as CommonJS, which is what ts-node and the other loaders produce.
      writeFileSync(file, block.code);
      return file;
    });
    const program = ts.createProgram(files, {
      strict: true,
      noEmit: true,
      esModuleInterop: true,
      skipLibCheck: true,
      module: ts.ModuleKind.Node16,
      moduleResolution: ts.ModuleResolutionKind.Node16,
      target: ts.ScriptTarget.ES2022,
      types: ['node'],
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
    expect(diagnostics).toEqual([]);
    for (const block of blocks) {
      const js = ts.transpileModule(block.code, {
        compilerOptions: { module: ts.ModuleKind.CommonJS, esModuleInterop: true, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      const exported = evaluateConfig(js, workDir) as { default: unknown };
      await validateAll(exported.default);
    }
  }, 60_000);

  test('every JSON example is valid JSON', () => {
    for (const id of PAGES) {
      for (const block of readPage(id).blocks.filter((b) => b.lang === 'json')) {
        expect(() => JSON.parse(block.code), `${id}:${block.line}`).not.toThrow();
      }
    }
  });
});

/** Compiles the page's example, evaluated in the scratch project (so __dirname is that project). */
function compileExample(
  name: string,
  code: string,
  files: Record<string, string>,
  adjust: (config: Configuration) => Configuration = (config) => config,
) {
  return compile(name, files, (dir) => adjust(evaluateConfig(code, dir) as Configuration));
}

function fileMatching(outputs: Record<string, string>, pattern: RegExp): string {
  const name = Object.keys(outputs).find((file) => pattern.test(file));
  expect(name, `no output matches ${pattern}: ${Object.keys(outputs).join(', ')}`).toBeDefined();
  return name!;
}

describe('configuration pages of writer A: main examples build as described', () => {
  test('index: the annotated configuration builds a page, hashed scripts, CSS and an inlined image', async () => {
    const result = await compileExample(
      'config-a-index',
      firstBlock('configuration').code,
      {
        'src/index.js': "import './style.css';\nimport logo from './logo.svg';\nimport { greet } from '@/greet.js';\ndocument.body.append(greet(logo));\n",
        'src/greet.js': "export const greet = (src) => { const img = document.createElement('img'); img.src = src; img.alt = 'INDEX_MARKER'; return img; };\n",
        'src/style.css': 'body { color: rebeccapurple; }\n',
        'src/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"></svg>\n',
      },
      // A filesystem cache would write into the repository's node_modules/.cache.
      (config) => ({ ...config, cache: false }),
    );
    try {
      const script = fileMatching(result.outputs, /^main\.[0-9a-f]{20}\.js$/);
      expect(result.outputs['index.html']).toContain('<title>My app</title>');
      expect(result.outputs['index.html']).toContain(`/${script}`);
      expect(result.outputs[script]).toContain('INDEX_MARKER');
      expect(result.outputs[script]).toContain('rebeccapurple');
      expect(result.outputs[script]).toContain('data:image/svg+xml');
    } finally {
      result.cleanup();
    }
  });

  test('configuration-languages: the CommonJS and the ECMAScript module examples build', async () => {
    const cjs = await compileExample('config-a-lang-cjs', firstBlock('configuration/configuration-languages').code, {
      'src/index.js': "console.log('LANG_MARKER');\n",
    });
    try {
      const script = fileMatching(cjs.outputs, /^main\.[0-9a-f]{20}\.js$/);
      expect(cjs.outputs[script]).toContain('LANG_MARKER');
      expect(cjs.outputs['index.html']).toContain(script);
    } finally {
      cjs.cleanup();
    }

    // The ECMAScript module is loaded first (compile() takes a synchronous factory), then built.
    const esmCode = firstBlock('configuration/configuration-languages', 'webpack.config.mjs').code;
    const loadDir = scratchDir('config-a-lang-esm-load');
    let config: Configuration;
    try {
      const file = join(loadDir, 'webpack.config.mjs');
      writeFileSync(file, esmCode);
      config = (await importNative(pathToFileURL(file).href)).default as Configuration;
      expect(config.output?.path).toBe(join(loadDir, 'dist'));
    } finally {
      removeDir(loadDir);
    }
    const esm = await compile('config-a-lang-esm', { 'src/index.js': 'console.log(__BUILD_DATE__);\n' }, (dir) => ({
      ...config,
      output: { ...config.output, path: join(dir, 'dist') },
    }));
    try {
      expect(esm.outputs['main.js']).toMatch(/console\.log\("\d{4}-\d\d-\d\dT/);
    } finally {
      esm.cleanup();
    }
  });

  test('configuration-types: the function export builds differently with --env production', async () => {
    const code = blocksOf('configuration/configuration-types', 'webpack.config.js')[1]!.code;
    expect(code).toContain('(env, argv)');
    const build = (env: Env, argv: Env) =>
      compile('config-a-types', { 'src/index.js': "console.log('TYPES_MARKER');\n" }, (dir) => {
        const fn = evaluateConfig(code, dir) as (e: Env, a: Env) => Configuration;
        return { entry: './src/index.js', ...fn(env, { ...argv, env }) };
      });
    const production = await build({ production: true }, {});
    try {
      const script = fileMatching(production.outputs, /^main\.[0-9a-f]{20}\.js$/);
      expect(production.outputs[`${script}.map`]).toBeDefined();
    } finally {
      production.cleanup();
    }
    const development = await build({}, {});
    try {
      expect(Object.keys(development.outputs)).toContain('main.js');
      expect(development.outputs['main.js']).toContain('eval(');
    } finally {
      development.cleanup();
    }
  });

  test('configuration-types: the exported array builds a UMD and an ECMAScript module library', async () => {
    const code = blocksOf('configuration/configuration-types', 'webpack.config.js').find((b) => b.code.includes("name: 'esm'"))!.code;
    const dir = scratchDir('config-a-multi');
    try {
      const configs = (evaluateConfig(code, dir) as Configuration[]).map((config) => ({
        ...config,
        context: dir,
        entry: './src/index.js',
        infrastructureLogging: { level: 'error' as const },
      }));
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'src/index.js'), 'export const chart = () => "CHART";\n');
      const stats = await new Promise<import('webpack').MultiStats>((resolve, reject) => {
        webpack(configs, (err, result) => (err || !result ? reject(err) : resolve(result)));
      });
      expect(stats.hasErrors()).toBe(false);
      const umd = readFileSync(join(dir, 'dist/browser/main.js'), 'utf8');
      const esm = readFileSync(join(dir, 'dist/esm/main.mjs'), 'utf8');
      expect(umd).toMatch(/define\(\[\],/);
      expect(esm).toMatch(/export\s*\{/);
    } finally {
      removeDir(dir);
    }
  });

  test('entry-context: two named entries under context give two bundles', async () => {
    const result = await compileExample('config-a-entry', firstBlock('configuration/entry-context').code, {
      'app/home.js': "console.log('HOME_MARKER');\n",
      'app/admin.js': "console.log('ADMIN_MARKER');\n",
    });
    try {
      expect(Object.keys(result.outputs).sort()).toEqual(['admin.bundle.js', 'home.bundle.js']);
      expect(result.outputs['home.bundle.js']).toContain('HOME_MARKER');
      expect(result.outputs['admin.bundle.js']).toContain('ADMIN_MARKER');
    } finally {
      result.cleanup();
    }
  });

  test('mode: production replaces process.env.NODE_ENV and minifies, development does not', async () => {
    const code = blocksOf('configuration/mode', 'webpack.config.js').find((b) => b.code.includes('argv.mode'))!.code;
    const source = "if (process.env.NODE_ENV !== 'production') { console.log('DEV_ONLY_MARKER'); }\nconsole.log('ALWAYS_MARKER', import.meta.env.MODE);\n";
    const build = (mode: string) =>
      compile(`config-a-mode-${mode}`, { 'src/index.js': source }, (dir) => {
        const fn = evaluateConfig(code, dir) as (e: Env, a: Env) => Configuration;
        return fn({}, { mode });
      });
    const production = await build('production');
    try {
      const script = fileMatching(production.outputs, /^main\.[0-9a-f]{20}\.js$/);
      expect(production.outputs[script]).toContain('ALWAYS_MARKER');
      expect(production.outputs[script]).toContain('"production"');
      expect(production.outputs[script]).not.toContain('DEV_ONLY_MARKER');
      expect(production.outputs[script]!.split('\n').length).toBeLessThan(5);
    } finally {
      production.cleanup();
    }
    const development = await build('development');
    try {
      expect(development.outputs['main.js']).toContain('DEV_ONLY_MARKER');
      expect(development.outputs['main.js']).toContain('eval(');
    } finally {
      development.cleanup();
    }
  });

  test('output: contenthash names, public path and cleaning of stale files', async () => {
    const result = await compileExample('config-a-output', firstBlock('configuration/output').code, {
      'src/index.js': "import('./lazy.js').then((m) => console.log(m.value));\n",
      'src/lazy.js': "export const value = 'LAZY_MARKER';\n",
      'dist/stale-from-last-build.js': 'old\n',
    });
    try {
      const files = Object.keys(result.outputs);
      expect(files).not.toContain('stale-from-last-build.js');
      const main = fileMatching(result.outputs, /^main\.[0-9a-f]{20}\.js$/);
      expect(files.filter((f) => f !== main).some((f) => result.outputs[f]!.includes('LAZY_MARKER'))).toBe(true);
      expect(result.outputs[main]).toContain('"/assets/"');
    } finally {
      result.cleanup();
    }
  });

  test('output: the UMD library example exposes the default export as a global', async () => {
    const code = blocksOf('configuration/output', 'webpack.config.js').find((b) => b.code.includes("name: 'MyLibrary'") && b.code.includes("export: 'default'") && b.code.includes('globalObject'))!.code;
    const result = await compileExample('config-a-library', code, {
      'src/index.js': "export default function hello(name) { return 'hello ' + name; }\nexport const unused = 1;\n",
    });
    try {
      const bundle = result.outputs['my-library.js']!;
      expect(bundle).toMatch(/typeof exports === ?'object' && typeof module === ?'object'|"object"==typeof exports&&"object"==typeof module/);
      const sandbox: { globalThis?: unknown; MyLibrary?: (name: string) => string } = {};
      runInNewContext(bundle, sandbox);
      const context = sandbox as unknown as { MyLibrary: (name: string) => string };
      expect(context.MyLibrary('docs')).toBe('hello docs');
    } finally {
      result.cleanup();
    }
  });

  test('module: rules apply a loader chain and asset types', async () => {
    const result = await compileExample(
      'config-a-module',
      firstBlock('configuration/module').code,
      {
        'src/index.js': "import './style.css';\nimport logo from './logo.svg';\nimport big from './big.png';\nimport notice from './notice.txt';\nconsole.log(logo, big, notice);\n",
        'src/style.css': '.banner { color: tomato; }\n',
        'src/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"></svg>\n',
        'src/big.png': 'x'.repeat(5000),
        'src/notice.txt': 'NOTICE_TEXT_MARKER\n',
      },
      (config) => ({ ...config, mode: 'none' }),
    );
    try {
      const main = result.outputs['main.js']!;
      // style-loader and css-loader: the CSS is inside the JavaScript.
      expect(main).toContain('.banner { color: tomato; }');
      // asset/source: the text is a string in the bundle.
      expect(main).toContain('NOTICE_TEXT_MARKER');
      // asset below 4 KiB: a data URL; above: an emitted file.
      expect(main).toContain('data:image/svg+xml');
      expect(Object.keys(result.outputs).some((f) => f.endsWith('.png'))).toBe(true);
      // No built-in CSS handling when a rule covers .css: no CSS file emitted.
      expect(Object.keys(result.outputs).some((f) => f.endsWith('.css'))).toBe(false);
    } finally {
      result.cleanup();
    }
  });

  test('resolve: the alias resolves @components to src/components', async () => {
    const result = await compileExample('config-a-resolve', firstBlock('configuration/resolve').code, {
      'src/index.js': "import Button from '@components/Button';\nconsole.log(Button());\n",
      'src/components/Button.js': "export default () => 'BUTTON_MARKER';\n",
    }, (config) => ({ ...config, entry: './src/index.js' }));
    try {
      expect(result.outputs['main.js']).toContain('BUTTON_MARKER');
    } finally {
      result.cleanup();
    }
  });

  test('plugins: HtmlWebpackPlugin, DefinePlugin and BannerPlugin all take effect', async () => {
    const result = await compileExample('config-a-plugins', firstBlock('configuration/plugins').code, {
      'src/index.js': 'console.log(__APP_VERSION__);\n',
    });
    try {
      expect(result.outputs['index.html']).toContain('<title>Inventory</title>');
      expect(result.outputs['main.js']).toMatch(/^\/\*! Inventory app, built with webpack \*\//);
      expect(result.outputs['main.js']).toContain('"2.4.1"');
    } finally {
      result.cleanup();
    }
  });

  test('dev-server: the main example serves the bundle from memory', async () => {
    const WebpackDevServer = require('webpack-dev-server') as new (
      options: Record<string, unknown>,
      compiler: unknown,
    ) => { start(): Promise<void>; stop(): Promise<void>; server: { address(): { port: number } } };
    const dir = scratchDir('config-a-dev-server');
    try {
      mkdirSync(join(dir, 'src'));
      writeFileSync(join(dir, 'src/index.js'), "console.log('SERVED_MARKER');\n");
      const config = evaluateConfig(firstBlock('configuration/dev-server').code, dir) as WithDevServer;
      const { devServer, ...webpackConfig } = config;
      const compiler = webpack({ ...webpackConfig, context: dir, output: { path: join(dir, 'dist') }, infrastructureLogging: { level: 'error' } });
      // The example's options, minus what a test cannot do: a fixed port, a browser, signal handlers.
      const options = { ...(devServer as Record<string, unknown>), port: 0, host: '127.0.0.1', open: false, setupExitSignals: false, static: false };
      const server = new WebpackDevServer(options, compiler);
      await server.start();
      try {
        const { port } = server.server.address();
        const script = await fetch(`http://127.0.0.1:${port}/main.js`);
        expect(script.status).toBe(200);
        expect(await script.text()).toContain('SERVED_MARKER');
      } finally {
        await server.stop();
      }
    } finally {
      removeDir(dir);
    }
  });
});
