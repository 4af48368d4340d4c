import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { docsIn, expectNoStack, expectRejected, goodBuild, put, scratchSite, startDocs, unlistedWarning, type Scratch } from './harness.js';

/*
 * What `docs` reads from content/ (report rows #32-#35, #46-#48; F2, F3,
 * F8, F9, F16): symbolic links out of the site, dangling and in loops, a
 * pipe or a folder named *.md, file names that are not URL paths, a missing
 * content/ folder. Each is a problem naming the path (no line:column: the
 * whole file is the problem), exit 1, no stack, nothing changed.
 */

let s: Scratch;
let outside: string;

beforeAll(async () => {
  s = scratchSite();
  outside = join(s.dir, 'outside');
  mkdirSync(outside);
  writeFileSync(join(outside, 'secret.md'), '---\ntitle: Secret\n---\n\nSECRET-OUTSIDE-ROOT\n');
  await goodBuild(s);
});

afterAll(() => s?.remove());

/** Adds `make` to the site for one probe, runs it, then takes it away. */
async function probe(path: string, make: (abs: string) => void, problems: string[], command = 'build') {
  const abs = join(s.site, path);
  make(abs);
  try {
    return await expectRejected(s, command === 'build' ? ['build'] : [command], problems);
  } finally {
    rmSync(abs, { recursive: true, force: true });
  }
}

describe('symbolic links under content/ (F2, F3)', () => {
  it('#32 a link to a file outside the site folder is a problem, not a published page', () =>
    probe('content/guides/leak.md', (p) => symlinkSync(join(outside, 'secret.md'), p), [
      `content/guides/leak.md: this symbolic link leads outside the site folder (to ${join(outside, 'secret.md')}); docs publishes only files inside the site folder, so copy the file in instead`,
    ]));

  it('#32 a link to a folder outside the site folder', () =>
    probe('content/ext', (p) => symlinkSync(outside, p), [
      `content/ext: this symbolic link leads outside the site folder (to ${outside}); docs publishes only files inside the site folder, so copy the file in instead`,
    ]));

  it('#33 a dangling link (build and check)', async () => {
    const message = 'content/guides/dangling.md: this symbolic link leads nowhere (its target does not exist): remove it or fix its target';
    await probe('content/guides/dangling.md', (p) => symlinkSync('nowhere.md', p), [message]);
    await probe('content/guides/dangling.md', (p) => symlinkSync('nowhere.md', p), [message], 'check');
  });

  it('#34 a link to a folder that holds it (loop), relative and absolute', async () => {
    const message = 'content/guides/loop: this symbolic link leads back to a folder that holds it (a loop)';
    await probe('content/guides/loop', (p) => symlinkSync('.', p), [message]);
    await probe('content/guides/loop', (p) => symlinkSync(join(s.site, 'content', 'guides'), p), [message]);
    await probe('content/guides/loop', (p) => symlinkSync('..', p), [message]);
  });

  it('#34 two links that point at each other', async () => {
    const a = join(s.site, 'content/guides/a.md');
    const b = join(s.site, 'content/guides/b.md');
    symlinkSync('b.md', a);
    symlinkSync('a.md', b);
    try {
      await expectRejected(s, ['build'], [
        'content/guides/a.md: this symbolic link is part of a loop of links',
        'content/guides/b.md: this symbolic link is part of a loop of links',
      ]);
    } finally {
      unlinkSync(a);
      unlinkSync(b);
    }
  });

  it('a link that stays inside the site folder is followed (file and folder)', async () => {
    put(s, 'shared/page.md', '---\ntitle: Shared page\n---\n\nSHARED-INSIDE-ROOT\n');
    symlinkSync('../../shared/page.md', join(s.site, 'content/guides/shared.md'));
    symlinkSync('../shared', join(s.site, 'content/more'));
    try {
      const run = await docsIn(s, ['build']);
      expectNoStack(run);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe(`${unlistedWarning('content/guides/shared.md', 'guides/shared')} (warning)\n${unlistedWarning('content/more/page.md', 'more/page')} (warning)\n`);
      expect(readFileSync(join(s.site, 'dist/guides/shared/index.html'), 'utf8')).toContain('SHARED-INSIDE-ROOT');
      expect(readFileSync(join(s.site, 'dist/more/page/index.html'), 'utf8')).toContain('SHARED-INSIDE-ROOT');
    } finally {
      unlinkSync(join(s.site, 'content/guides/shared.md'));
      unlinkSync(join(s.site, 'content/more'));
      rmSync(join(s.site, 'shared'), { recursive: true });
      await goodBuild(s);
    }
  });
});

