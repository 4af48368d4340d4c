import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsIn, expectNoStack, leftovers, scratchSite, treeHash, type Scratch } from './harness.js';

/*
 * C1: what is published is the old output or the new one, wherever a kill stops the build. The
 * build is stopped (SIGKILL, sent by the build to itself at the tests' DOCS_FAULT points) at each
 * step of its commit, writing site B over the output of site A (every page differs: the site's
 * title changed), with the last build's manifest (the incremental path: files kept are linked, not
 * written) and without it (caches off). Afterwards the output folder is A's or B's, every folder,
 * file name and byte. Killed in the instant between the two renames of the swap, the output folder
 * is missing and A lies whole beside it under the set-aside name: the next build, whatever it does
 * after (killed itself, or failing on a broken config), puts A back first; the next good build
 * gives B.
 */

let s: Scratch;
let configA: string;
let outputA: Map<string, string>;
let outputB: Map<string, string>;
const out = () => join(s.site, 'out');

const useSite = (which: 'A' | 'B' | 'broken') =>
  writeFileSync(join(s.site, 'site.config.yaml'), which === 'A' ? configA : configA.replace('title: fixture', which === 'B' ? 'title: fixture B' : 'title: [fixture'));

async function build(which: 'A' | 'B' | 'broken', env: NodeJS.ProcessEnv = {}) {
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
    if (which === 'B') outputB = treeHash(out());
  }
  outputA = treeHash(out());
  expect(outputA).not.toEqual(outputB);
}, 120_000);

afterAll(() => s?.remove());

/** Every fault point of the commit, in its order, and the output a kill there leaves (null: none, A set aside). */
const POINTS = [
  ['commit-start', 'A'],
  ['commit-manifest-removed', 'A'],
  // (Reached only when the last build's files are kept, with the manifest.)
  ['commit-linking', 'A'],
  ['commit-linked', 'A'],
  ['commit-between-renames', null],
  ['commit-swapped', 'B'],
  ['commit-old-renamed', 'B'],
  ['commit-old-removed', 'B'],
  ['commit-done', 'B'],
] as const;

for (const caches of ["with the last build's manifest", 'with caches off'] as const) {
  describe(`a build killed during its commit, ${caches} (C1)`, () => {
    const env = caches === 'with caches off' ? { DOCS_CACHE: '0' } : {};
    for (const [point, left] of POINTS) {
      if (point === 'commit-linking' && caches === 'with caches off') continue;
      it(`at ${point}: the output is ${left ?? 'A, put back by the next build'}, and the next build makes it B`, async () => {
        // A's output in place, and (with caches) the manifest of that build.
        const again = await build('A', env);
        expect(again.code).toBe(0);
        expect(treeHash(out())).toEqual(outputA);
        const killed = await build('B', { ...env, DOCS_FAULT: point });
        expect(killed.signal).toBe('SIGKILL');
        if (left === null) {
          expect(existsSync(out())).toBe(false);
          // The old output whole beside it, under the name the next build looks for; the new one whole too.
          const setAside = readdirSync(s.site).filter((name) => /^\.out-build-\w+-old$/.test(name));
          expect(setAside).toHaveLength(1);
          expect(treeHash(join(s.site, setAside[0]!))).toEqual(outputA);
          expect(treeHash(join(s.site, setAside[0]!.slice(0, -'-old'.length)))).toEqual(outputB);
          // The next build puts A back first: killed right after that, or failing on the site's config, it leaves A.
          const next = await build('B', { ...env, DOCS_FAULT: 'recover-restored' });
          expect(next.signal).toBe('SIGKILL');
          expect(treeHash(out())).toEqual(outputA);
          const broken = await build('broken', env);
          expectNoStack(broken);
          expect(broken.code).toBe(1);
          expect(treeHash(out())).toEqual(outputA);
        } else {
          expect(treeHash(out())).toEqual(left === 'A' ? outputA : outputB);
        }
        const finished = await build('B', env);
        expectNoStack(finished);
        expect(finished.stderr).toBe('');
        expect(finished.code).toBe(0);
        expect(treeHash(out())).toEqual(outputB);
        expect(leftovers(s.site)).toEqual([]);
      }, 120_000);
    }
  });
}

it('a build with no fault point set commits as usual (the points are named as the build names them)', async () => {
  const run = await build('B', { DOCS_FAULT: 'no-such-point' });
  expect(run.code).toBe(0);
  expect(treeHash(out())).toEqual(outputB);
}, 60_000);
