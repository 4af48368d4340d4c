import { describe, expect, it } from 'vitest';
import { buildWith, captureInternals, describeHooks, exampleTracker, fixtureFiles, hookProblems, loadModule, reportCount } from './api-helpers.js';

const PAGE = 'api/parser';

describe('/api/parser/', () => {
  const examples = exampleTracker(PAGE);

  it('documents every JavascriptParser hook with its real class and arguments', async () => {
    const { javascriptParser } = await captureInternals();
    const real = describeHooks(javascriptParser.hooks);
    const report = hookProblems(PAGE, /hooks$/, real);
    reportCount('JavascriptParser hooks', real.length);
    expect(report.missing, 'hooks without a heading').toEqual([]);
    expect(report.stale, 'headings for hooks that do not exist').toEqual([]);
    expect(report.wrong, 'signatures that differ from the real hooks').toEqual([]);
  });

  it('BuildDatePlugin replaces the identifier and its typeof with constants', async () => {
    const build = await buildWith('api-parser-date', fixtureFiles('parser'), (dir) => {
      const Plugin = loadModule<new (date: string) => never>(examples.code('BuildDatePlugin.js'), dir);
      return { plugins: [new Plugin('2025-06-30')] };
    });
    try {
      const main = build.outputs['main.js']!;
      expect(main).toContain('built on ${"2025-06-30"}');
      expect(main).toContain('"string"');
      expect(main).not.toContain('__BUILD_DATE__');
    } finally {
      build.cleanup();
    }
  });

  it('DeprecatedCallPlugin warns once, at the call of the free function only', async () => {
    const build = await buildWith('api-parser-deprecated', fixtureFiles('parser'), (dir) => {
      const Plugin = loadModule<new (name: string, advice: string) => never>(examples.code('DeprecatedCallPlugin.js'), dir);
      return { plugins: [new Plugin('legacyLog', 'use the logger module')] };
    });
    try {
      const warnings = build.stats.toJson({ all: false, warnings: true }).warnings!.filter((w) => w.message.includes('legacyLog'));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.message).toContain('legacyLog() is deprecated: use the logger module');
      expect(warnings[0]!.loc).toBe('3:0-39');
    } finally {
      build.cleanup();
    }
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
