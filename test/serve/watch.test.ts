import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { BuildState } from '../../src/serve/events.js';
import type { BuildResult } from '../../src/serve/protocol.js';
import type { PreviewServer as Preview } from '../../src/serve/serve.js';
import { buildEvents, expectServesWhatBuildWrites, get, makeFixture, nextBuild, openPage, readTree, startBuiltPreview, startFixturePreview, stateOf, templatePath, type Captured, type EventClient, type Fixture } from './helpers.js';

/*
 * Edits while serving: what is rebuilt, who is told to reload, what the
 * browser is told when the input is broken. The tests run in order on one
 * server, each leaving the site valid for the next.
 */

let fixture: Fixture;
let preview: Preview;
let captured: Captured;
let base: string;
const clients: EventClient[] = [];

beforeAll(async () => {
  fixture = makeFixture();
  ({ preview, captured } = await startBuiltPreview(fixture));
  base = preview.url;
});

afterEach(async () => {
  for (const client of clients.splice(0)) client.close();
  await preview.settled();
});

afterAll(async () => {
  await preview?.close();
  fixture?.cleanup();
});

async function page(path: string): Promise<EventClient> {
  const client = await openPage(base, path);
  clients.push(client);
  return client;
}

const stats = (result: BuildResult) => {
  if (!result.ok) throw new Error(`the build failed: ${JSON.stringify(result)}`);
  return result.stats;
};

/** Every page of the fixture. */
const PAGE_COUNT = 9;

describe('docs serve rebuilds what a save affects', () => {
  it('a body edit renders that page only and reloads only its readers', async () => {
    await preview.settled();
    const alpha = await page('/guides/alpha/');
    const beta = await page('/guides/beta/');
    const home = await page('/');
    const built = nextBuild(preview);
    fixture.edit('content/guides/alpha.md', 'Alpha body text.', 'Alpha body text, edited once.');
    expect(stats(await built)).toMatchObject({ parsed: 1, rendered: 1, pages: PAGE_COUNT });
    await alpha.next('reload');
    expect((await get(base, '/guides/alpha/')).text).toContain('Alpha body text, edited once.');
    await preview.settled();
    expect(beta.unseen()).not.toContain('reload');
    expect(home.unseen()).not.toContain('reload');
    // The printable section is brought up to date after the page.
    expect((await get(base, '/guides/printable/')).text).toContain('Alpha body text, edited once.');
    expect(captured.out).toMatch(/Rebuilt \(.*alpha\.md\) in \d+ ms: 1 file parsed, 1 page rendered/);
  });

  it('a new h2 whose words are known renders the pages of its section only', async () => {
    const beta = await page('/guides/beta/');
    const one = await page('/reference/one/');
    const built = nextBuild(preview);
    // "Usage" and "Setup" are known words, so the search terms (in every page) do not change.
    fixture.edit('content/guides/alpha.md', 'Use it.\n', 'Use it.\n\n## Usage setup\n\nMore usage.\n');
    // guides/index, alpha and beta show the anchor in their sidebar; nothing else does.
    expect(stats(await built)).toMatchObject({ parsed: 1, rendered: 3 });
    await beta.next('reload');
    expect((await get(base, '/guides/beta/')).text).toContain('href="/guides/alpha/#usage-setup"');
    await preview.settled();
    expect(one.unseen()).not.toContain('reload');
  });

  it('a title edit renders every page (the mobile menu lists every title)', async () => {
    const one = await page('/reference/one/');
    const built = nextBuild(preview);
    fixture.edit('content/guides/beta.md', 'title: Beta guide', 'title: Beta handbook');
    expect(stats(await built)).toMatchObject({ parsed: 1, rendered: PAGE_COUNT });
    await one.next('reload');
    expect((await get(base, '/reference/one/')).text).toContain('Beta handbook');
  });

  it('saving without a change rebuilds nothing and reloads nobody', async () => {
    const alpha = await page('/guides/alpha/');
    const built = nextBuild(preview);
    fixture.write('content/guides/alpha.md', fixture.read('content/guides/alpha.md'));
    expect(stats(await built)).toMatchObject({ parsed: 0, rendered: 0 });
    await preview.settled();
    expect(alpha.unseen()).not.toContain('reload');
  });

  it('a burst of saves is built once', async () => {
    const builds: BuildResult[] = [];
    const onBuild = (r: BuildResult) => builds.push(r);
    buildEvents(preview).on('build', onBuild);
    const built = nextBuild(preview);
    for (let i = 1; i <= 5; i++) fixture.edit('content/reference/two.md', /Two body text[^\n]*/, `Two body text, save ${i}.`);
    await built;
    await preview.settled();
    buildEvents(preview).off('build', onBuild);
    expect(builds).toHaveLength(1);
    expect((await get(base, '/reference/two/')).text).toContain('Two body text, save 5.');
  });
});

