import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { webpack } from '../helpers/webpack.js';
import { buildWith, captureInternals, describeHooks, exampleTracker, fixtureFiles, hookProblems, loadModule, readPage, reportCount } from './api-helpers.js';

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

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
