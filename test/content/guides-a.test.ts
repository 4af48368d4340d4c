import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Compiler, Configuration, Stats } from 'webpack';
import { parse as parseYaml } from 'yaml';
import { describe, expect, it } from 'vitest';
import { readPage, removeDir, ROOT, scratchDir, writeFiles, type CodeBlock } from '../helpers/content.js';
import {
  buildFixture,
  buildProject,
  copyFixture,
  diffAfter,
  diffBefore,
  driftProblems,
  fakeBrowser,
  fixtureFiles,
  followPage,
  loadConfig,
  normalizeText,
  runWebpackCli,
  shownOutputs,
  startDevServer,
  withProjectDefaults,
  type FakeNode,
  type GuideBuild,
  type ReadingOptions,
  type ShownOutput,
} from '../helpers/guides.js';
import { compile, evaluateConfig, validate, webpack } from '../helpers/webpack.js';

/*
 * Guides, writer A: every guide is checked against its fixture project in
 * test/fixtures/guides/<slug>/ (drift), the project is built with the real
 * webpack and the promises the page makes are asserted (build), and the
 * terminal output shown in the page is matched against the real stats.
 */

const require = createRequire(import.meta.url);

interface GuideSpec {
  group: string;
  /** Binary fixture files the page names but cannot show. */
  notShown?: string[];
}

const GUIDES: Record<string, GuideSpec> = {
  installation: { group: 'Getting started' },
  'getting-started': { group: 'Getting started' },
  'asset-management': { group: 'Core workflows', notShown: ['src/fonts/demo-box.woff', 'src/icon.png'] },
  'asset-modules': { group: 'Core workflows', notShown: ['src/images/icon.png', 'src/images/photo.png'] },
  'output-management': { group: 'Core workflows' },
  development: { group: 'Core workflows' },
  'hot-module-replacement': { group: 'Core workflows' },
  'environment-variables': { group: 'Further topics' },
  typescript: { group: 'Further topics' },
  production: { group: 'Optimisation' },
  'tree-shaking': { group: 'Optimisation' },
  'code-splitting': { group: 'Optimisation' },
  'lazy-loading': { group: 'Optimisation' },
};
const SLUGS = Object.keys(GUIDES);

const WEBPACK_VERSION = (require('webpack/package.json') as { version: string }).version;

