import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewServer as Preview } from '../../src/serve/serve.js';
import { expectServesWhatBuildWrites, makeFixture, nextBuild, startBuiltPreview, type Captured, type Fixture } from './helpers.js';

/*
 * A site with a blog while it is served (see src/site/blog.ts): its index pages are made, not read, and
 * its posts are at addresses other than their files'. The search index of the preview is made of what
 * a build's is made of (the posts under their files' ids, no index page): the preview serves what docs
 * build writes, search index included.
 */

let fixture: Fixture;
let preview: Preview;
let captured: Captured;

const post = (title: string, text: string) => `---\ntitle: ${title}\ndescription: ${title}, in short.\n---\n\n${text}\n\n## Details\n\nMore on ${title}.\n`;

beforeAll(async () => {
  fixture = makeFixture();
  fixture.edit('site.config.yaml', 'sections:\n', 'blog:\n  path: news\n  title: News\n  postsPerPage: 1\nsections:\n');
  fixture.write('content/news/2026-01-05-first.md', post('First release', 'The first release is out.'));
  fixture.write('content/news/2026-02-10-second.md', post('Second release', 'The second release follows.'));
  ({ preview, captured } = await startBuiltPreview(fixture));
}, 120_000);

afterAll(async () => {
  await preview?.close();
  fixture?.cleanup();
});

describe('a site with a blog while serving', () => {
  it('serves what docs build writes, search index included, before and after a post is added', async () => {
    await preview.settled();
    expect(preview.files().has('/news/first/index.html')).toBe(true);
    expect(preview.files().has('/news/page/2/index.html')).toBe(true);
    await expectServesWhatBuildWrites(preview, fixture);
    const built = nextBuild(preview);
    fixture.write('content/news/2026-03-15-third.md', post('Third release', 'A third one.'));
    const result = await built;
    if (!result.ok) throw new Error(`the build failed: ${JSON.stringify(result)}\n${captured.err}`);
    await preview.settled();
    expect(preview.files().has('/news/third/index.html')).toBe(true);
    await expectServesWhatBuildWrites(preview, fixture);
  }, 120_000);
});
