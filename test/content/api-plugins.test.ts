import { describe, expect, it } from 'vitest';
import type { Configuration } from 'webpack';
import { buildWith, exampleTracker, fixtureFiles, loadModule } from './api-helpers.js';

const PAGE = 'api/plugins';

describe('/api/plugins/ examples', () => {
  const examples = exampleTracker(PAGE);

  it('BuildReportPlugin, used from the config shown, emits a report of every other asset', async () => {
    const build = await buildWith(
      'api-plugins-report',
      { ...fixtureFiles('app'), 'BuildReportPlugin.js': examples.code('BuildReportPlugin.js') },
      (dir) => loadModule<Configuration>(examples.code('webpack.config.js', 0), dir),
    );
    try {
      const report = JSON.parse(build.outputs['report.json']!) as { name: string; size: number }[];
      expect(report.map((r) => r.name)).toEqual(Object.keys(build.outputs).filter((f) => f !== 'report.json').sort());
      expect(report.find((r) => r.name === 'main.js')!.size).toBe(Buffer.byteLength(build.outputs['main.js']!));
    } finally {
      build.cleanup();
    }
  });

  it('the function plugin logs the build time', async () => {
    const build = await buildWith('api-plugins-fn', fixtureFiles('app'), (dir) =>
      loadModule<Configuration>(examples.code('webpack.config.js', 1), dir),
    );
    try {
      expect(build.logs.some((l) => /^built in \d+ ms$/.test(l))).toBe(true);
    } finally {
      build.cleanup();
    }
  });

  it('FileBannerPlugin reads the banner asynchronously and prefixes every JavaScript asset', async () => {
    const build = await buildWith(
      'api-plugins-banner',
      { ...fixtureFiles('app'), 'FileBannerPlugin.js': examples.code('FileBannerPlugin.js'), 'banner.txt': 'ACME build 42\n' },
      (dir) => {
        const FileBannerPlugin = loadModule<new (file: string) => never>(examples.code('FileBannerPlugin.js'), dir);
        return { plugins: [new FileBannerPlugin('banner.txt')] };
      },
    );
    try {
      const js = Object.keys(build.outputs).filter((f) => f.endsWith('.js'));
      expect(js.length).toBeGreaterThan(1);
      for (const file of js) expect(build.outputs[file]!.startsWith('/*! ACME build 42 */\n')).toBe(true);
      expect([...build.stats.compilation.fileDependencies].some((f) => f.endsWith('banner.txt'))).toBe(true);
    } finally {
      build.cleanup();
    }
  });

  it('SizeWarningPlugin turns large assets into warnings and logs every size', async () => {
    const build = await buildWith('api-plugins-size', fixtureFiles('app'), (dir) => {
      const SizeWarningPlugin = loadModule<new (limit: number) => never>(examples.code('SizeWarningPlugin.js'), dir);
      return { plugins: [new SizeWarningPlugin(1000)] };
    });
    try {
      const warnings = build.stats.toJson({ all: false, warnings: true }).warnings!.map((w) => w.message);
      expect(warnings.some((w) => /main\.js is \d+ bytes, over the limit of 1000/.test(w))).toBe(true);
      const logging = build.stats.toJson({ all: false, logging: 'verbose' }).logging!;
      expect(logging.SizeWarningPlugin!.entries.some((e) => /^main\.js: \d+ bytes$/.test(e.message ?? ""))).toBe(true);
    } finally {
      build.cleanup();
    }
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
