#!/usr/bin/env node
// The `docs` command of the package (package.json's bin): runs the bundle made when the package was
// packed (lib/, by scripts/pack.mjs), so that nothing is compiled where it is installed. Without that
// bundle (a clone, or a folder linked into a project) it is bin/docs.js, which bundles the sources.
import { existsSync } from 'node:fs';

const bundle = new URL('../lib/cli.mjs', import.meta.url);
if (existsSync(bundle)) {
  // React's server renderer is several times faster in its production build.
  process.env.NODE_ENV ??= 'production';
  const { main } = await import(bundle.href);
  process.exitCode = await main(process.argv);
  // A preview that has stopped (Ctrl+C) ends now, as bin/docs.js says.
  if (process.argv[2] === 'serve') process.exit();
} else {
  await import('./docs.js');
}
