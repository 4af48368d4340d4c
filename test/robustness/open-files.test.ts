import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/content.js';

/*
 * A build under a small limit of open files (`ulimit -n`, often 1,024 on a
 * laptop or CI runner): whatever it writes (pages, the search index's files
 * of each page), it keeps fewer files open at once than the limit allows.
 * The search index once wrote every page's file at the same time, and a cold
 * build of 1,000 pages failed with "too many open files".
 */

const PAGES = 400;
const LIMIT = 256;

const dir = mkdtempSync(join(tmpdir(), 'docs-open-files-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(command: string) {
  return spawnSync('bash', ['-c', command], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, DOCS_CACHE_DIR: join(dir, 'cache'), DOCS_WORKERS: '0' } });
}

describe(`a build with at most ${LIMIT} files open`, () => {
  it(`writes a site of ${PAGES} pages and its search index`, () => {
    const made = run(`node scripts/make-corpus.mjs ${join(dir, 'site', 'content')} ${PAGES} && node -e "import('./scripts/bench-config.mjs').then((m) => m.writeBenchConfig(process.argv[1]))" ${join(dir, 'site')}`);
    expect(made.status, made.stderr).toBe(0);
    const out = join(dir, 'out');
    const built = run(`ulimit -n ${LIMIT} && exec node bin/docs.js build --root ${join(dir, 'site')} --out ${out} --quiet`);
    expect(built.stderr).toBe('');
    expect(built.status).toBe(0);
    const indexFiles = readdirSync(join(out, 'search-index'), { recursive: true }).length;
    expect(indexFiles).toBeGreaterThan(PAGES);
  }, 180_000);
});
