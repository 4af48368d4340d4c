import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/content.js';

/*
 * The starter's showcase page (templates/starter/content/guide/components.md) shows each component's Markdown in a
 * code block, then the same Markdown as the component it makes: the two copies must never differ.
 */

const page = readFileSync(join(ROOT, 'templates', 'starter', 'content', 'guide', 'components.md'), 'utf8');

describe("the starter's showcase page", () => {
  const examples = [...page.matchAll(/^````md\n([^]*?)^````\n\n/gm)];

  it('shows the Markdown of the card, the grid, the link cards, the steps, the file tree and the badges', () => {
    expect(examples.map((m) => m[1]!.split('\n')[0])).toEqual([
      ':::card[One idea per card]',
      '::::cards',
      '::::cards',
      ':::steps',
      ':::file-tree',
      expect.stringMatching(/^Sync runs in the background :badge\[New\]/),
    ]);
  });

  it('follows each shown example with the very same Markdown', () => {
    for (const m of examples) expect(page.slice(m.index + m[0].length, m.index + m[0].length + m[1]!.length)).toBe(m[1]);
  });
});
