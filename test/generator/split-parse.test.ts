import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Root } from 'mdast';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import '../../src/content/micromark-fix.js';
import { cutPoints, parseInParts } from '../../src/content/split-parse.js';
import { splitSource } from '../../src/content/frontmatter.js';
// @ts-expect-error: a plain script of the benchmark, without types.
import { shapeMarkdown } from '../../scripts/bench-shapes.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const processor = unified().use(remarkParse).use(remarkGfm).use(remarkDirective);
const parse = (text: string) => processor.parse(text) as Root;

/** Every page body of the site. */
function bodies(): Array<[string, string]> {
  const dir = join(ROOT, 'content');
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => [f, splitSource(readFileSync(join(dir, f), 'utf8'), f).body]);
}

describe('parsing a large page in parts', () => {
  it('gives the tree of the whole page, positions included, for every page of the site cut at every boundary', () => {
    let cut = 0;
    for (const [file, body] of bodies()) {
      const cuts = cutPoints(body, 0, 0);
      cut += cuts.length;
      expect(JSON.stringify(parseInParts(body, parse, cuts)), file).toBe(JSON.stringify(parse(body)));
    }
    // The site's pages have boundaries to cut at (or the test would compare nothing).
    expect(cut).toBeGreaterThan(500);
  });

  it('gives the same tree for each benchmark shape', () => {
    for (const shape of ['prose', 'lists', 'tables']) {
      const body = shapeMarkdown(shape, 200_000) as string;
      const cuts = cutPoints(body, 0, 16_000);
      if (shape !== 'tables') expect(cuts.length, shape).toBeGreaterThan(5);
      expect(JSON.stringify(parseInParts(body, parse, cuts)), shape).toBe(JSON.stringify(parse(body)));
    }
  });

  it('does not cut inside a fenced code block, a directive or a page with reference definitions', () => {
    const fenced = 'Intro.\n\n```md\n\n## Not a heading\n```\n\n## Real\n\nText.\n';
    expect(cutPoints(fenced, 0, 0)).toEqual([fenced.indexOf('## Real')]);
    const directive = ':::note\n\n## Inside\n\n:::\n\n## Outside\n';
    expect(cutPoints(directive, 0, 0)).toEqual([directive.indexOf('## Outside')]);
    expect(cutPoints('[x]: /a/\n\n## One\n\n[x]\n', 0, 0)).toEqual([]);
    // An unclosed fence: nothing after it is a boundary, so the page is parsed whole.
    expect(cutPoints('```\n\n## A\n\n## B\n', 0, 0)).toEqual([]);
  });

  it('leaves small pages whole', () => {
    expect(cutPoints('## A\n\ntext\n\n## B\n')).toEqual([]);
  });
});
