import { existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsIn, expectNoStack, goodBuild, leftovers, notCache, put, scratchSite, treeHash, type Scratch } from './harness.js';

/*
 * Report rows #36-#41 (F1): `--out` naming a folder whose replacement loses
 * the writer's files. Each is refused with exit 2 before anything is read or
 * written; the whole scratch folder (site, previous dist/, the folder above
 * the site) is byte-identical afterwards.
 */

let s: Scratch;

beforeAll(async () => {
  s = scratchSite();
  put(s, 'static/robots-extra.txt', 'a static file\n');
  put(s, 'NOTES.txt', 'not output\n');
  mkdirSync(join(s.site, 'other'));
  writeFileSync(join(s.site, 'other', 'thesis.tex'), 'years of work\n');
  mkdirSync(join(s.dir, 'home'));
  symlinkSync('content', join(s.site, 'content-link'));
  mkdirSync(join(s.site, 'conf'));
  writeFileSync(join(s.site, 'conf', 'site.yaml'), readFileSync(join(s.site, 'site.config.yaml')));
  await goodBuild(s);
});

afterAll(() => s?.remove());

const NOT_OUTPUT = 'this folder is not empty and has no .docs-output file, the mark every build leaves in its output (if its files may go, empty it yourself)';

const refusal = (value: string, why: string) =>
  `--out ${value}: ${why}. Nothing was written or deleted; choose another output folder (the default is dist/).\n`;

async function expectRefused(out: string, why: string, extra: string[] = [], env: NodeJS.ProcessEnv = {}) {
  const before = treeHash(s.dir, notCache);
  const run = await docsIn(s, ['build', '--out', out, ...extra], { env });
  expectNoStack(run);
  expect(run.stderr).toBe(refusal(out, why));
  expect(run.stdout).toBe('');
  expect(run.code).toBe(2);
  expect(treeHash(s.dir, notCache)).toEqual(before);
  expect(leftovers(s.site)).toEqual([]);
  expect(leftovers(s.dir)).toEqual([]);
}

describe('--out that would replace what the writer wrote is refused with exit 2 (F1)', () => {
  it('#36 the content/ folder', () => expectRefused('content', 'this is the content/ folder, which a build would replace'));
  it('#37 the site folder itself (.)', () => expectRefused('.', 'this is the site folder, which a build would replace'));
  it('#37 the site folder by its absolute path', async () => {
    await expectRefused(s.site, 'this is the site folder, which a build would replace');
  });
  it('#38 the parent of the site folder (..)', () => expectRefused('..', 'this folder holds the site folder, which a build would replace'));
  it('#39 the config file', () => expectRefused('site.config.yaml', 'this is the config file site.config.yaml, which a build would replace'));
  it('#39 a config file given with --config, and the folder that holds it', async () => {
    await expectRefused('conf/site.yaml', 'this is the config file site.yaml, which a build would replace', ['--config', 'conf/site.yaml']);
    await expectRefused('conf', 'this folder holds the config file site.yaml, which a build would replace', ['--config', 'conf/site.yaml']);
  });
  it('#40 the static/ folder', () => expectRefused('static', 'this is the static/ folder, which a build would replace'));
  it('a folder inside content/ (new or existing) and a page file', async () => {
    await expectRefused('content/out', 'this is inside content/, where the output would be read as pages');
    await expectRefused('content/guides', 'this is inside content/, where the output would be read as pages');
    await expectRefused('content/guides/first.md', 'this is inside content/, where the output would be read as pages');
  });
  it('a folder inside static/', () => expectRefused('static/site', 'this is inside static/, where the output would be copied into itself'));
  it('a symbolic link to content/ and a folder below it', async () => {
    await expectRefused('content-link', 'this is the content/ folder, which a build would replace');
    await expectRefused('content-link/new', 'this is inside content/, where the output would be read as pages');
  });
  it('a file that is not a source', () => expectRefused('NOTES.txt', 'this is a file, not a folder'));
  it('a non-empty folder that is not the output of a build', () =>
    expectRefused('other', NOT_OUTPUT));
  it('P3 a folder with every file name a build writes at its top (a hand-made site) but no .docs-output mark: its .git and sources stay', async () => {
    mkdirSync(join(s.site, 'handmade', '.git'), { recursive: true });
    mkdirSync(join(s.site, 'handmade', 'src'));
    writeFileSync(join(s.site, 'handmade', 'src', 'main.c'), 'int main(void) { return 0; }\n');
    writeFileSync(join(s.site, 'handmade', '.git', 'HEAD'), 'ref: refs/heads/main\n');
    for (const name of ['404.html', 'sitemap.xml', 'robots.txt', '_headers', '_redirects', 'llms.txt', 'index.html']) writeFileSync(join(s.site, 'handmade', name), 'mine\n');
    await expectRefused('handmade', NOT_OUTPUT);
    for (const name of ['.git/HEAD', 'src/main.c', '404.html', 'robots.txt']) expect(existsSync(join(s.site, 'handmade', name))).toBe(true);
  });
  it('a folder with any 1 to 6 of the files an older build wrote (404.html, sitemap.xml, robots.txt, _headers, _redirects, llms.txt) and a file of the writer\'s, but no .docs-output mark: refused, every file kept (all 63 combinations)', async () => {
    const SIGNATURE = ['404.html', 'sitemap.xml', 'robots.txt', '_headers', '_redirects', 'llms.txt'];
    const folder = join(s.site, 'looks-built');
    for (let mask = 1; mask < 1 << SIGNATURE.length; mask++) {
      const names = SIGNATURE.filter((_, i) => mask & (1 << i));
      rmSync(folder, { recursive: true, force: true });
      mkdirSync(folder);
      for (const name of names) writeFileSync(join(folder, name), `${name} of an earlier site\n`);
      writeFileSync(join(folder, 'thesis.tex'), 'years of work\n');
      await expectRefused('looks-built', NOT_OUTPUT);
      expect(readdirSync(folder).sort(), names.join(' ')).toEqual([...names, 'thesis.tex'].sort());
      expect(readFileSync(join(folder, 'thesis.tex'), 'utf8')).toBe('years of work\n');
    }
    rmSync(folder, { recursive: true, force: true });
  }, 120_000);
  it('the home folder', () => expectRefused(join(s.dir, 'home'), 'this is your home folder', [], { HOME: join(s.dir, 'home') }));
  it('#41 the root of the file system (/)', async () => {
    const rootBefore = readdirSync('/').sort();
    await expectRefused('/', 'this is the root of the file system');
    expect(readdirSync('/').sort()).toEqual(rootBefore);
  });
});

