import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSearchEngine } from '../../templates/client/search-engine.js';
import { fixtureSite, runDocs, snapshotDir } from '../helpers/site.js';

/*
 * The blog (config `blog:`): posts at /<path>/<slug>/ with their date, authors and previous/next posts,
 * index pages newest first with pagination, an Atom feed, the posts in the search index, the sitemap and
 * llms.txt, every problem of the posts with its place, and a site without `blog:` as it was.
 */

interface SaxNode {
  name: string;
  attributes: Record<string, string>;
}
interface SaxParser {
  onerror: (e: Error) => void;
  onopentag: (node: SaxNode) => void;
  onclosetag: (name: string) => void;
  ontext: (text: string) => void;
  write(text: string): SaxParser;
  close(): void;
}
const sax = createRequire(import.meta.url)('sax') as { parser(strict: boolean, options: { xmlns?: boolean }): SaxParser };

interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}

/** The feed as a tree, read by sax in strict mode (a well-formedness error throws). */
function parseXml(xml: string): XmlElement {
  const parser = sax.parser(true, {});
  const root: XmlElement = { name: '#root', attributes: {}, children: [], text: '' };
  const stack = [root];
  parser.onerror = (e) => {
    throw e;
  };
  parser.onopentag = (node) => {
    const element = { name: node.name, attributes: node.attributes, children: [], text: '' };
    stack.at(-1)!.children.push(element);
    stack.push(element);
  };
  parser.onclosetag = () => void stack.pop();
  parser.ontext = (text) => void (stack.at(-1)!.text += text);
  parser.write(xml).close();
  return root.children[0]!;
}
const child = (e: XmlElement, name: string) => e.children.find((c) => c.name === name);
const childrenNamed = (e: XmlElement, name: string) => e.children.filter((c) => c.name === name);

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;

const BLOG = 'blog:\n  path: news\n  title: News & notes\n  postsPerPage: 2\n';

function post(dir: string, name: string, frontmatter: string, body = 'Some text.') {
  mkdirSync(join(dir, 'content/news'), { recursive: true });
  writeFileSync(join(dir, 'content/news', name), `---\n${frontmatter}\n---\n\n${body}\n`);
}

/** The fixture site with five posts (2026-01-11 … 2026-05-15) and, when asked, the blog in its config. */
function blogSite(withConfig = true, posts = 5): string {
  const dir = fixtureSite();
  if (withConfig) writeFileSync(join(dir, 'site.config.yaml'), readFileSync(join(dir, 'site.config.yaml'), 'utf8') + BLOG);
  for (let i = 1; i <= posts; i++) {
    post(
      dir,
      `2026-0${i}-1${i}-post-${i}.md`,
      `title: Post ${i} <b> & "more"\ndescription: What post ${i} says & <why>.\n${i === 2 ? 'authors: [Ann Example, Bob Example]\ntags: [release, notes]\ndate: 2026-02-12\n' : ''}`,
      `Text of post ${i}, with the word zyxwv${i} and [a guide](/guides/first/).`,
    );
  }
  return dir;
}

const read = (dir: string, path: string) => readFileSync(join(dir, 'dist', path), 'utf8');
const article = (html: string) => /<article class="article">([\s\S]*)<\/article>/.exec(html)![1]!;
const postLinks = (html: string) => [...article(html).matchAll(/<li class="blog-entry"><h2><a href="([^"]+)">/g)].map((m) => m[1]);

