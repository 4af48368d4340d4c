import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createSearchIndexer } from '../../src/build/search-indexer.js';
import type { SearchInput } from '../../src/build/search-indexer.js';
import { createBodyReader, entryOf, sectionsOf } from '../../src/content/search-sections.js';
import { flushCacheWrites } from '../../src/io/cache.js';
import { BuildRecord } from '../../src/io/record.js';
import { editFile, fixtureSite, runDocs, withCacheDir } from '../helpers/site.js';
import { createSearchEngine } from '../../templates/client/search-engine.js';
import { queryWords, termsOf } from '../../templates/client/search-text.js';

/* The local search index as the build writes it, read by the engine the browser runs. */

const page = (url: string, title: string, html: string, section = 'Guides'): SearchInput => ({ url, title, section, slug: url.split('/').filter(Boolean).pop() ?? '', html });

const PAGES = [
  page('/guides/caching/', 'Caching', '<p>Browsers keep files they have downloaded.</p><h2 id="content-hashes">Content hashes</h2><p>Put a <code>[contenthash]</code> in <code>output.filename</code> so that a changed file gets a new name.</p>'),
  page('/configuration/optimization/', 'Optimization', '<p>Options of the <code>optimization</code> object.</p><h2 id="optimizationsplitchunks">optimization.splitChunks</h2><p>Controls the <code>SplitChunksPlugin</code>.</p><h3 id="cachegroups">cacheGroups</h3><p>Groups of modules.</p>', 'Configuration'),
  page('/guides/lazy-loading/', 'Lazy loading', '<p>Load a module only when it is needed, with <code>import()</code>.</p><h2 id="an-example">An example</h2><p>The button loads the print module on click; a cache is not involved.</p>'),
  page('/api/loaders/', 'Loader API', '<p>A loader is a function.</p><pre class="code"><code><span class="line"><span class="t1">module</span><span class="t2">.</span><span class="t1">exports</span></span></code></pre><button type="button" class="copy">Copy</button>', 'API'),
  page('/guides/xss/', 'Escaping', '<p>A page that shows the text &lt;img src=x onerror=alert(1)&gt; as text.</p>'),
];

function indexOf(pages: SearchInput[]) {
  const indexer = createSearchIndexer();
  for (const p of pages) indexer.add(p);
  return new Map(indexer.files().map((f) => [f.path, f.content]));
}

function engineOf(files: Map<string, Uint8Array>, fetched: string[] = []) {
  return createSearchEngine(async (path) => {
    fetched.push(path);
    const file = files.get(path);
    if (!file) throw new Error(`404 ${path}`);
    return file;
  });
}

