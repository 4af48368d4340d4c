import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snapshotDir } from '../helpers/site.js';
import { docsIn, expectNoStack, leftovers, scratchSite, type Scratch } from './harness.js';

/*
 * C1: what is published is the old output or the new one, wherever a kill stops the build. The
 * build is stopped (SIGKILL, through the tests' DOCS_FAULT points) at each step of its commit,
 * writing site B over the output of site A (every page differs: the site's title changed), with
 * the last build's manifest (the incremental path: files kept are linked, not written) and without
 * it (caches off). Afterwards the output folder is A's or B's byte for byte; killed between the
 * two renames of the swap, it is absent for that instant and the next build puts A back before
 * anything else; the next whole build gives B.
 */

let s: Scratch;
let configA: string;
let outputA: Map<string, string>;
let outputB: Map<string, string>;

const useSite = (which: 'A' | 'B') => writeFileSync(join(s.site, 'site.config.yaml'), which === 'A' ? configA : configA.replace('title: fixture', 'title: fixture B'));

async function build(which: 'A' | 'B', env: NodeJS.ProcessEnv = {}) {
  useSite(which);
  return docsIn(s, ['build', '-q', '--out', 'out'], { env });
}

beforeAll(async () => {
  s = scratchSite();
  configA = readFileSync(join(s.site, 'site.config.yaml'), 'utf8');
  expect(configA).toContain('title: fixture\n');
  for (const which of ['B', 'A'] as const) {
    const run = await build(which, { DOCS_CACHE: '0' });
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    if (which === 'B') outputB = snapshotDir(join(s.site, 'out'));
  }
  outputA = snapshotDir(join(s.site, 'out'));
  expect(outputA).not.toEqual(outputB);
}, 120_000);

afterAll(() => s?.remove());

const POINTS = ['commit-start', 'commit-linked', 'commit-between-renames', 'commit-swapped'] as const;

for (const caches of ['with the last build\'s manifest', 'with caches off'] as const) {
  describe(`a build killed during its commit, ${caches} (C1)`, () => {
    const env = caches === 'with caches off' ? { DOCS_CACHE: '0' } : {};
    for (const point of POINTS) {
      it(`at ${point}: the output is all A or all B, and the next build makes it B`, async () => {
        // A's output in place, and (with caches) the manifest of that build.
        const again = await build('A', env);
        expect(again.code).toBe(0);
        expect(snapshotDir(join(s.site, 'out'))).toEqual(outputA);
        const killed = await build('B', { ...env, DOCS_FAULT: point });
        expect(killed.signal).toBe('SIGKILL');
        if (point === 'commit-between-renames') {
          expect(existsSync(join(s.site, 'out'))).toBe(false);
          // The next build, whatever it does after, first puts the old output back (this one stops before its own commit).
          const next = await build('B', { ...env, DOCS_FAULT: 'commit-start' });
          expect(next.signal).toBe('SIGKILL');
          expect(snapshotDir(join(s.site, 'out'))).toEqual(outputA);
        } else {
          expect(snapshotDir(join(s.site, 'out'))).toEqual(point === 'commit-swapped' ? outputB : outputA);
        }
        const finished = await build('B', env);
        expectNoStack(finished);
        expect(finished.stderr).toBe('');
        expect(finished.code).toBe(0);
        expect(snapshotDir(join(s.site, 'out'))).toEqual(outputB);
        expect(leftovers(s.site)).toEqual([]);
      }, 120_000);
    }
  });
}
