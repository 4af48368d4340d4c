import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Configuration, Stats } from 'webpack';
import { listFiles, removeDir, scratchDir, writeFiles } from './content.js';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
/** The installed webpack (CommonJS). */
export const webpack = require('webpack') as typeof import('webpack');

/**
 * Evaluates the source of a webpack.config.js (CommonJS) as a module in `dir`
 * and returns what it exports (an object, an array or a function).
 */
export function evaluateConfig(source: string, dir: string): unknown {
  const module = { exports: {} as unknown };
  const localRequire = createRequire(join(dir, 'webpack.config.js'));
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const fn = new Function('module', 'exports', 'require', '__dirname', '__filename', source);
  fn(module, module.exports, localRequire, dir, join(dir, 'webpack.config.js'));
  return module.exports;
}

/** Throws with webpack's own message when `config` is not a valid configuration. */
export function validate(config: unknown): void {
  webpack.validate(config as Configuration);
}

export interface CompileResult {
  dir: string;
  stats: Stats;
  /** Emitted files (relative to the output path) and their contents. */
  outputs: Record<string, string>;
  cleanup(): void;
}

/**
 * Writes `files` into a scratch project, compiles `config` there with the real
 * webpack (context defaults to the project; output.path to its dist/), and
 * returns the stats and emitted files. Rejects on compilation errors.
 */
export async function compile(
  name: string,
  files: Record<string, string>,
  config: Configuration | ((dir: string) => Configuration),
): Promise<CompileResult> {
  const dir = scratchDir(name);
  writeFiles(dir, files);
  const resolved = typeof config === 'function' ? config(dir) : config;
  const final: Configuration = {
    mode: 'production',
    ...resolved,
    context: resolved.context ?? dir,
    output: { ...resolved.output, path: resolved.output?.path ?? join(dir, 'dist') },
    infrastructureLogging: { level: 'error' },
  };
  let stats: Stats;
  try {
    stats = await new Promise<Stats>((resolve, reject) => {
      webpack(final, (err, result) => (err ? reject(err) : resolve(result as Stats)));
    });
  } catch (e) {
    removeDir(dir);
    throw e;
  }
  if (stats.hasErrors()) {
    const errors = stats.toJson({ all: false, errors: true }).errors ?? [];
    removeDir(dir);
    throw new Error(`webpack reported errors:\n${errors.map((e) => e.message).join('\n')}`);
  }
  const outDir = final.output!.path!;
  const outputs: Record<string, string> = {};
  for (const file of listFiles(outDir)) outputs[file] = readFileSync(join(outDir, file), 'utf8');
  return { dir, stats, outputs, cleanup: () => removeDir(dir) };
}
