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

/** The Markdown of the section under a heading that reads `text` (code marks ignored), up to the next heading of the same or a higher level. */
function sectionOf(id: string, text: string): string {
  const lines = readPage(id).body.split('\n');
  const start = lines.findIndex((line) => /^#{2,6} /.test(line) && line.replace(/^#+ /, '').replace(/`/g, '').trim() === text);
  if (start < 0) throw new Error(`${id} has no heading ${text}`);
  const depth = /^#+/.exec(lines[start]!)![0].length;
  let end = start + 1;
  while (end < lines.length && !(/^#{2,6} /.test(lines[end]!) && /^#+/.exec(lines[end]!)![0].length <= depth)) end++;
  return lines.slice(start, end).join('\n');
}

/** The options webpack resolves for a configuration, defaults applied. */
function resolvedOptions(config: Configuration): ReturnType<typeof webpack.config.getNormalizedWebpackOptions> {
  const options = webpack.config.getNormalizedWebpackOptions({ context: workDir, ...config });
  webpack.config.applyWebpackOptionsDefaults(options);
  return options;
}

describe('configuration pages of writer A: facts checked against the installed webpack', () => {
  test('configuration-languages: the .ts compilers are listed in the order interpret tries them, and .cts takes ts-node only', () => {
    const interpret = require('interpret') as { extensions: Record<string, Array<string | { module: string }>> };
    // The package a registration module belongs to: '@babel/register' → '@babel/register', 'ts-node/register' → 'ts-node'.
    const moduleName = (entry: string | { module: string }) => {
      const parts = (typeof entry === 'string' ? entry : entry.module).split('/');
      return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
    };
    const section = readPage('configuration/configuration-languages').body;
    const listed = [...section.matchAll(/^\d+\. `([^`]+)`/gm)].map((m) => m[1]);
    expect(listed).toEqual(interpret.extensions['.ts']!.map(moduleName));
    expect(interpret.extensions['.cts']!.map(moduleName)).toEqual(['ts-node']);
    expect(section).toContain('a `webpack.config.cts` needs ts-node');
  });

  test('configuration-types: webpack() accepts a configuration with extends and ignores it', async () => {
    const result = await compile('extends-ignored', { 'src/index.js': 'console.log("no base config");\n' }, {
      entry: './src/index.js',
      extends: './webpack.base.js',
    } as Configuration);
    try {
      expect(result.stats.hasErrors()).toBe(false);
      expect(result.stats.hasWarnings()).toBe(false);
    } finally {
      result.cleanup();
    }
    expect(readPage('configuration/configuration-types').body).toContain('ignores it without an error or a warning');
  });

  test('output: a hash with its own digest and no length is not shortened; hashDigestLength applies otherwise', async () => {
    const result = await compile('hash-digest', { 'src/index.js': 'console.log("digest");\n' }, {
      entry: { a: './src/index.js', b: './src/index.js', c: './src/index.js' },
      output: { filename: (data) => ({ a: '[name].[contenthash:base64url].js', b: '[name].[contenthash:base64url:8].js', c: '[name].[contenthash].js' })[data.chunk!.name as 'a' | 'b' | 'c'] },
    });
    try {
      const names = Object.keys(result.outputs);
      expect(fileMatching(result.outputs, /^a\./)).toMatch(/^a\.[\w-]{22}\.js$/);
      expect(fileMatching(result.outputs, /^b\./)).toMatch(/^b\.[\w-]{8}\.js$/);
      expect(fileMatching(result.outputs, /^c\./)).toMatch(/^c\.[0-9a-f]{20}\.js$/);
      expect(names).toHaveLength(3);
    } finally {
      result.cleanup();
    }
    expect(sectionOf('configuration/output', 'Template strings')).toContain('With a digest and no length, the hash is not shortened');
    expect(sectionOf('configuration/output', 'output.hashDigestLength')).toMatch(/- Default: `20`; `16` with/);
  });

  test('output: [containedpath] keeps a file from outside the context inside output.path, [path] does not', async () => {
    const files = {
      'app/src/index.js': 'import logo from "../../shared/logo.png";\nconsole.log(logo);\n',
      'shared/logo.png': 'not really a png',
    };
    const build = (assetModuleFilename: string) =>
      compile('contained-path', files, (dir) => ({
        context: join(dir, 'app'),
        entry: './src/index.js',
        module: { rules: [{ test: /\.png$/, type: 'asset/resource' }] },
        output: { path: join(dir, 'app', 'dist'), assetModuleFilename },
      }));
    const contained = await build('[containedpath][name][ext]');
    const plain = await build('[path][name][ext]');
    try {
      // Asset names as webpack emits them, relative to output.path.
      expect(Object.keys(contained.stats.compilation.assets)).toContain('_/shared/logo.png');
      expect(Object.keys(plain.stats.compilation.assets)).toContain('../shared/logo.png');
    } finally {
      contained.cleanup();
      plain.cleanup();
    }
    expect(sectionOf('configuration/output', 'Template strings')).toContain('`../shared/logo.png` gives `_/shared/logo.png`');
  });

  test("output: library type 'modern-module' writes the same ECMAScript module as 'module'", async () => {
    const files = { 'src/index.js': 'export const answer = 42;\nexport default function hello() { return "hi"; }\n' };
    const build = (type: string) => compile(`library-${type}`, files, { entry: './src/index.js', output: { library: { type } } });
    const modern = await build('modern-module');
    const plain = await build('module');
    try {
      expect(Object.keys(modern.outputs)).toEqual(['main.mjs']);
      expect(modern.outputs['main.mjs']).toBe(plain.outputs['main.mjs']);
      expect(modern.outputs['main.mjs']).toMatch(/export\s*\{/);
    } finally {
      modern.cleanup();
      plain.cleanup();
    }
    expect(sectionOf('configuration/output', 'output.library.type')).toContain("| `'modern-module'` |");
  });

  test("output: wasmLoading defaults to 'universal' for the universal target, as the page says", () => {
    expect(resolvedOptions({ target: 'universal' }).output.wasmLoading).toBe('universal');
    expect(resolvedOptions({ target: ['web', 'node'] }).output.wasmLoading).toBe('universal');
    expect(resolvedOptions({ target: 'web' }).output.wasmLoading).toBe('fetch');
    expect(resolvedOptions({ target: 'node' }).output.wasmLoading).toBe('async-node');
    expect(sectionOf('configuration/output', 'output.wasmLoading')).toMatch(/`'universal'` for the `universal` target \(and for arrays that mix `web` and `node`\)/);
  });

  test('resolve: tsconfig.references takes "auto" or a string, never an array', () => {
    expect(() => validate({ resolve: { tsconfig: { configFile: '/x/tsconfig.json', references: ['./packages/a'] } } })).toThrow(/references/);
    expect(() => validate({ resolve: { tsconfig: { configFile: '/x/tsconfig.json', references: 'auto' } } })).not.toThrow();
    expect(sectionOf('configuration/resolve', 'resolve.tsconfig')).toContain("- Type: `boolean | string | { configFile?: string, references?: 'auto' | string }`");
  });

  test('resolve: references "auto" reads the paths of a referenced project, any other string does not', async () => {
    const files = {
      'tsconfig.json': '{ "files": [], "references": [{ "path": "./packages/a" }] }\n',
      'packages/a/tsconfig.json': '{ "compilerOptions": { "baseUrl": ".", "paths": { "@a/*": ["src/*"] } } }\n',
      'packages/a/src/index.js': 'import x from "@a/x";\nconsole.log(x);\n',
      'packages/a/src/x.js': 'export default "FROM_PACKAGE_A";\n',
    };
    const example = blocksOf('configuration/resolve', 'webpack.config.js').find((b) => b.code.includes('tsconfig:'))!;
    const build = (references: string) =>
      compile(`tsconfig-${references.replace(/\W/g, '')}`, files, (dir) => {
        const config = evaluateConfig(example.code.replace('tsconfig.app.json', 'tsconfig.json'), dir) as Configuration;
        const tsconfig = (config.resolve as { tsconfig: { configFile: string } }).tsconfig;
        expect(tsconfig.configFile).toBe(join(dir, 'tsconfig.json'));
        return { ...config, entry: './packages/a/src/index.js', resolve: { tsconfig: { ...tsconfig, references } } } as Configuration;
      });
    const auto = await build('auto');
    try {
      expect(auto.outputs['main.js']).toContain('FROM_PACKAGE_A');
    } finally {
      auto.cleanup();
    }
    await expect(build('./packages/a')).rejects.toThrow(/Can't resolve '@a\/x'/);
  });

  test('resolve: extension order and conditions follow experiments.html and experiments.typescript as described', () => {
    const esm = (config: Configuration) => resolvedOptions(config).resolve.byDependency!.esm!;
    // The table shows the defaults with TypeScript support off; a rule for .ts files keeps "auto" off on any Node.js.
    const tsRule: Configuration = { module: { rules: [{ test: /\.ts$/, loader: 'ts-loader' }] } };
    expect(esm(tsRule).extensions).toEqual(['.js', '.json', '.wasm', '.html', '.css']);
    expect(resolvedOptions(tsRule).resolve.tsconfig).toBeFalsy();
    // Without such a rule, "auto" turns the TypeScript defaults on, on any Node.js (webpack 5.113 strips types itself).
    expect(esm({}).extensions![0]).toBe('.ts');
    expect(resolvedOptions({}).resolve.tsconfig).toBe(true);
    expect(resolvedOptions({ experiments: { typescript: true } }).resolve.extensionAlias).toEqual({
      '.js': ['.js', '.ts'],
      '.cjs': ['.cjs', '.cts'],
      '.mjs': ['.mjs', '.mts'],
    });
    expect(resolvedOptions({ ...tsRule, experiments: { futureDefaults: true } }).resolve.tsconfig).toBe(true);
    expect(esm({ experiments: { html: true } }).extensions![0]).toBe('.html');
    expect(esm({ experiments: { typescript: true } }).extensions).toEqual(['.ts', '.js', '.json', '.wasm', '.html', '.css']);
    expect(esm({ experiments: { typescript: true } }).conditionNames![0]).toBe('typescript');
    expect(esm({ experiments: { futureDefaults: true } }).extensions!.slice(0, 3)).toEqual(['.html', '.ts', '.js']);
    const text = readPage('configuration/resolve').body;
    expect(text).toContain("the `import` list starts `['.html', '.ts', '.js', …]`");
    expect(text).toContain("the condition `'typescript'` is added in front of the others");
    expect(text).toContain('whenever no rule in `module.rules` handles `.ts`, `.mts` or `.cts` files, whatever the Node.js version');
  });

  test('resolve: byDependency lists every category webpack fills in by default', () => {
    const categories = Object.keys(resolvedOptions({}).resolve.byDependency!).sort();
    const line = sectionOf('configuration/resolve', 'resolve.byDependency').split('\n').find((l) => l.startsWith('- Default:'))!;
    const named = [...line.matchAll(/`([\w-]+)`/g)].map((m) => m[1]).sort();
    expect(named).toEqual(categories);
  });

  test('module: a .webmanifest linked from an HTML page becomes asset/webmanifest with its icons rewritten', async () => {
    const result = await compile(
      'webmanifest',
      {
        'src/index.html': '<!doctype html><html><head><link rel="manifest" href="./site.webmanifest"></head><body></body></html>\n',
        'src/site.webmanifest': '{ "name": "Demo", "icons": [{ "src": "./icon.png", "sizes": "192x192" }] }\n',
        'src/icon.png': 'icon bytes',
      },
      { entry: './src/index.html' },
    );
    try {
      const manifest = fileMatching(result.outputs, /\.webmanifest$/);
      const icon = fileMatching(result.outputs, /\.png$/);
      expect(result.outputs[manifest]).toContain(`"src": "${icon}"`);
      expect(result.outputs['index.html']).toContain(manifest);
      const types = [...result.stats.compilation.modules].map((m) => m.type);
      expect(types).toContain('asset/webmanifest');
    } finally {
      result.cleanup();
    }
    expect(sectionOf('configuration/module', 'Rule.type')).toContain("| `'asset/webmanifest'` |");
  });
});
