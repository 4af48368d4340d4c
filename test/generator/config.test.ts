import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config/load.js';
import { InputError } from '../../src/shared/errors.js';
import { ROOT } from '../helpers/content.js';

const ORIGIN = 'expected the origin of the published site, such as https://docs.example.org: "http://" or "https://" and a host, no path (a site under a sub-path such as /project/ is built with docs build --base /project/)';

const CSP_RULE = 'expected a source such as https://img.example.com, https://*.example.com or data: (a path may not hold spaces, commas or semicolons)';
const SITE_PATH = 'expected a path relative to the site root, such as "static/logo.svg" (no leading "/", no "." or ".." parts)';

const FIXTURE = readFileSync(join(ROOT, 'test/fixtures/site/site.config.yaml'), 'utf8');

function problemsOf(source: string): string[] {
  try {
    parseConfig(source, 'site.config.yaml');
  } catch (e) {
    if (e instanceof InputError) return e.message.split('\n');
    throw e;
  }
  return [];
}

function edit(from: string | RegExp, to: string): string {
  const result = FIXTURE.replace(from, to);
  if (result === FIXTURE) throw new Error(`the edit did not apply: ${String(from)}`);
  return result;
}


describe('site.config.yaml validation', () => {
  it('accepts the fixture config and fills in defaults', () => {
    const { config } = parseConfig(FIXTURE, 'site.config.yaml');
    expect(config.site.language).toBe('en');
    expect(config.search).toEqual({ provider: 'local' });
    expect(config.sections[0]!.pages).toEqual([]);
    expect(config.banner!.version).toBe('2');
  });

  it('reads merge keys (<<: *defaults) as YAML 1.1 has them', () => {
    expect(problemsOf(edit('banner:\n  text: Support the project.\n', 'x-banner: &banner\n  text: Support the project.\nbanner:\n  <<: *banner\n').replace(/^x-banner:.*\n.*\n/m, (m) => m))).toEqual([
      'site.config.yaml:7:1 x-banner: unknown key "x-banner"',
    ]);
  });

  it('accepts the real site config', () => {
    const real = readFileSync(join(ROOT, 'site.config.yaml'), 'utf8');
    expect(problemsOf(real)).toEqual([]);
  });

  const cases: Array<[string, string, string[]]> = [
    ['a YAML syntax error', edit('  title: fixture\n', '  title: [fixture\n'), ['site.config.yaml:3:3 YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]']],
    ['a tab used for indentation', edit('  title: fixture\n', '\ttitle: fixture\n'), ['site.config.yaml:2:1 YAML syntax error: Tabs are not allowed as indentation']],
    ['a duplicated key', edit('  title: fixture\n', '  title: fixture\n  title: again\n'), ['site.config.yaml:3:3 YAML syntax error: Map keys must be unique']],
    ['a banner without its version', edit('  version: 2\n', ''), ['site.config.yaml:8:3 banner.version: missing required field (expected string | number)']],
    ['months that are not twelve', `${FIXTURE}ui:\n  months: "a b"\n`, ['site.config.yaml:67:11 ui.months: expected the names of the twelve months, in order, separated by spaces']],
    ['a badge package that is no npm name', edit('  package: example', '  package: ../../x'), ['site.config.yaml:34:12 badge.package: expected an npm package name, such as react or @scope/name']],
    ['a second YAML document', `${FIXTURE}---\nsite: {}\n`, ['site.config.yaml:66:1 a second YAML document starts here ("---"): the file holds one; remove the line, or join the two']],
    ['a section listed twice', edit('  - title: Guides\n    url: guides\n', '  - title: Guides\n    url: guides\n  - title: Guides again\n    url: guides\n'), ['site.config.yaml:49:10 sections[2].url: section "guides" is listed twice (first at sections[1])']],
    ["a section's own index page listed again", edit('      - guides/first\n', '      - guides\n      - guides/first\n'), ['site.config.yaml:49:9 sections[1].pages[0]: page "guides" is the section\'s own index page; do not list it again']],
    ['a mapping as a key (P8)', `${FIXTURE}{a: 1}: 2\n`, ['site.config.yaml:66:1 a key must be plain text, not a mapping']],
    ['a wrong type', edit('  version: 2', '  version: [2]'), ['site.config.yaml:12:12 banner.version: expected string | number, received a list']],
    ['an unknown key (a typo)', edit('  title: fixture\n', '  title: fixture\n  langauge: en\n'), ['site.config.yaml:3:3 site.langauge: unknown key "langauge"']],
    ['a missing required field', edit('  description: A small site used by the generator tests.\n', ''), ['site.config.yaml:2:3 site.description: missing required field (expected string)']],
    ['a page listed twice', edit('      - guides/second', '      - guides/second\n      - guides/first'), ['site.config.yaml:51:9 sections[1].pages[2]: page "guides/first" is listed twice (first at sections[1].pages[0])']],
    [
      "a section that lists its pages and takes a folder's at once (the home section)",
      edit('  - title: Home\n    url: ""\n', '  - title: Home\n    url: ""\n    autogenerate:\n      directory: guides\n    pages:\n      - home-only\n'),
      ['site.config.yaml:47:7 sections[0].autogenerate: section "(home)" lists its pages and takes them from content/guides/ at once: to list both, put the folder among the pages, where its pages go ("- autogenerate: { directory: guides }")'],
    ],
    [
      'a folder listed twice among the pages',
      edit('      - plugins/beta-plugin\n', '      - autogenerate:\n          directory: extras\n      - plugins/beta-plugin\n      - autogenerate:\n          directory: extras\n'),
      ['site.config.yaml:60:22 sections[2].pages[3].autogenerate.directory: the folder content/extras/ is listed twice (first at sections[2].pages[1].autogenerate.directory); its pages can be in one place only'],
    ],
    [
      "a section's folder listed again among another section's pages",
      edit('  - title: Plugins\n    url: plugins\n    pages:\n      - plugins/alpha-plugin\n', '  - title: Plugins\n    url: plugins\n    pages:\n      - autogenerate:\n          directory: guides\n      - plugins/alpha-plugin\n').replace('  - title: Home\n    url: ""\n', '  - title: Home\n    url: ""\n  - title: More\n    url: more\n    autogenerate:\n      directory: guides\n'),
      ['site.config.yaml:60:22 sections[3].pages[0].autogenerate.directory: the folder content/guides/ is listed twice (first at sections[1].autogenerate.directory); its pages can be in one place only'],
    ],
    ['a nested child with a bad url', edit('      - title: Guides\n        url: /guides/', '      - title: Guides\n        url: guides'), ['site.config.yaml:18:14 navigation[0].children[0].url: expected a URL starting with "/", "http", "//" or "mailto:"']],
    [
      'a url with a backslash, which a browser reads as a slash (/\\host is another site)',
      edit('      - title: Guides\n        url: /guides/', '      - title: Guides\n        url: "/\\\\evil.example"'),
      ['site.config.yaml:18:14 navigation[0].children[0].url: expected a URL without spaces or backslashes (a browser reads "\\" as "/", so /\\host leads to another site)'],
    ],
    ['a nested child url of the wrong type', edit('      - title: Guides\n        url: /guides/', '      - title: Guides\n        url: 42'), ['site.config.yaml:18:14 navigation[0].children[0].url: expected string, received number 42']],
    ['an unknown search provider', `${FIXTURE}search:\n  provider: elastic\n`, ['site.config.yaml:67:13 search.provider: expected "local" | "algolia", received string "elastic"']],
    // Both go into the Content-Security-Policy of _headers and of every page: nothing there may add a directive or a header line.
    [
      'a hosted search service whose id or host would write into the policy',
      `${FIXTURE}search:\n  provider: algolia\n  appId: "abc; object-src *"\n  apiKey: k\n  indexName: i\n  host: "https://h.example; base-uri *\\n/*\\n  X-Evil: yes"\n`,
      [
        'site.config.yaml:68:10 search.appId: expected the application id: letters and digits',
        'site.config.yaml:71:9 search.host: expected the origin of the service, such as https://search.example.org (a scheme and a host, no path)',
      ],
    ],
    ['a hosted search provider without its key and index', `${FIXTURE}search:\n  provider: algolia\n  appId: X\n`, ['site.config.yaml:67:3 search.apiKey: missing required field (expected string)', 'site.config.yaml:67:3 search.indexName: missing required field (expected string)']],
    ['a page path written as a file', edit('      - guides/second', '      - /guides/second.md'), ['site.config.yaml:50:9 sections[1].pages[1]: expected a page path such as "guides/tree-shaking" (lowercase, no leading or trailing slash, no .md)']],
    ['an empty navigation', edit(/navigation:[\s\S]*?languages:/, 'navigation: []\nlanguages:'), ['site.config.yaml:13:13 navigation: expected at least 1 item']],
    ['a redirect from a relative path', edit('/old-first/: /guides/first/', 'old-first: /guides/first/'), ['site.config.yaml:59:3 redirects.old-first: bad key: expected a path starting with "/"']],
    ['sections that are not a list', edit(/sections:[\s\S]*?redirects:/, 'sections: guides\nredirects:'), ['site.config.yaml:43:11 sections: expected array, received string "guides"']],
    ['a canonical url without scheme', edit('url: https://docs.example.org\n', 'url: docs.example.org\n'), [`site.config.yaml:3:8 site.url: ${ORIGIN}`]],
    // A path would be added to the base's (--base) in every canonical link; a sitemap's URLs are absolute.
    ['a canonical url with a path', edit('url: https://docs.example.org\n', 'url: https://example.github.io/project\n'), [`site.config.yaml:3:8 site.url: ${ORIGIN}`]],
    ['a canonical url without its scheme', edit('url: https://docs.example.org\n', 'url: //docs.example.org\n'), [`site.config.yaml:3:8 site.url: ${ORIGIN}`]],
    // The schema's rules as values the writer may type (the published JSON Schema below is only a copy of them).
    [
      'csp sources that would add a directive, a policy, a source or a keyword, a script URL and a wildcard',
      `${FIXTURE}csp:\n  img:\n    - "https://x.example/;script-src"\n    - "https://x.example/'unsafe-eval'"\n    - https://x.example/,y\n    - "https://x.example/ 'unsafe-inline'"\n    - "javascript:"\n    - "*"\n  font:\n    - "'self'"\n`,
      [68, 69, 70, 71, 72, 73].map((line, i) => `site.config.yaml:${line}:7 csp.img[${i}]: ${CSP_RULE}`).concat(`site.config.yaml:75:7 csp.font[0]: ${CSP_RULE}`),
    ],
    [
      'theme.css paths out of the site folder, absolute, with a "." part, or not .css',
      `${FIXTURE}theme:\n  css:\n    - ../outside.css\n    - /abs/site.css\n    - theme/site.scss\n    - theme/./x.css\n`,
      [`site.config.yaml:68:7 theme.css[0]: ${SITE_PATH}`, `site.config.yaml:69:7 theme.css[1]: ${SITE_PATH}`, 'site.config.yaml:70:7 theme.css[2]: expected a .css file', `site.config.yaml:71:7 theme.css[3]: ${SITE_PATH}`],
    ],
    [
      'components out of the site folder, of another language, or of a part that does not exist',
      `${FIXTURE}components:\n  Header: ../header.tsx\n  Footer: components/footer.py\n  Nav: components/nav.tsx\n`,
      [`site.config.yaml:67:11 components.Header: ${SITE_PATH}`, 'site.config.yaml:68:11 components.Footer: expected a .tsx, .jsx, .ts or .js file', 'site.config.yaml:69:3 components.Nav: unknown key "Nav"'],
    ],
    ...['"en us"', 'english!', 'e'].map((tag): [string, string, string[]] => [
      `site.language ${tag}, which is no language tag`,
      edit('  url: https://docs.example.org\n', `  url: https://docs.example.org\n  language: ${tag}\n`),
      ['site.config.yaml:4:13 site.language: expected a language tag, such as en, zh-CN or pt-BR'],
    ]),
  ];

  it('accepts csp sources with a wildcard host and a path, data: and blob:, stylesheets and components inside the site folder, and language tags with a region', () => {
    expect(
      problemsOf(
        edit('  url: https://docs.example.org\n', '  url: https://docs.example.org\n  language: pt-BR\n') +
          'csp:\n  img: [https://*.example.org/img/, "data:", "blob:", "wss://live.example.org:8443"]\ntheme:\n  css: [theme/site.css]\ncomponents:\n  Footer: components/Footer.tsx\n',
      ),
    ).toEqual([]);
  });

  for (const [name, source, expected] of cases) {
    it(`reports ${name} with file, line, column and path`, () => {
      expect(problemsOf(source)).toEqual(expected);
    });
  }

  it('reports every problem at once, in file order', () => {
    const source = edit('  title: fixture\n', '  title: fixture\n  langauge: en\n').replace('  version: 2', '  version: [2]').replace('  label: Chat with us', '  label: ""');
    expect(problemsOf(source)).toEqual([
      'site.config.yaml:3:3 site.langauge: unknown key "langauge"',
      'site.config.yaml:13:12 banner.version: expected string | number, received a list',
      'site.config.yaml:39:10 chat.label: expected a non-empty string',
    ]);
  });
});

describe('published JSON Schema', () => {
  it('is up to date with the zod schema (run npm run schema after changing it)', async () => {
    const { configJsonSchema } = await import('../../src/config/json-schema.js');
    expect(readFileSync(join(ROOT, 'site.config.schema.json'), 'utf8')).toBe(configJsonSchema());
  });
  it('is referenced from site.config.yaml for editor autocompletion', () => {
    expect(readFileSync(join(ROOT, 'site.config.yaml'), 'utf8').split('\n')[0]).toBe('# yaml-language-server: $schema=./site.config.schema.json');
  });
});
