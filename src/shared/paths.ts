import { join, parse, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/*
 * Where the tool's own files are. The sources run either as they are
 * (TypeScript compiled on import), from a bundle that bin/docs.js builds
 * once per change of the sources, or from the bundle made when the package
 * was packed (lib/, scripts/pack.mjs). The first bundle defines the first two
 * constants, since its own location says nothing about the tool's folders; the
 * packed one defines the third, and lies in lib/ of the installed package.
 */
declare const __DOCS_TOOL_ROOT__: string | undefined;
declare const __DOCS_BUNDLE_DIR__: string | undefined;
declare const __DOCS_PACKAGED__: boolean | undefined;

/** Whether the tool runs from its package as installed (lib/ holds the bundle; src/ is not there). */
export const PACKAGED: boolean = typeof __DOCS_PACKAGED__ === 'boolean' && __DOCS_PACKAGED__;

/** The tool's folder (holds package.json, templates/, and src/ or lib/). */
export const TOOL_ROOT: string =
  typeof __DOCS_TOOL_ROOT__ === 'string'
    ? __DOCS_TOOL_ROOT__
    : fileURLToPath(new URL(PACKAGED ? '../' : '../../', import.meta.url));

/** The folder of the bundle the tool runs from, or undefined when it runs from its sources. */
export const BUNDLE_DIR: string | undefined =
  typeof __DOCS_BUNDLE_DIR__ === 'string' ? __DOCS_BUNDLE_DIR__ : PACKAGED ? fileURLToPath(new URL('./', import.meta.url)) : undefined;

const SOURCE_ENTRIES = { pool: ['engine', 'worker-entry.mjs'], serve: ['serve', 'worker-boot.mjs'] };

/** The script a worker thread starts from: the bundled one when running bundled, unless `bundled` is false. */
export function workerEntry(name: keyof typeof SOURCE_ENTRIES, bundled = true): URL {
  return pathToFileURL(bundled && BUNDLE_DIR !== undefined ? join(BUNDLE_DIR, `${name}-worker.mjs`) : join(TOOL_ROOT, 'src', ...SOURCE_ENTRIES[name]));
}

/** Whether `inner` is `outer` or lies inside it (a path on another drive does not). */
export function isWithin(inner: string, outer: string): boolean {
  const rel = relative(outer, inner);
  return rel === '' || (!rel.startsWith('..') && !rel.startsWith(sep) && !parse(rel).root);
}
