import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contrastProblems, contrastRatio, COLOR_DEFAULTS, themeColors } from '../../src/theme/colors.js';
import { format, UI_EN, uiStrings } from '../../src/theme/ui.js';
import UI_ZH from '../../src/theme/ui/zh.json' with { type: 'json' };
import { COMPONENT_NAMES, SiteConfigSchema } from '../../src/config/schema.js';
import { SOCIAL_ICON_NAMES } from '../../src/theme/social-icons.js';
import { classify } from '../../src/serve/watch.js';
import { ROOT } from '../helpers/content.js';
import { editFile, runDocs } from '../helpers/site.js';
import { serveProblems } from '../robustness/harness.js';

/* Theming from the config: the tool holds nothing of webpack, contrast and file checks, `docs init`. */

const temps: string[] = [];
const temp = (prefix: string) => {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temps.push(dir);
  return dir;
};
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => statSync(join(dir, f)).isFile());
}

/** A copy of the themed fixture site to break. */
function themedCopy(): string {
  const dir = temp('docs-themed-');
  cpSync(join(ROOT, 'test/fixtures/themed'), dir, { recursive: true });
  return dir;
}

/** Sets one colour of theme.colors in a themed copy's config. */
function setColor(dir: string, key: string, value: string): void {
  editFile(join(dir, 'site.config.yaml'), new RegExp(`^(    ${key}: )'#[0-9a-f]{6}'$`, 'm'), `$1'${value}'`);
}

/** "site.config.yaml:line:column theme.colors.<key>:", the place of a colour's value in a themed copy's config. */
function at(dir: string, key: string): string {
  const lines = readFileSync(join(dir, 'site.config.yaml'), 'utf8').split('\n');
  const line = lines.findIndex((l) => l.startsWith(`    ${key}: `));
  expect(line).toBeGreaterThanOrEqual(0);
  return `site.config.yaml:${line + 1}:${lines[line]!.indexOf("'") + 1} theme.colors.${key}:`;
}

