// How the `docs` command is bundled: by bin/docs.js at the first run after a change of the sources
// (into node_modules/.cache/docs/cli/), and by scripts/pack.mjs when the package is packed (into lib/).
import { join } from 'node:path';

/** The bundle's entries: the command and the scripts its worker threads start from. */
const ENTRIES = {
  cli: 'src/cli/cli.ts',
  'pool-worker': 'src/engine/worker.ts',
  // The render worker of `docs serve`, while the templates are the ones bundled here.
  'serve-worker': 'src/serve/worker.ts',
};

/** esbuild's options for a bundle of the tool at `root` into `outdir`, with these constants defined (src/shared/paths.ts). */
export function cliBundleOptions(root, outdir, define) {
  return {
    entryPoints: Object.fromEntries(Object.entries(ENTRIES).map(([name, file]) => [name, join(root, file)])),
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    // Code the entries share, and each grammar of the highlighter, in chunks of their own (loaded when used).
    splitting: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // esbuild runs a binary of its own, found from its package folder.
    external: ['esbuild'],
    jsx: 'automatic',
    logLevel: 'silent',
    define: {
      ...define,
      // React's production build only (fixed here so the bundle holds one build).
      'process.env.NODE_ENV': '"production"',
    },
    // Packages written as CommonJS (React's server renderer) call require for Node's own modules.
    banner: { js: "import { createRequire as __docsRequire } from 'node:module'; const require = __docsRequire(import.meta.url);" },
  };
}
