import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { fixtureSite, runDocs } from '../helpers/site.js';

/* robots.txt under --base (issue #38): still written, and the build says that no crawler reads it there. */

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const site = () => {
  const dir = fixtureSite();
  dirs.push(dir);
  return dir;
};

const WARNING =
  'robots.txt: written at /sub/robots.txt, where crawlers do not look: they read only https://docs.example.org/robots.txt, at the root of the host; put its lines (the Sitemap line) into that file (warning)\n';

describe('robots.txt under a base path', () => {
  it('is written, and docs build --base warns in one line that crawlers do not read it there', async () => {
    const dir = site();
    const built = await runDocs(['build', '--root', dir, '--base', '/sub/']);
    expect(built.code).toBe(0);
    expect(built.err).toBe(WARNING);
    expect(readFileSync(join(dir, 'dist/robots.txt'), 'utf8')).toBe('User-agent: *\nAllow: /\n\nSitemap: https://docs.example.org/sub/sitemap.xml\n');
  });

  it('is no warning at the root of the host, nor for docs check, nor with --quiet', async () => {
    const dir = site();
    const root = await runDocs(['build', '--root', dir]);
    expect(root.code).toBe(0);
    expect(root.err).toBe('');
    const checked = await runDocs(['check', '--root', dir]);
    expect(checked.err).toBe('');
    const quiet = await runDocs(['build', '--root', dir, '--base', '/sub/', '--quiet']);
    expect(quiet.code).toBe(0);
    expect(quiet.err).toBe('');
  });
});
