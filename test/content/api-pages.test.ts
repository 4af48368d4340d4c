import { describe, expect, it } from 'vitest';
import { pagesIn } from '../helpers/content.js';
import { readPage, sectionsOf } from './api-helpers.js';

/** The API section as planned: page → sidebar group ('-' for none). */
const GROUPS: Record<string, string> = {
  api: '-',
  'api/cli': 'Interfaces',
  'api/node': 'Interfaces',
  'api/stats': 'Interfaces',
  'api/hot-module-replacement': 'Interfaces',
  'api/loaders': 'Interfaces',
  'api/module-methods': 'Modules',
  'api/module-variables': 'Modules',
  'api/plugins': 'Plugins',
  'api/tapable': 'Plugins',
  'api/compiler': 'Plugins',
  'api/compilation': 'Plugins',
  'api/module-factories': 'Plugins',
  'api/resolver': 'Plugins',
  'api/parser': 'Plugins',
  'api/template': 'Plugins',
};

describe('API section pages', () => {
  it('has exactly the planned pages', () => {
    expect(pagesIn('api')).toEqual(Object.keys(GROUPS).sort());
  });

  for (const [id, group] of Object.entries(GROUPS)) {
    it(`${id}: frontmatter, headings and a way onward`, () => {
      const page = readPage(id);
      expect(page.frontmatter.description?.length ?? 0, 'description').toBeGreaterThan(40);
      expect(page.frontmatter.group ?? '-', 'sidebar group').toBe(group);
      const prose = page.body.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');
      expect(prose, 'no h1 in the body').not.toMatch(/^# /m);
      expect(page.body, 'no placeholders').not.toMatch(/\b(TODO|TBD|lorem ipsum|coming soon)\b/i);
      const sections = sectionsOf(id);
      let previous = 1;
      for (const s of sections) {
        expect(s.depth, `heading level after h${previous}: ${s.text}`).toBeLessThanOrEqual(previous + 1);
        previous = s.depth;
      }
      const last = sections.filter((s) => s.depth === 2).at(-1)!;
      expect(last.text, 'the page ends by linking onward').toBe('Next steps');
      expect(last.body).toMatch(/\]\(\/[a-z-]+\/([a-z-]+\/)?\)/);
    });
  }
});