describe('the tool is neutral', () => {
  // webpack's name, its palette (as hex and as the rgba() forms the styles used) and its logo's files.
  const WEBPACK_MARKS = [
    /webpack/i,
    /#?(8dd6f9|8ed6fb|1d78c1|1c78c0|2b3a42|1b252b|155f9b|0c2231|1a6aa8|7cc4f5|0f4c7a|a9d8f8|173f5c|d3e1e8)\b/i,
    /rgba?\(\s*(141,\s*214,\s*249|29,\s*120,\s*193)/,
    /M16 1 29 8\.5v15L16 31 3 23\.5v-15z/,
    /webpack[-_]?logo|logo-on-white|icon-square/i,
  ];
  for (const folder of ['src', 'templates']) {
    it(`has no trace of webpack's name, colours or logo in ${folder}/`, () => {
      const hits: string[] = [];
      for (const file of filesUnder(join(ROOT, folder))) {
        const text = readFileSync(join(ROOT, folder, file), 'utf8');
        text.split('\n').forEach((line, i) => {
          for (const mark of WEBPACK_MARKS) if (mark.test(line)) hits.push(`${folder}/${file}:${i + 1}: ${line.trim().slice(0, 100)}`);
        });
      }
      expect(hits).toEqual([]);
    });
  }

  it('finds what it looks for (the same check on the webpack site config)', () => {
    const text = readFileSync(join(ROOT, 'site.config.yaml'), 'utf8');
    expect(WEBPACK_MARKS.slice(0, 2).every((mark) => mark.test(text))).toBe(true);
  });

  it('has neutral default colours that pass every contrast check', () => {
    expect(contrastProblems(themeColors())).toEqual([]);
    expect(Object.values(COLOR_DEFAULTS).join(' ')).not.toMatch(/8dd6f9|1d78c1|2b3a42/i);
  });
});

describe('interface strings', () => {
  it('fill their own placeholders only: "{toString}" stays text (it showed the source of a function)', () => {
    expect(format('{day} {toString} {constructor}', { day: 3 })).toBe('3 {toString} {constructor}');
  });

  it('have a Chinese string for every English one, and a site may replace single strings', () => {
    expect(Object.keys(UI_ZH).sort()).toEqual(Object.keys(UI_EN).sort());
    for (const value of Object.values(UI_ZH)) expect(value.trim()).not.toBe('');
    expect(uiStrings('zh-CN').editPage).toBe(UI_ZH.editPage);
    expect(uiStrings('de').editPage).toBe('Diese Seite bearbeiten');
    // A language without a set of its own: English.
    expect(uiStrings('ar').editPage).toBe(UI_EN.editPage);
    expect(uiStrings('en', { editPage: 'Improve this page' })).toEqual({ ...UI_EN, editPage: 'Improve this page' });
  });
});

describe('colour contrast', () => {
  it('computes WCAG ratios', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#777777', '#ffffff')).toBeCloseTo(4.48, 2);
  });

  it('stops the build with every pair below its minimum: the pair, the ratio, the minimum and the position of the colour in the config', async () => {
    const dir = themedCopy();
    editFile(join(dir, 'site.config.yaml'), "headerTextSoft: '#e6dcf2'", "headerTextSoft: '#8a6fb0'");
    editFile(join(dir, 'site.config.yaml'), "bannerText: '#2b1d00'", "bannerText: '#f0f0f0'");
    const { code, err } = await runDocs(['build', '--root', dir, '--quiet']);
    expect(code).toBe(1);
    expect(err).toBe(
      [
        `${at(dir, 'headerTextSoft')} headerTextSoft #8a6fb0 on header #4a2574 has a contrast of 2.76:1; header navigation text needs at least 4.5:1 (WCAG AA)`,
        `${at(dir, 'bannerText')} bannerText #f0f0f0 on banner #ffd166 has a contrast of 1.27:1; banner text needs at least 4.5:1 (WCAG AA)`,
        '2 problems found; the previous output was left untouched.',
        '',
      ].join('\n'),
    );
  });

  /*
   * Every pair the check covers (src/theme/colors.ts), exactly at its minimum: a colour whose
   * ratio is 4.49:1 (2.99:1 for the 3:1 pairs) stops the build, one at 4.50:1 (3.00:1) builds.
   * `also` sets other colours of the themed fixture so that only the pair under test is near
   * its minimum. (The dark-scheme header colours are keys of their own: headerTextDark and the others.)
   */
  const BOUNDARY: Array<{ fg: string; on: string; what: string; min: string; refused: string; accepted: string; also?: Record<string, string> }> = [
    { fg: 'headerText', on: 'header #4a2574', what: 'header text', min: '4.5', refused: '#00a9ff', accepted: '#00aafb' },
    { fg: 'headerTextDark', on: 'headerDark #261338', what: 'header text (dark scheme)', min: '4.5', refused: '#0080ff', accepted: '#0082f8' },
    { fg: 'headerTextSoft', on: 'header #4a2574', what: 'header navigation text', min: '4.5', refused: '#00a9ff', accepted: '#00aafb' },
    { fg: 'headerTextSoftDark', on: 'headerDark #261338', what: 'header navigation text (dark scheme)', min: '4.5', refused: '#0080ff', accepted: '#0082f8' },
    { fg: 'headerAccent', on: 'header #4a2574', what: 'the focus ring in the header', min: '3', refused: '#007efd', accepted: '#007eff' },
    { fg: 'headerAccentDark', on: 'headerDark #261338', what: 'the focus ring in the header (dark scheme)', min: '3', refused: '#0053ff', accepted: '#0054fe' },
    { fg: 'bannerText', on: 'banner #ffd166', what: 'banner text', min: '4.5', refused: '#0043ff', accepted: '#0043fe' },
    { fg: 'link', on: 'the light page background #ffffff', what: 'links on the page', min: '4.5', refused: '#006eff', accepted: '#006efe' },
    { fg: 'linkDark', on: 'the dark page background #12181c', what: 'links on the page (dark scheme)', min: '4.5', refused: '#007bfe', accepted: '#007fef' },
    { fg: 'linkHover', on: 'the light page background #ffffff', what: 'links under the pointer', min: '4.5', refused: '#006eff', accepted: '#006efe' },
    { fg: 'linkHoverDark', on: 'the dark page background #12181c', what: 'links under the pointer (dark scheme)', min: '4.5', refused: '#007bfe', accepted: '#007fef' },
    { fg: 'accentText', on: 'accent #0f6e5c', what: 'the chat icon', min: '3', refused: '#000057', accepted: '#000056' },
    { fg: 'accentTextDark', on: 'accentDark #7fe0c8', what: 'the chat icon (dark scheme)', min: '3', refused: '#006afd', accepted: '#0069ff' },
  ];

  it('covers every pair of the check in the boundary cases below, with colours at the ratios they are named for', () => {
    expect(BOUNDARY).toHaveLength(13);
    for (const { fg, on, min, refused, accepted } of BOUNDARY) {
      const bg = on.split(' ').at(-1)!;
      const below = Number(min) - 0.01;
      expect(contrastRatio(refused, bg), `${fg} ${refused} on ${bg}`).toBeGreaterThanOrEqual(below - 0.005);
      expect(contrastRatio(refused, bg), `${fg} ${refused} on ${bg}`).toBeLessThan(below + 0.005);
      expect(contrastRatio(accepted, bg), `${fg} ${accepted} on ${bg}`).toBeGreaterThanOrEqual(Number(min));
      expect(contrastRatio(accepted, bg), `${fg} ${accepted} on ${bg}`).toBeLessThan(Number(min) + 0.005);
    }
  });

  for (const { fg, on, what, min, refused, accepted, also = {} } of BOUNDARY) {
    const below = (Number(min) - 0.01).toFixed(2);
    it(`${fg} on ${on.replace(/ #.*/, '')}: ${below}:1 stops docs build, ${Number(min).toFixed(2)}:1 builds`, async () => {
      const dir = themedCopy();
      for (const [key, value] of Object.entries(also)) setColor(dir, key, value);
      setColor(dir, fg, refused);
      const stopped = await runDocs(['build', '--root', dir, '--quiet']);
      expect(stopped.err).toBe(`${at(dir, fg)} ${fg} ${refused} on ${on} has a contrast of ${below}:1; ${what} needs at least ${min}:1 (WCAG AA)\n1 problem found; the previous output was left untouched.\n`);
      expect(stopped.code).toBe(1);
      setColor(dir, fg, accepted);
      const built = await runDocs(['build', '--root', dir, '--quiet']);
      expect(built.err).toBe('');
      expect(built.code).toBe(0);
      expect(readdirSync(join(dir, 'dist', 'assets')).some((f) => f.endsWith('.css') && readFileSync(join(dir, 'dist', 'assets', f), 'utf8').includes(accepted))).toBe(true);
    });
  }
});

