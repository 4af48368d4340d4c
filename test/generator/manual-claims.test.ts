import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SiteConfigSchema } from '../../src/config/schema.js';
import { ROOT } from '../helpers/content.js';
import { editFile, fixtureSite, runDocs } from '../helpers/site.js';

/* What the manual says of redirects, "Last updated", robots.txt under --base and a component's helpers (issue #38), checked against what the build does. */

const manual = readFileSync(join(ROOT, 'docs/manual.md'), 'utf8');
/** The text of a `### title` section of the manual. */
const section = (title: string) => {
  const start = manual.indexOf(`\n### ${title}\n`);
  expect(start, `the manual has a section "${title}"`).toBeGreaterThan(0);
  const end = manual.slice(start + 5).search(/\n##+ /);
  return manual.slice(start, end < 0 ? undefined : start + 5 + end);
};

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});
const site = () => {
  const dir = fixtureSite();
  dirs.push(dir);
  return dir;
};

describe('the manual on redirects', () => {
  it('shows the YAML shape of redirects: old address to target, each example valid, and a site with them builds', async () => {
    const text = section('Redirects');
    const yamlBlock = /```yaml\n([\s\S]*?)```/.exec(text)?.[1];
    expect(yamlBlock).toBeDefined();
    const redirects = (parse(yamlBlock!) as { redirects: Record<string, string> }).redirects;
    expect(Object.keys(redirects).length).toBeGreaterThanOrEqual(3);
    expect(SiteConfigSchema.shape.redirects.safeParse(redirects).success).toBe(true);
    // The same shapes (a page, a page and a heading, no last slash with a query) on the fixture site's pages.
    const dir = site();
    writeFileSync(
      join(dir, 'site.config.yaml'),
      readFileSync(join(dir, 'site.config.yaml'), 'utf8').replace(/^redirects:\n((?:  .*\n)*)/m, '') +
        '\nredirects:\n  /old-guide/: /guides/first/\n  /concepts/first/: /guides/first/#install\n  /plugins/old: /plugins/alpha-plugin/?from=old\n',
    );
    const built = await runDocs(['build', '--root', dir, '--quiet', '--base', '/sub/']);
    expect(built.err).toBe('');
    expect(built.code).toBe(0);
    expect(readFileSync(join(dir, 'dist/_redirects'), 'utf8')).toContain('/sub/old-guide/ /sub/guides/first/ 301\n');
    expect(readFileSync(join(dir, 'dist/plugins/old/index.html'), 'utf8')).toContain('/sub/plugins/alpha-plugin/?from=old');
  });
});

describe('the manual on "Last updated"', () => {
  it('says the date is the last commit of the page\'s file, and a file without one has none: so it is', async () => {
    const text = section('Last updated');
    expect(text).toContain('git');
    expect(text).toContain('<lastmod>');
    expect(text).toMatch(/no commit .* shows no date/);
    const dir = site();
    const git = (args: string[], date: string) =>
      execFileSync('git', args, {
        cwd: dir,
        env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.org', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.org' },
        stdio: 'ignore',
      });
    git(['init', '-q'], '2024-01-01T00:00:00Z');
    git(['add', '.'], '2024-01-01T00:00:00Z');
    git(['commit', '-q', '-m', 'first'], '2024-03-05T12:00:00Z');
    editFile(join(dir, 'content/guides/first.md'), /\n$/, '\n\nEdited.\n');
    git(['commit', '-q', '-am', 'edit'], '2025-07-09T12:00:00Z');
    // Saved but not committed: the date stays the last commit's.
    editFile(join(dir, 'content/guides/second.md'), /\n$/, '\n\nNot committed.\n');
    const built = await runDocs(['build', '--root', dir, '--quiet']);
    expect(built.code).toBe(0);
    const page = (rel: string) => readFileSync(join(dir, 'dist', rel), 'utf8');
    expect(page('guides/first/index.html')).toContain('<time datetime="2025-07-09">');
    expect(page('guides/second/index.html')).toContain('<time datetime="2024-03-05">');
    expect(page('sitemap.xml')).toContain('/guides/first/</loc><lastmod>2025-07-09</lastmod>');
    // Outside a repository: no date, no <lastmod>.
    rmSync(join(dir, '.git'), { recursive: true, force: true });
    expect((await runDocs(['build', '--root', dir, '--quiet'])).code).toBe(0);
    expect(page('guides/first/index.html')).not.toContain('<time datetime=');
    expect(page('sitemap.xml')).not.toContain('<lastmod>');
  });

  it('dates the pages of a site in a folder of its repository (the paths git gives are taken from the site folder)', async () => {
    const repo = mkdtempSync(join(tmpdir(), 'docs-dates-'));
    dirs.push(repo);
    const dir = join(repo, 'docs-site');
    cpSync(site(), dir, { recursive: true });
    const date = '2023-04-05T12:00:00Z';
    const env = { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.org', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.org' };
    for (const args of [['init', '-q'], ['add', '.'], ['commit', '-q', '-m', 'site']]) execFileSync('git', args, { cwd: repo, env, stdio: 'ignore' });
    expect((await runDocs(['build', '--root', dir, '--quiet'])).code).toBe(0);
    expect(readFileSync(join(dir, 'dist/guides/first/index.html'), 'utf8')).toContain('<time datetime="2023-04-05">');
    expect(readFileSync(join(dir, 'dist/sitemap.xml'), 'utf8')).toContain('/guides/first/</loc><lastmod>2023-04-05</lastmod>');
  });
});

describe('the manual on --base and on components', () => {
  it('says that robots.txt under a base path is written where crawlers do not read it, and that the build warns', () => {
    const row = manual.split('\n').find((line) => line.startsWith('| `docs build'));
    expect(row).toMatch(/`robots\.txt` is still written, at `\/docs\/robots\.txt`, but crawlers read only the one at the root of the host, so the build warns/);
  });

  it("shows a component that imports href, and that component builds and links under the base path", async () => {
    const source = /```tsx title="components\/Header\.tsx"\n([\s\S]*?)```/.exec(manual)?.[1];
    expect(source).toContain("import { href } from 'stilldocs';");
    const dir = mkdtempSync(join(tmpdir(), 'docs-manual-header-'));
    dirs.push(dir);
    cpSync(join(ROOT, 'test/fixtures/themed'), dir, { recursive: true });
    editFile(join(dir, 'site.config.yaml'), /^components:\n/m, 'components:\n  Header: components/Header.tsx\n');
    writeFileSync(join(dir, 'components/Header.tsx'), source!);
    const built = await runDocs(['build', '--root', dir, '--quiet', '--base', '/sub/']);
    expect(built.err).toBe('');
    expect(built.code).toBe(0);
    expect(readFileSync(join(dir, 'dist/index.html'), 'utf8')).toContain('<a class="skip-to-api" href="/sub/api/">API</a>');
  });
});
