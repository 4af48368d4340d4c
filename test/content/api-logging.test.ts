import { Console } from 'node:console';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import type { Configuration, Stats } from 'webpack';
import { configBlocks, readPage, removeDir, scratchDir, writeFiles } from '../helpers/content.js';
import { evaluateConfig, validate, webpack } from '../helpers/webpack.js';

/* /api/logging/: the methods the page lists exist on real loggers, and the example plugin's output is what the page says. */

const PAGE = 'api/logging';
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => removeDir(d)));

async function buildExample(overrides: (c: Configuration) => Configuration = (c) => c): Promise<{ stats: Stats; infrastructure: string }> {
  const dir = scratchDir('api-logging');
  dirs.push(dir);
  writeFiles(dir, { 'package.json': '{ "private": true }\n', 'src/index.js': "console.log('hello');\n" });
  const config = evaluateConfig(configBlocks(PAGE)[0]!.code, dir) as Configuration;
  validate(config);
  let infrastructure = '';
  const sink = new Writable({ write: (chunk, _e, cb) => ((infrastructure += String(chunk)), cb()) });
  const final = overrides({ ...config, context: dir, output: { path: join(dir, 'dist') }, infrastructureLogging: { console: new Console(sink) } });
  const stats = await new Promise<Stats>((resolve, reject) => webpack(final, (err, s) => (err ? reject(err) : resolve(s!))));
  return { stats, infrastructure };
}

describe('/api/logging/', () => {
  it('every method of the table exists on a compilation logger and on an infrastructure logger', async () => {
    const body = readPage(PAGE).body;
    const methods = [...new Set([...body.matchAll(/`logger\.(\w+)\(/g)].map((m) => m[1]!))];
    expect(methods.length).toBeGreaterThan(15);
    const compiler = webpack({ mode: 'none', entry: {} });
    const infra = compiler.getInfrastructureLogger('x') as unknown as Record<string, unknown>;
    const compilation = compiler.newCompilation(compiler.newCompilationParams());
    const logger = compilation.getLogger('x') as unknown as Record<string, unknown>;
    for (const m of methods) {
      expect(typeof logger[m], m).toBe('function');
      expect(typeof infra[m], m).toBe('function');
    }
    const child = (logger.getChildLogger as (n: string) => unknown)('decoder');
    await new Promise<void>((r) => compiler.close(() => r()));
  });

  it('the example: a group of assets at log level, the debug line of the selected logger, the infrastructure line after the build', async () => {
    const { stats, infrastructure } = await buildExample();
    expect(stats.hasErrors()).toBe(false);
    const text = stats.toString({ ...(stats.compilation.options.stats as object), colors: false });
    expect(text).toContain('LOG from AssetReportPlugin');
    expect(text).toMatch(/<-> Assets\n\s+main\.js: \d+ bytes/);
    expect(text).toContain('assets were read from the compilation');
    expect(text).not.toContain('no main.js was emitted');
    // debug mode shows every type of the selected logger, the time included; other loggers follow the level
    expect(text).toMatch(/<t> report: [\d.]+ ms/);
    expect(text).not.toContain('LOG from webpack.Compilation\n<t>');
    const withoutDebug = stats.toString({ all: false, logging: 'log', colors: false });
    expect(withoutDebug).toMatch(/LOG from AssetReportPlugin\n<-> Assets\n(\s+\S+: \d+ bytes\n)+\+ 2 hidden lines/);
    expect(infrastructure).toBe('[AssetReportPlugin] report finished\n');
  });

  it('levels: info hides the group, verbose shows the time, a plain string does not select a logger for debug', async () => {
    const { stats } = await buildExample();
    const info = stats.toString({ all: false, logging: 'info', colors: false });
    expect(info).not.toContain('main.js:');
    const verbose = stats.toString({ all: false, logging: 'verbose', colors: false });
    expect(verbose).toMatch(/<t> report: [\d.]+ ms/);
    expect(verbose).not.toContain('assets were read');
    const byString = stats.toString({ all: false, logging: 'info', loggingDebug: ['AssetReportPlugin'], colors: false });
    expect(byString).not.toContain('assets were read');
    const byRegExp = stats.toString({ all: false, logging: 'info', loggingDebug: [/AssetReportPlugin/], colors: false });
    expect(byRegExp).toContain('DEBUG LOG from AssetReportPlugin');
  });

  it('a child logger is named parent/child; a warning shows with <w>', async () => {
    const { stats } = await buildExample((c) => ({
      ...c,
      output: { ...c.output, filename: 'app.js' },
      plugins: [
        ...(c.plugins ?? []),
        {
          apply(compiler) {
            compiler.hooks.thisCompilation.tap('Child', (compilation) => {
              compilation.getLogger('ImageSizePlugin').getChildLogger('decoder').info('read %d bytes', 2048);
            });
          },
        },
      ],
    }));
    const text = stats.toString({ all: false, logging: 'info', colors: false });
    expect(text).toContain('LOG from ImageSizePlugin/decoder\n<i> read 2048 bytes');
    expect(text).toContain('<w> no main.js was emitted');
  });
});
