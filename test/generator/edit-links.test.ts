import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/content.js';
import { fixtureSite, runDocs } from '../helpers/site.js';

/*
 * "Edit this page" leads to the page's own file: `site.editBase` followed by the path of the page's
 * content file from the site folder. Checked on every built page of a site that sets editBase, and on
 * the webpack site's config, which sets none until the repository that holds these pages is public
 * (a link into webpack.js.org's repository named files it does not have).
 */

const EDIT = /<a href="([^"]+)"[^>]*>Edit this page/;

/** Every index.html under `dir`, by URL path. */
function pages(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const path = name.split('\\').join('/');
    if (path.endsWith('index.html')) found.set(`/${path.slice(0, -'index.html'.length)}`, readFileSync(join(dir, path), 'utf8'));
  }
  return found;
}

/** The content file a page's URL is built from: content/<path>.md or content/<path>/index.md. */
function contentFileOf(root: string, url: string): string | undefined {
  const path = url.replace(/^\/|\/$/g, '');
  const candidates = path === '' ? ['content/index.md'] : [`content/${path}.md`, `content/${path}/index.md`];
  return candidates.find((file) => existsSync(join(root, file)));
}

describe('edit links', () => {
  it('name the content file of the page they are on, for every page of a site with editBase', async () => {
    const dir = fixtureSite();
    const base = /editBase: (\S+)/.exec(readFileSync(join(dir, 'site.config.yaml'), 'utf8'))![1]!;
    expect((await runDocs(['build', '--root', dir, '--quiet'])).code).toBe(0);
    let checked = 0;
    for (const [url, html] of pages(join(dir, 'dist'))) {
      const href = EDIT.exec(html)?.[1];
      const file = contentFileOf(dir, url);
      // A page built from a content file has its link; printable sections, redirects and the generated 404 page have none.
      if (!file) {
        expect(href, url).toBeUndefined();
        continue;
      }
      expect(href, url).toBe(base + file);
      checked++;
    }
    expect(checked).toBeGreaterThan(5);
  });

  it('never lead the webpack site into webpack.js.org, whose pages are other files (src/content/*.mdx)', () => {
    const editBase = /^\s*editBase:\s*(\S+)/m.exec(readFileSync(join(ROOT, 'site.config.yaml'), 'utf8'))?.[1];
    expect(editBase ?? 'none').not.toMatch(/webpack\.js\.org/);
  });
});