function installedVersion(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

/** The one block of a page for which `test` is true (fails clearly otherwise). */
function onlyBlock(pageId: string, test: (block: CodeBlock) => boolean, what: string): CodeBlock {
  const found = readPage(pageId).blocks.filter(test);
  if (found.length !== 1) throw new Error(`${pageId}: expected exactly one block with ${what}, found ${found.length}`);
  return found[0]!;
}

function statsCounts(stats: Stats): { errors: number; warnings: number } {
  const json = stats.toJson({ all: false, errorsCount: true, warningsCount: true });
  return { errors: json.errorsCount ?? 0, warnings: json.warningsCount ?? 0 };
}

/** A build output shown in a page matches a real build: its assets exist and its result line agrees. */
function expectShownOutput(shown: ShownOutput | undefined, assets: string[], stats: Stats): void {
  expect(shown, 'a shown build output').toBeDefined();
  expect(shown!.assets.length + (shown!.result ? 1 : 0)).toBeGreaterThan(0);
  for (const asset of shown!.assets) expect(assets, `${shown!.block.line}: shown asset ${asset}`).toContain(asset);
  if (shown!.result) {
    expect(shown!.result.version.split('.').slice(0, 2)).toEqual(WEBPACK_VERSION.split('.').slice(0, 2));
    const counts = statsCounts(stats);
    if (shown!.result.outcome === 'successfully') expect(counts).toEqual({ errors: 0, warnings: 0 });
    if (shown!.result.outcome === 'warnings') expect(counts.warnings).toBe(shown!.result.count);
    if (shown!.result.outcome === 'errors') expect(counts.errors).toBe(shown!.result.count);
  }
}

function plainStats(stats: Stats): string {
  return stats.toString({ colors: false });
}

function scriptSources(html: string): string[] {
  return [...html.matchAll(/<script[^>]*\ssrc="?([^"\s>]+)"?/g)].map((m) => m[1]!);
}

function withGuide<T>(build: GuideBuild, run: (build: GuideBuild) => Promise<T> | T): Promise<T> {
  return Promise.resolve()
    .then(() => run(build))
    .finally(() => build.cleanup());
}

function satisfiesCaret(range: string, version: string): boolean {
  const m = /^\^(\d+)\.(\d+)\.(\d+)$/.exec(range);
  if (!m) return false;
  const [a, b, c] = version.split('.').map(Number) as [number, number, number];
  const [x, y, z] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (a !== x) return false;
  if (x === 0) return b === y && c >= z;
  return b > y || (b === y && c >= z);
}

function elements(root: FakeNode, tag: string): FakeNode[] {
  return root.getElementsByTagName(tag);
}

/** ATX headings of a Markdown body, outside fenced code blocks. */
function markdownHeadings(body: string): Array<{ depth: number; text: string }> {
  const headings: Array<{ depth: number; text: string }> = [];
  let fence: string | undefined;
  for (const line of body.split('\n')) {
    const marker = /^(`{3,}|~{3,})/.exec(line)?.[1];
    if (marker && (!fence || marker.startsWith(fence))) {
      fence = fence ? undefined : marker;
      continue;
    }
    const m = fence ? null : /^(#{1,6}) (.+)$/.exec(line);
    if (m) headings.push({ depth: m[1]!.length, text: m[2]!.trim() });
  }
  return headings;
}

function decodeInlineSourceMap(code: string): { sources: string[]; sourcesContent?: string[] } {
  const m = /sourceMappingURL=data:application\/json;charset=utf-8;base64,([A-Za-z0-9+/=]+)/.exec(code);
  if (!m) throw new Error('no inline source map');
  return JSON.parse(Buffer.from(m[1]!, 'base64').toString('utf8')) as { sources: string[]; sourcesContent?: string[] };
}

describe('guides (writer A): pages', () => {
  it('every guide page exists with its sidebar group, a description and no contributors', () => {
    for (const slug of SLUGS) {
      const page = readPage(`guides/${slug}`);
      expect(page.frontmatter.group, slug).toBe(GUIDES[slug]!.group);
      expect(page.frontmatter.description?.length ?? 0, slug).toBeGreaterThan(40);
      expect(page.frontmatter.contributors, slug).toEqual([]);
      expect(page.body, slug).not.toMatch(/\b(TODO|TBD|coming soon|lorem ipsum)\b/i);
    }
  });

  it('every guide explains common mistakes and ends by linking onward', () => {
    for (const slug of SLUGS) {
      const body = readPage(`guides/${slug}`).body;
      const h2 = markdownHeadings(body).filter((h) => h.depth === 2);
      expect(h2.map((h) => h.text), slug).toContain('Common mistakes');
      expect(h2.at(-1)?.text, slug).toBe('Next steps');
      const last = body.split(/^## Next steps$/m)[1] ?? '';
      expect(last.match(/\]\(\/[^)]*\)/g)?.length ?? 0, slug).toBeGreaterThanOrEqual(2);
    }
  });

  it('the index suggests a reading order through all guides, grouped like the sidebar', () => {
    const config = parseYaml(readFileSync(join(ROOT, 'site.config.yaml'), 'utf8')) as {
      sections: Array<{ url: string; pages: string[] }>;
    };
    const order = config.sections.find((s) => s.url === 'guides')!.pages.map((p) => `/${p}/`);
    expect(order).toHaveLength(30);
    const index = readPage('guides');
    expect(index.frontmatter.group).toBe('-');
    const listed = [...index.body.matchAll(/^\d+\. \[[^\]]+\]\((\/guides\/[^)]+\/)\)/gm)].map((m) => m[1]);
    expect(listed).toEqual(order);
    const groups = [...index.body.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(groups).toEqual(expect.arrayContaining(['Getting started', 'Core workflows', 'Optimisation', 'Further topics']));
    // Each group heading comes right before the first guide of that group.
    for (const [group, first] of [
      ['Getting started', '/guides/installation/'],
      ['Core workflows', '/guides/asset-management/'],
      ['Optimisation', '/guides/tree-shaking/'],
      ['Further topics', '/guides/author-libraries/'],
    ] as const) {
      const section = index.body.split(`## ${group}\n`)[1]!.split(/^## /m)[0]!;
      expect(section.match(/^\d+\. \[[^\]]+\]\(([^)]+)\)/m)?.[1], group).toBe(first);
    }
  });

  it('install commands come as npm, yarn and pnpm tabs and cover what the fixture lists', () => {
    for (const slug of SLUGS) {
      const page = readPage(`guides/${slug}`);
      const deps = Object.keys(
        (JSON.parse(fixtureFiles(slug).get('package.json')!.toString('utf8')) as { devDependencies: Record<string, string> })
          .devDependencies,
      );
      const npm = [...page.body.matchAll(/^npm install --save-dev (.+)$/gm)].map((m) => m[1]!);
      const yarn = [...page.body.matchAll(/^yarn add --dev (.+)$/gm)].map((m) => m[1]!);
      const pnpm = [...page.body.matchAll(/^pnpm add --save-dev (.+)$/gm)].map((m) => m[1]!);
      expect(pnpm, slug).toEqual(npm);
      // Yarn names a git source as name@source; otherwise the same arguments.
      expect(yarn.map((y) => y.replace(/^webpack@(webpack\/webpack#main)$/, '$1')), slug).toEqual(npm);
      const npmBlocks = page.blocks.filter((b) => /^npm install --save-dev /m.test(b.code));
      expect(page.body.match(/^::::tabs$/gm)?.length ?? 0, slug).toBe(npmBlocks.length);
      const installed = new Set<string>();
      for (const args of npm) {
        for (const spec of args.split(/\s+/)) {
          const name = spec.includes('/') && !spec.startsWith('@') ? 'webpack' : spec.replace(/(.)@.*$/, '$1');
          expect(deps, `${slug}: ${spec} is installed by the page`).toContain(name);
          installed.add(name);
        }
      }
      // Everything beyond webpack itself is installed on the page that uses it.
      for (const dep of deps.filter((d) => d !== 'webpack' && d !== 'webpack-cli')) {
        expect(installed.has(dep), `${slug}: the page installs ${dep}`).toBe(true);
      }
    }
  });

  it('fixture package.json ranges are satisfied by the installed packages', () => {
    for (const slug of SLUGS) {
      const pkg = JSON.parse(fixtureFiles(slug).get('package.json')!.toString('utf8')) as {
        private?: boolean;
        devDependencies: Record<string, string>;
      };
      expect(pkg.private, slug).toBe(true);
      for (const [name, range] of Object.entries(pkg.devDependencies)) {
        expect(satisfiesCaret(range, installedVersion(name)), `${slug}: ${name}@${range} vs ${installedVersion(name)}`).toBe(true);
      }
    }
  });
});

describe('guides (writer A): titled code blocks equal the fixture projects', () => {
  it.each(SLUGS)('%s', (slug) => {
    expect(driftProblems(`guides/${slug}`, slug, { notShown: GUIDES[slug]!.notShown })).toEqual([]);
  });
});

describe('guides (writer A): the projects build and do what the pages say', () => {
  it('installation: engines, versions and the zero-config build', async () => {
    const page = readPage('guides/installation');
    const engines = (name: string) => (require(`${name}/package.json`) as { engines: { node: string } }).engines.node;
    for (const name of ['webpack', 'webpack-cli', 'webpack-dev-server', 'css-minimizer-webpack-plugin']) {
      const minimum = /(\d+\.\d+\.\d+)/.exec(engines(name))![1]!;
      expect(page.body, `${name} needs Node.js ${minimum}`).toContain(minimum);
    }
    const peer = (require('webpack-cli/package.json') as { peerDependencies: Record<string, string> }).peerDependencies.webpack!;
    expect(page.body).toContain(`webpack ${peer.replace(/^\^/, '')} or later`);

    const versions = onlyBlock('guides/installation', (b) => b.code.includes('Packages:'), 'the --version output');
    const pkg = JSON.parse(fixtureFiles('installation').get('package.json')!.toString('utf8')) as {
      devDependencies: Record<string, string>;
    };
    const lines = [...versions.code.matchAll(/^\s+([\w-]+): +(\S+) → (\S+)$/gm)];
    expect(lines.map((l) => l[1])).toEqual(Object.keys(pkg.devDependencies));
    for (const [, name, range, version] of lines) {
      expect(range).toBe(pkg.devDependencies[name!]);
      expect(satisfiesCaret(range!, version!)).toBe(true);
      expect(version!.split('.')[0]).toBe(installedVersion(name!).split('.')[0]);
    }

    await withGuide(await buildFixture('installation', { config: {} }), (build) => {
      expect(build.assets).toEqual(['main.js']);
      expect(build.read('main.js')).toContain('webpack is installed and this module was bundled.');
      const shown = shownOutputs('guides/installation');
      expect(shown).toHaveLength(1);
      expectShownOutput(shown[0], build.assets, build.stats);
      expect(plainStats(build.stats)).toContain("The 'mode' option has not been set");
    });
  });

  it('getting-started: from npm init to a bundle, a config and an npm script', async () => {
    const shown = shownOutputs('guides/getting-started');
    expect(shown).toHaveLength(3);
    const tidy = onlyBlock('guides/getting-started', (b) => b.lang === 'json' && /\bdiff\b/.test(b.meta), 'the package.json diff');
    const before = JSON.parse(diffBefore(tidy.code)) as Record<string, unknown>;
    const after = JSON.parse(diffAfter(tidy.code)) as Record<string, unknown>;
    const final = JSON.parse(fixtureFiles('getting-started').get('package.json')!.toString('utf8')) as {
      scripts: Record<string, string>;
    };
    expect(before).toMatchObject({ main: 'index.js', type: 'commonjs' });
    expect(after).toEqual({ ...final, scripts: { test: final.scripts.test } });
    expect(final.scripts.build).toBe('webpack');

    const dir = copyFixture('getting-started');
    try {
      // 1. No configuration: the defaults, with the mode warning.
      const zero = await buildProject(dir, { config: {} });
      expectShownOutput(shown[0], zero.assets, zero.stats);
      expect(statsCounts(zero.stats).warnings).toBe(1);

      // The "type": "commonjs" that npm init adds breaks import statements, as the page warns.
      const pkgPath = join(dir, 'package.json');
      const finalPkg = readFileSync(pkgPath, 'utf8');
      writeFileSync(pkgPath, diffBefore(tidy.code));
      const broken = await buildProject(dir, { config: {}, allowErrors: true });
      expect(plainStats(broken.stats)).toContain("'import' and 'export' may appear only with 'sourceType: module'");
      writeFileSync(pkgPath, finalPkg);

      // 2. With webpack.config.js.
      const configured = await buildProject(dir);
      expectShownOutput(shown[1], configured.assets, configured.stats);
      expect(configured.files).toEqual(['index.html', 'main.js']);
      expect(scriptSources(configured.read('index.html'))).toEqual(['main.js']);
      const browser = fakeBrowser(configured.outputPath);
      browser.runScript('main.js');
      expect(elements(browser.document.body, 'p').map((p) => p.textContent)).toEqual([
        'Hello, reader! This page was bundled by webpack.',
      ]);

      // 3. `npm run build` runs `webpack`, which finds webpack.config.js by itself.
      removeDir(join(dir, 'dist', 'main.js'));
      const cli = await runWebpackCli(dir, []);
      expect(cli.code, cli.stderr).toBe(0);
      expect(cli.stdout).toContain('asset main.js');
      expect(cli.stdout).toMatch(/compiled successfully/);
      expect(existsSync(join(dir, 'dist', 'main.js'))).toBe(true);
      for (const asset of shown[2]!.assets) expect(cli.stdout).toContain(`asset ${asset} `);
    } finally {
      removeDir(dir);
    }
  });

  it('asset-management: CSS, an image, a font, JSON and CSV end up where the page says', async () => {
    await withGuide(await buildFixture('asset-management'), (build) => {
      const shown = shownOutputs('guides/asset-management');
      expect(shown).toHaveLength(1);
      expectShownOutput(shown[0], build.assets, build.stats);
      const png = build.assets.find((a) => a.endsWith('.png'))!;
      const woff = build.assets.find((a) => a.endsWith('.woff'))!;
      expect(png).toMatch(/^[0-9a-f]{20}\.png$/);
      expect(woff).toMatch(/^[0-9a-f]{20}\.woff$/);
      expect(build.assets).toHaveLength(3);
      expect(build.read('main.js')).not.toContain('parseCsv');

      const browser = fakeBrowser(build.outputPath);
      browser.runScript('main.js');
      const styles = elements(browser.document.head, 'style').map((s) => s.textContent).join('\n');
      expect(styles).toContain('.release-title');
      expect(styles).toContain(`url(http://localhost/${png})`);
      expect(styles).toContain(`url(http://localhost/${woff})`);
      const section = elements(browser.document.body, 'section')[0]!;
      expect(section.classList.contains('release')).toBe(true);
      expect(elements(section, 'h2')[0]!.textContent).toBe('asset-management, maintained by Docs team');
      expect(elements(section, 'img')[0]!.src).toBe(`http://localhost/${png}`);
      expect(elements(section, 'li').map((li) => li.textContent)).toEqual([
        '1.0.0 (2024-03-01): First public release',
        '1.1.0 (2024-05-14): Adds dark mode',
        '2.0.0 (2025-01-20): New plugin system',
      ]);
    });
  });

  it('asset-management: built-in CSS without a rule, and the JSON named-export warning', async () => {
    const css = await compile('guides-a-builtin-css', { 'src/index.js': "import './a.css';", 'src/a.css': 'p { color: red; }' }, {
      entry: './src/index.js',
    });
    try {
      expect(Object.keys(css.outputs).sort()).toEqual(['main.css', 'main.js']);
    } finally {
      css.cleanup();
    }
    const files = {
      'package.json': '{ "name": "json-named", "private": true }',
      'src/index.js': "import { maintainer } from './p.json'; console.log(maintainer);",
      'src/p.json': '{"maintainer":"x"}',
    };
    const json = await compile('guides-a-json-named', files, { entry: './src/index.js' });
    try {
      expect(plainStats(json.stats)).toContain('Should not import the named export');
      expect(statsCounts(json.stats)).toEqual({ errors: 0, warnings: 1 });
    } finally {
      json.cleanup();
    }
    // In a package with "type": "module" the same import is an error.
    const esm = await buildScratch('guides-a-json-named-esm', {
      ...files,
      'package.json': '{ "name": "json-named", "private": true, "type": "module" }',
    });
    expect(esm.errors).toEqual([expect.stringContaining("Can't import the named export 'maintainer'")]);
  });

  it('asset-modules: inline, source, resource and the size-based asset type', async () => {
    await withGuide(await buildFixture('asset-modules'), (build) => {
      const shown = shownOutputs('guides/asset-modules');
      expect(shown).toHaveLength(1);
      expectShownOutput(shown[0], build.assets, build.stats);
      expect(build.assets.sort()).toEqual([
        expect.stringMatching(/^assets\/[0-9a-f]{20}\.txt\?url$/),
        expect.stringMatching(/^images\/photo\.[0-9a-f]{8}\.png$/),
        'main.js',
      ]);
      // The query is part of the URL, not of the file on disk.
      expect(build.files.sort()).toEqual([
        expect.stringMatching(/^assets\/[0-9a-f]{20}\.txt$/),
        expect.stringMatching(/^images\/photo\.[0-9a-f]{8}\.png$/),
        'main.js',
      ]);
      const browser = fakeBrowser(build.outputPath);
      browser.runScript('main.js');
      const images = elements(browser.document.body, 'img').map((img) => String(img.src));
      expect(images[0]).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(images[1]).toMatch(/^data:image\/png;base64,/);
      expect(images[2]).toMatch(/^http:\/\/localhost\/images\/photo\.[0-9a-f]{8}\.png$/);
      const footer = elements(browser.document.body, 'footer')[0]!;
      expect(footer.textContent).toContain('This demo project may be copied, changed and shared without asking.');
      expect(String(elements(footer, 'a')[0]!.href)).toMatch(/^http:\/\/localhost\/assets\/[0-9a-f]{20}\.txt\?url$/);
      // The default threshold quoted on the page.
      expect(readPage('guides/asset-modules').body).toContain('8096 bytes');
      const defaults = webpack.config.getNormalizedWebpackOptions({});
      webpack.config.applyWebpackOptionsDefaults(defaults);
      expect(defaults.output.assetModuleFilename).toBe('[hash][ext][query][fragment]');
      const parser = defaults.module.parser as { asset?: { dataUrlCondition?: { maxSize?: number } } };
      expect(parser.asset?.dataUrlCondition?.maxSize).toBe(8096);
    });
  });

  it('asset-modules: new URL and with { type: "text" } work without rules; the migration rule is valid', async () => {
    const result = await compile(
      'guides-a-url-text',
      {
        'src/index.js':
          "import licence from './l.txt' with { type: 'text' };\nconst photoUrl = new URL('./p.svg', import.meta.url);\nconsole.log(licence, photoUrl.href);",
        'src/l.txt': 'plain text licence',
        'src/p.svg': readFileSync(join(ROOT, 'test/fixtures/guides/asset-modules/src/images/badge.svg'), 'utf8'),
      },
      { entry: './src/index.js' },
    );
    try {
      expect(result.outputs['main.js']).toContain('plain text licence');
      expect(Object.keys(result.outputs).some((f) => f.endsWith('.svg'))).toBe(true);
    } finally {
      result.cleanup();
    }
    const migration = onlyBlock('guides/asset-modules', (b) => b.code.includes('url-loader'), 'the url-loader diff');
    const rule = new Function(`return (${diffAfter(migration.code).trim().replace(/,$/, '')});`)() as object;
    expect(() => validate({ module: { rules: [rule] } })).not.toThrow();
    expect(rule).toMatchObject({ type: 'asset', parser: { dataUrlCondition: { maxSize: 8192 } } });
  });

  it('output-management: html-webpack-plugin writes the page and output.clean removes stale files', async () => {
    const dir = copyFixture('output-management');
    try {
      const first = onlyBlock(
        'guides/output-management',
        (b) => b.lang === 'js' && !b.title && b.code.includes('module.exports'),
        'the first configuration',
      );
      const plain = await buildProject(dir, { config: evaluateConfigIn(dir, first.code) });
      expect(plain.files).toEqual(['analytics.bundle.js', 'index.bundle.js']);

      mkdirSync(join(dir, 'dist'), { recursive: true });
      writeFileSync(join(dir, 'dist', 'main.js'), '// stale output of an earlier build');
      const build = await buildProject(dir);
      expect(build.files).toEqual(['analytics.bundle.js', 'index.bundle.js', 'index.html']);
      const shown = shownOutputs('guides/output-management');
      expect(shown).toHaveLength(1);
      expectShownOutput(shown[0], build.assets, build.stats);
      const html = onlyBlock('guides/output-management', (b) => b.lang === 'html', 'the generated page');
      expect(build.read('index.html').trim()).toBe(html.code.trim());
      expect(scriptSources(build.read('index.html'))).toEqual(['index.bundle.js', 'analytics.bundle.js']);

      const browser = fakeBrowser(build.outputPath);
      for (const src of scriptSources(build.read('index.html'))) browser.runScript(src);
      expect(elements(browser.document.body, 'h1')[0]!.textContent).toBe('Generated by html-webpack-plugin');
      expect(browser.logs.some((l) => l.startsWith('page view'))).toBe(true);
    } finally {
      removeDir(dir);
    }
  });

  it("output-management: minify: false alone still leaves index.html minified by webpack; minimize.html: false keeps it as written", async () => {
    const HtmlWebpackPlugin = require('html-webpack-plugin') as new (options: object) => object;
    const page = readPage('guides/output-management').body;
    expect(page).toContain('also set `optimization: { minimize: { html: false } }`');
    const dir = copyFixture('output-management');
    try {
      const unminifiedPlugin = (c: Configuration): Configuration => ({ ...c, plugins: [new HtmlWebpackPlugin({ title: 'Output management', minify: false }) as never] });
      const pluginOnly = await buildProject(dir, { adjust: unminifiedPlugin });
      const html = (build: GuideBuild) => build.assetDetails.find((a) => a.name === 'index.html')!;
      expect(html(pluginOnly).info.minimized).toBe(true);
      expect(pluginOnly.read('index.html')).toMatch(/^<!doctype html><head><meta charset=utf-8>/);
      const both = await buildProject(dir, { adjust: (c) => ({ ...unminifiedPlugin(c), optimization: { minimize: { html: false } } }) });
      expect(html(both).info.minimized).toBeFalsy();
      expect(both.read('index.html').split('\n').length).toBeGreaterThan(5);
    } finally {
      removeDir(dir);
    }
  });

  it('development: the converter works, and the error the page provokes is mapped to convert.js line 3', async () => {
    const dir = copyFixture('development');
    try {
      const build = await buildProject(dir);
      const map = decodeInlineSourceMap(build.read('main.js'));
      const convertIndex = map.sources.findIndex((s) => s.endsWith('src/convert.js'));
      expect(convertIndex).toBeGreaterThanOrEqual(0);
      const convert = map.sourcesContent?.[convertIndex] ?? '';
      // The page sends the reader to convert.js:3, the throw statement.
      expect(convert.split('\n')[2]).toContain('throw new RangeError(');
      expect(readPage('guides/development').body).toContain('`convert.js:3`');

      const browser = fakeBrowser(build.outputPath);
      browser.runScript('main.js');
      const field = elements(browser.document.body, 'input')[0]!;
      const output = elements(browser.document.body, 'output')[0]!;
      expect(field.type).toBe('number');
      expect(output.textContent).toBe(' = 68.0 °F');
      field.value = '-40';
      field.dispatchEvent({ type: 'input', target: field });
      expect(output.textContent).toBe(' = -40.0 °F');
      field.value = '-300';
      expect(() => field.dispatchEvent({ type: 'input', target: field })).toThrow('-300 °C is below absolute zero');
      expect(readPage('guides/development').body).toContain('`Uncaught RangeError: -300 °C is below absolute zero`');
    } finally {
      removeDir(dir);
    }
  });

  it('development: without a port the dev server looks for a free one from 8080; a fixed port is used as given', async () => {
    const Server = require('webpack-dev-server') as { getFreePort(port: unknown, host: string): Promise<number | string> };
    const config = await loadConfig(join(ROOT, 'test', 'fixtures', 'guides', 'development'));
    expect((config as { devServer?: { port?: unknown } }).devServer?.port).toBeUndefined();
    const { createServer } = await import('node:net');
    const busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const taken = (busy.address() as { port: number }).port;
    const base = process.env.WEBPACK_DEV_SERVER_BASE_PORT;
    try {
      // A fixed port comes back unchanged, even when it is taken: listening then fails with EADDRINUSE.
      expect(await Server.getFreePort(taken, '127.0.0.1')).toBe(taken);
      // No port (or 'auto'): the search starts at the base port (8080 by default) and skips ports in use.
      process.env.WEBPACK_DEV_SERVER_BASE_PORT = String(taken);
      expect(await Server.getFreePort(undefined, '127.0.0.1')).toBeGreaterThan(taken);
      expect(await Server.getFreePort('auto', '127.0.0.1')).toBeGreaterThan(taken);
    } finally {
      if (base === undefined) delete process.env.WEBPACK_DEV_SERVER_BASE_PORT;
      else process.env.WEBPACK_DEV_SERVER_BASE_PORT = base;
      await new Promise((resolve) => busy.close(resolve));
    }
    const source = readFileSync(require.resolve('webpack-dev-server/lib/Server.js'), 'utf8');
    expect(source).toMatch(/WEBPACK_DEV_SERVER_BASE_PORT, 10\)\s*:\s*8080;/);
  });

  it('development: watch mode rebuilds after a change', async () => {
    const dir = copyFixture('development');
    const config = withProjectDefaults(dir, (await loadConfig(dir)) as Configuration);
    const compiler = webpack(config) as Compiler;
    const builds: string[] = [];
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no rebuild with the change after ${builds.length} builds`)), 20_000);
        const watching: { close(callback: () => void): void } = compiler.watch({ aggregateTimeout: 50 }, (err) => {
          if (err) return reject(err);
          builds.push(readFileSync(join(dir, 'dist', 'main.js'), 'utf8'));
          if (builds.length === 1) {
            setTimeout(() => {
              const index = join(dir, 'src/index.js');
              writeFileSync(index, readFileSync(index, 'utf8').replace('toFixed(1)', 'toFixed(2)'));
            }, 200);
          } else if (builds.at(-1)!.includes('toFixed(2)')) {
            clearTimeout(timer);
            watching.close(() => resolve());
          }
        })!;
      });
      expect(builds[0]).toContain('toFixed(1)');
      expect(builds.at(-1)).toContain('toFixed(2)');
      expect(builds.at(-1)).not.toContain('toFixed(1)');
      expect(readPage('guides/development').body).toContain('change `toFixed(1)` to `toFixed(2)`');
    } finally {
      removeDir(dir);
    }
  });

  it('development: webpack-dev-server serves the page and bundle from memory', async () => {
    const dir = copyFixture('development');
    const server = await startDevServer(dir, (await loadConfig(dir)) as Configuration);
    try {
      const html = await server.fetchText('/');
      expect(html).toContain('<title>Temperature converter</title>');
      expect(scriptSources(html)).toEqual(['main.js']);
      const bundle = await server.fetchText('/main.js');
      expect(bundle).toContain('is below absolute zero');
      expect(bundle).toContain('sourceMappingURL=data:application/json');
      expect(bundle).toContain('webpack-dev-server');
      expect(existsSync(join(dir, 'dist'))).toBe(false);
      const shown = shownOutputs('guides/development');
      expect(shown).toHaveLength(1);
      const assets = server.firstBuild.toJson({ all: false, assets: true }).assets!.map((a) => a.name);
      expectShownOutput(shown[0], assets, server.firstBuild);
      expect(shown[0]!.block.code).toContain('[webpack-dev-server] Project is running at:');
      // The sizes the page gives: main.js in KiB (rounded as webpack prints it) and index.html in bytes.
      const sizes = server.firstBuild.toJson({ all: false, assets: true }).assets!;
      const kib = (name: string) => Math.round(sizes.find((a) => a.name === name)!.size / 1024);
      expect(shown[0]!.block.code).toContain(`asset main.js ${kib('main.js')} KiB`);
      expect(shown[0]!.block.code).toContain(`asset index.html ${sizes.find((a) => a.name === 'index.html')!.size} bytes`);
    } finally {
      await server.stop();
      removeDir(dir);
    }
  });

  it('hot-module-replacement: an edit produces a hot update containing only the changed module', async () => {
    const dir = copyFixture('hot-module-replacement');
    const server = await startDevServer(dir, (await loadConfig(dir)) as Configuration);
    try {
      const bundle = await server.fetchText('/main.js');
      expect(bundle).toContain('[HMR] Waiting for update signal from WDS...');
      expect(bundle).toContain('module.hot.accept');

      const edit = onlyBlock('guides/hot-module-replacement', (b) => /\bdiff\b/.test(b.meta), 'the edit');
      expect(normalizeText(diffBefore(edit.code))).toBe(normalizeText(readFileSync(join(dir, 'src/counter-view.js'), 'utf8')));
      const edited = join(dir, 'src/counter-view.js');
      const after = diffAfter(edit.code);
      // The build that compiled the edited file (a watcher may first rebuild on its own, with the old text).
      const sawEdit = (stats: Stats) =>
        [...stats.compilation.modules].some(
          (m) => (m as { resource?: string }).resource === edited && m.originalSource()?.source().toString() === after,
        );
      const next = server.nextBuild(sawEdit);
      writeFileSync(edited, after);
      const stats = await next;
      const assets = stats.toJson({ all: false, assets: true }).assets!.map((a) => a.name);
      const manifest = assets.find((a) => /^main\.[0-9a-f]+\.hot-update\.json$/.test(a));
      const update = assets.find((a) => /^main\.[0-9a-f]+\.hot-update\.js$/.test(a));
      expect(manifest, assets.join(', ')).toBeDefined();
      expect(update, assets.join(', ')).toBeDefined();
      expect(JSON.parse(await server.fetchText(`/${manifest}`))).toMatchObject({ c: ['main'] });
      const code = await server.fetchText(`/${update}`);
      expect(code).toContain('Clicks so far: ');
      expect(code).toContain('./src/counter-view.js');
      expect(code).not.toContain('./src/index.js');
    } finally {
      await server.stop();
      removeDir(dir);
    }
  });

  it('hot-module-replacement: the counter works, and production builds drop the HMR code', async () => {
    const dir = copyFixture('hot-module-replacement');
    try {
      const dev = await buildProject(dir);
      const browser = fakeBrowser(dev.outputPath);
      browser.runScript('main.js');
      const [root] = elements(browser.document.body, 'p');
      const [button] = elements(browser.document.body, 'button');
      for (let i = 0; i < 3; i++) button!.click();
      expect(root!.textContent).toBe('You clicked 3 times.');
      expect(elements(browser.document.head, 'style')[0]!.textContent).toContain('#f2f7fb');

      const prod = await buildProject(dir, { adjust: (c) => ({ ...c, mode: 'production', devtool: false }) });
      expect(prod.read('main.js')).not.toMatch(/module\.hot|\.accept\(|webpackHot/);
      expect(prod.read('main.js')).toContain('You clicked');
    } finally {
      removeDir(dir);
    }
  });

  it('environment-variables: --env, argv.mode, DefinePlugin and NODE_ENV', async () => {
    const dir = copyFixture('environment-variables');
    try {
      const shown = shownOutputs('guides/environment-variables');
      expect(shown).toHaveLength(1);
      // The staging script, run by the real CLI.
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
      const staging = pkg.scripts['build:staging']!.split(' ').slice(1);
      const cli = await runWebpackCli(dir, staging);
      expect(cli.code, cli.stderr).toBe(0);
      for (const asset of shown[0]!.assets) expect(cli.stdout).toContain(`asset ${asset} `);
      const shownBundle = onlyBlock('guides/environment-variables', (b) => b.lang === 'js' && b.code.startsWith('fetch("'), 'the bundle');
      const bundle = readFileSync(join(dir, 'dist', 'main.js'), 'utf8');
      expect(bundle.split('\n')[0]).toBe(shownBundle.code.trim());
      expect(bundle).toContain('//# sourceMappingURL=main.js.map');
      expect(existsSync(join(dir, 'dist', 'main.js.map'))).toBe(true);

      // build:dev: development mode keeps the log and uses the default URL.
      const dev = await buildProject(dir, { env: {} });
      expect(dev.read('main.js')).toContain('Development build, talking to');
      expect(dev.read('main.js')).toContain('https://api.example.com');

      // An explicit --mode wins over the production flag.
      const config = (await loadConfig(dir, { env: { production: true }, argv: { mode: 'development' } })) as Configuration;
      expect(config.mode).toBe('development');
      expect(config.devtool).toBe('eval-source-map');
    } finally {
      removeDir(dir);
    }
  });

  it('environment-variables: the env object webpack-cli passes is the one shown', async () => {
    const dir = copyFixture('environment-variables');
    try {
      writeFileSync(
        join(dir, 'print-env.config.js'),
        "module.exports = (env) => { console.log('ENV=' + JSON.stringify(env)); return { mode: 'production', entry: './src/index.js', plugins: [new (require('webpack').DefinePlugin)({ __API_URL__: '\"x\"' })] }; };\n",
      );
      const command = onlyBlock('guides/environment-variables', (b) => b.lang === 'bash' && b.code.includes('build.target=modern'), 'the --env command');
      const args = command.code.trim().split(/\s+/).slice(2);
      const cli = await runWebpackCli(dir, [...args, '--config', 'print-env.config.js']);
      expect(cli.code, cli.stderr).toBe(0);
      const printed = JSON.parse(/ENV=(.*)/.exec(cli.stdout)![1]!) as unknown;
      const shown = onlyBlock('guides/environment-variables', (b) => b.lang === 'json' && b.code.includes('WEBPACK_BUNDLE'), 'the env object');
      expect(printed).toEqual(JSON.parse(shown.code));
    } finally {
      removeDir(dir);
    }
  });

  it('environment-variables: the dotenv option and DefinePlugin without JSON.stringify', async () => {
    const envFile = onlyBlock('guides/environment-variables', (b) => b.lang === 'ini', 'the .env file');
    const usage = onlyBlock('guides/environment-variables', (b) => b.lang === 'js' && b.code.includes('WEBPACK_API_URL'), 'the dotenv usage');
    const result = await compile(
      'guides-a-dotenv',
      { '.env': envFile.code, 'src/index.js': `${usage.code}\nconsole.log(process.env.DATABASE_PASSWORD);\n` },
      { entry: './src/index.js', dotenv: true } as Configuration,
    );
    try {
      expect(result.outputs['main.js']).toContain('https://api.example.com/status');
      expect(result.outputs['main.js']).toContain('process.env.DATABASE_PASSWORD');
      expect(result.outputs['main.js']).not.toContain('do-not-ship-this');
    } finally {
      result.cleanup();
    }
    const raw = await buildScratch('guides-a-define-raw', { 'src/index.js': 'console.log(__API_URL__);' }, [
      new webpack.DefinePlugin({ __API_URL__: 'https://api.example.com' }),
    ]);
    expect(raw.errors).toHaveLength(1);
    // In development nothing parses the output again: the build reports success with the broken code inside.
    const dir = copyFixture('environment-variables');
    try {
      const dev = await buildProject(dir, {
        allowErrors: true,
        adjust: (c) => ({ ...c, plugins: [new webpack.DefinePlugin({ __API_URL__: 'https://api.example.com' })] }),
      });
      expect(dev.stats.compilation.options.mode).toBe('development');
      expect(dev.stats.hasErrors()).toBe(false);
      expect(dev.read('main.js')).toContain('https://api.example.com;');
    } finally {
      removeDir(dir);
    }
  });

  it('typescript: ts-loader compiles, maps to .ts sources and fails on type errors', async () => {
    const dir = copyFixture('typescript');
    try {
      const build = await buildProject(dir);
      const shown = shownOutputs('guides/typescript');
      expect(shown).toHaveLength(2);
      expectShownOutput(shown[0], build.assets, build.stats);
      expect([...build.assets].sort()).toEqual(['bundle.js', expect.stringMatching(/^[0-9a-f]{20}\.svg$/)]);
      const code = build.read('bundle.js');
      expect(code).toContain('function total(items)');
      expect(code).not.toContain('readonly LineItem[]');
      const map = decodeInlineSourceMap(code);
      const cart = map.sources.findIndex((s) => s.endsWith('src/cart.ts'));
      expect(cart).toBeGreaterThanOrEqual(0);
      expect(map.sourcesContent?.[cart]).toContain('export interface LineItem');

      // The page at the project root shows the icon and the total the guide describes.
      expect(readFileSync(join(dir, 'index.html'), 'utf8')).toContain('<script src="dist/bundle.js"></script>');
      const browser = fakeBrowser(build.outputPath);
      browser.runScript('bundle.js');
      const [img] = elements(browser.document.body, 'img');
      expect(img!.src).toMatch(/[0-9a-f]{20}\.svg$/);
      const summary = elements(browser.document.body, 'p')[0]!.textContent;
      expect(summary).toBe('Total: €12.60');
      expect(readPage('guides/typescript').body).toContain('"Total: €12.60"');

      const mistake = onlyBlock('guides/typescript', (b) => /\bdiff\b/.test(b.meta), 'the type error');
      const index = readFileSync(join(dir, 'src/index.ts'), 'utf8');
      expect(index).toContain(diffBefore(mistake.code));
      writeFileSync(join(dir, 'src/index.ts'), index.replace(diffBefore(mistake.code), diffAfter(mistake.code)));
      const failed = await buildProject(dir, { allowErrors: true });
      expectShownOutput(shown[1], failed.assets, failed.stats);
      const text = plainStats(failed.stats).split('\n').map((l) => l.trimEnd());
      for (const line of shown[1]!.block.code.split('\n').filter((l) => l.trim() && !l.startsWith('webpack '))) {
        expect(text, line).toContain(line.trimEnd());
      }
    } finally {
      removeDir(dir);
    }
  });

  it('production: minified JavaScript and CSS with source maps, and a development variant', async () => {
    const dir = copyFixture('production');
    try {
      const prod = await buildProject(dir, { file: 'webpack.prod.js' });
      const shown = shownOutputs('guides/production');
      expect(shown).toHaveLength(1);
      expectShownOutput(shown[0], prod.assets, prod.stats);
      expect(prod.files).toEqual(['app.css', 'app.css.map', 'app.js', 'app.js.map', 'index.html']);
      const js = prod.read('app.js');
      expect(js.trim().split('\n')).toHaveLength(2);
      expect(js).not.toContain('summarising');
      expect(js).toContain('in revenue');
      expect(js.trim().endsWith('//# sourceMappingURL=app.js.map')).toBe(true);
      expect(prod.read('app.css')).toContain('.summary{background-color:#fff;');
      expect(prod.read('app.css')).not.toContain('Layout for the production demo');
      expect(prod.read('index.html')).toMatch(/<link href="?app\.css"? rel="?stylesheet"?>/);

      const dev = await buildProject(dir, { file: 'webpack.dev.js' });
      expect(dev.files).toEqual(['app.js', 'index.html']);
      expect(dev.read('app.js')).toContain("console.debug('summarising'");
      expect(dev.read('app.js')).toContain('sourceMappingURL=data:application/json');
    } finally {
      removeDir(dir);
    }
  });

  it("production: optimization.minimizer replaces the defaults unless it contains '...'", async () => {
    const CssMinimizerPlugin = require('css-minimizer-webpack-plugin') as new () => object;
    const dir = copyFixture('production');
    try {
      const prod = (await loadConfig(dir, { file: 'webpack.prod.js' })) as Configuration;
      const keep = await buildProject(dir, {
        config: { ...prod, devtool: false, optimization: { minimizer: ['...', new CssMinimizerPlugin() as never] } },
      });
      expect(keep.read('app.js')).not.toContain('function summarise(orders)');
      const replaced = await buildProject(dir, {
        config: { ...prod, devtool: false, optimization: { minimizer: [new CssMinimizerPlugin() as never] } },
      });
      expect(replaced.read('app.js')).toContain('function summarise(orders)');
      // The Terser options come from optimization.minimize.javascript: without them console.debug stays.
      expect(keep.read('app.js')).toContain('summarising');
      // webpack's own minimizer comes from minimizer-webpack-plugin; terser-webpack-plugin is not a dependency.
      const dependencies = Object.keys((require('webpack/package.json') as { dependencies: Record<string, string> }).dependencies);
      expect(dependencies).toContain('minimizer-webpack-plugin');
      expect(dependencies).not.toContain('terser-webpack-plugin');
      expect(prod.optimization?.minimize).toEqual({ javascript: { compress: { pure_funcs: ['console.debug'] } } });
    } finally {
      removeDir(dir);
    }
  });

  it('tree-shaking: unused exports are marked, minified away, and sideEffects drops whole modules', async () => {
    const dir = copyFixture('tree-shaking');
    try {
      const pkgPath = join(dir, 'package.json');
      const pkg = JSON.parse(readFileSync(pkgPath, 'utf8')) as Record<string, unknown>;
      expect(pkg.sideEffects).toBe(false);
      const { sideEffects: _flag, ...withoutFlag } = pkg;
      writeFileSync(pkgPath, JSON.stringify(withoutFlag, null, 2));

      // Development with usedExports: the excerpt shown on the page is in the bundle.
      const devConfig = onlyBlock('guides/tree-shaking', (b) => b.lang === 'js' && !b.title && b.code.includes('usedExports'), 'the development configuration');
      const dev = await buildProject(dir, { config: evaluateConfigIn(dir, devConfig.code) });
      const excerpt = onlyBlock('guides/tree-shaking', (b) => b.code.includes('/* unused harmony export whisper */'), 'the excerpt');
      expect(dev.read('bundle.js')).toContain(excerpt.code.trim());
      expect(dev.read('bundle.js')).toContain('/* unused harmony export formatEuros */');

      const bundles = readPage('guides/tree-shaking').blocks.filter((b) => b.lang === 'js' && b.code.startsWith('(()=>{'));
      expect(bundles).toHaveLength(2);
      const shown = shownOutputs('guides/tree-shaking');
      expect(shown).toHaveLength(2);

      // Production without the flag: whisper is gone, the constructor call stays.
      const noFlag = await buildProject(dir);
      expect(noFlag.read('bundle.js').trim()).toBe(bundles[0]!.code.trim());
      expectShownOutput(shown[0], noFlag.assets, noFlag.stats);
      expect(plainStats(noFlag.stats)).toContain('./src/index.js + 3 modules');

      // The /*#__PURE__*/ annotation from the page removes it as well.
      const pure = onlyBlock('guides/tree-shaking', (b) => b.code.includes('__PURE__'), 'the PURE diff');
      const currency = readFileSync(join(dir, 'src/format/currency.js'), 'utf8');
      writeFileSync(join(dir, 'src/format/currency.js'), currency.replace(diffBefore(pure.code).trim(), diffAfter(pure.code).trim()));
      const annotated = await buildProject(dir);
      expect(annotated.read('bundle.js').trim()).toBe(bundles[1]!.code.trim());
      writeFileSync(join(dir, 'src/format/currency.js'), currency);

      // With "sideEffects": false, as in the fixture: currency.js is not even included.
      writeFileSync(pkgPath, JSON.stringify(pkg, null, 2));
      const flagged = await buildProject(dir);
      expect(flagged.read('bundle.js').trim()).toBe(bundles[1]!.code.trim());
      expectShownOutput(shown[1], flagged.assets, flagged.stats);
      expect(plainStats(flagged.stats)).toContain('./src/index.js + 1 modules');
      const modules = flagged.stats.toJson({ all: false, modules: true, nestedModules: true }).modules ?? [];
      const names = modules.flatMap((m) => [m.name, ...(m.modules ?? []).map((n) => n.name)]);
      expect(names).not.toContain('./src/format/currency.js');
    } finally {
      removeDir(dir);
    }
  });

  it('code-splitting: minChunks is 1 at the top level and 2 only in the default cache group, so vendor code used once is split', async () => {
    const defaults = webpack.config.getNormalizedWebpackOptions({ mode: 'production' });
    webpack.config.applyWebpackOptionsDefaults(defaults);
    const splitChunks = defaults.optimization.splitChunks as { minChunks?: number; cacheGroups: Record<string, { minChunks?: number }> };
    expect(splitChunks.minChunks).toBe(1);
    expect(splitChunks.cacheGroups.default!.minChunks).toBe(2);
    expect(splitChunks.cacheGroups.defaultVendors!.minChunks).toBeUndefined();
    const page = readPage('guides/code-splitting').body;
    expect(page).toContain('even when only one chunk uses them (the top-level `minChunks` default is 1)');
    expect(page).not.toContain('the module must be shared by at least two chunks');
  });

  it('code-splitting: entry points duplicate, dependOn and SplitChunksPlugin share, import() splits', async () => {
    const dir = copyFixture('code-splitting');
    const marker = 'Intl.ListFormat';
    const withMarker = (build: GuideBuild) => build.files.filter((f) => f.endsWith('.js') && build.read(f).includes(marker));
    const shown = shownOutputs('guides/code-splitting');
    expect(shown).toHaveLength(3);
    try {
      // 1. Two entry points: the shared module is copied into both.
      const first = onlyBlock('guides/code-splitting', (b) => b.lang === 'js' && !b.title && b.code.includes('module.exports'), 'the entry-points configuration');
      const entries = await buildProject(dir, { config: evaluateConfigIn(dir, first.code) });
      expectShownOutput(shown[0], entries.assets, entries.stats);
      expect(withMarker(entries).sort()).toEqual(['another.bundle.js', 'index.bundle.js']);

      // 2. dependOn: one copy, in shared.bundle.js, and the page loads it.
      const diff = onlyBlock('guides/code-splitting', (b) => b.code.includes('dependOn'), 'the dependOn diff');
      expect(first.code).toContain(diffBefore(diff.code));
      const dependOn = await buildProject(dir, {
        config: evaluateConfigIn(dir, first.code.replace(diffBefore(diff.code), diffAfter(diff.code))),
      });
      expectShownOutput(shown[1], dependOn.assets, dependOn.stats);
      expect(withMarker(dependOn)).toEqual(['shared.bundle.js']);
      await expectPageWorks(dependOn, ['index.bundle.js', 'shared.bundle.js']);

      // 3. SplitChunksPlugin: a split chunk holds the shared module.
      const split = await buildProject(dir);
      expectShownOutput(shown[2], split.assets, split.stats);
      const splitChunk = withMarker(split);
      expect(splitChunk).toHaveLength(1);
      expect(splitChunk[0]).toMatch(/^\d+\.bundle\.js$/);
      expect(shown[2]!.assets).toContain(splitChunk[0]);
      await expectPageWorks(split, [splitChunk[0]!, 'index.bundle.js']);
      const report = split.stats.toJson({ all: false, chunks: true }).chunks!.find((c) => c.names?.includes('report'));
      expect(report?.initial).toBe(false);

      // The note: if the entries use different exports, production mode does not share the module.
      writeFileSync(join(dir, 'src/another-module.js'), "import { formatList } from './shared/format.js';\n\nconsole.log(formatList(['a', 'b']));\n");
      const different = await buildProject(dir);
      expect(withMarker(different).sort()).toEqual(['another.bundle.js', 'index.bundle.js']);
    } finally {
      removeDir(dir);
    }
  });

  it('lazy-loading: the receipt chunk is separate and loaded only on click; prefetch adds a hint', async () => {
    const dir = copyFixture('lazy-loading');
    try {
      const build = await buildProject(dir);
      const shown = shownOutputs('guides/lazy-loading');
      expect(shown).toHaveLength(1);
      expectShownOutput(shown[0], build.assets, build.stats);
      expect(build.files).toEqual(['index.html', 'main.bundle.js', 'receipt.chunk.js']);
      expect(build.read('main.bundle.js')).not.toContain('RECEIPT');
      expect(build.read('receipt.chunk.js')).toContain('RECEIPT');
      const chunks = build.stats.toJson({ all: false, chunks: true }).chunks!;
      expect(chunks.find((c) => c.names?.includes('receipt'))?.initial).toBe(false);
      expect(scriptSources(build.read('index.html'))).toEqual(['main.bundle.js']);

      const browser = fakeBrowser(build.outputPath);
      browser.runScript('main.bundle.js');
      await browser.settle();
      expect(browser.requestedScripts).toEqual([]);
      const button = elements(browser.document.body, 'button')[0]!;
      expect(button.textContent).toBe('Print receipt');
      button.click();
      await browser.settle();
      expect(browser.requestedScripts).toEqual(['http://localhost/receipt.chunk.js']);
      expect(browser.logs).toEqual(['RECEIPT\nCoffee...... 3.20\nCroissant... 2.50\nTOTAL....... 5.70']);
      button.click();
      await browser.settle();
      expect(browser.requestedScripts).toHaveLength(1);
      expect(browser.logs).toHaveLength(2);

      const prefetch = onlyBlock('guides/lazy-loading', (b) => b.code.includes('webpackPrefetch: true'), 'the prefetch diff');
      const index = readFileSync(join(dir, 'src/index.js'), 'utf8');
      expect(index).toContain(diffBefore(prefetch.code));
      writeFileSync(join(dir, 'src/index.js'), index.replace(diffBefore(prefetch.code), diffAfter(prefetch.code)));
      const hinted = await buildProject(dir);
      const page = fakeBrowser(hinted.outputPath);
      page.runScript('main.bundle.js');
      await page.settle();
      const links = elements(page.document.head, 'link');
      expect(links.map((l) => [l.rel, l.href])).toEqual([['prefetch', 'http://localhost/receipt.chunk.js']]);
      expect(page.requestedScripts).toEqual([]);
      expect(page.logs).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });
});

/*
 * Reading order: each page is followed from top to bottom in an empty project
 * (see followPage): files are written when the page shows them, diffs are
 * applied to the file they belong to, and the project is built wherever the
 * page builds. No build may fail because of a file the page introduces later.
 */
const READING: Record<string, ReadingOptions> = {
  installation: {},
  // `npm init -y` writes the package.json that the page's first diff starts from.
  'getting-started': { start: { 'package.json': diffBefore(onlyBlock('guides/getting-started', (b) => b.lang === 'json' && /\bdiff\b/.test(b.meta), 'the package.json diff').code) } },
  'asset-management': {
    untitled: { "const path = require('node:path');": 'webpack.config.js', 'function component() {': 'src/index.js', '.release {': 'src/style.css' },
    supplied: { 'src/icon.png': 'Put a small image at `src/icon.png`', 'src/fonts/demo-box.woff': 'licensed to use as `src/fonts/demo-box.woff`' },
  },
  'asset-modules': {
    supplied: { 'src/images/icon.png': 'src/images/icon.png', 'src/images/photo.png': 'src/images/photo.png' },
    // A webpack 4 rule, shown to explain the migration, not part of this project.
    notFollowed: ["loader: 'url-loader'"],
  },
  'output-management': {},
  development: {},
  // The command shows the `env` the function receives; the project's files follow later.
  'environment-variables': { notFollowed: ['npx webpack --env production --env apiUrl='] },
  typescript: { tried: ["quantity: '2'"] },
  production: {},
  'tree-shaking': { tried: ['/*#__PURE__*/ new Intl'] },
  'code-splitting': {
    untitled: { "const path = require('node:path');": 'webpack.config.js' },
    notFollowed: ['--json=stats.json'],
  },
  'lazy-loading': { tried: ['webpackPrefetch: true */'] },
};

describe('guides (writer A): followed in reading order', () => {
  for (const [slug, options] of Object.entries(READING)) {
    it(`${slug}: every build the page asks for works at that point, and the page ends with the fixture's files`, async () => {
      const result = await followPage(`guides/${slug}`, slug, options);
      expect(result.problems, result.steps.join('\n')).toEqual([]);
      expect(result.builds.length, result.steps.join('\n')).toBeGreaterThan(0);
    });
  }
});

