import { describe, expect, it } from 'vitest';
import { createBodyReader, entryOf, sectionsOf } from '../../src/content/search-sections.js';
import { loadHighlighter } from '../../src/content/highlight.js';
import { renderMarkdown } from '../../src/content/markdown.js';
import { correctQuery } from '../../templates/client/search-logic.js';
import { localeOf, queryWords, termsOf, wordStarts, words } from '../../templates/client/search-text.js';

/*
 * Words of the scripts written without spaces (Chinese, Japanese, Thai) are cut
 * by Intl.Segmenter, the same way in the indexer and in the query; Latin words
 * inside them keep their English rules; tab labels are read once.
 */

/** The index terms of a text, as the entry reader makes them. */
const indexTerms = (text: string) => {
  const terms = new Set<string>();
  for (const word of words(text)) termsOf(word, (term) => terms.add(term));
  return terms;
};

const TIDES = '潮汐是由月球引力引起的海平面周期性变化。';

describe('search words of unspaced scripts', () => {
  it('cuts a Chinese sentence into its words', () => {
    expect(words(TIDES)).toEqual(['潮汐', '是', '由', '月球', '引力', '引起', '的', '海平面', '周期性', '变化']);
    expect(localeOf('潮汐')).toBe('zh');
  });

  it('cuts a Japanese sentence into its words, with the Japanese locale', () => {
    const text = '東京タワーは東京都港区にある電波塔です。';
    expect(localeOf(text)).toBe('ja');
    const found = words(text);
    expect(found).toContain('東京');
    expect(found).toContain('港区');
    expect(found).toContain('電波');
    expect(found.join('')).toBe(text.replace('。', ''));
  });

  it('cuts Thai, whose vowel signs are marks, into words', () => {
    expect(words('ภาษาไทยง่ายนิดเดียว')).toEqual(['ภาษา', 'ไทย', 'ง่าย', 'นิด', 'เดียว']);
  });

  it('gives a query the terms the index has for the same words', () => {
    const index = indexTerms(TIDES);
    expect(queryWords('潮汐')).toEqual(['潮汐']);
    for (const query of ['潮汐', '月球引力', '海平面 周期性', '潮汐 月球', '引力引起的']) {
      const cut = queryWords(query);
      expect(cut.length, query).toBeGreaterThan(0);
      for (const word of cut) expect(index.has(word), `${query}: ${word}`).toBe(true);
    }
    expect(queryWords('月球引力')).toEqual(['月球', '引力']);
    const japanese = indexTerms('設定ファイルを読み込みます');
    for (const word of queryWords('設定ファイル')) expect(japanese.has(word), word).toBe(true);
  });

  it('keeps English rules for the English words of mixed text, spaced or not', () => {
    for (const text of ['使用 splitChunks 配置', '使用splitChunks配置']) {
      expect(words(text)).toEqual(['使用', 'splitChunks', '配置']);
      const terms = indexTerms(text);
      for (const term of ['splitchunks', 'split', 'chunks', '使用', '配置']) expect(terms.has(term), `${text}: ${term}`).toBe(true);
    }
    expect(words('在 optimization.splitChunks 中设置 babel-loader 和 asset/resource')).toEqual(['在', 'optimization.splitChunks', '中', '设置', 'babel-loader', '和', 'asset/resource']);
    expect(queryWords('splitChunks 配置')).toEqual(['splitchunks', '配置']);
  });

  it('leaves English text as it was', () => {
    const text = 'Set optimization.splitChunks and babel-loader (asset/resource) — $x_1, don\'t.';
    expect(words(text)).toEqual(['Set', 'optimization.splitChunks', 'and', 'babel-loader', 'asset/resource', '$x_1', 'don', 't']);
  });

  it('says where each word starts, in mixed text too', () => {
    const text = `Intro: ${TIDES} 使用splitChunks配置 and more`;
    const found = words(text);
    const starts = wordStarts(text);
    expect(starts).toHaveLength(found.length);
    found.forEach((word, i) => expect(text.slice(starts[i], starts[i]! + word.length)).toBe(word));
  });

  it('does not correct a Chinese query as a misspelt word', () => {
    expect(correctQuery('海平面周期变化', ['海平面周期性变化', 'webpack'])).toBeNull();
    expect(correctQuery('webpak', ['webpack'])).toBe('webpack');
  });

  it('puts the words of a Chinese page into its entry', () => {
    const entry = entryOf({ url: '/tides/', title: '潮汐', slug: 'tides' }, createBodyReader()(`<p>${TIDES}</p><h2 id="config">配置</h2><p>使用 splitChunks 配置。</p>`));
    for (const term of ['潮汐', '月球', '海平面', 'splitchunks', 'chunks', '配置']) expect(entry.terms, term).toContain(term);
  });
});

describe('search text of tabs', () => {
  it('reads each tab label once, as text of its section, and the panels once', async () => {
    const { html } = await renderMarkdown('## Install\n\n::::tabs\n:::tab[npm]\nRun the first tool.\n:::\n:::tab[yarn]\nRun the second tool.\n:::\n::::\n', {
      file: 'page.md',
      lineOffset: 0,
      highlighter: loadHighlighter,
    });
    const install = sectionsOf(html).find(([anchor]) => anchor === 'install');
    expect(install![2]).toBe('npm Run the first tool. yarn Run the second tool.');
  });
});
