import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PreviewServer as Preview } from '../../src/serve/serve.js';
import { expectServesWhatBuildWrites, makeFixture, nextBuild, startBuiltPreview, type Captured, type Fixture } from './helpers.js';

/*
 * A site that becomes one in two languages and two versions while it is served (see src/site/trees.ts):
 * the preview serves what docs build writes from the same sources, and follows a new translation.
 */

let fixture: Fixture;
let preview: Preview;
let captured: Captured;

beforeAll(async () => {
  fixture = makeFixture();
  fixture.write('content/zh-cn/index.md', '---\ntitle: 首页\ndescription: 首页。\n---\n\n从[指南](guides/index.md)开始。\n');
  fixture.write('content/zh-cn/guides/index.md', '---\ntitle: 指南\n---\n\n所有指南。\n');
  fixture.write('content/2.x/index.md', '---\ntitle: Home 2.x\n---\n\nThe old home.\n');
  fixture.write('content/2.x/guides/index.md', '---\ntitle: Guides 2.x\n---\n\nThe old guides.\n');
  ({ preview, captured } = await startBuiltPreview(fixture));
}, 120_000);

afterAll(async () => {
  await preview?.close();
  fixture?.cleanup();
});

async function edited(change: () => void): Promise<void> {
  const built = nextBuild(preview);
  change();
  const result = await built;
  if (!result.ok) throw new Error(`the build failed: ${JSON.stringify(result)}\n${captured.err}`);
  await preview.settled();
}

const expectSameAsBuild = () => expectServesWhatBuildWrites(preview, fixture);

describe('a site in several languages and versions while serving', () => {
  it('serves what docs build writes, and follows a new translation', async () => {
    await edited(() =>
      fixture.edit(
        'site.config.yaml',
        'sections:\n',
        'languages:\n  - code: en\n    label: English\n  - code: zh-CN\n    label: 中文\nversions:\n  - name: 3.x\n  - name: 2.x\n    navigation:\n      - title: Guides\n        url: /guides/\n    sections:\n      - title: Home\n        url: ""\n      - title: Guides\n        url: guides\nsections:\n',
      ),
    );
    const fallback = preview.files().get('/zh-cn/guides/alpha/index.html')?.toString() ?? '';
    expect(fallback).toContain('fallback-notice');
    expect(preview.files().has('/zh-cn/search-index/index.json')).toBe(true);
    expect(preview.files().get('/2.x/index.html')?.toString()).toContain('<meta name="robots" content="noindex"/>');
    await expectSameAsBuild();
    await edited(() => fixture.write('content/zh-cn/guides/alpha.md', '---\ntitle: 阿尔法指南\n---\n\n潮汐的说明。\n\n## Setup\n\n安装。\n'));
    const translated = preview.files().get('/zh-cn/guides/alpha/index.html')?.toString() ?? '';
    expect(translated).not.toContain('fallback-notice');
    expect(translated).toContain('<h1>阿尔法指南</h1>');
    expect(preview.files().get('/guides/alpha/index.html')?.toString()).toContain('<link rel="alternate" hreflang="zh-CN" href="https://serve.example.org/zh-cn/guides/alpha/"/>');
    await expectSameAsBuild();
  }, 120_000);
});