describe('search index', () => {
  it('cuts a page body at its h2 and h3 headings, without self-links, copy buttons or highlighting tags', () => {
    expect(sectionsOf('<p>Intro &amp; more.</p><h2 id="setup"><a class="anchor" href="#setup">#</a>Set<code>up</code></h2><p>Run <code>npm</code> <strong>now</strong>.</p><div class="code-block"><pre class="code"><code><span class="line"><span>optimization</span><span>.</span><span>splitChunks</span></span></code></pre><button type="button" class="copy">Copy</button></div><h3 id="more">More</h3>')).toEqual([
      ['', '', 'Intro & more.'],
      ['setup', 'Setup', 'Run npm now. optimization.splitChunks'],
      ['more', 'More', ''],
    ]);
  });

  it('indexes a joined or camel-cased word whole and by its parts', () => {
    const terms: string[] = [];
    termsOf('optimization.splitChunks', (t) => terms.push(t));
    expect(terms).toEqual(['optimization.splitchunks', 'optimization', 'splitchunks', 'split', 'chunks']);
    expect(queryWords('SplitChunks  babel-loader splitchunks')).toEqual(['splitchunks', 'babel-loader']);
  });

  it('writes the same bytes for the same pages, and a new key when a text changes', () => {
    const a = indexOf(PAGES);
    expect(indexOf(PAGES)).toEqual(a);
    const changed = indexOf([...PAGES.slice(0, 4), page('/guides/xss/', 'Escaping', '<p>Other words.</p>')]);
    const key = (files: Map<string, Uint8Array>) => JSON.parse(Buffer.from(files.get('index.json')!).toString()).key as string;
    expect(key(changed)).not.toBe(key(a));
    // Shards and page documents are gzipped by the build.
    const doc = JSON.parse(gunzipSync(a.get(`${key(a)}/p0.bin`)!).toString());
    expect(doc).toMatchObject({ url: '/guides/caching/', title: 'Caching', section: 'Guides' });
  });

  it('starts from the last build\'s saved state, reads only the pages that changed, and lists the files of an index made from nothing', async () => {
    const cache = mkdtempSync(join(tmpdir(), 'docs-search-state-'));
    try {
      await withCacheDir(cache, async () => {
        let last: SearchInput[] = [];
        /**
         * Gives `pages` to an indexer that starts from the saved state, as a build gives them: with the key of their
         * Markdown's render, and without their body when the last call gave them as they are (unless `bodies`). The
         * render cache is empty, so such a body cannot be read: the indexer must take what it needs from the state.
         */
        const same = async (pages: SearchInput[], bodies = false) => {
          const before = new Set(last.map((p) => JSON.stringify(p)));
          last = [...pages];
          // The state is a part of the record of the last build (src/io/record.ts).
          const record = new BuildRecord('/site/dist');
          const indexer = await record.run(async () => createSearchIndexer({ state: '/site/dist' }));
          for (const p of pages) {
            const keyed = { ...p, sourceKey: createHash('sha256').update(p.html!).digest('hex') };
            indexer.add(!bodies && before.has(JSON.stringify(p)) ? { ...keyed, html: undefined } : keyed);
          }
          const fresh = createSearchIndexer();
          for (const p of pages) fresh.add(p);
          // (Each file's key is a hash of its bytes.)
          expect(indexer.list()).toEqual(fresh.list());
          if (bodies) expect(new Map(indexer.files().map((f) => [f.path, f.content]))).toEqual(new Map(fresh.files().map((f) => [f.path, f.content])));
          // As a build does before it ends: the postings are saved in the background, the record once the build has committed.
          await flushCacheWrites();
          await record.save();
        };
        /** A state that cannot be used: the index is merged from every page's body (without them, it cannot be made). */
        const lost = async (pages: SearchInput[]) => {
          await expect(same(pages)).rejects.toThrow('search index: no HTML for ');
          await same(pages, true);
        };
        await same(PAGES, true);
        await same(PAGES);
        // One page's text: words go (some of them from every page) and come.
        const edited = [...PAGES];
        edited[2] = page('/guides/lazy-loading/', 'Lazy loading', '<p>Load a chunk on demand with <code>import()</code>.</p><h2 id="prefetching">Prefetching</h2><p>Magic comments ask the browser to fetch it early.</p>');
        await same(edited);
        await same(edited);
        // Two pages at once, one of them renamed.
        edited[0] = page('/guides/caching/', 'Long-term caching', '<p>Browsers keep files; a content hash changes the name.</p>');
        edited[4] = page('/guides/xss/', 'Escaping', '<p>Text stays text: &lt;script&gt;.</p>');
        await same(edited);
        // A page removed: every later page has a new number, and keeps its postings under it.
        await same(edited.slice(1));
        // Pages added back (one of them before every other) and changed.
        await same(PAGES);
        // The same pages in another order (a config that reorders its sections).
        await same([...PAGES].reverse());
        await same(PAGES);
        await same(PAGES);
        // Every page but one removed, then all back: the postings of the one page move to the front and back.
        await same(PAGES.slice(3, 4));
        await same(PAGES);
        // A damaged state is no state.
        const damage = (kind: string) => writeFileSync(join(cache, 'record', readdirSync(join(cache, 'record')).find((f) => f.endsWith(`.${kind}`))!), 'not a state');
        damage('json');
        await lost(PAGES);
        // The postings are read only when a page changed: damaged, they are not missed until then.
        damage('bin');
        await same(PAGES);
        await lost(edited);
      });
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('makes the same files from entries made where the pages were rendered (a worker thread) as from their HTML', () => {
    const readBody = createBodyReader();
    // The HTML given beside an entry is not read: the entry is what the index takes.
    const withEntries = PAGES.map((p) => ({ ...p, html: '<p>Never read.</p>', entry: entryOf(p, readBody(p.html!)) }));
    // Titles whose words the body has too (Optimization), and titles of words of their own (Loader API).
    expect(withEntries[1]!.entry.terms).toContain('optimization');
    expect(withEntries[3]!.entry.terms).toContain('api');
    expect(readBody(PAGES[3]!.html!).terms).not.toContain('api');
    const fromHtml = indexOf(PAGES);
    expect(indexOf(withEntries)).toEqual(fromHtml);
    expect(fromHtml.size).toBeGreaterThan(2);
  });

  it('counts a word of a heading three times, and marks the words of the title and slug', () => {
    const input = { url: '/api/loaders/', title: 'Loader API', slug: 'loaders', section: 'API' };
    const entry = entryOf(input, createBodyReader()('<p>A loader loads.</p><h2 id="x">Loader options</h2><p>Options.</p>'));
    // A value is the weighted count times 4, plus 2 for a whole word of the title or slug and 1 for a part of one:
    // "loader" once in the body, once in a heading (3) and a title word; "api" and "loaders" only in the title and slug;
    // "loaderapi" the title's words joined.
    expect(entry.terms).toEqual(['a', 'loader', 'loads', 'options', 'api', 'loaderapi', 'loaders']);
    expect(entry.values).toEqual([4, 18, 4, 16, 2, 1, 2]);
    expect(entry.length).toBe(4);
    // The title bonus (3) shared by the three whole words of the title and slug.
    expect(entry.share).toBeCloseTo(3 / Math.sqrt(3));
    expect(JSON.parse(gunzipSync(Buffer.from(entry.doc, 'base64')).toString())).toEqual({ url: input.url, title: input.title, section: 'API', sections: [['', '', 'A loader loads.'], ['x', 'Loader options', 'Options.']] });
  });

  it('indexes a page of hundreds of thousands of words of its own, and reads the pages after it as a new reader does', async () => {
    // 250,000 words found on this page alone, and one that other pages have too.
    const rows = Array.from({ length: 250_000 }, (_, i) => `option${i}`);
    const table = page('/reference/options/', 'Options', `<h2 id="all">All options</h2><p>${rows.join(' ')} browsers</p>`, 'Reference');
    const readBody = createBodyReader();
    const read = (input: SearchInput) => entryOf(input, readBody(input.html!));
    const bigEntry = read(table);
    expect(bigEntry.terms.length).toBeGreaterThan(250_000);
    // The reader forgot what it learnt from that page: what it reads next is what a new reader reads.
    for (const p of PAGES) expect(read(p)).toEqual(entryOf(p, createBodyReader()(p.html!)));
    const engine = engineOf(indexOf([...PAGES, table]));
    expect((await engine.search('option123456')).map((r) => r.url)).toEqual(['/reference/options/#all']);
    expect((await engine.search('option7')).map((r) => r.url)).toEqual(['/reference/options/#all']);
    // A word on the big page and on another: both pages.
    expect((await engine.search('browsers')).map((r) => r.url.replace(/#.*/, '')).sort()).toEqual(['/guides/caching/', '/reference/options/']);
    expect((await engine.search('splitChunks'))[0]!.url).toBe('/configuration/optimization/#optimizationsplitchunks');
  });

  it('finds a page by a word of its title first, and points at the heading that matches', async () => {
    const engine = engineOf(indexOf(PAGES));
    const [first] = await engine.search('splitChunks');
    expect(first).toMatchObject({ url: '/configuration/optimization/#optimizationsplitchunks', title: 'Optimization', section: 'Configuration', heading: 'optimization.splitChunks' });
    expect(first!.excerpt).toContain('<mark>SplitChunksPlugin</mark>');
    expect((await engine.search('caching'))[0]).toMatchObject({ url: '/guides/caching/', heading: undefined });
  });

  it('matches other forms of a word and the start of a word', async () => {
    const engine = engineOf(indexOf(PAGES));
    // "cache" shares its stem with "caching"; the title page ranks above pages that only mention a cache.
    const cache = (await engine.search('cache')).map((r) => r.url.replace(/#.*/, ''));
    expect(cache[0]).toBe('/guides/caching/');
    expect(cache.slice(1).sort()).toEqual(['/configuration/optimization/', '/guides/lazy-loading/']);
    expect((await engine.search('optimiz'))[0]!.url).toMatch(/^\/configuration\/optimization\//);
    // "escape" is a form of the title "Escaping" alone (the page's slug is xss, its body has neither); a slug alone: below.
    expect((await engine.search('escape')).map((r) => r.url)).toEqual(['/guides/xss/']);
  });

  it('finds a page by its slug alone: the last part of its path, in no title, heading or body (hmr; tree-shaking, its parts and the parts joined)', async () => {
    const pages = [
      ...PAGES,
      page('/guides/hmr/', 'Hot Module Replacement', '<p>Swap modules while an application runs.</p><h2 id="how">How it works</h2><p>The runtime asks the server for updates.</p>'),
      page('/guides/tree-shaking/', 'Dead code elimination', '<p>Unused exports are dropped from the bundle.</p>'),
    ];
    const engine = engineOf(indexOf(pages));
    expect((await engine.search('hmr')).map((r) => r.url)).toEqual(['/guides/hmr/']);
    for (const query of ['tree-shaking', 'tree shaking', 'treeshaking', 'shaking']) {
      expect((await engine.search(query)).map((r) => r.url), query).toEqual(['/guides/tree-shaking/']);
    }
  });

  it('docs build indexes the slug of each page: a page is found by the last part of its path alone', async () => {
    const dir = fixtureSite();
    try {
      writeFileSync(join(dir, 'content/guides/hmr.md'), '---\ntitle: Hot Module Replacement\n---\n\nSwap modules while an application runs.\n');
      editFile(join(dir, 'site.config.yaml'), '      - guides/long\n', '      - guides/long\n      - guides/hmr\n');
      const run = await withCacheDir(join(dir, '.cache'), () => runDocs(['build', '--root', dir, '--quiet']));
      expect(run.err).toBe('');
      expect(run.code).toBe(0);
      const engine = createSearchEngine(async (path) => readFileSync(join(dir, 'dist', 'search-index', path)));
      expect((await engine.search('hmr')).map((r) => r.url)).toEqual(['/guides/hmr/']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('finds a page titled in separate words by the words joined, as identifiers write them', async () => {
    const engine = engineOf(
      indexOf([
        page('/plugins/manifest/', 'Manifest', '<p>Set <code>publicPath</code> to prefix each file; publicPath is read from the output options.</p>'),
        page('/guides/public-path/', 'Public Path', '<p>Where the browser loads files from: <code>output.publicPath</code>.</p>'),
      ]),
    );
    expect((await engine.search('publicPath'))[0]!.url).toBe('/guides/public-path/');
  });

  it('ranks pages with every word of the query first', async () => {
    const engine = engineOf(indexOf(PAGES));
    const results = await engine.search('lazy module');
    expect(results[0]!.url).toMatch(/^\/guides\/lazy-loading\//);
    expect(results.map((r) => r.url)).toContain('/api/loaders/'); // has "module" only: still listed, after
    expect(await engine.search('qwxzv')).toEqual([]);
  });

  it('escapes the text of excerpts', async () => {
    const engine = engineOf(indexOf(PAGES));
    const [hit] = await engine.search('<img src=x onerror=alert(1)>');
    expect(hit!.url).toBe('/guides/xss/');
    expect(hit!.excerpt).toContain('&lt;<mark>img</mark>');
    expect(hit!.excerpt).not.toContain('<img');
  });

  it('fetches only the shards of the query words and the documents of the pages shown', async () => {
    // Enough distinct words for several shards.
    const many = Array.from({ length: 400 }, (_, i) => page(`/p/${i}/`, `Page ${i}`, `<p>${Array.from({ length: 60 }, (_, j) => `w${i}x${j}`).join(' ')} common</p>`));
    const files = indexOf(many);
    const entry = JSON.parse(Buffer.from(files.get('index.json')!).toString()) as { shards: string[] };
    expect(entry.shards.length).toBeGreaterThan(3);
    const fetched: string[] = [];
    const results = await engineOf(files, fetched).search('w123x7', 8);
    expect(results.map((r) => r.url)).toEqual(['/p/123/']);
    expect(fetched.filter((f) => /\/s\d+\.bin$/.test(f))).toHaveLength(1);
    expect(fetched.filter((f) => /\/p\d+\.bin$/.test(f))).toHaveLength(1);
  });

  it('reads the entry again when the files it names are gone (a newer build was deployed)', async () => {
    const old = indexOf(PAGES);
    const current = indexOf([...PAGES.slice(0, 4), page('/guides/xss/', 'Escaping', '<p>Other words.</p>')]);
    let served = old;
    const fresh: boolean[] = [];
    const engine = createSearchEngine(async (path, reload) => {
      if (path === 'index.json') fresh.push(!!reload);
      const file = served.get(path);
      if (!file) throw new Error(`404 ${path}`);
      return file;
    });
    expect((await engine.search('caching'))[0]!.url).toBe('/guides/caching/');
    served = new Map([...current].filter(([path]) => path !== 'index.json' || true));
    // The engine still holds the old entry; the files it names are gone now.
    expect((await engine.search('function'))[0]!.url).toBe('/api/loaders/');
    expect(fresh).toEqual([false, true]);
  });
});
