import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/content.js';
import { runDocs, withCacheDir } from '../helpers/site.js';
import { createSearchEngine } from '../../templates/client/search-engine.js';

/* docs build of a site whose interface language is Chinese: its index finds the words of Chinese sentences, English identifiers inside them and tab labels. */

let dir: string;
let engine: ReturnType<typeof createSearchEngine>;
const urls = async (query: string) => (await engine.search(query)).map((r) => r.url);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'docs-search-zh-'));
  cpSync(join(ROOT, 'test/fixtures/search-zh'), dir, { recursive: true });
  const run = await withCacheDir(join(dir, '.cache'), () => runDocs(['build', '--root', dir, '--quiet']));
  expect(run.err).toBe('');
  expect(run.code).toBe(0);
  engine = createSearchEngine(async (path) => readFileSync(join(dir, 'dist', 'search-index', path)));
}, 120_000);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('search index of a Chinese site', () => {
  it('finds the page of a Chinese sentence by one of its words', async () => {
    expect(readFileSync(join(dir, 'dist/guides/tides/index.html'), 'utf8')).toContain('<html lang="zh"');
    expect((await urls('潮汐'))[0]).toBe('/guides/tides/');
    const [first] = await engine.search('潮汐');
    expect(first!.excerpt).toContain('<mark>潮汐</mark>');
  });

  it('finds it by several words, typed with or without spaces', async () => {
    for (const query of ['月球 引力', '月球引力', '海平面周期性变化']) expect((await urls(query))[0], query).toBe('/guides/tides/');
    // One character, the first of a word as typed, finds the words it starts.
    expect((await urls('潮'))[0]).toBe('/guides/tides/');
    // A word under a heading leads to the heading.
    expect((await urls('海浪'))[0]).toBe('/guides/tides/#海浪');
  });

  it('keeps English rules for English words inside Chinese prose', async () => {
    for (const query of ['splitChunks', 'splitchunks', 'chunks', 'split', 'optimization.splitChunks', 'optimiz']) expect((await urls(query))[0], query).toBe('/guides/config/');
  });

  it('finds a section by the label of a tab that is not shown first', async () => {
    expect((await urls('yarn'))[0]).toBe('/guides/config/#安装');
    expect((await urls('npm'))[0]).toBe('/guides/config/#安装');
  });
});
