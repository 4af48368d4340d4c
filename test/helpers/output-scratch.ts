import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';

/** Where a build keeps the lock of the output folder `target`: beside it (dist → .dist.lock). */
export const lockPath = (target: string) => join(dirname(target), `.${basename(target)}.lock`);

/**
 * A scratch folder for one test file of the output writer and its lock, with the cache on and kept
 * in that folder (the record of the last build lives in the cache), restored and removed after the
 * file. `place()` names a fresh folder with an output folder `dist` in it (which does not exist yet).
 */
export function outputScratch(prefix: string) {
  const saved = { cache: process.env.DOCS_CACHE, dir: process.env.DOCS_CACHE_DIR };
  let dir = '';
  let count = 0;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    process.env.DOCS_CACHE = '1';
    process.env.DOCS_CACHE_DIR = join(dir, 'cache');
  });
  afterAll(() => {
    for (const [name, value] of [['DOCS_CACHE', saved.cache], ['DOCS_CACHE_DIR', saved.dir]] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    /** The scratch folder itself. */
    get dir() {
      return dir;
    },
    place(): { parent: string; target: string } {
      const parent = join(dir, `site-${++count}`);
      return { parent, target: join(parent, 'dist') };
    },
  };
}
