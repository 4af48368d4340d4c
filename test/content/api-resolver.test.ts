import { describe, expect, it } from 'vitest';
import type { Compiler, Configuration } from 'webpack';
import { buildWith, captureInternals, describeHooks, exampleTracker, fixtureFiles, hookProblems, loadModule, reportCount } from './api-helpers.js';

const PAGE = 'api/resolver';

describe('/api/resolver/', () => {
  const examples = exampleTracker(PAGE);

  it('documents both ResolverFactory hooks and every hook of a real resolver', async () => {
    const { compiler } = await captureInternals();
    const factory = describeHooks(compiler.resolverFactory.hooks);
    const factoryReport = hookProblems(PAGE, 'ResolverFactory hooks', factory);
    const resolver = (compiler as Compiler).resolverFactory.get('normal', { dependencyType: 'esm' });
    const steps = describeHooks(resolver.hooks);
    const stepReport = hookProblems(PAGE, 'Resolver hooks', steps);
    reportCount('ResolverFactory hooks', factory.length);
    reportCount('resolver hooks', steps.length);
    for (const report of [factoryReport, stepReport]) {
      expect(report.missing, 'hooks without a heading').toEqual([]);
      expect(report.stale, 'headings for hooks that do not exist').toEqual([]);
      expect(report.wrong, 'signatures that differ from the real hooks').toEqual([]);
    }
  });

  it('PrefixRedirectPlugin, from the config shown, resolves @shared/ to src/', async () => {
    const files = { ...fixtureFiles('resolver'), 'PrefixRedirectPlugin.js': examples.code('PrefixRedirectPlugin.js') };
    const build = await buildWith('api-resolver-prefix', files, (dir) => loadModule<Configuration>(examples.code('webpack.config.js'), dir));
    try {
      expect(build.outputs['main.js']).toContain('Hello from the shared folder');
    } finally {
      build.cleanup();
    }
  });

  it('PrefixRedirectPlugin reports a redirected request that finds nothing as not found', async () => {
    const files = {
      ...fixtureFiles('resolver'),
      'src/index.js': "import '@shared/missing.js';\n",
      'PrefixRedirectPlugin.js': examples.code('PrefixRedirectPlugin.js'),
    };
    const build = await buildWith('api-resolver-missing', files, (dir) => loadModule<Configuration>(examples.code('webpack.config.js'), dir), {
      allowErrors: true,
    });
    try {
      const errors = build.stats.toJson({ all: false, errors: true }).errors!.map((e) => e.message);
      expect(errors.some((e) => e.includes("Can't resolve '@shared/missing.js'"))).toBe(true);
    } finally {
      build.cleanup();
    }
  });

  it('RequireResolvablePlugin warns about requests that cannot be resolved', async () => {
    const build = await buildWith('api-resolver-check', fixtureFiles('app'), (dir) => {
      const Plugin = loadModule<new (requests: string[]) => never>(examples.code('RequireResolvablePlugin.js'), dir);
      return { plugins: [new Plugin(['./src/greeting.js', 'no-such-package'])] };
    });
    try {
      const warnings = build.stats.toJson({ all: false, warnings: true }).warnings!.map((w) => w.message);
      expect(warnings.filter((w) => w.includes('cannot be resolved'))).toEqual([
        expect.stringContaining('no-such-package cannot be resolved from'),
      ]);
    } finally {
      build.cleanup();
    }
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
