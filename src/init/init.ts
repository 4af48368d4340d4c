import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../build/out-guard.js';
import { TOOL_ROOT } from '../shared/paths.js';
import { STARTER_FILES } from './starter.js';

/**
 * `docs init [dir]`: writes a neutral starter site (a config that names its
 * JSON Schema, a home page, two sections, a page of every Markdown extension,
 * a logo) into an empty or missing folder. Never writes into a folder that
 * holds anything.
 */
export function initSite(dir: string): { root: string; files: string[] } {
  const root = resolve(dir);
  let existing: string[] = [];
  try {
    existing = readdirSync(root);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') throw new UsageError(`${root} is a file, not a folder`);
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (existing.length) {
    throw new UsageError(`${root} is not empty (it holds ${existing.length} entr${existing.length === 1 ? 'y' : 'ies'}, such as ${existing.sort()[0]}); docs init writes only into an empty or new folder`);
  }
  const schema = relative(root, join(TOOL_ROOT, 'site.config.schema.json')).split(sep).join('/');
  const files: string[] = [];
  for (const [path, text] of Object.entries(STARTER_FILES)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, text.replaceAll('{{schema}}', schema));
    files.push(path);
  }
  return { root, files };
}