describe('theme files and components', () => {
  it('reports a missing logo, stylesheet and component file at their keys', async () => {
    const dir = themedCopy();
    rmSync(join(dir, 'static/brand.svg'));
    rmSync(join(dir, 'theme/extra.css'));
    rmSync(join(dir, 'components/Footer.tsx'));
    const { code, err } = await runDocs(['build', '--root', dir, '--quiet']);
    expect(code).toBe(1);
    expect(err).toMatch(/site\.config\.yaml:\d+:\d+ .*there is no file static\/brand\.svg in the site folder/);
    expect(err).toMatch(/site\.config\.yaml:\d+:\d+ .*there is no file theme\/extra\.css in the site folder/);
    expect(err).toMatch(/site\.config\.yaml:\d+:\d+ .*there is no file components\/Footer\.tsx in the site folder/);
  });

  it('reports a component that does not compile with its file, line and column', async () => {
    const dir = themedCopy();
    writeFileSync(join(dir, 'components/year.ts'), 'export const year = ;\n');
    const { code, err } = await runDocs(['build', '--root', dir, '--quiet']);
    expect(code).toBe(1);
    expect(err).toMatch(/components\/year\.ts:1:\d+ .*component Footer:/);
  });

  it('refuses a component that imports a Node module', async () => {
    const dir = themedCopy();
    writeFileSync(join(dir, 'components/year.ts'), "import { readFileSync } from 'node:fs';\nexport const year = readFileSync.length;\n");
    const { code, err } = await runDocs(['build', '--root', dir, '--quiet']);
    expect(code).not.toBe(0);
    expect(err).toMatch(/node:fs/);
  });

  it('a component that throws, returns a promise or imports a file outside the site is a problem of its file, not a bug of the tool', async () => {
    const dir = themedCopy();
    const outside = temp('docs-outside-');
    writeFileSync(join(outside, 'secret.txt'), 'OUTSIDE-SECRET\n');
    const cases: Array<[string, string]> = [
      ['export function Footer() { throw new Error("boom from footer"); }\n', 'component Footer: it failed while rendering: boom from footer'],
      ['export async function Footer() { return null; }\n', 'component Footer: it returned a promise (an async function?): a component returns its markup at once'],
      [
        `import text from ${JSON.stringify(relative(join(dir, 'components'), join(outside, 'secret.txt')))};\nexport function Footer() { return <footer>{text}</footer>; }\n`,
        `component Footer: ${realpathSync(join(outside, 'secret.txt'))} is outside the site folder; a component may import react, the site's own files and stilldocs only`,
      ],
    ];
    for (const [source, message] of cases) {
      writeFileSync(join(dir, 'components/Footer.tsx'), source);
      const { code, err } = await runDocs(['build', '--root', dir, '--quiet']);
      expect(err).toBe(`components/Footer.tsx:1:1 ${message}\n1 problem found; the previous output was left untouched.\n`);
      expect(code).toBe(1);
    }
    // The preview shows it as a problem too (it was an unexpected error there).
    writeFileSync(join(dir, 'components/Footer.tsx'), cases[0]![0]);
    const out = await serveProblems({ dir, site: dir, cache: temp('docs-cache-'), remove: () => {} });
    expect(out).toContain(`components/Footer.tsx:1:1 ${cases[0]![1]}\n1 problem found (at components/Footer.tsx:1:1); the site is served once they are fixed.\n`);
  });

  it('a stylesheet or logo behind a symbolic link out of the site, and a logo that is no image, are problems at their keys', async () => {
    const dir = themedCopy();
    const outside = temp('docs-outside-');
    writeFileSync(join(outside, 'passwd.css'), 'body { --secret: "OUTSIDE" }\n');
    rmSync(join(dir, 'theme/extra.css'));
    symlinkSync(join(outside, 'passwd.css'), join(dir, 'theme/extra.css'));
    writeFileSync(join(dir, 'static/brand.svg'), 'not an image\n');
    const { code, err } = await runDocs(['build', '--root', dir, '--quiet']);
    expect(code).toBe(1);
    expect(err).toMatch(/site\.config\.yaml:\d+:\d+ theme\.css\[0\]: theme\/extra\.css is a symbolic link to a file outside the site folder; copy the file into the site\n/);
    expect(err).toMatch(/site\.config\.yaml:\d+:\d+ theme\.logo\.src: static\/brand\.svg is not an SVG image \(it has no <svg> element\)\n/);
    expect(err).not.toContain('a bug in docs');
  });

  it("a stylesheet's url()s name files of static/: given the base path when built under one, a problem with their line and column when they name nothing published", async () => {
    const dir = themedCopy();
    const css = join(dir, 'theme/extra.css');
    writeFileSync(css, `${readFileSync(css, 'utf8')}\n.a { background: url(/brand.svg); }\n.b { background: url("../static/brand.svg?v=2"); }\n.c { background: url(https://cdn.example.org/x.png) url(data:image/gif;base64,R0lGOD) }\n`);
    const built = await runDocs(['build', '--root', dir, '--quiet', '--base', '/project/']);
    expect(built.err).toBe('');
    expect(built.code).toBe(0);
    const assets = join(dir, 'dist', 'assets');
    const out = readdirSync(assets).filter((f) => f.endsWith('.css')).map((f) => readFileSync(join(assets, f), 'utf8')).join('\n');
    expect(out).toContain('url(/project/brand.svg)');
    expect(out).toContain('url(/project/brand.svg?v=2)');
    expect(out).toContain('url(https://cdn.example.org/x.png)');
    const lines = readFileSync(css, 'utf8').split('\n').length;
    writeFileSync(css, `${readFileSync(css, 'utf8')}.d { background: url(/missing.png); }\n`);
    const failed = await runDocs(['build', '--root', dir, '--quiet']);
    expect(failed.err).toBe(
      `theme/extra.css:${lines}:18 url(/missing.png) names no file of static/ (the stylesheet is published in /assets/: put the file in static/ and write its path from there, such as url(/images/background.png))\n1 problem found; the previous output was left untouched.\n`,
    );
    expect(failed.code).toBe(1);
  });

  it('rebuilds the preview when a file in theme/ or components/ changes', () => {
    const paths = { root: '/site', configPath: '/site/site.config.yaml', templatesDir: '/tool/templates' };
    expect(classify(paths, 'change', '/site/theme/site.css')).toEqual({ files: true });
    expect(classify(paths, 'change', '/site/components/Footer.tsx')).toEqual({ files: true });
    expect(classify(paths, 'change', '/site/notes/todo.txt')).toBeNull();
  });

  it('X5 checks the landing page\'s hero and feature links as links: a script URL, a missing page and a missing anchor are problems at their places', async () => {
    const dir = themedCopy();
    editFile(join(dir, 'content/index.md'), '      url: /guide/\n', '      url: "vbscript:msgbox(1)"\n');
    editFile(join(dir, 'content/index.md'), '      url: /guide/stores/\n', '      url: /nope/\n');
    editFile(join(dir, 'content/index.md'), '    url: /guide/stores/\n', '    url: "/guide/stores/#no-such-heading"\n');
    const { code, err } = await runDocs(['check', '--root', dir]);
    expect(code).toBe(1);
    expect(err).toBe(
      [
        'content/index.md:7:12 frontmatter.hero.actions[0].url: links to "vbscript:msgbox(1)": javascript:, vbscript: and data: links are not allowed (they run script or hide content); link to a page or an https:// address',
        'content/index.md:10:12 frontmatter.hero.actions[1].url: links to "/nope/", which is not a page of this site',
        'content/index.md:16:10 frontmatter.features[1].url: links to "#no-such-heading", but /guide/stores/ has no such anchor',
        '3 problems found; fix them and run docs check again.',
        '',
      ].join('\n'),
    );
  });

  it('rejects unknown keys of theme, ui and csp with their positions', async () => {
    const dir = themedCopy();
    editFile(join(dir, 'site.config.yaml'), 'ui:\n  editPage:', 'ui:\n  editPag: x\n  editPage:');
    editFile(join(dir, 'site.config.yaml'), '  home: landing', '  home: splash');
    editFile(join(dir, 'site.config.yaml'), 'img: [https://img.example.org]', "img: [\"https://img.example.org 'unsafe-inline'\"]");
    const { code, err } = await runDocs(['build', '--root', dir, '--quiet']);
    expect(code).toBe(1);
    expect(err).toMatch(/site\.config\.yaml:\d+:\d+ .*ui\.editPag: unknown key "editPag"/);
    expect(err).toMatch(/site\.config\.yaml:\d+:\d+ .*theme\.home/);
    expect(err).toMatch(/site\.config\.yaml:\d+:\d+ .*csp\.img\[0\]: expected a source/);
  });
});

