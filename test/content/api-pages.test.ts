import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pagesIn } from '../helpers/content.js';
import { captureInternals, deprecationProblems, readPage, reportCount, sectionsOf } from './api-helpers.js';

const require = createRequire(import.meta.url);

/** The API section as planned: page → sidebar group ('-' for none). */
const GROUPS: Record<string, string> = {
  api: '-',
  'api/cli': 'Interfaces',
  'api/node': 'Interfaces',
  'api/webpack-dev-server': 'Interfaces',
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
  'api/logging': 'Plugins',
};

describe('API section pages', () => {
  it('has exactly the planned pages', () => {
    expect(pagesIn('api')).toEqual(Object.keys(GROUPS).sort());
  });

  it('deprecated hooks print the warning code the pages give, and those given without a code print none', async () => {
    const { compilation, contextModuleFactory, javascriptParser } = await captureInternals();
    const results = [
      await deprecationProblems('api/compilation', /hooks$/, compilation.hooks),
      await deprecationProblems('api/parser', /hooks$/, javascriptParser.hooks),
      await deprecationProblems('api/module-factories', 'ContextModuleFactory hooks', contextModuleFactory.hooks),
    ];
    const checked = results.flatMap((r) => r.checked);
    reportCount('deprecated hooks checked for their warning', checked.length);
    // The silent ones the index page names must be among them.
    const silent = ['optimizeAssets', 'afterOptimizeAssets', 'additionalAssets', 'preStatement', 'blockPreStatement'];
    expect(checked).toEqual(expect.arrayContaining([...silent, 'normalModuleLoader', 'optimizeChunkAssets', 'alternatives']));
    expect(results.flatMap((r) => r.problems)).toEqual([]);
    const stability = sectionsOf('api').find((s) => s.text === 'Stability')!.body;
    for (const name of silent) expect(stability, name).toContain(`\`${name}\``);
    expect(stability).not.toMatch(/marked as deprecated keep working in webpack 5 but print/);
  });

  it('every "Added in webpack" note on a hook matches the @since tag of the hook in webpack\'s source', () => {
    const lib = join(dirname(require.resolve('webpack/package.json')), 'lib');
    const sources: Record<string, string[]> = {
      'api/compiler': ['Compiler.js'],
      'api/compilation': ['Compilation.js'],
      'api/parser': ['javascript/JavascriptParser.js'],
      'api/module-factories': ['module/NormalModuleFactory.js', 'context/ContextModuleFactory.js', 'module/NormalModule.js'],
      'api/template': ['javascript/JavascriptModulesPlugin.js', 'css/CssModulesPlugin.js', 'html/HtmlModulesPlugin.js'],
    };
    const problems: string[] = [];
    let notes = 0;
    for (const [page, files] of Object.entries(sources)) {
      // A JSDoc block directly above `name:` (a hook in a hooks object) with an @since tag.
      const since = new Map<string, string>();
      for (const file of files) {
        const source = readFileSync(join(lib, file), 'utf8');
        for (const m of source.matchAll(/\/\*\*((?:(?!\*\/)[\s\S])*?)\*\/\s*(\w+)\s*[:,]/g)) {
          const tag = /@since\s+(\d+\.\d+(?:\.\d+)?)/.exec(m[1]!);
          if (tag) since.set(m[2]!, tag[1]!.replace(/\.0$/, ''));
        }
      }
      expect(since.size, `@since tags in ${files.join(', ')}`).toBeGreaterThan(0);
      for (const section of sectionsOf(page).filter((s) => s.depth === 3)) {
        const note = /Added in webpack (\d+\.\d+(?:\.\d+)?)\b/.exec(section.body)?.[1];
        if (!note) continue;
        notes++;
        const tagged = since.get(section.text);
        if (tagged !== undefined && tagged !== note) problems.push(`${page} ${section.text}: page says ${note}, source says ${tagged}`);
      }
    }
    reportCount('"Added in webpack" notes compared', notes);
    expect(problems).toEqual([]);
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
