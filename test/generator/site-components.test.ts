import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/content.js';
import { editFile, runDocs } from '../helpers/site.js';

/* The site's own components (config `components:`) in docs check, and the helper module they may import (issue #38). */

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A copy of the themed fixture site (it has a Footer component). */
function themedCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-site-components-'));
  temps.push(dir);
  cpSync(join(ROOT, 'test/fixtures/themed'), dir, { recursive: true });
  return dir;
}

/** The problem lines of a run (without the summary line, which differs between build and check). */
const problemLines = (err: string) => err.split('\n').filter((line) => line && !/problems? found/.test(line));

describe('docs check and the site\'s components', () => {
  const broken: Array<[string, string, string]> = [
    ['a syntax error', 'components/year.ts', 'export const year = ;\n'],
    ['an import of a Node module', 'components/year.ts', "import { readFileSync } from 'node:fs';\nexport const year = readFileSync.length;\n"],
    ['no export of the part', 'components/Footer.tsx', 'export function Header() { return null; }\n'],
    ['a throw when the file loads', 'components/Footer.tsx', 'throw new Error("boom at load");\nexport function Footer() { return null; }\n'],
  ];
  for (const [what, file, source] of broken) {
    it(`reports ${what} as docs build does, and writes nothing`, async () => {
      const dir = themedCopy();
      expect((await runDocs(['check', '--root', dir])).code).toBe(0);
      writeFileSync(join(dir, file), source);
      const checked = await runDocs(['check', '--root', dir]);
      expect(checked.code).toBe(1);
      expect(checked.err).toMatch(/\n1 problem found; fix them and run docs check again\.\n$/);
      expect(existsSync(join(dir, 'dist'))).toBe(false);
      const built = await runDocs(['build', '--root', dir, '--quiet']);
      expect(built.code).toBe(1);
      expect(problemLines(checked.err)).toEqual(problemLines(built.err));
      expect(problemLines(checked.err)[0]).toMatch(/component Footer: /);
      // Still nothing written, and nothing beside the site's own files.
      expect(readdirSync(dir).sort()).toEqual(['components', 'content', 'site.config.yaml', 'static', 'theme']);
    });
  }
});

describe('one file for several parts', () => {
  it('gives each part its own export: a Header and a Footer from one file both render', async () => {
    const dir = themedCopy();
    writeFileSync(
      join(dir, 'components/Parts.tsx'),
      'export function Header() { return <header data-own-header="">Own header</header>; }\n' +
        'export function Footer() { return <footer data-own-footer="">Own footer</footer>; }\n',
    );
    const config = readFileSync(join(dir, 'site.config.yaml'), 'utf8');
    writeFileSync(join(dir, 'site.config.yaml'), config.replace('  Footer: components/Footer.tsx\n', '  Header: components/Parts.tsx\n  Footer: components/Parts.tsx\n'));
    const built = await runDocs(['build', '--root', dir, '--quiet']);
    expect(built.err).toBe('');
    expect(built.code).toBe(0);
    const html = readFileSync(join(dir, 'dist/index.html'), 'utf8');
    expect(html).toContain('<header data-own-header="">Own header</header>');
    expect(html).toContain('<footer data-own-footer="">Own footer</footer>');
  });
});

describe('the helper module of components', () => {
  const footer = (from: string) =>
    `import { href, isExternal } from ${JSON.stringify(from)};\n` +
    'export function Footer({ ctx }: { ctx: Parameters<typeof href>[0] }) {\n' +
    '  return <footer className="footer" data-own-footer=""><a href={href(ctx, "/guide/")} data-external={String(isExternal("https://example.org/"))}>Guide</a></footer>;\n' +
    '}\n';

  it('stilldocs, the package\'s public entry, is the tool\'s own file: a component using href builds, under a base path too', async () => {
    const dir = themedCopy();
    writeFileSync(join(dir, 'components/Footer.tsx'), footer('stilldocs'));
    const checked = await runDocs(['check', '--root', dir]);
    expect(checked.err).toBe('');
    expect(checked.code).toBe(0);
    const built = await runDocs(['build', '--root', dir, '--quiet', '--base', '/sub/']);
    expect(built.err).toBe('');
    expect(built.code).toBe(0);
    expect(readFileSync(join(dir, 'dist/index.html'), 'utf8')).toContain('<footer class="footer" data-own-footer=""><a href="/sub/guide/" data-external="true">Guide</a></footer>');
  });

  it('so is a path that leads to the tool\'s file (a package folder linked to the tool), and no other file of the tool', async () => {
    const dir = themedCopy();
    symlinkSync(ROOT, join(dir, 'tool'), 'dir');
    writeFileSync(join(dir, 'components/Footer.tsx'), footer('../tool/templates/types.js'));
    const built = await runDocs(['build', '--root', dir, '--quiet']);
    expect(built.err).toBe('');
    expect(built.code).toBe(0);
    expect(readFileSync(join(dir, 'dist/index.html'), 'utf8')).toContain('<a href="/guide/" data-external="true">Guide</a>');
    writeFileSync(join(dir, 'components/Footer.tsx'), `import { UI_EN } from '../tool/src/theme/ui.js';\nexport function Footer() { return <footer>{UI_EN.next}</footer>; }\n`);
    const refused = await runDocs(['build', '--root', dir, '--quiet']);
    expect(refused.code).toBe(1);
    // (ui.ts and the files of interface strings it imports: "… are outside".)
    expect(refused.err).toContain(`src/theme/ui.ts are outside the site folder; a component may import react, the site's own files and stilldocs only`);
  });
});
