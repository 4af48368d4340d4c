import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGED, TOOL_ROOT } from './paths.js';

/*
 * A key part that changes with the tool: the caches of a config, of the
 * bundled client scripts and of the output files (src/build/keys.ts) are
 * made under it. It depends on nothing of the site, so any module may import it.
 */

let tool: string | undefined;

/** A hash of the tool's sources (or, installed from its package, of its bundle), templates and installed packages, and of Node's version. */
export function toolVersion(): string {
  if (tool) return tool;
  const hash = createHash('sha256').update(process.version);
  for (const dir of [PACKAGED ? 'lib' : 'src', 'templates']) {
    const entries = readdirSync(join(TOOL_ROOT, dir), { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[];
    for (const file of entries.filter((d) => d.isFile()).map((d) => join(d.parentPath, d.name)).sort()) {
      hash.update(file.slice(TOOL_ROOT.length)).update('\0').update(readFileSync(file));
    }
  }
  for (const file of ['node_modules/.package-lock.json', 'package-lock.json']) {
    try {
      hash.update(readFileSync(join(TOOL_ROOT, file)));
      break;
    } catch {
      // The next record of the installed packages.
    }
  }
  return (tool = hash.digest('hex'));
}

/** A hash of a file's bytes ('missing' when it cannot be read), to tell whether an input of a bundle changed. */
export function hashOf(path: string): string {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return 'missing';
  }
}
