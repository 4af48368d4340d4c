import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkConfigFile, checkOutputFolder, checkSiteFolder, UsageError } from '../../src/build/out-guard.js';
import { OUTPUT_MARKER } from '../../src/site/model.js';
import { isWithin } from '../../src/shared/paths.js';

/*
 * The output guard in this process (src/build/out-guard.ts): which --out folders a build refuses
 * before it touches anything, and with what reason. The command's own runs, and what they leave on
 * disk, are tested in test/robustness/out-guard.test.ts.
 */

let dir: string;
let site: string;
const sources = () => ({ root: site, config: join(site, 'site.config.yaml'), display: 'X' });
const refusal = (out: string) => {
  try {
    checkOutputFolder(out, sources());
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message.replace(/^--out X: /, '').replace(/\. Nothing was written or deleted; choose another output folder \(the default is dist\/\)\.$/, '');
  }
  return 'accepted';
};

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'docs-guard-'));
  site = join(dir, 'site');
  for (const folder of ['content/guides', 'static', 'conf', 'dist', 'empty', 'marked', 'foreign']) mkdirSync(join(site, folder), { recursive: true });
  writeFileSync(join(site, 'site.config.yaml'), 'site: {}\n');
  writeFileSync(join(site, 'content/guides/a.md'), '---\ntitle: A\n---\n');
  writeFileSync(join(site, 'NOTES.txt'), 'notes\n');
  writeFileSync(join(site, 'marked', OUTPUT_MARKER), 'x');
  writeFileSync(join(site, 'marked', 'index.html'), 'x');
  for (const name of ['404.html', 'sitemap.xml', 'robots.txt', '_headers', '_redirects', 'llms.txt']) writeFileSync(join(site, 'foreign', name), 'x');
  symlinkSync(join(site, 'content'), join(site, 'content-link'));
  mkdirSync(join(dir, 'deploy'));
  symlinkSync(join(dir, 'deploy'), join(site, 'www'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the output guard', () => {
  it('refuses the site, its sources and what holds them, with the reason', () => {
    expect(refusal(site)).toBe('this is the site folder, which a build would replace');
    expect(refusal(dir)).toBe('this folder holds the site folder, which a build would replace');
    expect(refusal(join(site, 'content'))).toBe('this is the content/ folder, which a build would replace');
    expect(refusal(join(site, 'static'))).toBe('this is the static/ folder, which a build would replace');
    expect(refusal(join(site, 'site.config.yaml'))).toBe('this is the config file site.config.yaml, which a build would replace');
    expect(refusal(join(site, 'content/out'))).toBe('this is inside content/, where the output would be read as pages');
    expect(refusal(join(site, 'content-link/new'))).toBe('this is inside content/, where the output would be read as pages');
    expect(refusal(join(site, 'static/site'))).toBe('this is inside static/, where the output would be copied into itself');
    expect(refusal(join(site, 'NOTES.txt'))).toBe('this is a file, not a folder');
    expect(refusal('/')).toBe('this is the root of the file system');
  });

  it('refuses a non-empty folder without the mark, whatever generated names it holds', () => {
    const why = 'this folder is not empty and has no .docs-output file, the mark every build leaves in its output (if its files may go, empty it yourself)';
    expect(refusal(join(site, 'foreign'))).toBe(why);
    expect(refusal(join(site, 'content-link/..'))).toBe('this is the site folder, which a build would replace');
  });

  it('accepts a folder to be made, an empty folder and a marked one; a symbolic link gives the folder it leads to', () => {
    expect(checkOutputFolder(join(site, 'new/out'), sources())).toBe(join(site, 'new/out'));
    expect(checkOutputFolder(join(site, 'empty'), sources())).toBe(join(site, 'empty'));
    expect(checkOutputFolder(join(site, 'marked'), sources())).toBe(join(site, 'marked'));
    expect(checkOutputFolder(join(site, 'www'), sources())).toBe(join(dir, 'deploy'));
  });

  it('refuses a site folder that is missing or a file', () => {
    expect(() => checkSiteFolder(join(site, 'nope'), 'nope')).toThrow(`--root nope: there is no folder ${join(site, 'nope')}. Nothing was written; name the folder that holds site.config.yaml.`);
    expect(() => checkSiteFolder(join(site, 'NOTES.txt'), 'NOTES.txt')).toThrow(`--root NOTES.txt: ${join(site, 'NOTES.txt')} is a file, not a folder.`);
    expect(() => checkSiteFolder(site, '.')).not.toThrow();
  });

  it('tells inside from outside', () => {
    expect(isWithin('/a/b', '/a')).toBe(true);
    expect(isWithin('/a', '/a')).toBe(true);
    expect(isWithin('/ab', '/a')).toBe(false);
    expect(isWithin('/a', '/a/b')).toBe(false);
  });

  it('refuses a --config that is empty or a folder, and leaves a missing file to the build', () => {
    expect(() => checkConfigFile('', site)).toThrow(`--config "": name the site's config file, such as site.config.yaml. Nothing was written.`);
    expect(() => checkConfigFile('  ', site)).toThrow(UsageError);
    expect(() => checkConfigFile('conf', site)).toThrow(`--config conf: ${join(site, 'conf')} is a folder; name the site's config file in it, such as conf/site.config.yaml. Nothing was written.`);
    expect(() => checkConfigFile('site.config.yaml', site)).not.toThrow();
    expect(() => checkConfigFile('missing.yaml', site)).not.toThrow();
    expect(() => checkConfigFile(undefined, site)).not.toThrow();
  });
});
