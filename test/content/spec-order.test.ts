import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { CONTENT, ROOT } from '../helpers/content.js';

/*
 * The sidebar order of the product specification (§2, "Sidebar content"):
 * for every section the specification lists, the pages it names must appear
 * in site.config.yaml in that order. Pages the specification does not name may
 * sit between them. The specification lives beside the repository, in
 * ../shared/SPEC.md; the test fails when it is missing rather than skipping.
 */

const SPEC = join(ROOT, '..', 'shared', 'SPEC.md');

interface SpecSection {
  /** The section's url in site.config.yaml ("" for Home). */
  url: string;
  /** Page slugs in the order the specification gives. */
  pages: string[];
}

/** "entry and context" → entry-context, "the manifest" → manifest, "dev-server" → dev-server. */
function slugOf(name: string): string {
  return name
    .trim()
    .toLowerCase()
    .replace(/^the /, '')
    .replace(/ and /g, ' ')
    .replace(/\s+/g, '-');
}

/** The bullet list under "Sidebar content" in §2 of the specification. */
function specSidebar(): Map<string, SpecSection> {
  if (!existsSync(SPEC)) {
    throw new Error(`The product specification is missing: expected it at ${SPEC} (the shared folder beside the repository).`);
  }
  const text = readFileSync(SPEC, 'utf8');
  const start = text.search(/^### Sidebar content\b.*$/m);
  if (start < 0) throw new Error(`${SPEC} has no "### Sidebar content" section`);
  const rest = text.slice(start).split('\n').slice(1);
  const end = rest.findIndex((line) => /^#{1,3} /.test(line));
  const lines = rest.slice(0, end < 0 ? undefined : end).filter((line) => line.startsWith('- '));
  const sections = new Map<string, SpecSection>();
  for (const line of lines) {
    // "- Home (/): Comparison /comparison/, Branding Guidelines /branding/, …"
    const home = /^- Home \(\/\): (.+)\.$/.exec(line);
    if (home) {
      const pages = [...home[1]!.matchAll(/\/([a-z0-9-]+)\//g)].map((m) => m[1]!);
      sections.set('home', { url: '', pages });
      continue;
    }
    // "- API, under /api/{page}/: cli, stats, …"
    const listed = /^- ([A-Za-z]+), under \/([a-z]+)\/\{page\}\/: (.+)\.$/.exec(line);
    if (listed) {
      sections.set(listed[2]!, { url: listed[2]!, pages: listed[3]!.split(',').map(slugOf) });
    }
  }
  return sections;
}

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
  const spec = specSidebar();

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
