import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuildState } from '../../src/serve/events.js';
import type { PreviewServer as Preview } from '../../src/serve/serve.js';
import { DESKTOP, hasChromium, launch, offline } from '../helpers/browser.js';
import { makeFixture, nextBuild, startFixturePreview, stateOf, type Captured, type Fixture } from './helpers.js';

/*
 * What the preview says of broken input (issue #38): the overlay tells whether a good build is behind it
 * (none when the first build failed), and the terminal's line names the place of the first problem, not the files saved.
 */

let fixture: Fixture;
let preview: Preview;
let captured: Captured;
let browser: Browser | undefined;

const BROKEN_BETA = ['title: Beta guide', 'title: Beta guide\nkeywords: [broken]'] as const;
const BROKEN_TWO = ['Two body text.', 'Two body text, [a link to nothing](/no/such/page/).'] as const;

beforeAll(async () => {
  fixture = makeFixture();
  // The first build fails: nothing good has been built.
  fixture.edit('content/guides/beta.md', ...BROKEN_BETA);
  fixture.edit('content/reference/two.md', ...BROKEN_TWO);
  ({ preview, captured } = await startFixturePreview(fixture));
  if (hasChromium) browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  await preview?.close();
  fixture?.cleanup();
});

async function state(path = '/'): Promise<Extract<BuildState, { ok: false }>> {
  const got = await stateOf(preview, path);
  if (got.ok) throw new Error('the build state is ok');
  return got;
}

async function overlayText(): Promise<string> {
  const context = await browser!.newContext(DESKTOP);
  try {
    const page = await context.newPage();
    await offline(page);
    await page.goto(preview.url);
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.count(), { timeout: 30_000 }).toBe(1);
    return await alert.innerText();
  } finally {
    await context.close();
  }
}

describe('broken input in the preview', () => {
  it('when the first build failed: the overlay does not speak of a last good build, and the line names the first problem', async () => {
    const failed = await state();
    expect(failed.title).toBe('2 problems found');
    expect(failed.note).toBe('Nothing could be built yet, so there is no page to show. Fix the files below; the site is shown by itself then.');
    expect(failed.note).not.toMatch(/last good build/);
    expect(captured.err).toContain(
      'content/guides/beta.md:3:1 frontmatter.keywords: unknown key "keywords"\n' +
        'content/reference/two.md:',
    );
    expect(captured.err).toContain('\n2 problems found (the first at content/guides/beta.md:3:1, and 1 more); the site is served once they are fixed.\n');
  });

  it.runIf(hasChromium)('shows that note in the browser overlay', async () => {
    const text = await overlayText();
    expect(text).toContain('Nothing could be built yet');
    expect(text).not.toContain('last good build');
  });

  it('after a good build: the overlay says the last good build is shown; the line has the problem\'s place and none of the files saved', async () => {
    let built = nextBuild(preview);
    fixture.edit('content/guides/beta.md', BROKEN_BETA[1], BROKEN_BETA[0]);
    fixture.edit('content/reference/two.md', BROKEN_TWO[1], BROKEN_TWO[0]);
    while (!(await built).ok) built = nextBuild(preview);
    await preview.settled();

    const before = captured.err.length;
    const failed = nextBuild(preview);
    // Several files saved at once, one of them broken: the line is about the problem, not the saves.
    fixture.edit('content/guides/alpha.md', 'Use it.', 'Use it well.');
    fixture.edit('content/reference/one.md', 'Some options.', 'Some more options.');
    fixture.edit('content/guides/beta.md', ...BROKEN_BETA);
    let result = await failed;
    while (result.ok) result = await nextBuild(preview);
    const printed = captured.err.slice(before);
    expect(printed).toContain('content/guides/beta.md:3:1 frontmatter.keywords: unknown key "keywords"\n1 problem found (at content/guides/beta.md:3:1); the preview keeps the last good build until they are fixed.\n');
    expect(printed).not.toContain('content/guides/alpha.md');
    expect(printed).not.toContain('more)');

    const broken = await state('/guides/alpha/');
    expect(broken.note).toBe('The preview shows the last good build. Fix the files below; this message goes away by itself.');
    if (browser) expect(await overlayText()).toContain('The preview shows the last good build.');
  });
});
