import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/content.js';
import { editFile, fixtureSite, runDocs, snapshotDir, withCacheDir } from '../helpers/site.js';

const dirs: string[] = [];
function site(): string {
  const dir = fixtureSite();
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('docs build', () => {
  it('writes every page, the 404 page, sitemap, robots and hashed assets, and prints a summary', async () => {
    const dir = site();
    const { code, out } = await runDocs(['build', '--root', dir, '--out', 'dist']);
    expect(code).toBe(0);
    expect(out).toMatch(/^Built 11 pages in \d+\.\d s → .*dist\/$/m);
    const dist = join(dir, 'dist');
    for (const file of ['index.html', 'guides/index.html', 'guides/first/index.html', 'guides/second/index.html', '404.html', 'sitemap.xml', 'robots.txt', 'old-first/index.html', '_redirects', '_headers']) {
      expect(existsSync(join(dist, file)), file).toBe(true);
    }
    const html = readFileSync(join(dist, 'guides/first/index.html'), 'utf8');
    expect(html.startsWith('<!DOCTYPE html><html lang="en">')).toBe(true);
    expect(html).toContain('<title>First guide | fixture</title>');
    expect(html).toContain('<meta name="description" content="The first guide."/>');
    expect(html).toContain('<link rel="canonical" href="https://docs.example.org/guides/first/"/>');
    expect(html).toContain('<meta property="og:title" content="First guide"/>');
    expect(html).toMatch(/<link rel="stylesheet" href="\/assets\/style\.[0-9a-f]{10}\.css"\/>/);
    expect(html).toMatch(/<script src="\/assets\/main\.[0-9a-f]{10}\.js" defer=""><\/script>/);
    const sitemap = readFileSync(join(dist, 'sitemap.xml'), 'utf8');
    expect(sitemap).toContain('<loc>https://docs.example.org/guides/second/</loc>');
    expect(sitemap).not.toContain('404');
    expect(readFileSync(join(dist, 'robots.txt'), 'utf8')).toContain('Sitemap: https://docs.example.org/sitemap.xml');
    expect(readFileSync(join(dist, 'old-first/index.html'), 'utf8')).toContain('<meta http-equiv="refresh" content="0; url=/guides/first/">');
  });

  it('exits 1 and names file, line and column when a listed page has no file', async () => {
    const dir = site();
    renameSync(join(dir, 'content/guides/second.md'), join(dir, 'content/guides/2nd.md'));
    const { code, err } = await runDocs(['build', '--root', dir]);
    expect(code).toBe(1);
    expect(err).toContain('site.config.yaml:50:9 sections[1].pages[1]: page "guides/second" has no file content/guides/second.md (or content/guides/second/index.md)');
  });

  it('names the same line and column for a config problem when the config comes from the cache', async () => {
    const dir = site();
    await withCacheDir(join(dir, 'cache'), async () => {
      expect((await runDocs(['build', '--root', dir, '--quiet'])).code).toBe(0);
      // The same config text: it is read from the record of the last build, and its positions only when a problem needs them.
      expect(readdirSync(join(dir, 'cache', 'record')).filter((f) => f.endsWith('.json')).length).toBe(1);
      renameSync(join(dir, 'content/guides/second.md'), join(dir, 'content/guides/2nd.md'));
      const { code, err } = await runDocs(['build', '--root', dir]);
      expect(code).toBe(1);
      expect(err).toContain('site.config.yaml:50:9 sections[1].pages[1]: page "guides/second" has no file content/guides/second.md (or content/guides/second/index.md)');
    });
  });

  it('reports bad frontmatter, a broken link and a missing anchor together', async () => {
    const dir = site();
    editFile(join(dir, 'content/404.md'), 'title: Page not found\n', 'title: Page not found\nkeywords: [a]\n');
    editFile(join(dir, 'content/guides/second.md'), '(/guides/first/#install)', '(/guides/first/#instal)');
    editFile(join(dir, 'content/index.md'), '(./guides/second.md)', '(./guides/third.md)');
    const { code, err } = await runDocs(['build', '--root', dir]);
    expect(code).toBe(1);
    expect(err.split('\n').slice(0, 3)).toEqual([
      'content/404.md:3:1 frontmatter.keywords: unknown key "keywords"',
      'content/guides/second.md:8:9 links to "#instal", but /guides/first/ has no such anchor (did you mean #install?)',
      'content/index.md:6:56 links to "./guides/third.md", which is not a page of this site',
    ]);
    expect(err).toContain('3 problems found');
  });

  it('rejects a redirect to a page that does not exist', async () => {
    const dir = site();
    editFile(join(dir, 'site.config.yaml'), '/old-first/: /guides/first/', '/old-first/: /guides/third/');
    const { code, err } = await runDocs(['build', '--root', dir]);
    expect(code).toBe(1);
    expect(err).toMatch(/site\.config\.yaml:\d+:\d+ redirects\.\/old-first\/: redirect target "\/guides\/third\/" is not a page/);
  });

  it('leaves the previous output byte-for-byte untouched when a build fails', async () => {
    const dir = site();
    expect((await runDocs(['build', '--root', dir, '--quiet'])).code).toBe(0);
    const before = snapshotDir(join(dir, 'dist'));
    editFile(join(dir, 'content/guides/first.md'), 'title: First guide', 'title: ""');
    expect((await runDocs(['build', '--root', dir, '--quiet'])).code).toBe(1);
    expect(snapshotDir(join(dir, 'dist'))).toEqual(before);
    // No temporary folder is left beside the output either.
    expect(readdirNames(dir).filter((n) => n.includes('build-'))).toEqual([]);
  });

  it('produces byte-identical output from the same input', async () => {
    const dir = site();
    await runDocs(['build', '--root', dir, '--out', 'a', '--quiet']);
    await runDocs(['build', '--root', dir, '--out', 'b', '--quiet']);
    const a = snapshotDir(join(dir, 'a'));
    expect(a.size).toBeGreaterThan(10);
    expect(snapshotDir(join(dir, 'b'))).toEqual(a);
  });

  it('fails as a whole when a link is broken: the command exits 1 and leaves no temporary folder', () => {
    const dir = site();
    editFile(join(dir, 'content/index.md'), '(./guides/second.md)', '(./guides/third.md)');
    const child = spawnSync(process.execPath, [join(ROOT, 'bin/docs.js'), 'build', '--root', dir, '--out', 'dist'], { encoding: 'utf8', timeout: 60_000 });
    expect(child.status).toBe(1);
    expect(child.stderr).toContain('which is not a page of this site');
    expect(readdirSync(dir).filter((name) => name.startsWith('.dist'))).toEqual([]);
  });

  it('writes a search index whose key changes when the text of a page changes', async () => {
    const dir = site();
    await runDocs(['build', '--root', dir, '--out', 'first', '--quiet']);
    const entry = (out: string) => JSON.parse(readFileSync(join(dir, out, 'search-index', 'index.json'), 'utf8')) as { key: string; pages: number; shards: string[] };
    const first = entry('first');
    expect(first.pages).toBe(10); // every page but the 404 page
    expect(first.shards.length).toBeGreaterThan(0);
    expect(existsSync(join(dir, 'first', 'search-index', first.key, 's0.bin'))).toBe(true);
    expect(readdirSync(join(dir, 'first', 'search-index', first.key)).filter((f) => f.startsWith('p'))).toHaveLength(10);
    editFile(join(dir, 'content', 'guides', 'first.md'), /$/, '\nA sentence the index has not seen yet.\n');
    await runDocs(['build', '--root', dir, '--out', 'second', '--quiet']);
    expect(entry('second').key).not.toBe(first.key);
  });

  it('writes the same bytes with and without the render cache', async () => {
    const dir = site();
    const previous = process.env.DOCS_CACHE;
    try {
      process.env.DOCS_CACHE = '0';
      await runDocs(['build', '--root', dir, '--out', 'uncached', '--quiet']);
      delete process.env.DOCS_CACHE;
      await runDocs(['build', '--root', dir, '--out', 'fill', '--quiet']); // fills the cache
      await runDocs(['build', '--root', dir, '--out', 'cached', '--quiet']); // reads it
    } finally {
      if (previous === undefined) delete process.env.DOCS_CACHE;
      else process.env.DOCS_CACHE = previous;
    }
    const uncached = snapshotDir(join(dir, 'uncached'));
    expect(snapshotDir(join(dir, 'cached'))).toEqual(uncached);
    expect(snapshotDir(join(dir, 'fill'))).toEqual(uncached);
  });

  it('indexes the pages from the render cache when the record of the last build is gone (the indexer reads their bodies there, and the record folder is made again)', async () => {
    const dir = site();
    await withCacheDir(join(dir, 'cache'), async () => {
      await runDocs(['build', '--root', dir, '--out', 'first', '--quiet']);
      rmSync(join(dir, 'cache', 'record'), { recursive: true });
      expect(readdirSync(join(dir, 'cache', 'pages')).length).toBeGreaterThan(0);
      await runDocs(['build', '--root', dir, '--out', 'second', '--quiet']);
      expect(existsSync(join(dir, 'cache', 'record'))).toBe(true);
    });
    expect(snapshotDir(join(dir, 'second'))).toEqual(snapshotDir(join(dir, 'first')));
  });

  it('renders a page again when the render cache lost its body, although the record of the last build has the rest', async () => {
    const dir = site();
    await withCacheDir(join(dir, 'cache'), async () => {
      await runDocs(['build', '--root', dir, '--out', 'first', '--quiet']);
      expect(readdirSync(join(dir, 'cache', 'record')).filter((f) => f.endsWith('.json')).length).toBe(1);
      cpSync(join(dir, 'first'), join(dir, 'second'), { recursive: true });
      rmSync(join(dir, 'cache', 'pages'), { recursive: true });
      // (Into the same folder: its record is the one with the rest.)
      expect((await runDocs(['build', '--root', dir, '--out', 'first', '--quiet'])).code).toBe(0);
    });
    expect(snapshotDir(join(dir, 'first'))).toEqual(snapshotDir(join(dir, 'second')));
  });

  it('keeps what did not change and still writes the bytes of a full build, after every kind of change', async () => {
    const dir = site();
    const dist = join(dir, 'dist');
    const saved = process.env.DOCS_CACHE;
    /** The output of an incremental build into dist/, and of a build from nothing into fresh/. */
    const both = async () => {
      delete process.env.DOCS_CACHE;
      expect((await runDocs(['build', '--root', dir, '--quiet'])).code).toBe(0);
      process.env.DOCS_CACHE = '0';
      rmSync(join(dir, 'fresh'), { recursive: true, force: true });
      expect((await runDocs(['build', '--root', dir, '--out', 'fresh', '--quiet'])).code).toBe(0);
      return { incremental: snapshotDir(dist), fresh: snapshotDir(join(dir, 'fresh')) };
    };
    const same = async (change: string) => {
      const { incremental, fresh } = await both();
      expect([...incremental.keys()], change).toEqual([...fresh.keys()]);
      for (const [file, bytes] of fresh) expect(incremental.get(file), `${change}: ${file}`).toBe(bytes);
    };
    const mtime = (file: string) => statSync(join(dist, file)).mtimeMs;
    try {
      await same('first build');
      const untouched = mtime('contribute/index.html');
      const searchDocs = () => {
        const { key } = JSON.parse(readFileSync(join(dist, 'search-index/index.json'), 'utf8')) as { key: string };
        const folder = join(dist, 'search-index', key);
        return new Map(readdirSync(folder).filter((f) => f.startsWith('p')).map((f) => [f, statSync(join(folder, f)).mtimeMs]));
      };
      const docsBefore = searchDocs();

      editFile(join(dir, 'content/guides/first.md'), 'Intro with', 'An introduction with');
      await same('text of one page');
      // A page the edit does not affect is kept as it was, not written again; so are the search
      // documents of the other pages, moved into the index's new folder.
      expect(mtime('contribute/index.html')).toBe(untouched);
      const docsAfter = searchDocs();
      expect(docsAfter.size).toBe(docsBefore.size);
      expect([...docsAfter].filter(([name, time]) => docsBefore.get(name) !== time)).toHaveLength(1);

      editFile(join(dir, 'content/guides/first.md'), "mode: 'production'", "mode: 'development'");
      await same('code of one page');
      editFile(join(dir, 'content/guides/first.md'), '## Configure', '## Configure it');
      await same('a heading (an anchor of the sidebar)');
      // Only the pages of its section show a page's anchors: the other sections' pages are kept.
      expect(mtime('contribute/index.html')).toBe(untouched);
      editFile(join(dir, 'content/guides/second.md'), /^title: .*$/m, 'title: Second guide, renamed');
      await same('a title (in every sidebar)');
      editFile(join(dir, 'site.config.yaml'), 'title: fixture', 'title: fixture renamed');
      await same('the config');
      writeFileSync(join(dir, 'content/guides/third.md'), '---\ntitle: Third guide\n---\n\nA new page about [the first guide](/guides/first/).\n');
      editFile(join(dir, 'site.config.yaml'), /(\n(\s+)- guides\/second\n)/, '$1$2- guides/third\n');
      await same('a page added');
      mkdirSync(join(dir, 'static/img'), { recursive: true });
      writeFileSync(join(dir, 'static/img/logo.txt'), 'a static file\n');
      await same('a static file added');
      rmSync(join(dir, 'static'), { recursive: true });
      editFile(join(dir, 'site.config.yaml'), /\n\s+- guides\/third\n/, '\n');
      rmSync(join(dir, 'content/guides/third.md'));
      await same('a page and a static file removed');

      // Output changed by hand is made again: a file deleted, one edited (same size), one folder removed.
      rmSync(join(dist, 'guides/first/index.html'));
      const home = readFileSync(join(dist, 'index.html'), 'utf8');
      await new Promise((resolve) => setTimeout(resolve, 20));
      writeFileSync(join(dist, 'index.html'), home.replace('<title>', '<TITLE>'));
      rmSync(join(dist, 'plugins'), { recursive: true });
      await same('output changed by hand');
      rmSync(dist, { recursive: true });
      await same('output folder deleted');
    } finally {
      if (saved === undefined) delete process.env.DOCS_CACHE;
      else process.env.DOCS_CACHE = saved;
    }
  });

  it('writes the same bytes when the cache folder cannot be written (pages keep their bodies in memory then)', async () => {
    const dir = site();
    const saved = { cache: process.env.DOCS_CACHE, dir: process.env.DOCS_CACHE_DIR };
    try {
      process.env.DOCS_CACHE = '0';
      await runDocs(['build', '--root', dir, '--out', 'uncached', '--quiet']);
      delete process.env.DOCS_CACHE;
      // A cache folder below a file: every write fails, as on a full or read-only disk.
      writeFileSync(join(dir, 'not-a-folder'), '');
      process.env.DOCS_CACHE_DIR = join(dir, 'not-a-folder', 'cache');
      const { code, err } = await runDocs(['build', '--root', dir, '--out', 'unwritable', '--quiet']);
      expect(err).toBe('');
      expect(code).toBe(0);
    } finally {
      for (const [key, value] of [['DOCS_CACHE', saved.cache], ['DOCS_CACHE_DIR', saved.dir]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    expect(snapshotDir(join(dir, 'unwritable'))).toEqual(snapshotDir(join(dir, 'uncached')));
  });

  /** A build of `dir` in a process of its own, with a cache in dir/cache: the stages its profile shows. */
  const profiledBuild = (dir: string, expectedStatus = 0, env: Record<string, string> = {}, args: string[] = []) => {
    const child = spawnSync(process.execPath, [join(ROOT, 'bin/docs.js'), 'build', '--root', dir, '--quiet', ...args], {
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, DOCS_PROFILE: '1', DOCS_CACHE_DIR: join(dir, 'cache'), ...env },
    });
    expect(child.status, child.stderr).toBe(expectedStatus);
    const profile = /DOCS_PROFILE (.*)/.exec(child.stderr)?.[1];
    return { stages: profile ? Object.keys((JSON.parse(profile) as { stages: Record<string, number> }).stages) : [], err: child.stderr };
  };

  it('places a problem found after the config came from the record of the last build at its line in the config', () => {
    const dir = site();
    const build = (status = 0) => profiledBuild(dir, status);
    build();
    // The config is the last build's, so its text is parsed again only for the problem's position.
    renameSync(join(dir, 'content/guides/second.md'), join(dir, 'content/guides/2nd.md'));
    expect(build(1).err).toContain('site.config.yaml:50:9 sections[1].pages[1]: page "guides/second" has no file');
  });

  it('does not load the highlighter to rebuild a page whose code blocks did not change', () => {
    const dir = site();
    const build = () => profiledBuild(dir).stages;
    const page = join(dir, 'content/guides/first.md');
    // A first build renders every page and keeps no code tokens: an edit takes them from the markup of the
    // page's last render, until a code block changes.
    expect(build()).toContain('highlighter');
    editFile(page, 'Intro with', 'An intro with');
    expect(build()).not.toContain('highlighter');
    editFile(page, 'An intro with', 'An introduction with');
    expect(build()).not.toContain('highlighter');
    editFile(page, "mode: 'production'", "mode: 'development'");
    expect(build()).toContain('highlighter');
    // The tokens of the blocks the change left alone are kept with the page; the next text edit needs no highlighter.
    editFile(page, 'An introduction with', 'An introduction, with');
    expect(build()).not.toContain('highlighter');
  });

  it('writes the same bytes when code is highlighted on a thread of its own', () => {
    const dir = site();
    // Enough code blocks in a first build for a highlight thread, in three languages.
    const fences = ['```js\nconst n = N;\n```', '```json\n{ "n": N }\n```', '```bash\nnpx webpack --env n=N\n```'];
    const blocks = Array.from({ length: 30 }, (_, i) => fences[i % 3]!.replace('N', String(i)));
    appendFileSync(join(dir, 'content/guides/first.md'), `\n${blocks.join('\n\n')}\n`);
    const alone = profiledBuild(dir, 0, { DOCS_WORKERS: '0', DOCS_CACHE: '0' }, ['--out', 'alone']);
    const threaded = profiledBuild(dir, 0, { DOCS_WORKERS: '1', DOCS_CACHE: '0' }, ['--out', 'threaded']);
    expect(alone.stages).toContain('highlighter');
    // The thread highlighted every block: the build's own thread never loaded a highlighter.
    expect(threaded.stages).not.toContain('highlighter');
    // Pages and the stylesheet (which lists the token classes the thread reported) are the same bytes.
    expect(snapshotDir(join(dir, 'threaded'))).toEqual(snapshotDir(join(dir, 'alone')));
  });

  it('reads a code block\'s tokens back from its markup exactly, or not at all', async () => {
    const { renderMarkdown } = await import('../../src/content/markdown.js');
    const { loadHighlighter } = await import('../../src/content/highlight.js');
    const { codeBlocksIn } = await import('../../src/content/plugins/code-blocks.js');
    const body = [
      'Text.',
      '',
      '```js title="webpack.config.js" {2}',
      "const a = '<b> & c';",
      'module.exports = { mode: "production" }; // → ünïcode',
      '```',
      '',
      '```diff',
      '-old line',
      '+new line',
      '```',
      '',
      '```text',
      'plain',
      '```',
      '',
    ].join('\n');
    const first = await renderMarkdown(body, { file: 'page.md', lineOffset: 0, highlighter: loadHighlighter, codeBlocks: new Map() });
    const read = codeBlocksIn(first.html);
    // Both highlighted blocks (plain text needs no tokens) come back.
    expect(read.size).toBe(2);
    // Rendered from the tokens read back, without a highlighter, the page is the same bytes.
    const again = await renderMarkdown(body, {
      file: 'page.md',
      lineOffset: 0,
      highlighter: () => Promise.reject(new Error('the highlighter was needed')),
      codeBlocks: read,
    });
    expect(again.html).toBe(first.html);
    // Markup of another shape is not guessed at.
    expect(codeBlocksIn('<pre class="code" data-lang="js" tabindex="0"><code><span class="line"><b>x</b></span></code></pre>').size).toBe(0);
    expect(codeBlocksIn('<pre class="code" data-lang="js" tabindex="0"><code><span class="line">a &nbsp; b</span></code></pre>').size).toBe(0);
  });

  it('writes the same bytes when pages are rendered in worker threads', async () => {
    const dir = site();
    const saved = { cache: process.env.DOCS_CACHE, workers: process.env.DOCS_WORKERS };
    try {
      process.env.DOCS_CACHE = '0';
      process.env.DOCS_WORKERS = '0';
      await runDocs(['build', '--root', dir, '--out', 'one', '--quiet']);
      process.env.DOCS_WORKERS = '2';
      const { build } = await import('../../src/engine/build.js');
      // Workers alone (the main thread left out), then workers and the main thread together.
      await build({ root: dir, out: 'two', pool: { minBytes: 1, mainThread: false } });
      await build({ root: dir, out: 'three', pool: { minBytes: 1 } });
      // Workers whose heap is too small for the pipeline: their pages go to the main thread.
      await build({ root: dir, out: 'four', pool: { minBytes: 1, heapMb: 4 } });
    } finally {
      for (const [key, value] of [['DOCS_CACHE', saved.cache], ['DOCS_WORKERS', saved.workers]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    expect(snapshotDir(join(dir, 'two'))).toEqual(snapshotDir(join(dir, 'one')));
    expect(snapshotDir(join(dir, 'three'))).toEqual(snapshotDir(join(dir, 'one')));
    expect(snapshotDir(join(dir, 'four'))).toEqual(snapshotDir(join(dir, 'one')));
  });

  it('reports a page\'s frontmatter and body problems together, whichever thread renders it', async () => {
    const dir = site();
    // Bad frontmatter (read where the page renders) and a broken link in the same page's body.
    editFile(join(dir, 'content/guides/first.md'), /^title: .*$/m, 'title: First guide\nkeywords: [a]');
    appendFileSync(join(dir, 'content/guides/first.md'), '\nSee [the third guide](/guides/third/).\n');
    const saved = { cache: process.env.DOCS_CACHE, workers: process.env.DOCS_WORKERS };
    const problemsOf = async (options: object) => {
      const { build } = await import('../../src/engine/build.js');
      const error = await build({ root: dir, out: 'never', ...options }).then(() => undefined, (e: unknown) => e);
      return (error as { problems?: Array<{ file: string; line: number; column: number; message: string }> }).problems;
    };
    try {
      process.env.DOCS_CACHE = '0';
      process.env.DOCS_WORKERS = '0';
      const alone = await problemsOf({});
      expect(alone?.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`)).toEqual([
        'content/guides/first.md:3:1 unknown key "keywords"',
        expect.stringMatching(/^content\/guides\/first\.md:\d+:5 links to "\/guides\/third\/", which is not a page of this site/),
      ]);
      process.env.DOCS_WORKERS = '2';
      expect(await problemsOf({ pool: { minBytes: 1, mainThread: false } })).toEqual(alone);
      expect(await problemsOf({ pool: { minBytes: 1 } })).toEqual(alone);
    } finally {
      for (const [key, value] of [['DOCS_CACHE', saved.cache], ['DOCS_WORKERS', saved.workers]] as const) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    expect(existsSync(join(dir, 'never'))).toBe(false);
  });

  it('refuses a page over 1 MB with one problem at its file, and builds one just under it', async () => {
    const dir = site();
    const page = join(dir, 'content/guides/long.md');
    const head = '---\ntitle: Long\ndescription: A long page.\n---\n\n';
    // Paragraphs of 100 bytes; "é" takes two bytes: the limit counts bytes, not characters.
    const paragraph = 'Words of a long page, é, written again and again to fill it up to the size limit of a page…\n\n';
    const body = (bytes: number) => paragraph.repeat(Math.floor(bytes / Buffer.byteLength(paragraph)));
    writeFileSync(page, head + body(1024 * 1024 + 200));
    const refused = await runDocs(['build', '--root', dir, '--quiet']);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain("content/guides/long.md: this page's Markdown is 1,025 KB, over the limit of 1,024 KB a page may have; split it into several pages");
    expect(existsSync(join(dir, 'dist'))).toBe(false);
    writeFileSync(page, head + body(1024 * 1024 - 200));
    expect(Buffer.byteLength(readFileSync(page, 'utf8'))).toBeLessThan(1024 * 1024);
    expect((await runDocs(['build', '--root', dir, '--quiet'])).code).toBe(0);
    expect(readFileSync(join(dir, 'dist/guides/long/index.html'), 'utf8')).toContain('written again and again');
  });

  it('prefixes internal links and assets with --base', async () => {
    const dir = site();
    await runDocs(['build', '--root', dir, '--base', '/docs/', '--quiet']);
    const html = readFileSync(join(dir, 'dist/index.html'), 'utf8');
    expect(html).toContain('href="/docs/guides/first/"');
    expect(html).toMatch(/href="\/docs\/assets\/style\.[0-9a-f]{10}\.css"/);
    expect(html).toContain('<link rel="canonical" href="https://docs.example.org/docs/"/>');
  });

  it('docs check validates without writing anything', async () => {
    const dir = site();
    const { code, out } = await runDocs(['check', '--root', dir]);
    expect(code).toBe(0);
    expect(out).toMatch(/Checked 11 pages in \d+\.\d s: no problems found\./);
    expect(existsSync(join(dir, 'dist'))).toBe(false);
  });

  it('exits 2 on usage errors and 0 for --help and --version', async () => {
    expect((await runDocs(['build', '--no-such-flag'])).code).toBe(2);
    expect((await runDocs(['frobnicate'])).code).toBe(2);
    const help = await runDocs(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('Usage: docs');
    const version = await runDocs(['--version']);
    expect(version.code).toBe(0);
    expect(version.out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('reports a missing config file clearly', async () => {
    const dir = site();
    writeFileSync(join(dir, 'other.yaml'), 'site: 1\n');
    const missing = await runDocs(['build', '--root', dir, '--config', 'nope.yaml']);
    expect(missing.code).toBe(1);
    // The absolute path tried, so that a wrong --root or --config shows at once.
    expect(missing.err).toContain(`nope.yaml:1:1 cannot read the config file: there is no file ${join(dir, 'nope.yaml')} (ENOENT)`);
  });
});

function readdirNames(dir: string): string[] {
  return readdirSync(dir);
}