describe('broken input while serving', () => {
  it('bad frontmatter shows the problem, keeps serving the last good page, and recovers', async () => {
    const alpha = await page('/guides/alpha/');
    const before = (await get(base, '/guides/alpha/')).text;
    const failed = nextBuild(preview);
    fixture.edit('content/guides/alpha.md', 'description: The first guide.', 'description: [unclosed');
    expect((await failed).ok).toBe(false);
    const state = (await alpha.next('state')) as BuildState;
    expect(state.ok).toBe(false);
    if (state.ok) return;
    expect(state.title).toBe('1 problem found');
    expect(state.problems[0]).toMatch(/^content\/guides\/alpha\.md:\d+:\d+ YAML syntax error/);
    expect(captured.err).toContain(state.problems[0]);
    expect(captured.err).toContain('the preview keeps the last good build until they are fixed');
    const during = await get(base, '/guides/alpha/');
    expect(during.status).toBe(200);
    expect(during.text).toBe(before);
    // A page opened now gets the broken state at once.
    const late = await page('/reference/one/');
    expect(late.events[0]).toMatchObject({ event: 'state', data: { ok: false } });

    const fixed = nextBuild(preview);
    fixture.edit('content/guides/alpha.md', 'description: [unclosed', 'description: The first guide, fixed.');
    expect((await fixed).ok).toBe(true);
    expect(await alpha.next('state')).toEqual({ ok: true });
    await alpha.next('reload');
    expect((await get(base, '/guides/alpha/')).text).toContain('The first guide, fixed.');
    expect(captured.out).toMatch(/Fixed; rebuilt/);
  });

  it('renaming an anchor re-checks the pages linking to it', async () => {
    const beta = await page('/guides/beta/');
    const failed = nextBuild(preview);
    fixture.edit('content/guides/alpha.md', '## Usage\n', '## Using it\n');
    expect((await failed).ok).toBe(false);
    const state = (await beta.next('state')) as BuildState;
    if (state.ok) throw new Error('expected problems');
    expect(state.problems).toEqual([expect.stringMatching(/^content\/guides\/beta\.md:5:\d+ links to "#usage", but \/guides\/alpha\/ has no such anchor/)]);
    const fixed = nextBuild(preview);
    fixture.edit('content/guides/beta.md', 'alpha.md#usage', 'alpha.md#using-it');
    expect((await fixed).ok).toBe(true);
    expect(await beta.next('state')).toEqual({ ok: true });
    expect((await get(base, '/guides/beta/')).text).toContain('href="/guides/alpha/#using-it"');
  });

  it('a broken config shows its location; fixing it rebuilds everything', async () => {
    const one = await page('/reference/one/');
    const failed = nextBuild(preview);
    fixture.edit('site.config.yaml', '  - title: Reference\n    url: reference\n', '  - title: Reference\n    url: reference\n   bad: indentation\n');
    expect((await failed).ok).toBe(false);
    const state = (await one.next('state')) as BuildState;
    if (state.ok) throw new Error('expected problems');
    expect(state.problems[0]).toMatch(/^site\.config\.yaml:\d+:\d+ /);
    const fixed = nextBuild(preview);
    fixture.edit('site.config.yaml', '  - title: Reference\n    url: reference\n   bad: indentation\n', '  - title: API reference\n    url: reference\n');
    expect(stats(await fixed)).toMatchObject({ rendered: PAGE_COUNT });
    await one.next('reload');
    expect((await get(base, '/reference/one/')).text).toContain('API reference');
  });

  it('a page listed in the config but deleted is reported, and restoring it recovers', async () => {
    const text = fixture.read('content/reference/two.md');
    const failed = nextBuild(preview);
    fixture.remove('content/reference/two.md');
    expect((await failed).ok).toBe(false);
    const state = await stateOf(preview);
    if (state.ok) throw new Error('expected problems');
    expect(state.problems[0]).toMatch(/^site\.config\.yaml:\d+:\d+ sections\[2\]\.pages\[1\]: page "reference\/two" has no file/);
    expect((await get(base, '/reference/two/')).status).toBe(200); // still the last good build
    const fixed = nextBuild(preview);
    fixture.write('content/reference/two.md', text);
    expect((await fixed).ok).toBe(true);
  });
});

