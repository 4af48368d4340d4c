import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import type { Compiler } from 'webpack';
import { webpack } from '../helpers/webpack.js';
import { buildWith, captureInternals, describeHooks, exampleTracker, fixtureFiles, h3sUnder, hookProblems, loadModule, reportCount } from './api-helpers.js';

const require = createRequire(import.meta.url);
const PAGE = 'api/module-factories';


describe('/api/module-factories/', () => {
  const examples = exampleTracker(PAGE);

  it('documents every NormalModuleFactory hook with its real class and arguments', async () => {
    const { normalModuleFactory } = await captureInternals();
    const real = describeHooks(normalModuleFactory.hooks);
    const report = hookProblems(PAGE, 'NormalModuleFactory hooks', real);
    reportCount('NormalModuleFactory hooks', real.length);
    expect(report.missing, 'hooks without a heading').toEqual([]);
    expect(report.stale, 'headings for hooks that do not exist').toEqual([]);
    expect(report.wrong, 'signatures that differ from the real hooks').toEqual([]);
  });

  it('documents every ContextModuleFactory hook with its real class and arguments', async () => {
    const { contextModuleFactory } = await captureInternals();
    const real = describeHooks(contextModuleFactory.hooks);
    const report = hookProblems(PAGE, 'ContextModuleFactory hooks', real);
    reportCount('ContextModuleFactory hooks', real.length);
    expect(report.missing, 'hooks without a heading').toEqual([]);
    expect(report.stale, 'headings for hooks that do not exist').toEqual([]);
    expect(report.wrong, 'signatures that differ from the real hooks').toEqual([]);
  });

  it('documents every NormalModule.getCompilationHooks hook with its real class and arguments, matching types.d.ts', async () => {
    const { compilation } = await captureInternals();
    const real = describeHooks(webpack.NormalModule.getCompilationHooks(compilation));
    const report = hookProblems(PAGE, 'NormalModule hooks', real);
    reportCount('NormalModule compilation hooks', real.length);
    expect(report.missing, 'hooks without a heading').toEqual([]);
    expect(report.stale, 'headings for hooks that do not exist').toEqual([]);
    expect(report.wrong, 'signatures that differ from the real hooks').toEqual([]);
    // The declared return type of NormalModule.getCompilationHooks lists the same hooks.
    const types = readFileSync(require.resolve('webpack/types.d.ts'), 'utf8');
    const start = types.indexOf('static getCompilationHooks(compilation: Compilation): {', types.indexOf('declare class NormalModule extends Module'));
    expect(start).toBeGreaterThan(-1);
    const declared = [...types.slice(start, types.indexOf('\n\t};', start)).matchAll(/^\t\t(\w+): /gm)].map((m) => m[1]!);
    expect(declared.sort()).toEqual(real.map((h) => h.name).sort());
  });

  it('RedirectRequestPlugin swaps a request before it is resolved', async () => {
    const files = { ...fixtureFiles('app'), 'src/greeting-fr.js': 'export function greet(name) {\n  return `Bonjour, ${name} !`;\n}\n' };
    const build = await buildWith('api-nmf-redirect', files, (dir) => {
      const Plugin = loadModule<new (map: Record<string, string>) => never>(examples.code('RedirectRequestPlugin.js'), dir);
      return { plugins: [new Plugin({ './greeting.js': './greeting-fr.js' })] };
    });
    try {
      expect(build.outputs['main.js']).toContain('Bonjour');
      expect(build.outputs['main.js']).not.toContain('Hello, ');
    } finally {
      build.cleanup();
    }
  });

  it('SkipDraftsPlugin keeps draft files out of a require.context', async () => {
    const build = await buildWith('api-cmf-drafts', fixtureFiles('context'), (dir) => {
      const Plugin = loadModule<new () => never>(examples.code('SkipDraftsPlugin.js'), dir);
      return { plugins: [new Plugin()] };
    });
    try {
      expect(build.outputs['main.js']).toContain('Hallo');
      expect(build.outputs['main.js']).not.toContain('unreviewed');
    } finally {
      build.cleanup();
    }
    // Without the plugin, the draft is bundled: the assertion above can fail.
    const plain = await buildWith('api-cmf-plain', fixtureFiles('context'), {});
    try {
      expect(plain.outputs['main.js']).toContain('unreviewed');
    } finally {
      plain.cleanup();
    }
  });

  it('the deprecated alternatives hook passes both arguments to tap and tapPromise, only the list to tapAsync', async () => {
    const seen: Record<string, string[]> = { tap: [], tapPromise: [], tapAsync: [] };
    /** The kinds of the arguments a tap received, e.g. 'array,object'. */
    const kinds = (args: unknown[]) => args.map((a) => (Array.isArray(a) ? 'array' : typeof a)).join(',');
    const previous = process.noDeprecation;
    process.noDeprecation = true;
    try {
      const build = await buildWith('api-cmf-alternatives', fixtureFiles('context'), {
        plugins: [
          {
            apply(compiler: Compiler) {
              compiler.hooks.contextModuleFactory.tap('AlternativesProbe', (factory) => {
                const hook = factory.hooks.alternatives;
                hook.tap('AlternativesProbe', (...args: unknown[]) => {
                  seen.tap!.push(kinds(args));
                  return args[0] as never;
                });
                hook.tapPromise('AlternativesProbe', async (...args: unknown[]) => {
                  seen.tapPromise!.push(kinds(args));
                  return args[0] as never;
                });
                hook.tapAsync('AlternativesProbe', (...args: unknown[]) => {
                  seen.tapAsync!.push(kinds(args));
                  (args.at(-1) as (err: null, result: unknown) => void)(null, args[0]);
                });
              });
            },
          },
        ],
      });
      build.cleanup();
    } finally {
      process.noDeprecation = previous;
    }
    // Arguments received: tap and tapPromise get (list, options), tapAsync gets (list, callback).
    expect(new Set(seen.tap)).toEqual(new Set(['array,object']));
    expect(new Set(seen.tapPromise)).toEqual(new Set(['array,object']));
    expect(new Set(seen.tapAsync)).toEqual(new Set(['array,function']));
    const section = h3sUnder(PAGE, 'ContextModuleFactory hooks').find((s) => s.text === 'alternatives')!;
    expect(section.body).toContain('so it receives both arguments, the list and the context module\'s options');
    expect(section.body).toContain('only `tapAsync` wraps it and passes the list and the callback alone');
  });

  it('LoaderOutputSizePlugin logs every module with its size after the loaders, largest first', async () => {
    const files = fixtureFiles('app');
    const build = await buildWith('api-nm-sizes', files, (dir) => {
      const Plugin = loadModule<new () => never>(examples.code('LoaderOutputSizePlugin.js'), dir);
      return { plugins: [new Plugin()] };
    });
    try {
      const entries = build.stats.toJson({ all: false, logging: 'info' }).logging!['LoaderOutputSizePlugin']!.entries.map((e) => e.message);
      // No loaders are configured, so each size is the size of the file.
      const expected = Object.entries(files)
        .map(([file, text]) => [`./${file}`, Buffer.byteLength(text)] as const)
        .sort((a, b) => b[1] - a[1])
        .map(([name, bytes]) => `${name}: ${bytes} bytes after loaders`);
      expect(entries).toEqual(expected);
    } finally {
      build.cleanup();
    }
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
