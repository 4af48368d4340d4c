import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { build } from '../../src/engine/build.js';
import { parseConfig } from '../../src/config/load.js';
import { InputError } from '../../src/shared/errors.js';
import { UI_EN, uiStrings, isRtl } from '../../src/theme/ui.js';
import { ROOT } from '../helpers/content.js';
import { editFile, runDocs, snapshotDir, withCacheDir } from '../helpers/site.js';
import { mkdirSync, writeFileSync } from 'node:fs';

/*
 * A site in three languages (en, zh-CN, fr) and two versions (5.x, 4.x): test/fixtures/trees. What
 * each tree gets, what the search engines see, and the problems of its config and links.
 */

const FIXTURE = join(ROOT, 'test/fixtures/trees');
let out: string;
const read = (path: string) => readFileSync(join(out, path), 'utf8');
const head = (path: string) => read(path).split('</head>')[0]!;

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'docs-trees-'));
  await build({ root: FIXTURE, out });
}, 60_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

describe('a site in three languages and two versions', () => {
  it('serves each language under its prefix and each older version under its name, with its language and strings', () => {
    expect(read('index.html')).toMatch(/^<!DOCTYPE html><html lang="en">/);
    expect(read('zh-cn/guides/tides/index.html')).toMatch(/^<!DOCTYPE html><html lang="zh-CN">/);
    expect(read('zh-cn/guides/tides/index.html')).toContain('placeholder="搜索文档…"');
    expect(read('fr/index.html')).toContain('placeholder="Rechercher dans la documentation…"');
    expect(read('4.x/guides/tides/index.html')).toContain('Version 4 measured tides by hand.');
    // The sections and navigation of a language take the titles of languages[].titles.
    expect(read('zh-cn/guides/tides/index.html')).toContain('<a href="/zh-cn/guides/" class="active" aria-current="true">指南</a>');
  });

  it('links every language of a page in its head (hreflang, x-default) and its menus to the same page', () => {
    const tides = head('guides/tides/index.html');
    expect(tides).toContain('<link rel="alternate" hrefLang="en" href="https://tides.example.org/guides/tides/"/>'.replace('hrefLang', 'hreflang'));
    expect(tides).toContain('<link rel="alternate" hreflang="zh-CN" href="https://tides.example.org/zh-cn/guides/tides/"/>');
    expect(tides).toContain('<link rel="alternate" hreflang="x-default" href="https://tides.example.org/guides/tides/"/>');
    expect(tides).not.toContain('hreflang="fr"');
    const menu = /<ul class="lang-menu" id="lang-menu">(.*?)<\/ul>/.exec(read('fr/guides/tides/index.html'))![1];
    expect(menu).toBe(
      '<li><a href="/guides/tides/" lang="en" hreflang="en">English</a></li><li><a href="/zh-cn/guides/tides/" lang="zh-CN" hreflang="zh-CN">简体中文</a></li><li><a href="/fr/guides/tides/" lang="fr" hreflang="fr" aria-current="page">Français</a></li>',
    );
    const versions = /<details class="version-menu">.*?<ul aria-label="Versions">(.*?)<\/ul>/.exec(read('guides/config/index.html'))![1];
    expect(versions).toBe('<li><a href="/guides/config/" aria-current="page"><bdi>5.x</bdi></a></li><li><a href="/4.x/"><bdi>4.x</bdi></a></li>');
  });

  it('keeps older versions out of the search engines\' index, with a banner to the same page of the current version', () => {
    const page = read('4.x/guides/tides/index.html');
    expect(head('4.x/guides/tides/index.html')).toContain('<meta name="robots" content="noindex"/>');
    expect(page).toContain('This is the documentation of <bdi>4.x</bdi>, an older version. <a href="/guides/tides/">Read the latest version (<bdi>5.x</bdi>)</a>');
    expect(head('guides/tides/index.html')).not.toContain('noindex');
    expect(read('guides/tides/index.html')).not.toContain('version-banner');
  });

  it('lists the current version\'s own pages in the sitemap, with their translations, and writes llms.txt per language', () => {
    const sitemap = read('sitemap.xml');
    expect(sitemap).toContain('xmlns:xhtml="http://www.w3.org/1999/xhtml"');
    expect(sitemap).toContain('<url><loc>https://tides.example.org/zh-cn/guides/tides/</loc>');
    expect(sitemap).not.toContain('/4.x/');
    expect(sitemap).not.toContain('<loc>https://tides.example.org/zh-cn/guides/config/</loc>');
    expect(sitemap.match(/<url>/g)).toHaveLength(9);
    expect(read('zh-cn/llms.txt')).toContain('- [海洋](https://tides.example.org/zh-cn/guides/tides/): 海平面怎样升降。');
    expect(read('zh-cn/llms.txt')).not.toContain('config');
    expect(read('llms.txt')).not.toContain('zh-cn');
    expect(read('zh-cn/llms-full.txt')).toContain('潮汐是由月球引力引起的海平面周期性变化。');
    expect(existsSync(join(out, '4.x/llms.txt'))).toBe(false);
  });

  it('writes a search index per language and version, each named by its pages', () => {
    for (const prefix of ['', 'zh-cn/', 'fr/', '4.x/', '4.x/zh-cn/', '4.x/fr/']) {
      expect(existsSync(join(out, prefix, 'search-index/index.json')), prefix).toBe(true);
      expect(read(`${prefix}index.html`)).toContain(`data-index="/${prefix}search-index/"`);
    }
  });
});