describe('added, renamed and deleted pages', () => {
  it('a new page is served, a reader of its 404 is reloaded', async () => {
    const waiting = await page('/guides/gamma/');
    expect((await get(base, '/guides/gamma/')).status).toBe(404);
    const built = nextBuild(preview);
    fixture.write('content/guides/gamma.md', '---\ntitle: Gamma guide\n---\n\nGamma body text.\n');
    expect(stats(await built)).toMatchObject({ pages: PAGE_COUNT + 1 });
    await waiting.next('reload');
    const res = await get(base, '/guides/gamma/');
    expect(res.status).toBe(200);
    expect(res.text).toContain('Gamma body text.');
  });

  it('a renamed page moves; a deleted page is gone', async () => {
    const old = await page('/guides/gamma/');
    const built = nextBuild(preview);
    fixture.rename('content/guides/gamma.md', 'content/guides/delta.md');
    expect((await built).ok).toBe(true);
    await old.next('reload');
    expect((await get(base, '/guides/gamma/')).status).toBe(404);
    expect((await get(base, '/guides/delta/')).text).toContain('Gamma body text.');
    const removed = nextBuild(preview);
    fixture.remove('content/guides/delta.md');
    expect(stats(await removed)).toMatchObject({ pages: PAGE_COUNT });
    expect((await get(base, '/guides/delta/')).status).toBe(404);
  });

  it('a page added to a section with its config entry in one save burst', async () => {
    const built = nextBuild(preview);
    fixture.write('content/reference/three.md', '---\ntitle: Reference three\n---\n\nThree body text.\n');
    fixture.edit('site.config.yaml', '      - reference/two\n', '      - reference/two\n      - reference/three\n');
    expect(stats(await built)).toMatchObject({ pages: PAGE_COUNT + 1 });
    expect((await get(base, '/reference/two/')).text).toContain('href="/reference/three/" rel="next"');
  });

  it('static files are added and removed', async () => {
    const built = nextBuild(preview);
    fixture.write('static/more/data.json', '{"a":1}');
    expect((await built).ok).toBe(true);
    const res = await get(base, '/more/data.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const removed = nextBuild(preview);
    fixture.remove('static/more/data.json');
    expect((await removed).ok).toBe(true);
    expect((await get(base, '/more/data.json')).status).toBe(404);
  });
});

describe('folders and the config deleted and made again', () => {
  /** Waits until the preview has built every change, and says whether the last build was good. */
  const settledOk = async () => {
    await new Promise((resolve) => setTimeout(resolve, 300)); // the watcher's events of the last change
    await preview.settled();
    return (await stateOf(preview)).ok;
  };

  it('the config, deleted and written again, is watched still (and so is one saved by renaming, as some editors do)', async () => {
    const text = fixture.read('site.config.yaml');
    const failed = nextBuild(preview);
    fixture.remove('site.config.yaml');
    expect((await failed).ok).toBe(false);
    fixture.write('site.config.yaml', text);
    expect(await settledOk()).toBe(true);
    fixture.edit('site.config.yaml', 'title: Reference\n', 'title: Reference after the restore\n');
    expect(await settledOk()).toBe(true);
    expect((await get(base, '/reference/one/')).text).toContain('Reference after the restore');
    // Saved by writing a new file and renaming the old one away.
    fixture.rename('site.config.yaml', 'site.config.yaml~');
    fixture.write('site.config.yaml', text.replace('title: Reference\n', 'title: Reference renamed\n'));
    fixture.remove('site.config.yaml~');
    expect(await settledOk()).toBe(true);
    fixture.edit('site.config.yaml', 'title: Reference renamed\n', 'title: Reference once more\n');
    expect(await settledOk()).toBe(true);
    expect((await get(base, '/reference/one/')).text).toContain('Reference once more');
    fixture.write('site.config.yaml', text);
    expect(await settledOk()).toBe(true);
  });

  it('content/ and static/, deleted and made again, are watched still', async () => {
    const content = readTree(fixture.path('content'));
    const failed = nextBuild(preview);
    rmSync(fixture.path('content'), { recursive: true });
    expect((await failed).ok).toBe(false);
    for (const [file, bytes] of content) fixture.write(`content/${file}`, bytes.toString('utf8'));
    expect(await settledOk()).toBe(true);
    fixture.edit('content/guides/alpha.md', 'Alpha body text', 'Alpha body text after the restore');
    expect(await settledOk()).toBe(true);
    expect((await get(base, '/guides/alpha/')).text).toContain('Alpha body text after the restore');

    rmSync(fixture.path('static'), { recursive: true });
    expect(await settledOk()).toBe(true);
    expect((await get(base, '/notes.txt')).status).toBe(404);
    fixture.write('static/notes.txt', 'Static notes.\n');
    expect(await settledOk()).toBe(true);
    fixture.write('static/new.txt', 'New.\n');
    expect(await settledOk()).toBe(true);
    expect((await get(base, '/new.txt')).text).toBe('New.\n');
    fixture.remove('static/new.txt');
    expect(await settledOk()).toBe(true);
  });

  it('S1 a symbolic link added under content/ that leads out of the site, or to nothing, shows its problem at once', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'docs-outside-'));
    try {
      writeFileSync(join(outside, 'leak.md'), '---\ntitle: Leak\n---\n\nOUTSIDE-SECRET\n');
      const failed = nextBuild(preview, 10_000);
      symlinkSync(join(outside, 'leak.md'), fixture.path('content/guides/leak.md'));
      const result = await failed;
      expect(result.ok).toBe(false);
      expect(JSON.stringify(result)).toContain('content/guides/leak.md');
      expect((await get(base, '/guides/leak/')).text).not.toContain('OUTSIDE-SECRET');
      rmSync(fixture.path('content/guides/leak.md'));
      fixture.edit('content/guides/alpha.md', 'Alpha body text', 'Alpha body text after the link');
      expect(await settledOk()).toBe(true);
      const dangling = nextBuild(preview, 10_000);
      symlinkSync(join(outside, 'gone.md'), fixture.path('content/guides/gone.md'));
      expect((await dangling).ok).toBe(false);
      rmSync(fixture.path('content/guides/gone.md'));
      fixture.edit('content/guides/alpha.md', 'Alpha body text after the link', 'Alpha body text');
      expect(await settledOk()).toBe(true);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  });

  it('a symbolic link out of the site or into a loop is not followed by the watcher', async () => {
    const outside = mkdtempSync(join(tmpdir(), 'docs-outside-'));
    try {
      writeFileSync(join(outside, 'file.txt'), 'outside\n');
      symlinkSync(outside, join(outside, 'again'), 'dir'); // a loop inside the target too
      symlinkSync(outside, fixture.path('static/outside'), 'dir');
      symlinkSync('.', fixture.path('static/self'), 'dir');
      expect(await settledOk()).toBe(true);
      expect(captured.err).not.toContain('Watching failed');
      // A change out there is none of the site's: nothing is built.
      let built = false;
      void nextBuild(preview, 3_000).then(() => (built = true), () => {});
      writeFileSync(join(outside, 'file.txt'), 'outside, changed\n');
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(built).toBe(false);
    } finally {
      rmSync(fixture.path('static/outside'));
      rmSync(fixture.path('static/self'));
      rmSync(outside, { recursive: true, force: true });
      await settledOk();
    }
  });
});