describe('only regular files are read (F8, F9)', () => {
  it('#48 a FIFO named *.md is a problem, never a hang', () =>
    probe('content/guides/fifo.md', (p) => execFileSync('mkfifo', [p]), ['content/guides/fifo.md: this is a named pipe (FIFO), not a Markdown file; remove it from content/']));

  it('#47 a folder named *.md is a problem', () =>
    probe('content/guides/weird.md', (p) => mkdirSync(p), ['content/guides/weird.md: this is a folder whose name ends in .md; a page is a file (rename the folder)']));

  it('#46 a missing content/ folder is one problem naming the absolute path', async () => {
    const content = join(s.site, 'content');
    renameSync(content, join(s.site, 'content.away'));
    try {
      await expectRejected(s, ['build'], [`content/: there is no content folder (looked for ${content}); make it and put the pages there`]);
      await expectRejected(s, ['check'], [`content/: there is no content folder (looked for ${content}); make it and put the pages there`]);
    } finally {
      renameSync(join(s.site, 'content.away'), content);
    }
  });
});

describe('#35 file names that are not URL paths are problems (F16)', () => {
  const page = '---\ntitle: Named\n---\n\nText.\n';
  for (const [name, part, what] of [
    ['guides/my page.md', 'my page', 'file'],
    ['guides/Upper.md', 'Upper', 'file'],
    ['guides/café-日本.md', 'café-日本', 'file'],
    ['Guides Two/page.md', 'Guides Two', 'folder'],
  ] as const) {
    it(`content/${name}`, () =>
      probe(`content/${name}`, (p) => {
        mkdirSync(join(p, '..'), { recursive: true });
        writeFileSync(p, page);
      }, [`content/${name}: "${part}" cannot be part of a page's URL: use lowercase letters, digits, ".", "-" and "_" only (rename the ${what})`]).finally(() =>
        rmSync(join(s.site, 'content/Guides Two'), { recursive: true, force: true }),
      ));
  }
  for (const [name, part, what] of [
    ['guides/.draft.md', '.draft', 'file'],
    ['.hidden/page.md', '.hidden', 'folder'],
    ['guides/-dash.md', '-dash', 'file'],
  ] as const) {
    it(`content/${name}: named for its first character`, () =>
      probe(`content/${name}`, (p) => {
        mkdirSync(join(p, '..'), { recursive: true });
        writeFileSync(p, page);
      }, [`content/${name}: "${part}" cannot be part of a page's URL: it must start with a lowercase letter or a digit (rename the ${what}; content/ has no hidden or draft pages, keep drafts outside it)`]).finally(() =>
        rmSync(join(s.site, 'content/.hidden'), { recursive: true, force: true }),
      ));
  }
  for (const [name, stem] of [
    ['guides/extra.MD', 'extra'],
    ['guides/notes.markdown', 'notes'],
  ] as const) {
    it(`content/${name}: Markdown by another spelling is named, not left out without a word`, () =>
      probe(`content/${name}`, (p) => writeFileSync(p, page), [
        `content/${name}: pages are files whose names end in .md, and this one is not read (rename it to ${stem}.md, or move it out of content/)`,
      ]));
  }
  it('the sitemap of a good build holds only plain URLs', () => {
    const sitemap = readFileSync(join(s.site, 'dist/sitemap.xml'), 'utf8');
    const locs = [...sitemap.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!);
    expect(locs.length).toBeGreaterThan(5);
    for (const loc of locs) expect(loc).toMatch(/^https:\/\/docs\.example\.org(?:\/[a-z0-9._-]+)*\/$/);
  });
});

