import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/*
 * Where the tool's own files are. The sources run either as they are
 * (TypeScript compiled on import) or from a bundle that bin/docs.js builds
 * once per change of the sources; the bundle defines these two constants,
 * since its own location says nothing about the tool's folders.
 */
declare const __DOCS_TOOL_ROOT__: string | undefined;
declare const __DOCS_BUNDLE_DIR__: string | undefined;

/** The tool's folder (holds package.json, src/, templates/). */
export const TOOL_ROOT: string =
  typeof __DOCS_TOOL_ROOT__ === 'string' ? __DOCS_TOOL_ROOT__ : fileURLToPath(new URL('../../', import.meta.url));

/** The script a worker thread starts from: the bundled one when running bundled. */
export function workerEntry(name: 'content' | 'highlight'): URL {
  return bundledWorkerEntry(name) ?? pathToFileURL(join(TOOL_ROOT, 'src', ...SOURCE_ENTRIES[name]));
}

const SOURCE_ENTRIES = { content: ['content', 'worker-entry.mjs'], highlight: ['content', 'highlight-worker-entry.mjs'] };

/** The bundled script of a worker thread, or undefined when the tool runs from its sources. */
export function bundledWorkerEntry(name: 'content' | 'highlight' | 'serve'): URL | undefined {
  return typeof __DOCS_BUNDLE_DIR__ === 'string' ? pathToFileURL(join(__DOCS_BUNDLE_DIR__, `${name}-worker.mjs`)) : undefined;
}
