import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingPatchesLine, PATCHES, patchedUrl, patchState, unpatchedPath } from '../../scripts/patch-packages.mjs';
// @ts-expect-error: a plain script of the benchmark, without types.
import { shapeMarkdown } from '../../scripts/bench-shapes.mjs';
import { pageBodies, ROOT } from '../helpers/content.js';

/** Documents that reach every handler kind: directives, footnotes, tables, tasks, references, HTML, unclosed constructs, repeated definitions. */
const EDGES = [
  '# Title\n\nText with *em*, **strong**, ~~del~~, `code`, <kbd>x</kbd> and a [link](/a/ "t").\n\n[ref]: /b/ "Ref"\n\nSee [ref] and ![img](/i.png).\n',
  '- [ ] task\n- [x] done\n  1. nested\n  2. ordered\n\n> quote\n> - list in quote\n\n    indented code\n\n***\n',
  '| a | b |\n| :- | -: |\n| `x` | [y](/y/) |\n\nNote[^1].\n\n[^1]: The footnote.\n',
  ':::tip{title="T"}\nInside *it*.\n:::\n\n::leaf[label]{#id .class}\n\nText :name[inline]{a=b}.\n',
  '```js title="x.js"\nconst a = 1;\n```\n\n```\nunclosed fence\n',
  'Setext\n======\n\n<details>\n<summary>More</summary>\n\nBody &amp; &#65; &#x42; \\* escape  \nhard break\n</details>\n',
  '*unclosed emphasis [link(\n\n- a\n\n- b\n- c\n\n1) x\n',
  // The same label defined more than once, nested or not: the first definition in document order is used.
  '- [dup]: /in-list/\n\n[dup]: /after/\n\n> [^n]: In a quote.\n\nSee [dup] and [^n].\n\n[^n]: After.\n',
];

describe('installed packages are patched (scripts/patch-packages.mjs)', () => {
  it('every patch is applied by the install', () => {
    // ('applies': the install ran without scripts; `node scripts/patch-packages.mjs` applies it. 'differs': the package was upgraded.)
    for (const patch of PATCHES) expect([patch.name, patchState(patch)], 'npm install runs scripts/patch-packages.mjs').toEqual([patch.name, 'applied']);
  });

  it('docs build says in one line when a patch is not applied, and says nothing when all are', () => {
    expect(missingPatchesLine()).toBeUndefined();
    // A copy of the three patched files, one of them as installed.
    const base = mkdtempSync(join(tmpdir(), 'docs-patch-state-'));
    try {
      for (const patch of PATCHES) {
        mkdirSync(join(base, dirname(patch.file)), { recursive: true });
        copyFileSync(join(ROOT, patch.file), join(base, patch.file));
      }
      expect(missingPatchesLine(base)).toBeUndefined();
      const last = PATCHES[PATCHES.length - 1]!;
      copyFileSync(unpatchedPath(last.file), join(base, last.file));
      expect(missingPatchesLine(base)).toBe(
        `docs: 1 of the 3 speed patches of the Markdown packages is not applied (${last.file.split('/')[1]}): pages build the same, more slowly; \`node scripts/patch-packages.mjs\` applies them (npm install runs it unless scripts are turned off).`,
      );
      rmSync(join(base, PATCHES[0]!.file));
      expect(missingPatchesLine(base)).toMatch(/^docs: 2 of the 3 speed patches of the Markdown packages are not applied \(mdast-util-from-markdown, /);
    } finally {
      rmSync(base, { recursive: true, force: true });
    }
  });

  it('the patched packages give the same trees as installed, for every page of the site, the benchmark shapes and edge cases', () => {
    const documents: Array<[string, string]> = [
      ...pageBodies(),
      ...EDGES.map((text, i): [string, string] => [`edge ${i}`, text]),
      ...['prose', 'lists', 'tables'].map((shape): [string, string] => [shape, shapeMarkdown(shape, 40_000)]),
    ];
    expect(documents.length).toBeGreaterThan(100);
    const input = join(mkdtempSync(join(tmpdir(), 'docs-patches-')), 'documents.json');
    writeFileSync(input, JSON.stringify(documents.map(([, text]) => text)));
    // Each side in a process of its own, under plain Node: the test runner would load the packages' development builds instead.
    const treesWith = (packages: 'patched' | 'unpatched'): string[] => {
      const child = spawnSync(process.execPath, ['--import', 'tsx', '--import', './test/helpers/patched-files-hooks.mjs', 'test/helpers/trees-child.ts', input], {
        cwd: ROOT,
        env: { ...process.env, DOCS_TEST_UNPATCHED: packages === 'unpatched' ? '1' : '0' },
        encoding: 'utf8',
        maxBuffer: 512 * 1024 * 1024,
      });
      expect(child.status, child.stderr).toBe(0);
      // Every patched file was loaded there, patched or as installed.
      const loaded = new Set(child.stderr.split('\n').filter((line) => line.startsWith(`${packages}: `)));
      expect([...loaded].sort()).toEqual(PATCHES.map((patch) => `${packages}: ${patchedUrl(patch)}`).sort());
      const trees = JSON.parse(child.stdout) as string[];
      expect(trees).toHaveLength(documents.length);
      return trees;
    };
    let after: string[], before: string[];
    try {
      [after, before] = [treesWith('patched'), treesWith('unpatched')];
    } finally {
      rmSync(dirname(input), { recursive: true, force: true });
    }
    documents.forEach(([name], i) => {
      if (after[i] !== before[i]) expect([name, JSON.parse(after[i]!)]).toEqual([name, JSON.parse(before[i]!)]);
    });
  });
});
