import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { CONTENT, ROOT } from '../helpers/content.js';

/*
 * The sidebar order of the product specification (§2, "Sidebar content"):
 * for every section the specification lists, the pages it names must appear
 * in site.config.yaml in that order. Pages the specification does not name may
 * sit between them. The specification's lists are written here as the test's
 * own data, so that the test needs nothing outside the repository.
 */

interface SpecSection {
  /** The section's url in site.config.yaml ("" for Home). */
  url: string;
  /** Page slugs in the order the specification gives. */
  pages: string[];
}

/** The pages of each section, in the order §2 of the specification lists them. */
const SPEC_SIDEBAR = new Map<string, SpecSection>([
  ['home', { url: '', pages: ['comparison', 'branding', 'glossary', 'license'] }],
  [
    'concepts',
    {
      url: 'concepts',
      pages: ['entry-points', 'output', 'loaders', 'plugins', 'configuration', 'modules', 'module-resolution', 'dependency-graph', 'targets', 'manifest', 'hot-module-replacement'],
    },
  ],
  [
    'configuration',
    {
      url: 'configuration',
      pages: [
        'configuration-languages',
        'configuration-types',
        'entry-context',
        'output',
        'module',
        'resolve',
        'plugins',
        'dev-server',
        'devtool',
        'target',
        'watch',
        'externals',
        'performance',
        'node',
        'stats',
        'other-options',
      ],
    },
  ],
  [
    'api',
    {
      url: 'api',
      pages: ['cli', 'stats', 'hot-module-replacement', 'node', 'loaders', 'module-methods', 'module-variables', 'plugins', 'tapable', 'compiler', 'compilation', 'module-factories', 'resolver', 'parser', 'template'],
    },
  ],
  [
    'guides',
    {
      url: 'guides',
      pages: [
        'installation',
        'getting-started',
        'asset-management',
        'output-management',
        'development',
        'hot-module-replacement',
        'tree-shaking',
        'production',
        'code-splitting',
        'lazy-loading',
        'caching',
        'author-libraries',
        'shimming',
        'progressive-web-application',
        'typescript',
        'migrating',
        'environment-variables',
        'build-performance',
        'csp',
        'development-vagrant',
        'dependency-management',
        'public-path',
        'integrations',
      ],
    },
  ],
  ['contribute', { url: 'contribute', pages: ['writers-guide', 'writing-a-loader', 'writing-a-plugin', 'plugin-patterns', 'release-process', 'debugging'] }],
]);

interface ConfigSection {
  title: string;
  url: string;
  pages: string[];
}

function configSections(): ConfigSection[] {
  return (parseYaml(readFileSync(join(ROOT, 'site.config.yaml'), 'utf8')) as { sections: ConfigSection[] }).sections;
}

/** A config page entry without its section prefix: "guides/caching" → caching. */
function slugInSection(page: string, url: string): string {
  return url ? page.replace(new RegExp(`^${url}/`), '') : page;
}

/** The `group` of a page's frontmatter (content/{page}.md or content/{page}/index.md). */
function groupOf(page: string): string | undefined {
  const file = [join(CONTENT, `${page}.md`), join(CONTENT, page, 'index.md')].find((f) => existsSync(f));
  if (!file) throw new Error(`no content file for ${page}`);
  const frontmatter = /^---\n([\s\S]*?)\n---/.exec(readFileSync(file, 'utf8'))?.[1] ?? '';
  return /^group: *['"]?(.*?)['"]? *$/m.exec(frontmatter)?.[1];
}

const EXPECTED_SECTIONS = ['home', 'concepts', 'configuration', 'api', 'guides', 'contribute'];

describe('SPEC §2: sidebar order', () => {
  const spec = SPEC_SIDEBAR;

  it('the specification lists the sections this test checks', () => {
    expect([...spec.keys()].sort()).toEqual([...EXPECTED_SECTIONS].sort());
    expect(spec.get('api')!.pages).toHaveLength(15);
    expect(spec.get('guides')!.pages).toHaveLength(23);
  });

  for (const key of EXPECTED_SECTIONS) {
    it(`${key}: site.config.yaml lists every page the specification names, in its order`, () => {
      const wanted = spec.get(key);
      expect(wanted, `SPEC §2 lists ${key}`).toBeDefined();
      const section = configSections().find((s) => s.url === wanted!.url);
      expect(section, `site.config.yaml has a section with url "${wanted!.url}"`).toBeDefined();
      const slugs = section!.pages.map((page) => slugInSection(page, wanted!.url));
      const named = new Set(wanted!.pages);
      // The specification's pages, in the order the configuration lists them.
      expect(slugs.filter((slug) => named.has(slug))).toEqual(wanted!.pages);
    });
  }

  it('api and guides: each sidebar group is one run of pages, so its heading shows once', () => {
    for (const url of ['api', 'guides']) {
      const section = configSections().find((s) => s.url === url)!;
      const groups = section.pages.map(groupOf).filter((g): g is string => Boolean(g) && g !== '-');
      const runs = groups.filter((group, i) => group !== groups[i - 1]);
      expect(runs, `${url}: groups in sidebar order`).toEqual([...new Set(runs)]);
    }
  });
});
