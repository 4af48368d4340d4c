import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewServer as Preview } from '../../src/serve/serve.js';
import { expectServesWhatBuildWrites, makeFixture, nextBuild, startBuiltPreview, type Captured, type Fixture } from './helpers.js';

/*
 * Issue #38 while serving: a section that takes its pages from a folder (autogenerate), alone or
 * mixed with pages listed by hand, follows a new page and a changed sidebar.order, and the landing hero's picture follows a new file of another
 * size; after each edit the preview serves what docs build writes from the same sources.
 */

let fixture: Fixture;
let preview: Preview;
let captured: Captured;

beforeAll(async () => {
  fixture = makeFixture();
  ({ preview, captured } = await startBuiltPreview(fixture));
});

afterAll(async () => {
  await preview?.close();
  fixture?.cleanup();
});

const SQUARE = '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="300"><rect width="300" height="300" fill="#dde"/></svg>\n';
const WIDE = '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="300"><rect width="600" height="300" fill="#dde"/></svg>\n';

/** Makes an edit, waits for its rebuild, and returns the served page at `path`. */
async function edited(change: () => void, path: string): Promise<string> {
  const built = nextBuild(preview);
  change();
  const result = await built;
  if (!result.ok) throw new Error(`the build failed: ${JSON.stringify(result)}\n${captured.err}`);
  await preview.settled();
  return preview.files().get(path)?.toString() ?? '';
}

const expectSameAsBuild = () => expectServesWhatBuildWrites(preview, fixture);

const links = (html: string) => [.../<ul class="sidebar-list">(.*?)<\/ul><\/nav>/s.exec(html)![1]!.matchAll(/<div class="sidebar-row"><a href="([^"]*)"/g)].map((m) => m[1]);

describe('writers\' features while serving', () => {
  it('a section that turns to autogenerate, a new page of its folder and a changed sidebar.order reorder its sidebar', async () => {
    let html = await edited(() => fixture.edit('site.config.yaml', '    pages:\n      - guides/alpha\n      - guides/beta\n', '    autogenerate:\n      directory: guides\n'), '/guides/index.html');
    expect(links(html)).toEqual(['/guides/', '/guides/alpha/', '/guides/beta/']);
    html = await edited(() => fixture.write('content/guides/gamma.md', '---\ntitle: Gamma guide\nsidebar:\n  order: 1\n---\n\nGamma body text.\n'), '/guides/index.html');
    expect(links(html)).toEqual(['/guides/', '/guides/gamma/', '/guides/alpha/', '/guides/beta/']);
    html = await edited(() => fixture.edit('content/guides/gamma.md', '  order: 1\n', '  order: 1\n  label: Gamma\n'), '/guides/alpha/index.html');
    expect(html).toContain('<a href="/guides/gamma/">Gamma</a>');
    html = await edited(() => fixture.edit('content/guides/beta.md', 'title: Beta guide\n', 'title: Beta guide\nsidebar:\n  order: 0\n'), '/guides/index.html');
    expect(links(html)).toEqual(['/guides/', '/guides/beta/', '/guides/gamma/', '/guides/alpha/']);
    await expectSameAsBuild();
  });

  it('a section that mixes a page listed by hand with its folder follows a new page of the folder (after the test above)', async () => {
    let html = await edited(() => fixture.edit('site.config.yaml', '    autogenerate:\n      directory: guides\n', '    pages:\n      - guides/alpha\n      - autogenerate: { directory: guides }\n'), '/guides/index.html');
    expect(links(html)).toEqual(['/guides/', '/guides/alpha/', '/guides/beta/', '/guides/gamma/']);
    html = await edited(() => fixture.write('content/guides/delta.md', '---\ntitle: Delta guide\nsidebar:\n  order: 0.5\n---\n\nDelta body text.\n'), '/guides/alpha/index.html');
    expect(links(html)).toEqual(['/guides/', '/guides/alpha/', '/guides/beta/', '/guides/delta/', '/guides/gamma/']);
    await expectSameAsBuild();
  });

  it('the landing hero\'s picture takes the size of a new file', async () => {
    fixture.write('static/hero.svg', SQUARE);
    await edited(() => fixture.edit('site.config.yaml', 'sections:\n', 'theme:\n  home: landing\nsections:\n'), '/index.html');
    let html = await edited(() => fixture.edit('content/index.md', 'description: The home page.\n', 'description: The home page.\nhero:\n  image:\n    src: /hero.svg\n    alt: A grey square\n'), '/index.html');
    expect(html).toContain('<img src="/hero.svg" alt="A grey square" width="300" height="300" fetchpriority="high"/>');
    html = await edited(() => fixture.write('static/hero.svg', WIDE), '/index.html');
    expect(html).toContain('<img src="/hero.svg" alt="A grey square" width="600" height="300" fetchpriority="high"/>');
    await expectSameAsBuild();
  });
});