describe('--out that is safe to replace is used', () => {
  it('an empty folder: built, and marked as output', async () => {
    mkdirSync(join(s.site, 'empty'));
    const run = await docsIn(s, ['build', '-q', '--out', 'empty']);
    expectNoStack(run);
    expect(run.code).toBe(0);
    expect(existsSync(join(s.site, 'empty', '.docs-output'))).toBe(true);
    expect(existsSync(join(s.site, 'empty', 'guides', 'first', 'index.html'))).toBe(true);
  });
  it('P6 a symbolic link to a deploy folder: the folder it leads to gets the output, and the link stays a link', async () => {
    mkdirSync(join(s.dir, 'deploy'));
    symlinkSync(join(s.dir, 'deploy'), join(s.site, 'www-link'));
    for (let i = 0; i < 2; i++) {
      const run = await docsIn(s, ['build', '-q', '--out', 'www-link']);
      expectNoStack(run);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(lstatSync(join(s.site, 'www-link')).isSymbolicLink()).toBe(true);
      expect(existsSync(join(s.dir, 'deploy', 'guides', 'first', 'index.html'))).toBe(true);
      expect(existsSync(join(s.dir, 'deploy', '.docs-output'))).toBe(true);
    }
  });
  it('a folder inside folders that do not exist yet: they are made, readable by a web server', async () => {
    const run = await docsIn(s, ['build', '-q', '--out', 'public/site/v1']);
    expectNoStack(run);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(existsSync(join(s.site, 'public', 'site', 'v1', 'guides', 'first', 'index.html'))).toBe(true);
    for (const dir of ['public', 'public/site']) expect(statSync(join(s.site, dir)).mode & 0o777).toBe(0o755 & ~process.umask());
    expect(readdirSync(join(s.site, 'public', 'site')).sort()).toEqual(['v1']);
  });
});

describe('--root that names no site folder is refused with exit 2, and nothing is made for it', () => {
  const why = (value: string, what: string) => `--root ${value}: ${what}. Nothing was written; name the folder that holds site.config.yaml.\n`;
  for (const command of ['build', 'check', 'serve']) {
    it(`docs ${command} --root <a folder that does not exist>`, async () => {
      const missing = join(s.dir, 'no-site-here');
      const before = treeHash(s.dir, notCache);
      const run = await docsIn(s, [command, '--root', missing]);
      expectNoStack(run);
      expect(run.stderr).toBe(why(missing, `there is no folder ${missing}`));
      expect(run.code).toBe(2);
      expect(existsSync(missing)).toBe(false);
      expect(treeHash(s.dir, notCache)).toEqual(before);
    });
  }
  it('docs build --root <a file>', async () => {
    const before = treeHash(s.dir, notCache);
    const run = await docsIn(s, ['build', '--root', 'NOTES.txt']);
    expectNoStack(run);
    expect(run.stderr).toBe(why('NOTES.txt', `${join(s.site, 'NOTES.txt')} is a file, not a folder`));
    expect(run.code).toBe(2);
    expect(treeHash(s.dir, notCache)).toEqual(before);
  });
});

describe('--config that names no file is refused with exit 2 (report P8)', () => {
  for (const command of ['build', 'check']) {
    it(`docs ${command} --config "" and --config <a folder>`, async () => {
      const before = treeHash(s.dir, notCache);
      let run = await docsIn(s, [command, '--config', '']);
      expectNoStack(run);
      expect(run.stderr).toBe(`--config "": name the site's config file, such as site.config.yaml. Nothing was written.\n`);
      expect(run.code).toBe(2);
      run = await docsIn(s, [command, '--config', 'conf']);
      expectNoStack(run);
      expect(run.stderr).toBe(`--config conf: ${join(s.site, 'conf')} is a folder; name the site's config file in it, such as conf/site.config.yaml. Nothing was written.\n`);
      expect(run.code).toBe(2);
      expect(treeHash(s.dir, notCache)).toEqual(before);
    });
  }
});