describe('template edits', () => {
  it('a stylesheet edit bundles the CSS again; every page points to the new file', async () => {
    const home = await page('/');
    const oldCss = /href="(\/assets\/style\.[0-9a-f]{10}\.css)"/.exec((await get(base, '/')).text)![1]!;
    const built = nextBuild(preview);
    fixture.edit('../templates/styles/00-base.css', /$/, '\n.serve-test-marker{color:#123456}\n');
    const s = stats(await built);
    expect(s.parsed).toBe(0);
    expect(s.rendered).toBe(s.pages);
    await home.next('reload');
    const newCss = /href="(\/assets\/style\.[0-9a-f]{10}\.css)"/.exec((await get(base, '/')).text)![1]!;
    expect(newCss).not.toBe(oldCss);
    expect((await get(base, newCss)).text).toContain('.serve-test-marker{color:#123456}');
    expect((await get(base, oldCss)).status).toBe(404);
  });

  it('a client script edit bundles the script again', async () => {
    const oldJs = /src="(\/assets\/main\.[0-9a-f]{10}\.js)"/.exec((await get(base, '/')).text)![1]!;
    const built = nextBuild(preview);
    fixture.edit('../templates/client/main.ts', /$/, '\nconsole.debug("serve-test-marker");\n');
    expect(stats(await built)).toMatchObject({ parsed: 0 });
    const newJs = /src="(\/assets\/main\.[0-9a-f]{10}\.js)"/.exec((await get(base, '/')).text)![1]!;
    expect(newJs).not.toBe(oldJs);
    expect((await get(base, newJs)).text).toContain('serve-test-marker');
  });

  it('a component edit is picked up by a new render worker; a syntax error is shown and fixed', async () => {
    const layout = templatePath(fixture, 'Layout.tsx');
    const home = await page('/');
    let built = nextBuild(preview);
    fixture.edit(`../templates/Layout.tsx`, '<meta name="color-scheme"', '<meta name="serve-test" content="new-layout" />\n        <meta name="color-scheme"');
    expect((await built).ok).toBe(true);
    await home.next('reload');
    expect((await get(base, '/')).text).toContain('<meta name="serve-test" content="new-layout"/>');

    // A syntax error: the old worker keeps serving, the overlay names the file.
    fixture.edit(`../templates/Layout.tsx`, 'content="new-layout" />', 'content="broken" <');
    const state = (await home.next('state')) as BuildState;
    if (state.ok) throw new Error('expected a template error');
    expect(state.title).toBe('A template does not compile');
    expect(state.problems.join('\n')).toContain('templates/Layout.tsx:');
    expect(captured.err).toContain('A template does not compile');
    expect((await get(base, '/')).text).toContain('content="new-layout"');

    // A content edit meanwhile is still applied with the last working templates.
    built = nextBuild(preview);
    fixture.edit('content/index.md', 'Start with', 'Begin with');
    expect((await built).ok).toBe(true);
    expect((await stateOf(preview)).ok).toBe(false);
    expect((await get(base, '/')).text).toContain('Begin with');

    // An exception while rendering: printed, shown, and the server carries on.
    built = nextBuild(preview);
    fixture.edit(`../templates/Layout.tsx`, 'content="broken" <', 'content={String((null as unknown as { x: string }).x)} />');
    const crashed = await built;
    expect(crashed.ok).toBe(false);
    expect('unexpected' in crashed && crashed.unexpected).toMatch(/TypeError/);
    expect(captured.err).toContain('Unexpected error while rebuilding');
    expect((await get(base, '/')).status).toBe(200);

    built = nextBuild(preview);
    fixture.edit(`../templates/Layout.tsx`, 'content={String((null as unknown as { x: string }).x)} />', 'content="fixed-layout" />');
    expect((await built).ok).toBe(true);
    expect(await stateOf(preview)).toEqual({ ok: true });
    expect((await get(base, '/')).text).toContain('<meta name="serve-test" content="fixed-layout"/>');
    expect(layout).toContain('templates');
  });
});