describe('docs serve reports the same problems as docs build', () => {
  it('a dangling link, a FIFO and a link outside the site, at start', async () => {
    symlinkSync('nowhere.md', join(s.site, 'content/guides/dangling.md'));
    execFileSync('mkfifo', [join(s.site, 'content/guides/fifo.md')]);
    symlinkSync(join(outside, 'secret.md'), join(s.site, 'content/guides/leak.md'));
    const { child, finished } = startDocs(['serve', '--port', '0'], { cwd: s.site, env: { DOCS_CACHE_DIR: s.cache } });
    let stderr = '';
    child.stderr!.on('data', (c: Buffer) => (stderr += c.toString()));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`docs serve printed no problems:\n${stderr}`)), 60_000);
        child.stderr!.on('data', () => {
          if (/problems found/.test(stderr)) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      child.kill('SIGTERM');
      const run = await finished;
      expectNoStack(run);
      expect(run.stderr).toBe(
        [
          'content/guides/dangling.md: this symbolic link leads nowhere (its target does not exist): remove it or fix its target',
          'content/guides/fifo.md: this is a named pipe (FIFO), not a Markdown file; remove it from content/',
          `content/guides/leak.md: this symbolic link leads outside the site folder (to ${join(outside, 'secret.md')}); docs publishes only files inside the site folder, so copy the file in instead`,
          '3 problems found (the first at content/guides/dangling.md, and 2 more); the site is served once they are fixed.',
          '',
        ].join('\n'),
      );
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      for (const name of ['dangling.md', 'fifo.md', 'leak.md']) rmSync(join(s.site, 'content/guides', name), { force: true });
    }
    expect(existsSync(join(s.site, 'content/guides/fifo.md'))).toBe(false);
  });
});

describe('#11 a page in no section and in no menu (accepted by design, now a warning)', () => {
  const warning = unlistedWarning('content/guides/orphan.md', 'guides/orphan');
  beforeAll(() => put(s, 'content/guides/orphan.md', '---\ntitle: Orphan\n---\n\nNo menu leads here.\n'));
  afterAll(() => rmSync(join(s.site, 'content/guides/orphan.md'), { force: true }));
  it('build and check: a warning on stderr, exit 0', async () => {
    for (const command of ['build', 'check']) {
      const run = await docsIn(s, [command]);
      expectNoStack(run);
      expect(run.stderr).toBe(`${warning} (warning)\n`);
      expect(run.code).toBe(0);
    }
  });
  it('check --strict: a problem, exit 1', () => expectRejected(s, ['check', '--strict'], [warning]));
});

describe('symbolic links under static/ are not copied, with a warning', () => {
  it('a link to a file outside, to a folder outside and to the config', async () => {
    put(s, 'static/ok.txt', 'published\n');
    symlinkSync(join(outside, 'secret.md'), join(s.site, 'static/leak.txt'));
    symlinkSync(outside, join(s.site, 'static/linkdir'));
    symlinkSync('../site.config.yaml', join(s.site, 'static/cfg.yaml'));
    try {
      const run = await docsIn(s, ['build']);
      expectNoStack(run);
      const warning = (name: string) => `static/${name}: a symbolic link in static/ is not copied; copy the file itself into static/ to publish it (warning)`;
      expect(run.stderr).toBe(`${warning('cfg.yaml')}\n${warning('leak.txt')}\n${warning('linkdir')}\n`);
      expect(run.code).toBe(0);
      expect(readFileSync(join(s.site, 'dist/ok.txt'), 'utf8')).toBe('published\n');
      for (const name of ['leak.txt', 'linkdir', 'cfg.yaml']) expect(existsSync(join(s.site, 'dist', name))).toBe(false);
    } finally {
      rmSync(join(s.site, 'static'), { recursive: true, force: true });
      await goodBuild(s);
    }
  });
});

describe('#7 #9 a config file that is not there names the absolute path tried', () => {
  it('--config nope.yaml and --root of a missing folder', async () => {
    await expectRejected(s, ['build', '--config', 'nope.yaml'], [`nope.yaml:1:1 cannot read the config file: there is no file ${join(s.site, 'nope.yaml')} (ENOENT)`]);
    // A --root that is no folder is a mistake on the command line (exit 2; see out-guard.test.ts).
    const run = await docsIn(s, ['check', '--root', join(s.dir, 'nope')]);
    expectNoStack(run);
    expect(run.stderr).toBe(`--root ${join(s.dir, 'nope')}: there is no folder ${join(s.dir, 'nope')}. Nothing was written; name the folder that holds site.config.yaml.\n`);
    expect(run.code).toBe(2);
  });
});
