import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Root } from 'mdast';
import { fromMarkdown as installedFromMarkdown } from 'mdast-util-from-markdown';
import { describe, expect, it } from 'vitest';
import { PATCHES, patchState, unpatchedPath } from '../../scripts/patch-packages.mjs';
// @ts-expect-error: a plain script of the benchmark, without types.
import { shapeMarkdown } from '../../scripts/bench-shapes.mjs';
import { parser } from '../../src/content/mdast-parse.js';
import { pageBodies, ROOT } from '../helpers/content.js';

type FromMarkdown = typeof installedFromMarkdown;


/** Documents that reach every handler kind: directives, footnotes, tables, tasks, references, HTML, unclosed constructs. */
const EDGES = [
  '# Title\n\nText with *em*, **strong**, ~~del~~, `code`, <kbd>x</kbd> and a [link](/a/ "t").\n\n[ref]: /b/ "Ref"\n\nSee [ref] and ![img](/i.png).\n',
  '- [ ] task\n- [x] done\n  1. nested\n  2. ordered\n\n> quote\n> - list in quote\n\n    indented code\n\n***\n',
  '| a | b |\n| :- | -: |\n| `x` | [y](/y/) |\n\nNote[^1].\n\n[^1]: The footnote.\n',
  ':::tip{title="T"}\nInside *it*.\n:::\n\n::leaf[label]{#id .class}\n\nText :name[inline]{a=b}.\n',
  '```js title="x.js"\nconst a = 1;\n```\n\n```\nunclosed fence\n',
  'Setext\n======\n\n<details>\n<summary>More</summary>\n\nBody &amp; &#65; &#x42; \\* escape  \nhard break\n</details>\n',
  '*unclosed emphasis [link(\n\n- a\n\n- b\n- c\n\n1) x\n',
];

describe('installed packages are patched (scripts/patch-packages.mjs)', () => {
  it('every patch is applied by the install', () => {
    // ('applies': the install ran without scripts; `node scripts/patch-packages.mjs` applies it. 'differs': the package was upgraded.)
    for (const patch of PATCHES) expect([patch.name, patchState(patch)], 'npm install runs scripts/patch-packages.mjs').toEqual([patch.name, 'applied']);
  });

  it('mdast-util-from-markdown patched gives the same trees as installed, for every page of the site, the benchmark shapes and edge cases', async () => {
    const patch = PATCHES.find((p) => p.file.includes('mdast-util-from-markdown'))!;
    const unpatched = (await import(pathToFileURL(unpatchedPath(patch.file)).href)) as { fromMarkdown: FromMarkdown };
    const installed = readFileSync(join(ROOT, patch.file), 'utf8');
    expect(installed).toContain(patch.to);
    expect(readFileSync(unpatchedPath(patch.file), 'utf8')).toContain(patch.from);
    const documents: Array<[string, string]> = [
      ...pageBodies(),
      ...EDGES.map((text, i): [string, string] => [`edge ${i}`, text]),
      ...['prose', 'lists', 'tables'].map((shape): [string, string] => [shape, shapeMarkdown(shape, 40_000)]),
    ];
    expect(documents.length).toBeGreaterThan(100);
    // The full parser: its handlers are those of the parser without autolinks, and the autolinks'.
    parser.freeze();
    const options = { extensions: parser.data('micromarkExtensions') ?? [], mdastExtensions: parser.data('fromMarkdownExtensions') ?? [] };
    expect(options.mdastExtensions.length).toBeGreaterThan(0);
    for (const [name, text] of documents) {
      const patched = JSON.stringify(parser.parse(text) as Root);
      const before = JSON.stringify(unpatched.fromMarkdown(text, options as never));
      if (patched !== before) expect([name, JSON.parse(patched)]).toEqual([name, JSON.parse(before)]);
    }
  });
});