describe('a blog of five posts, two on each index page', () => {
  let dir: string;
  let result: Awaited<ReturnType<typeof runDocs>>;
  beforeAll(async () => {
    dir = blogSite();
    result = await runDocs(['build', '--root', dir]);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('builds, with no warning about the posts or the index pages', () => {
    expect(result.err).toBe('');
    expect(result.code).toBe(0);
    expect(result.out).not.toMatch(/news/);
  });

  it('writes each post at /news/<slug>/ with its date, authors and the older and newer posts', () => {
    const second = read(dir, 'news/post-2/index.html');
    expect(second).toContain('<h1>Post 2 &lt;b&gt; &amp; &quot;more&quot;</h1>');
    expect(second).toMatch(/<time datetime="2026-02-12">12 February 2026<\/time>/);
    expect(second).toContain('Ann Example, Bob Example');
    expect(second).toMatch(/<a class="page-link page-link-prev" href="\/news\/post-1\/" rel="prev">/);
    expect(second).toMatch(/<a class="page-link page-link-next" href="\/news\/post-3\/" rel="next">/);
    expect(second).toContain('<link rel="alternate" type="application/atom+xml" title="News &amp; notes" href="/news/atom.xml"/>');
    const first = read(dir, 'news/post-1/index.html');
    expect(first).not.toContain('rel="prev"');
    expect(first).toContain('href="/news/post-2/" rel="next"');
    const last = read(dir, 'news/post-5/index.html');
    expect(last).toContain('href="/news/post-4/" rel="prev"');
    expect(last).not.toContain('rel="next"');
    // Not at the address of the file.
    expect(existsSync(join(dir, 'dist/news/2026-01-11-post-1'))).toBe(false);
  });

  it('lists the posts newest first, two per index page, with title, date and description', () => {
    expect(postLinks(read(dir, 'news/index.html'))).toEqual(['/news/post-5/', '/news/post-4/']);
    expect(postLinks(read(dir, 'news/page/2/index.html'))).toEqual(['/news/post-3/', '/news/post-2/']);
    expect(postLinks(read(dir, 'news/page/3/index.html'))).toEqual(['/news/post-1/']);
    expect(existsSync(join(dir, 'dist/news/page/4'))).toBe(false);
    expect(existsSync(join(dir, 'dist/news/page/1'))).toBe(false);
    const page2 = article(read(dir, 'news/page/2/index.html'));
    expect(page2).toContain('<h1>News &amp; notes (2/3)</h1>');
    expect(page2).toContain('<time datetime="2026-03-13">13 March 2026</time>');
    expect(page2).toContain('<p>What post 3 says &amp; &lt;why&gt;.</p>');
    expect(page2).toContain('href="/news/" rel="prev"');
    expect(page2).toContain('href="/news/page/3/" rel="next"');
    const first = article(read(dir, 'news/index.html'));
    expect(first).toContain('<h1>News &amp; notes</h1>');
    expect(first).not.toContain('rel="prev"');
    expect(first).not.toContain('Edit this page');
    expect(article(read(dir, 'news/page/3/index.html'))).not.toContain('rel="next"');
  });

  it('writes a valid Atom 1.0 feed with absolute URLs and escaped text', () => {
    const feed = parseXml(read(dir, 'news/atom.xml'));
    expect(feed.name).toBe('feed');
    expect(feed.attributes.xmlns).toBe('http://www.w3.org/2005/Atom');
    expect(child(feed, 'id')!.text).toBe('https://docs.example.org/news/');
    expect(child(feed, 'title')!.text).toBe('News & notes | fixture');
    expect(child(feed, 'updated')!.text).toBe('2026-05-15T00:00:00Z');
    const links = childrenNamed(feed, 'link').map((l) => [l.attributes.rel, l.attributes.href]);
    expect(links).toEqual([
      ['self', 'https://docs.example.org/news/atom.xml'],
      ['alternate', 'https://docs.example.org/news/'],
    ]);
    // A feed whose entries may have no author names one of its own (RFC 4287 §4.1.1).
    expect(child(child(feed, 'author')!, 'name')!.text).toBe('fixture');
    const entries = childrenNamed(feed, 'entry');
    expect(entries.map((e) => child(e, 'id')!.text)).toEqual([5, 4, 3, 2, 1].map((i) => `https://docs.example.org/news/post-${i}/`));
    for (const entry of entries) {
      for (const name of ['id', 'title', 'updated', 'published', 'link', 'summary']) expect(child(entry, name), name).toBeDefined();
      expect(child(entry, 'updated')!.text).toMatch(RFC3339);
      expect(child(entry, 'link')!.attributes.href).toBe(child(entry, 'id')!.text);
    }
    const second = entries[3]!;
    expect(child(second, 'title')!.text).toBe('Post 2 <b> & "more"');
    expect(child(second, 'summary')!.text).toBe('What post 2 says & <why>.');
    expect(child(second, 'published')!.text).toBe('2026-02-12T00:00:00Z');
    expect(childrenNamed(second, 'author').map((a) => child(a, 'name')!.text)).toEqual(['Ann Example', 'Bob Example']);
    expect(childrenNamed(second, 'category').map((c) => c.attributes.term)).toEqual(['release', 'notes']);
  });

  it('puts the posts in the sitemap, llms.txt, llms-full.txt and the search index', async () => {
    const sitemap = read(dir, 'sitemap.xml');
    for (const url of ['/news/', '/news/page/2/', '/news/page/3/', '/news/post-1/', '/news/post-5/']) expect(sitemap).toContain(`<loc>https://docs.example.org${url}</loc>`);
    const llms = read(dir, 'llms.txt');
    expect(llms).toContain('## News & notes\n\n- [Post 5 <b> & "more"](https://docs.example.org/news/post-5/): What post 5 says & <why>.');
    expect(llms.indexOf('/news/post-5/')).toBeLessThan(llms.indexOf('/news/post-1/'));
    expect(read(dir, 'llms-full.txt')).toContain('Source: https://docs.example.org/news/post-3/\n\nText of post 3');
    const engine = createSearchEngine(async (path) => readFileSync(join(dir, 'dist', 'search-index', path)));
    expect((await engine.search('zyxwv3')).map((r) => r.url)).toEqual(['/news/post-3/']);
  });
});

describe('pagination boundaries', () => {
  it('four posts make two full index pages; no post makes one empty index page', async () => {
    const four = blogSite(true, 4);
    expect((await runDocs(['build', '--root', four])).code).toBe(0);
    expect(postLinks(read(four, 'news/page/2/index.html'))).toEqual(['/news/post-2/', '/news/post-1/']);
    expect(existsSync(join(four, 'dist/news/page/3'))).toBe(false);
    rmSync(four, { recursive: true, force: true });
    const none = blogSite(true, 0);
    expect((await runDocs(['build', '--root', none])).code).toBe(0);
    expect(postLinks(read(none, 'news/index.html'))).toEqual([]);
    expect(existsSync(join(none, 'dist/news/page'))).toBe(false);
    const feed = parseXml(read(none, 'news/atom.xml'));
    expect(childrenNamed(feed, 'entry')).toEqual([]);
    rmSync(none, { recursive: true, force: true });
  }, 60_000);
});

describe('problems of the posts', () => {
  it('reports every problem with its file, line and column, all at once, and writes nothing', async () => {
    const dir = blogSite();
    post(dir, '2026-02-30-bad-date.md', 'title: Bad date\ndescription: x');
    post(dir, 'notes.md', 'title: No date\ndescription: x');
    post(dir, '2026-06-01-no-title.md', 'description: x');
    post(dir, '2026-06-02-post-1.md', 'title: Same slug\ndescription: x');
    post(dir, '2026-06-03-no-description.md', 'title: No description');
    post(dir, '2026-06-04-other-date.md', 'title: Other date\ndescription: x\ndate: 2026-06-05');
    mkdirSync(join(dir, 'content/news/deeper'));
    writeFileSync(join(dir, 'content/news/deeper/2026-06-06-deep.md'), '---\ntitle: Deep\ndescription: x\n---\n\nText.\n');
    const { code, err } = await runDocs(['build', '--root', dir]);
    expect(code).toBe(1);
    expect(err).toContain('content/news/2026-02-30-bad-date.md:1:1 2026-02-30 is not a date');
    expect(err).toContain('content/news/notes.md:1:1 a blog post\'s file is named YYYY-MM-DD-slug.md');
    expect(err).toMatch(/content\/news\/2026-06-01-no-title\.md:2:1 .*title/);
    expect(err).toContain('content/news/2026-06-02-post-1.md:1:1 the blog post slug "post-1" is also the slug of content/news/2026-01-11-post-1.md');
    expect(err).toContain('content/news/2026-06-03-no-description.md:2:1 a blog post needs a description');
    expect(err).toContain('content/news/2026-06-04-other-date.md:4:7 date 2026-06-05 is not the date of the file name (2026-06-04)');
    expect(err).toContain('content/news/deeper/2026-06-06-deep.md:1:1 blog posts go directly in content/news/');
    expect(err).toContain('7 problems found');
    expect(existsSync(join(dir, 'dist'))).toBe(false);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});

describe('a site without blog:', () => {
  it('builds its pages as before: the same bytes, the files of content/news/ as plain pages, no feed', async () => {
    const plain = fixtureSite();
    const withPosts = blogSite(false, 2);
    expect((await runDocs(['build', '--root', plain])).code).toBe(0);
    expect((await runDocs(['build', '--root', withPosts])).code).toBe(0);
    const before = snapshotDir(join(plain, 'dist'));
    const after = snapshotDir(join(withPosts, 'dist'));
    expect(existsSync(join(withPosts, 'dist/news/atom.xml'))).toBe(false);
    const post = read(withPosts, 'news/2026-01-11-post-1/index.html');
    expect(post).not.toContain('blog-post-line');
    expect(post).not.toContain('application/atom+xml');
    // Every page of the plain site is the same but for the name of the search terms file, which lists every page's
    // words; only the two new pages and the files listing every page differ.
    const normal = (file: string, bytes: string | undefined) => (file.endsWith('.html') && bytes ? Buffer.from(bytes, 'base64').toString('utf8').replace(/terms\.[0-9a-f]+\.json/g, 'terms.json') : bytes);
    const differ = [...before].filter(([file, bytes]) => normal(file, after.get(file)) !== normal(file, bytes)).map(([file]) => file);
    expect(differ.filter((file) => !/^(sitemap\.xml|search-index\/|assets\/terms\.)/.test(file))).toEqual([]);
    expect([...after.keys()].filter((file) => !before.has(file) && !/^(search-index\/|assets\/terms\.)/.test(file)).sort()).toEqual([
      'news/2026-01-11-post-1/index.html',
      'news/2026-02-12-post-2/index.html',
    ]);
    rmSync(plain, { recursive: true, force: true });
    rmSync(withPosts, { recursive: true, force: true });
  }, 60_000);
});

describe('the blog under a base path, and its config', () => {
  it('puts the base path in every link of the index pages, the posts and the feed', async () => {
    const dir = blogSite(true, 3);
    expect((await runDocs(['build', '--root', dir, '--base', '/docs/'])).code).toBe(0);
    expect(postLinks(read(dir, 'news/index.html'))).toEqual(['/docs/news/post-3/', '/docs/news/post-2/']);
    expect(read(dir, 'news/index.html')).toContain('href="/docs/news/page/2/" rel="next"');
    expect(read(dir, 'news/post-2/index.html')).toContain('href="/docs/news/post-1/" rel="prev"');
    expect(read(dir, 'news/post-2/index.html')).toContain('href="/docs/news/atom.xml"');
    const feed = parseXml(read(dir, 'news/atom.xml'));
    expect(childrenNamed(feed, 'link').map((l) => l.attributes.href)).toEqual(['https://docs.example.org/docs/news/atom.xml', 'https://docs.example.org/docs/news/']);
    expect(child(childrenNamed(feed, 'entry')[0]!, 'id')!.text).toBe('https://docs.example.org/docs/news/post-3/');
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  it('reports a bad blog key at its place in the config', async () => {
    const dir = fixtureSite();
    writeFileSync(join(dir, 'site.config.yaml'), readFileSync(join(dir, 'site.config.yaml'), 'utf8') + 'blog:\n  path: /news/\n  postsPerPage: 0\n');
    const { code, err } = await runDocs(['build', '--root', dir]);
    expect(code).toBe(1);
    expect(err).toMatch(/site\.config\.yaml:\d+:9 blog\.path: expected a folder under content\//);
    expect(err).toMatch(/site\.config\.yaml:\d+:17 blog\.postsPerPage: /);
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
