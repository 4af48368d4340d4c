import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webpack } from '../helpers/webpack.js';
import { buildWith, captureInternals, describeHooks, exampleTracker, expectHookTables, fixtureFiles, hookProblems, loadModule, readPage, reportCount } from './api-helpers.js';

const PAGE = 'api/template';

describe('/api/template/', () => {
  const examples = exampleTracker(PAGE);

  it('documents every JavascriptModulesPlugin compilation hook with its real class and arguments', async () => {
    const { compilation } = await captureInternals();
    const real = describeHooks(webpack.javascript.JavascriptModulesPlugin.getCompilationHooks(compilation));
    const report = hookProblems(PAGE, 'JavascriptModulesPlugin hooks', real);
    reportCount('JavascriptModulesPlugin hooks', real.length);
    expect(report.missing, 'hooks without a heading').toEqual([]);
    expect(report.stale, 'headings for hooks that do not exist').toEqual([]);
    expect(report.wrong, 'signatures that differ from the real hooks').toEqual([]);
  });

  it('says what each old template hook does when tapped: forwards with a warning, throws, is silent or still live', async () => {
    const { compilation } = await captureInternals();
    const body = readPage(PAGE).body;
    /** Hook names in the code spans of the bullet that starts with **label** (the `mainTemplate.hooks.` prefix removed). */
    const bullet = (label: string) => {
      const line = body.split('\n').find((l) => l.startsWith(`- **${label}**`));
      expect(line, `bullet ${label}`).toBeDefined();
      return new Set([...line!.matchAll(/`(?:mainTemplate\.hooks\.)?(\w+)`/g)].map((m) => m[1]!));
    };
    const templates: [string, Record<string, unknown>][] = [
      ['mainTemplate', compilation.mainTemplate.hooks as unknown as Record<string, unknown>],
      ['chunkTemplate', compilation.chunkTemplate.hooks as unknown as Record<string, unknown>],
      ['moduleTemplate', compilation.moduleTemplates.javascript.hooks as unknown as Record<string, unknown>],
    ];
    const kinds = { warns: new Set<string>(), throws: new Set<string>(), getter: new Set<string>(), live: new Set<string>() };
    for (const [template, hooks] of templates) {
      for (const name of Object.keys(hooks)) {
        expect(body, `${template}.hooks.${name} is mentioned`).toMatch(new RegExp(`\`(?:[\\w.]*\\.)?${name}\``));
        const descriptor = Object.getOwnPropertyDescriptor(hooks, name)!;
        if (descriptor.get) {
          kinds.getter.add(name);
          continue;
        }
        const hook = descriptor.value as { constructor: { name: string }; tap: ((n: string, f: () => void) => void) & { name: string } };
        // Node's util.deprecate wraps a function in one named "deprecated".
        if (hook.tap.name === 'deprecated') kinds.warns.add(`${template}.${name}`);
        else if (hook.constructor.name === 'SyncWaterfallHook') kinds.live.add(name);
        else {
          expect(() => hook.tap('ApiDocsProbe', () => {}), `${template}.hooks.${name} throws`).toThrow(/has been removed/);
          kinds.throws.add(name);
        }
      }
    }
    expect(kinds.throws).toEqual(bullet('Throws.'));
    expect(kinds.getter).toEqual(bullet('Forwarded silently.'));
    expect(kinds.live).toEqual(new Set([...bullet('Still live.')].filter((n) => n !== 'SyncWaterfallHook')));
    for (const name of bullet('Accepted and ignored.')) expect(kinds.warns, name).toContain(`mainTemplate.${name}`);
    // The silent getters hand out the hooks of their new homes.
    const jsonp = webpack.web.JsonpChunkLoadingRuntimeModule.getCompilationHooks(compilation);
    expect(compilation.mainTemplate.hooks.linkPrefetch).toBe(jsonp.linkPrefetch);
    expect(compilation.mainTemplate.hooks.linkPreload).toBe(jsonp.linkPreload);
    expect(compilation.mainTemplate.hooks.jsonpScript).toBe(webpack.runtime.LoadScriptRuntimeModule.getCompilationHooks(compilation).createScript);
    expect(body).toContain('`JsonpChunkLoadingRuntimeModule.getCompilationHooks(compilation)`');
  });

  it('FooterPlugin appends the footer to every JavaScript file and changes the content hash', async () => {
    const config = (text?: string) => (dir: string) => {
      const Plugin = loadModule<new (text: string) => never>(examples.code('FooterPlugin.js'), dir);
      return { output: { filename: '[name].[contenthash].js', chunkFilename: '[name].[contenthash].js' }, plugins: text ? [new Plugin(text)] : [] };
    };
    const withFooter = await buildWith('api-template-footer', fixtureFiles('app'), config('Copyright ACME'));
    const without = await buildWith('api-template-nofooter', fixtureFiles('app'), config());
    try {
      const js = Object.keys(withFooter.outputs).filter((f) => f.endsWith('.js'));
      expect(js).toHaveLength(2);
      // webpack closes non-module chunks with a `;` after the render hook.
      for (const file of js) expect(withFooter.outputs[file]!.endsWith('\n/*! Copyright ACME */\n;')).toBe(true);
      const names = (outputs: Record<string, string>) => Object.keys(outputs).filter((f) => f.startsWith('main.'));
      expect(names(withFooter.outputs)).not.toEqual(names(without.outputs));
    } finally {
      withFooter.cleanup();
      without.cleanup();
    }
  });

  it('BuildInfoPlugin adds a runtime module that application code can read', async () => {
    const files = { 'src/index.js': 'console.log(__webpack_require__.buildInfo.version);\n' };
    const build = await buildWith('api-template-runtime', files, (dir) => {
      const Plugin = loadModule<new (info: object) => never>(examples.code('BuildInfoPlugin.js'), dir);
      return { target: 'node', plugins: [new Plugin({ version: '1.2.3' })] };
    });
    try {
      expect(build.outputs['main.js']).toContain('webpack/runtime/build info');
      const printed = execFileSync(process.execPath, [join(build.dir, 'dist', 'main.js')], { encoding: 'utf8' });
      expect(printed.trim()).toBe('1.2.3');
    } finally {
      build.cleanup();
    }
  });

  it('documents every CssModulesPlugin and HtmlModulesPlugin compilation hook with its real class and arguments', async () => {
    const { compilation } = await captureInternals();
    const registries: [string, object][] = [
      ['CssModulesPlugin hooks', webpack.css.CssModulesPlugin.getCompilationHooks(compilation)],
      ['HtmlModulesPlugin hooks', webpack.html.HtmlModulesPlugin.getCompilationHooks(compilation)],
    ];
    expectHookTables(PAGE, registries);
  });

  it('VendorLayerPlugin puts the CSS of installed packages into a layer, calls chunkHash twice per chunk and changes the content hash', async () => {
    const files = {
      'src/index.js': "import 'ui-kit/theme.css';\nimport './app.css';\nconsole.log('shop');\n",
      'src/app.css': '.title { color: navy; }\n',
      'node_modules/ui-kit/package.json': '{ "name": "ui-kit", "version": "1.0.0" }\n',
      'node_modules/ui-kit/theme.css': '.title { color: gray; }\n',
    };
    let hashCalls = 0;
    const counter = {
      apply(compiler: import('webpack').Compiler) {
        compiler.hooks.compilation.tap('Counter', (compilation) => {
          webpack.css.CssModulesPlugin.getCompilationHooks(compilation).chunkHash.tap('Counter', () => {
            hashCalls++;
          });
        });
      },
    };
    const config = (withPlugin: boolean) => (dir: string) => {
      const Plugin = loadModule<new () => never>(examples.code('VendorLayerPlugin.js'), dir);
      return { output: { cssFilename: '[name].[contenthash].css' }, plugins: withPlugin ? [new Plugin(), counter] : [] };
    };
    const layered = await buildWith('api-template-css-layer', files, config(true));
    const plain = await buildWith('api-template-css-plain', files, config(false));
    try {
      const cssName = (outputs: Record<string, string>) => Object.keys(outputs).find((f) => f.endsWith('.css'))!;
      const css = layered.outputs[cssName(layered.outputs)]!;
      expect(css).toMatch(/@layer vendor \{\n[\s\S]*\.title \{ color: gray; \}[\s\S]*\}\n/);
      expect(css.indexOf('@layer vendor')).toBeLessThan(css.indexOf('color: gray'));
      // The application's own rule stays outside the layer.
      expect(css.slice(css.lastIndexOf('}\n', css.indexOf('color: navy')))).not.toContain('@layer');
      expect(cssName(layered.outputs)).not.toBe(cssName(plain.outputs));
      // One chunk (main): once for the chunk hash, once for the stylesheet's content hash.
      expect(hashCalls).toBe(2);
    } finally {
      layered.cleanup();
      plain.cleanup();
    }
  });

  it('orderModules receives the modules sorted by name, twice per chunk with CSS, and its answer sets the order of the stylesheet', async () => {
    const files = {
      'src/index.js': "import './b.css';\nimport './a.css';\n",
      'src/a.css': '.a { color: red; }\n',
      'src/b.css': '.b { color: blue; }\n',
    };
    const seen: string[][] = [];
    const plugin = (reorder: boolean) => ({
      apply(compiler: import('webpack').Compiler) {
        compiler.hooks.compilation.tap('Order', (compilation) => {
          webpack.css.CssModulesPlugin.getCompilationHooks(compilation).orderModules.tap('Order', (_chunk, modules) => {
            seen.push(modules.map((m) => (m as unknown as { resource: string }).resource.split(/[\\/]/).pop()!));
            return reorder ? [...modules] : undefined;
          });
        });
      },
    });
    const byImport = await buildWith('api-template-css-order-default', files, { plugins: [plugin(false)] });
    const byName = await buildWith('api-template-css-order-name', files, { plugins: [plugin(true)] });
    try {
      expect(seen.slice(0, 2)).toEqual([[], ['a.css', 'b.css']]);
      const order = (css: string) => css.indexOf('.a {') < css.indexOf('.b {') ? 'a,b' : 'b,a';
      expect(order(byImport.outputs['main.css']!)).toBe('b,a');
      expect(order(byName.outputs['main.css']!)).toBe('a,b');
    } finally {
      byImport.cleanup();
      byName.cleanup();
    }
  });

  it('ReleaseTagsPlugin adds a meta tag and an inline script, marks external scripts, appends a comment and logs each page', async () => {
    const files = {
      'src/index.html': '<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Shop</title>\n</head>\n<body>\n<h1>Shop</h1>\n<script type="module" src="./app.js"></script>\n</body>\n</html>\n',
      'src/app.js': "console.log(window.RELEASE);\n",
    };
    const config = (csp: boolean) => (dir: string) => {
      const Plugin = loadModule<new (release: string) => never>(examples.code('ReleaseTagsPlugin.js'), dir);
      return { entry: './src/index.html', output: csp ? { html: { csp: true } } : {}, plugins: [new Plugin('2.4.0')] };
    };
    const build = await buildWith('api-template-html-release', files, config(false));
    const withCsp = await buildWith('api-template-html-csp', files, config(true));
    try {
      const page = build.outputs['index.html']!;
      expect(page).toContain('<meta name="release" content="2.4.0"><script>window.RELEASE = "2.4.0";</script>\n</head>');
      expect(page).toContain('<script src="app.js" data-release="2.4.0"></script>');
      expect(page.endsWith('</html>\n<!-- release 2.4.0 -->\n')).toBe(true);
      const logging = build.stats.toJson({ all: false, logging: 'info' }).logging!;
      expect(logging.ReleaseTagsPlugin!.entries.map((e) => e.message)).toEqual(['index.html: release 2.4.0']);
      const hash = createHash('sha256').update('window.RELEASE = "2.4.0";').digest('base64');
      expect(withCsp.outputs['index.html']).toMatch(new RegExp(`Content-Security-Policy" content="script-src [^"]*'sha256-${hash.replace(/[+/]/g, '\\$&')}'`));
    } finally {
      build.cleanup();
      withCsp.cleanup();
    }
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