describe('warnings', () => {
  it('are printed as docs build prints them, once each while they hold, not again at every save', async () => {
    const unlisted = 'content/extra.md: this page is in no section of site.config.yaml, nor in the navigation or the footer, so no menu leads to it; list "extra" in a section\'s pages (warning)\n';
    // The fixture's unlisted page: warned of at the first build, and not again through every rebuild since.
    expect(captured.err.split(unlisted).length - 1).toBe(1);
    const link = 'static/linked.txt: a symbolic link in static/ is not copied; copy the file itself into static/ to publish it (warning)\n';
    symlinkSync(fixture.path('static/notes.txt'), fixture.path('static/linked.txt'));
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      await preview.settled();
      expect(captured.err.split(link).length - 1).toBe(1);
    } finally {
      rmSync(fixture.path('static/linked.txt'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      await preview.settled();
    }
  });
});

describe('after all these edits', () => {
  it('serves exactly what docs build writes from the same sources', async () => {
    // Undo the template edits: docs build renders with the tool's own Layout.
    const built = nextBuild(preview);
    fixture.edit(`../templates/Layout.tsx`, '<meta name="serve-test" content="fixed-layout" />\n        ', '');
    expect((await built).ok).toBe(true);
    await preview.settled();
    await expectServesWhatBuildWrites(preview, fixture);
  });
});

describe('a site that is broken from the start', () => {
  it('serves a page that shows the problems, then the site once they are fixed', async () => {
    const broken = makeFixture();
    broken.edit('content/guides/beta.md', 'title: Beta guide', 'title: ""');
    const { preview: early, captured: out } = await startFixturePreview(broken);
    try {
      expect((await stateOf(early)).ok).toBe(false);
      expect(out.err).toContain('content/guides/beta.md:2:8 frontmatter.title:');
      expect(out.err).toContain('the site is served once they are fixed');
      const res = await get(early.url, '/guides/alpha/');
      expect(res.status).toBe(503);
      expect(res.text).toContain('<script src="/__docs/reload.js" defer></script>');
      const client = await openPage(early.url, '/guides/alpha/');
      expect(client.events[0]).toMatchObject({ event: 'state', data: { ok: false, problems: [expect.stringContaining('content/guides/beta.md:2:8')] } });
      broken.edit('content/guides/beta.md', 'title: ""', 'title: Beta guide');
      expect(await client.next('state')).toEqual({ ok: true });
      await client.next('reload');
      expect((await get(early.url, '/guides/alpha/')).status).toBe(200);
      client.close();
    } finally {
      await early.close();
      broken.cleanup();
    }
  });
});