describe('docs init', () => {
  it('writes a starter site that builds, with no trace of webpack in the output', async () => {
    const dir = join(temp('docs-init-'), 'my-docs');
    const init = await runDocs(['init', dir]);
    expect(init.code).toBe(0);
    // From a clone, the command is its bin/docs.js (test/package/ runs the package's `npx docs`).
    expect(init.out).toMatch(/\n  node \S*bin\/docs\.js serve --root \S+\n  node \S*bin\/docs\.js build --root \S+\n$/);
    for (const file of ['site.config.yaml', 'content/index.md', 'content/guide/index.md', 'content/guide/markdown.md', 'content/reference/index.md', 'static/logo.svg']) {
      expect(existsSync(join(dir, file)), file).toBe(true);
    }
    const config = readFileSync(join(dir, 'site.config.yaml'), 'utf8');
    const schema = config.match(/^\$schema: (.+)$/m)![1]!;
    expect(existsSync(join(dir, schema))).toBe(true);
    const built = await runDocs(['build', '--root', dir]);
    expect(built.err).toBe('');
    expect(built.code).toBe(0);
    const out = join(dir, 'dist');
    const hits = filesUnder(out).filter((f) => /webpack/i.test(readFileSync(join(out, f), 'latin1')));
    expect(hits).toEqual([]);
    expect(existsSync(join(out, 'guide/markdown/index.html'))).toBe(true);
    const home = readFileSync(join(out, 'index.html'), 'utf8');
    expect(home).toContain('class="hero hero-with-image"');
    expect(home).toMatch(/<img class="hero-image-light" src="\/hero\.svg" alt="[^"]+" width="560" height="360"/);
    expect(home).toMatch(/<img class="hero-image-dark" src="\/hero-dark\.svg" alt="[^"]+" width="560" height="360"/);
    // The guide's pages come from its folder (autogenerate), in the order of their sidebar.order.
    expect(readFileSync(join(out, 'guide/index.html'), 'utf8')).toMatch(/href="\/guide\/getting-started\/"[^]*href="\/guide\/markdown\/"/);
    expect(home).toContain('src="/logo.svg"');
  });

  it('refuses a folder that is not empty and writes nothing into it', async () => {
    const dir = temp('docs-init-full-');
    mkdirSync(join(dir, 'notes'));
    writeFileSync(join(dir, 'README.md'), 'mine\n');
    const { code, err } = await runDocs(['init', dir]);
    expect(code).toBe(2);
    expect(err).toMatch(/is not empty/);
    expect(filesUnder(dir).map((f) => relative(dir, join(dir, f)))).toEqual(['README.md']);
  });
});

describe('the manual (docs/manual.md)', () => {
  const manual = readFileSync(join(ROOT, 'docs/manual.md'), 'utf8');
  it('names every config key, theme key, colour, interface string, CSP kind, component and icon', () => {
    const names = [
      ...Object.keys(SiteConfigSchema.shape).filter((k) => k !== '$schema'),
      ...Object.keys(SiteConfigSchema.shape.theme.unwrap().shape),
      ...Object.keys(COLOR_DEFAULTS),
      ...Object.keys(UI_EN),
      ...Object.keys(SiteConfigSchema.shape.csp.unwrap().shape),
      ...COMPONENT_NAMES,
      ...SOCIAL_ICON_NAMES,
    ];
    const missing = names.filter((name) => !new RegExp(`\`([a-z]+\\.)*${name}[\`.:]`).test(manual));
    expect(missing).toEqual([]);
  });
});
