#!/usr/bin/env node
// Entry point of the `docs` command: loads the generator and hands over argv.
//
// The generator is TypeScript. It runs from a bundle that esbuild makes once per
// change of the sources or of the installed packages (into node_modules/.cache/docs/cli/,
// about a second). The bundle holds the packages too: one file to load instead of
// several hundred modules halves the start of every command and worker thread. With
// DOCS_BUNDLE=0, or when bundling fails, the sources are compiled on import instead.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { missingPatchesLine, PATCHED_FILES } from '../scripts/patches.mjs';
import { cliBundleOptions } from '../scripts/cli-bundle.mjs';

// React's server renderer is several times faster in its production build.
process.env.NODE_ENV ??= 'production';
const root = fileURLToPath(new URL('..', import.meta.url));

/** A key that changes whenever a source file, the package manifest or the compiler changes. */
function sourceKey() {
  const hash = createHash('sha256').update(root).update(process.version);
  for (const dir of ['src', 'templates']) {
    for (const file of readdirSync(join(root, dir), { recursive: true }).sort()) {
      const st = statSync(join(root, dir, file));
      if (st.isFile()) hash.update(`${dir}/${file}:${st.size}:${st.mtimeMs}\n`);
    }
  }
  // The installed packages are in the bundle: npm rewrites its record of the tree whenever it changes them,
  // and the files the patches of patches/ change are counted too.
  for (const file of ['package.json', 'tsconfig.json', 'scripts/cli-bundle.mjs', 'node_modules/esbuild/package.json', 'node_modules/.package-lock.json', ...PATCHED_FILES]) {
    try {
      const st = statSync(join(root, file));
      hash.update(`${file}:${st.size}:${st.mtimeMs}\n`);
    } catch {
      hash.update(`${file}:missing\n`);
    }
  }
  return hash.digest('hex').slice(0, 16);
}

/** The folder of the bundle for the current sources, made if missing. */
async function bundleDir() {
  const cache = join(root, 'node_modules', '.cache', 'docs', 'cli');
  const dir = join(cache, sourceKey());
  try {
    statSync(join(dir, 'cli.mjs'));
    return dir;
  } catch {
    // Not built yet for these sources.
  }
  const { build } = await import('esbuild');
  const temp = `${dir}.${process.pid}.tmp`;
  // The options the package's bundle is made with too (scripts/pack.mjs).
  await build(cliBundleOptions(root, temp, { __DOCS_TOOL_ROOT__: JSON.stringify(root), __DOCS_BUNDLE_DIR__: JSON.stringify(dir) }));
  try {
    renameSync(temp, dir);
  } catch {
    // Another process made the same bundle first.
    rmSync(temp, { recursive: true, force: true });
  }
  // Bundles of earlier sources, once nothing can still be starting from them.
  for (const name of readdirSync(cache)) {
    const path = join(cache, name);
    if (path !== dir && Date.now() - statSync(path).mtimeMs > 10 * 60_000) rmSync(path, { recursive: true, force: true });
  }
  return dir;
}

let cli;
if (process.env.DOCS_BUNDLE !== '0') {
  try {
    cli = pathToFileURL(join(await bundleDir(), 'cli.mjs')).href;
  } catch {
    // A source that does not compile: the compile-on-import path below reports it with its location.
  }
}
if (!cli) {
  const { register } = await import('tsx/esm/api');
  // The project's tsconfig, whatever the current folder (it sets the JSX runtime of the templates).
  register({ tsconfig: join(root, 'tsconfig.json') });
  cli = pathToFileURL(join(root, 'src/cli/cli.ts')).href;
}
// A build that runs slower than it should says why, in one line.
if (process.argv[2] === 'build' || process.argv[2] === 'serve') {
  const line = missingPatchesLine();
  if (line) process.stderr.write(`${line}\n`);
}
const { main } = await import(cli);
process.exitCode = await main(process.argv);
// A preview that has stopped (Ctrl+C) ends now: a first build it was running writes nothing the site
// needs, and its threads would otherwise keep the process alive until they were done.
if (process.argv[2] === 'serve') process.exit();