/** Builds a throwaway production project that is expected to fail; returns the error messages and removes the folder. */
async function buildScratch(name: string, files: Record<string, string>, plugins: Configuration['plugins'] = []): Promise<{ errors: string[] }> {
  const dir = scratchDir(name);
  try {
    writeFiles(dir, files);
    const build = await buildProject(dir, { config: { mode: 'production', entry: './src/index.js', plugins }, allowErrors: true });
    return { errors: (build.stats.toJson({ all: false, errors: true }).errors ?? []).map((e) => e.message) };
  } finally {
    removeDir(dir);
  }
}

/** Evaluates a configuration shown in a page as if it were the project's webpack.config.js. */
function evaluateConfigIn(dir: string, source: string): Configuration {
  return evaluateConfig(source, dir) as Configuration;
}

/** Runs the page's scripts in the order of index.html and checks the heading and the lazily loaded report. */
async function expectPageWorks(build: GuideBuild, scripts: string[]): Promise<void> {
  const html = build.read('index.html');
  expect(scriptSources(html)).toEqual(scripts);
  const browser = fakeBrowser(build.outputPath);
  for (const src of scripts) browser.runScript(src);
  await browser.settle();
  expect(elements(browser.document.body, 'h1')[0]?.textContent).toBe('Split with entry points, SplitChunksPlugin, and import()');
  expect(elements(browser.document.body, 'p')[0]?.textContent).toMatch(/^Report generated on \w+day, \w+ \d+\.$/);
  expect(browser.requestedScripts).toEqual(['http://localhost/report.bundle.js']);
}