describe('the problems of a site in several languages and versions', () => {
  function problemsOf(source: string): string[] {
    try {
      parseConfig(source, 'site.config.yaml');
    } catch (e) {
      if (e instanceof InputError) return e.message.split('\n');
      throw e;
    }
    return [];
  }
  const config = readFileSync(join(FIXTURE, 'site.config.yaml'), 'utf8');
  const edit = (from: string, to: string) => {
    expect(config).toContain(from);
    return config.replace(from, to);
  };

  it('names the line and column of a language listed twice, a version named like a language, a bad version name and sections on the current version', () => {
    expect(problemsOf(edit('  - code: fr\n', '  - code: ZH-cn\n'))).toEqual(['site.config.yaml:20:11 languages[2].code: language "ZH-cn" is listed twice (first at languages[1])']);
    expect(problemsOf(edit("  - name: '4.x'\n", "  - name: 'fr'\n"))).toEqual(['site.config.yaml:27:11 versions[1].name: "fr" is also a language code: the two would share /fr/']);
    expect(problemsOf(edit("  - name: '4.x'\n", "  - name: '4 x'\n"))).toEqual([
      'site.config.yaml:27:11 versions[1].name: expected a folder name such as 4.x or v4: lowercase letters, digits, ".", "_" and "-"',
    ]);
    expect(problemsOf(edit("  - name: '5.x'\n", "  - name: '5.x'\n    navigation:\n      - title: Guides\n        url: /guides/\n"))).toEqual([
      "site.config.yaml:26:5 versions[0]: the first version is the current one: its sections and navigation are the config's own sections: and navigation:; remove them here",
    ]);
    expect(problemsOf(edit('    label: Français\n', '    label: Français\n    dir: sideways\n'))).toEqual([
      'site.config.yaml:22:10 languages[2].dir: expected "ltr" | "rtl", received string "sideways"',
    ]);
  });

  it('reports a broken link of a translated page and a missing page of an older version at their place', async () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-trees-bad-'));
    try {
      cpSync(FIXTURE, root, { recursive: true });
      editFile(join(root, 'content/zh-cn/guides/tides.md'), '(/guides/tides/)', '(/guides/tide/)');
      editFile(join(root, 'site.config.yaml'), '          - guides/tides\n\nsections:', '          - guides/tides\n          - guides/gone\n\nsections:');
      mkdirSync(join(root, 'static/zh-cn'), { recursive: true });
      mkdirSync(join(root, 'static/4.x/search-index'), { recursive: true });
      writeFileSync(join(root, 'static/zh-cn/llms.txt'), 'mine\n');
      writeFileSync(join(root, 'static/4.x/search-index/index.json'), '{}\n');
      const { code, err } = await runDocs(['check', '--root', root]);
      expect(code).toBe(1);
      expect(err).toContain('content/zh-cn/guides/tides.md:10:18 links to "/guides/tide/", which is not a page of this site (did you mean /guides/tides/');
      expect(err).toContain('site.config.yaml:36:13 versions[1].sections[1].pages[1]: page "4.x/guides/gone" has no file content/4.x/guides/gone.md');
      expect(err).toContain('static/zh-cn/llms.txt: the build writes zh-cn/llms.txt itself (a file of one of its languages or versions), and this file would replace it; remove or rename it');
      expect(err).toContain('static/4.x/search-index/index.json: the build writes 4.x/search-index/index.json itself (the search index)');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the links of the config in a site of several versions', () => {
  it('checks the footer\'s links once, against the pages they lead to, not in each version', async () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-trees-footer-'));
    try {
      cpSync(FIXTURE, root, { recursive: true });
      // Version 4.x has no configuration page; the footer leads to the current version's.
      editFile(join(root, 'site.config.yaml'), '\nsections:\n', '\nfooter:\n  links:\n    - title: Configuration\n      url: /guides/config/\n\nsections:\n');
      expect(await runDocs(['check', '--root', root])).toMatchObject({ code: 0, err: '' });
      editFile(join(root, 'site.config.yaml'), 'url: /guides/config/\n', 'url: /guides/gone/\n');
      const { code, err } = await runDocs(['check', '--root', root]);
      expect(code).toBe(1);
      expect(err).toContain('footer.links[0].url: links to "/guides/gone/", which is not a page of this site\n1 problem found');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the warnings of a site in several versions', () => {
  it('warns of a page that no menu of its version leads to, not of one in the version\'s own navigation', async () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-trees-warn-'));
    try {
      cpSync(FIXTURE, root, { recursive: true });
      editFile(join(root, 'site.config.yaml'), "    label: '4.x'\n", "    label: '4.x'\n    navigation:\n      - title: Guides\n        url: /guides/\n      - title: Extra\n        url: /extra/\n");
      writeFileSync(join(root, 'content/4.x/extra.md'), '---\ntitle: Extra\n---\n\nExtra.\n');
      writeFileSync(join(root, 'content/4.x/lost.md'), '---\ntitle: Lost\n---\n\nLost.\n');
      const { code, err } = await runDocs(['check', '--root', root]);
      expect(code).toBe(0);
      expect(err).toContain('content/4.x/lost.md: this page is in no section of site.config.yaml');
      expect(err).not.toContain('content/4.x/extra.md');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('the interface strings', () => {
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  it.each(['zh', 'ja', 'ko', 'es', 'fr', 'de', 'pt-BR', 'ru'])('has every string in %s, with the placeholders of the English one', (language) => {
    const set = uiStrings(language);
    const keys = Object.keys(UI_EN) as Array<keyof typeof UI_EN>;
    for (const key of keys) {
      expect(set[key].trim(), `${language} ${key}`).not.toBe('');
      // (Chinese, Japanese and Korean dates name the month by its number.)
      if (key === 'date') continue;
      expect(placeholders(set[key]), `${language} ${key}`).toEqual(placeholders(UI_EN[key]));
    }
    // Translated, not English: only a few words are the same in both (Version, Menu, Important…).
    expect(keys.filter((key) => set[key] === UI_EN[key]).length).toBeLessThan(8);
    expect(set.months.trim().split(/\s+/)).toHaveLength(12);
  });

  it('writes right-to-left languages right to left', () => {
    expect(isRtl('ar')).toBe(true);
    expect(isRtl('he-IL')).toBe(true);
    expect(isRtl('en')).toBe(false);
  });
});

describe('docs init --help', () => {
  it('shows how the starter becomes a site in several languages and versions', async () => {
    const help = await runDocs(['init', '--help']);
    expect(help.code).toBe(0);
    for (const line of ['  languages:', '    - code: zh-CN            # its pages in content/zh-cn/, served under /zh-cn/', '  versions:', '"Languages and versions"']) {
      expect(help.out).toContain(line);
    }
  });
});

describe('a language written right to left', () => {
  it('has dir="rtl", the strings the site gives it, and a copied page in the direction of its original', async () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-trees-rtl-'));
    try {
      cpSync(FIXTURE, join(root, 'site'), { recursive: true });
      editFile(join(root, 'site/site.config.yaml'), '      Home: Accueil\n', '      Home: Accueil\n  - code: ar\n    label: العربية\n    ui:\n      searchPlaceholder: ابحث في الوثائق…\n      fallbackNotice: لم تُترجم هذه الصفحة بعد، فهي معروضة بلغتها الأصلية ({original}).\n');
      mkdirSync(join(root, 'site/content/ar'));
      writeFileSync(join(root, 'site/content/ar/index.md'), '---\ntitle: الرئيسية\ncontributors: [octocat]\n---\n\nمرحبا.\n');
      await build({ root: join(root, 'site'), out: join(root, 'out') });
      const home = readFileSync(join(root, 'out/ar/index.html'), 'utf8');
      expect(home).toMatch(/^<!DOCTYPE html><html lang="ar" dir="rtl">/);
      expect(home).toContain('placeholder="ابحث في الوثائق…"');
      const copy = readFileSync(join(root, 'out/ar/guides/tides/index.html'), 'utf8');
      expect(copy).toContain('<main id="content" class="content" tabindex="-1" lang="en" dir="ltr"><div class="aside aside-note fallback-notice" role="note" aria-label="Note" lang="ar" dir="rtl"><p>لم تُترجم هذه الصفحة بعد، فهي معروضة بلغتها الأصلية (English).</p></div>');
      // The other languages keep their own strings.
      expect(readFileSync(join(root, 'out/fr/index.html'), 'utf8')).toContain('placeholder="Rechercher dans la documentation…"');
      // One policy for every page (and _headers): the avatars of a page of one language load on every page.
      expect(readFileSync(join(root, 'out/index.html'), 'utf8')).toContain('https://avatars.githubusercontent.com');
      expect(readFileSync(join(root, 'out/_headers'), 'utf8')).toContain('https://avatars.githubusercontent.com');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('rebuilding a site in several languages and versions', () => {
  it('writes after a new translation, from its caches, what a build from nothing writes; and puts --base in every address', async () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-trees-edit-'));
    const cache = mkdtempSync(join(tmpdir(), 'docs-trees-cache-'));
    const warm = join(root, 'warm');
    const cold = join(root, 'cold');
    try {
      cpSync(FIXTURE, join(root, 'site'), { recursive: true });
      await withCacheDir(cache, () => build({ root: join(root, 'site'), out: warm }));
      writeFileSync(join(root, 'site/content/zh-cn/guides/config.md'), '---\ntitle: 配置\ndescription: 潮汐表的设置。\n---\n\n潮汐表列出高潮和低潮。\n\n## Options\n\n所有选项。\n');
      await withCacheDir(cache, () => build({ root: join(root, 'site'), out: warm }));
      process.env.DOCS_CACHE = '0';
      try {
        await build({ root: join(root, 'site'), out: cold });
      } finally {
        delete process.env.DOCS_CACHE;
      }
      expect(snapshotDir(warm)).toEqual(snapshotDir(cold));
      const tides = readFileSync(join(warm, 'guides/tides/index.html'), 'utf8');
      expect(tides).not.toContain('fallback-notice');
      expect(readFileSync(join(warm, 'guides/config/index.html'), 'utf8')).toContain('<link rel="alternate" hreflang="zh-CN" href="https://tides.example.org/zh-cn/guides/config/"/>');
      expect(readFileSync(join(warm, 'zh-cn/guides/config/index.html'), 'utf8')).not.toContain('fallback-notice');
      // Under a base path.
      const based = join(root, 'based');
      await build({ root: join(root, 'site'), out: based, base: '/docs/' });
      const fr = readFileSync(join(based, 'fr/guides/config/index.html'), 'utf8');
      expect(fr).toContain('Back to <a href="/docs/fr/guides/tides/#spring-tides">tides</a>');
      expect(fr).toContain('<a href="/docs/zh-cn/guides/config/" lang="zh-CN" hreflang="zh-CN">简体中文</a>');
      expect(fr).toContain('data-index="/docs/fr/search-index/"');
      expect(readFileSync(join(based, 'sitemap.xml'), 'utf8')).toContain('<xhtml:link rel="alternate" hreflang="fr" href="https://tides.example.org/docs/fr/"/>');
    } finally {
      rmSync(root, { recursive: true, force: true });
      rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the words of the config in a language', () => {
  it('gives a language its own site title, footer links and small print (languages[].titles), and leads its logos to its own home', async () => {
    const root = mkdtempSync(join(tmpdir(), 'docs-trees-words-'));
    try {
      cpSync(FIXTURE, root, { recursive: true });
      const config = join(root, 'site.config.yaml');
      editFile(config, '      Guides: 指南\n', '      Guides: 指南\n      Tides: 潮汐\n      Tide tables: 潮汐表\n      The tide tables are free to read.: 潮汐表可自由阅读。\n');
      editFile(config, '\nsections:\n', '\nfooter:\n  links:\n    - title: Tide tables\n      url: https://tables.example.org/\n  copyright: The tide tables are free to read.\n\nsections:\n');
      const dist = join(root, 'dist');
      await build({ root, out: dist });
      const page = (path: string) => readFileSync(join(dist, path), 'utf8');
      const zh = page('zh-cn/guides/tides/index.html');
      expect(zh).toContain('<title>海洋 | 潮汐</title>');
      expect(zh).toContain('<a class="logo" href="/zh-cn/" aria-label="潮汐 首页">');
      expect(zh).toContain('<a class="footer-logo" href="/zh-cn/" aria-label="潮汐 首页">');
      expect(zh).toContain('rel="noopener noreferrer">潮汐表<span');
      expect(zh).toContain('潮汐表可自由阅读。');
      expect(zh).not.toContain('Tide tables');
      // A language without those titles, the default one and an older version keep the config's words; each logo leads home in its tree.
      for (const [path, home] of [['fr/index.html', '/fr/'], ['index.html', '/'], ['4.x/guides/tides/index.html', '/4.x/']] as const) {
        expect(page(path), path).toContain('rel="noopener noreferrer">Tide tables<span');
        expect(page(path), path).toContain('The tide tables are free to read.');
        expect(page(path), path).toMatch(new RegExp(`<a class="logo" href="${home}" aria-label="[^"]*Tides[^"]*">`));
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
