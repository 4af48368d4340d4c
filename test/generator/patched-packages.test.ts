import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fileUrl, isApplied, missingPatchesLine, PATCHED_FILES, PATCHES, unpatchedText } from '../../scripts/patches.mjs';
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

/** Copies of the patched files under a new folder, at the same paths; the folder is removed after `use`. */
function withCopies(use: (base: string) => void): void {
  const base = mkdtempSync(join(tmpdir(), 'docs-patch-state-'));
  try {
    for (const file of PATCHED_FILES) {
      mkdirSync(join(base, dirname(file)), { recursive: true });
      copyFileSync(join(ROOT, file), join(base, file));
    }
    use(base);
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

describe('installed packages are patched (patches/, applied by patch-package)', () => {
  it('every patch is applied by the install, and names its patch file in each file it changes', () => {
    expect(PATCHES.map((patch) => patch.package)).toEqual(['mdast-util-from-markdown', 'mdast-util-to-hast', 'micromark-util-edit-map', 'micromark-util-subtokenize']);
    for (const patch of PATCHES) {
      // The comment docs build looks for is one of the lines the patch adds, in every file.
      for (const file of patch.files) {
        expect([file.path, file.hunks.some((hunk) => hunk.lines.some((line) => line.startsWith('+') && line.includes(`patches/${patch.name}`)))]).toEqual([file.path, true]);
      }
      // Not applied: the install ran without scripts (`npx patch-package` applies them), or the package moved to another version.
      expect([patch.name, isApplied(patch)], 'npm install and npm ci run patch-package (package.json "prepare")').toEqual([patch.name, true]);
    }
  });

  it('patch-package runs from prepare, which npm runs only in this repository, not from postinstall, which it would also run (and fail) where the packed tool is installed', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
    expect(manifest.scripts.prepare).toMatch(/^patch-package( |$)/);
    expect(Object.values(manifest.scripts).filter((script) => script.includes('patch-package'))).toHaveLength(1);
    expect(manifest.scripts.postinstall).toBeUndefined();
    expect(manifest.devDependencies['patch-package']).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('docs build says in one line when a patch is not applied, and says nothing when all are', () => {
    expect(missingPatchesLine()).toBeUndefined();
    withCopies((base) => {
      expect(missingPatchesLine(base)).toBeUndefined();
      // One of the patched files as installed.
      const last = PATCHES[PATCHES.length - 1]!;
      const file = last.files[last.files.length - 1]!;
      writeFileSync(join(base, file.path), unpatchedText(readFileSync(join(ROOT, file.path), 'utf8'), file));
      expect(missingPatchesLine(base)).toBe(
        `docs: 1 of the 4 speed patches of the Markdown packages is not applied (${last.package}): pages build the same, more slowly; \`npx patch-package\` applies them (npm install and npm ci run it unless scripts are turned off).`,
      );
      rmSync(join(base, PATCHES[0]!.files[0]!.path));
      expect(missingPatchesLine(base)).toMatch(/^docs: 2 of the 4 speed patches of the Markdown packages are not applied \(mdast-util-from-markdown, /);
    });
  });

  it('reversing a patch gives what git apply --reverse gives, and refuses a file the patch did not make', () => {
    withCopies((base) => {
      for (const patch of PATCHES) {
        const git = spawnSync('git', ['apply', '--reverse', join(ROOT, 'patches', patch.name)], { cwd: base, encoding: 'utf8' });
        expect(git.status, git.stderr).toBe(0);
        for (const file of patch.files) {
          const ours = unpatchedText(readFileSync(join(ROOT, file.path), 'utf8'), file);
          expect([file.path, ours === readFileSync(join(base, file.path), 'utf8')]).toEqual([file.path, true]);
          expect(ours).not.toContain(`patches/${patch.name}`);
          // Reversed twice: the file as installed is not what the patch made.
          expect(() => unpatchedText(ours, file)).toThrow(new RegExp(`^${file.path.replace(/[.+]/g, '\\$&')}:\\d+: not the text the patch made`));
        }
      }
    });
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
    // Each side in a process of its own, under plain Node (the packages' production builds, which the
    // tool runs), or with the development condition (their development builds, which the test runner loads).
    const treesWith = (packages: 'patched' | 'unpatched', build: 'production' | 'development'): string[] => {
      const conditions = build === 'development' ? ['--conditions=development'] : [];
      const child = spawnSync(process.execPath, [...conditions, '--import', 'tsx', '--import', './test/helpers/patched-files-hooks.mjs', 'test/helpers/trees-child.ts', input], {
        cwd: ROOT,
        env: { ...process.env, DOCS_TEST_UNPATCHED: packages === 'unpatched' ? '1' : '0' },
        encoding: 'utf8',
        maxBuffer: 512 * 1024 * 1024,
      });
      expect(child.status, child.stderr).toBe(0);
      // Every patched file of that build was loaded there, patched or as installed.
      const loaded = new Set(child.stderr.split('\n').filter((line) => line.startsWith(`${packages}: `)));
      // (mdast-util-to-hast has one build, loaded by both.)
      const ofBuild = PATCHES.flatMap((patch) => {
        const paths = patch.files.map((file) => file.path);
        const dev = paths.filter((path) => path.includes('/dev/'));
        return build === 'development' && dev.length ? dev : paths.filter((path) => !path.includes('/dev/'));
      });
      expect([...loaded].sort()).toEqual(ofBuild.map((file) => `${packages}: ${fileUrl(file)}`).sort());
      const trees = JSON.parse(child.stdout) as string[];
      expect(trees).toHaveLength(documents.length);
      return trees;
    };
    let before: string[], after: string[], afterDev: string[];
    try {
      [before, after, afterDev] = [treesWith('unpatched', 'production'), treesWith('patched', 'production'), treesWith('patched', 'development')];
    } finally {
      rmSync(dirname(input), { recursive: true, force: true });
    }
    for (const [build, trees] of [['production', after], ['development', afterDev]] as const) {
      documents.forEach(([name], i) => {
        if (trees[i] !== before[i]) expect([build, name, JSON.parse(trees[i]!)]).toEqual([build, name, JSON.parse(before[i]!)]);
      });
    }
  });
});
