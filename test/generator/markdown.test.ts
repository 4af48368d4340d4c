import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Highlighter } from 'shiki';
import { highlightBlocks, LANGUAGE_NAMES, loadHighlighter, plainTokens, type TokenSource } from '../../src/content/highlight.js';
import { highlightThreadFor } from '../../src/content/highlight-thread.js';
import { pageIdOf } from '../../src/content/load.js';
import { renderMarkdown } from '../../src/content/markdown.js';
import { fencedCodeBlocks } from '../../src/content/plugins/code-blocks.js';
import { mayHoldAutolinks, remarkGfmWithoutAutolinks, textMayHoldAutolinks } from '../../src/content/mdast-parse.js';
import { InputError } from '../../src/shared/errors.js';
import { routeOf } from '../../src/site/model.js';
import { pageBodies, splitFrontmatter } from '../helpers/content.js';

let highlighter: Highlighter;
beforeAll(async () => {
  highlighter = await loadHighlighter();
});

const render = (body: string, lineOffset = 3) => renderMarkdown(body, { file: 'content/x.md', lineOffset, highlighter: loadHighlighter });
const html = async (body: string) => (await render(body)).html;
const problems = async (body: string) => (await render(body)).problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`);

describe('routes', () => {
  it('maps content files to page ids and URLs', () => {
    expect(pageIdOf('index.md')).toBe('');
    expect(pageIdOf('guides/index.md')).toBe('guides');
    expect(pageIdOf('guides/tree-shaking.md')).toBe('guides/tree-shaking');
    expect(pageIdOf('api/plugins/index.md')).toBe('api/plugins');
    expect(pageIdOf('notes.txt')).toBeNull();
    expect(routeOf('')).toBe('/');
    expect(routeOf('guides/tree-shaking')).toBe('/guides/tree-shaking/');
  });
});

describe('frontmatter', () => {
  it('reads the fields and applies defaults', () => {
    const split = splitFrontmatter('---\ntitle: Caching\n---\n\nBody\n', 'content/guides/caching.md');
    expect(split.frontmatter).toEqual({ title: 'Caching', group: '-', contributors: [], related: [] });
    expect(split.body).toBe('\nBody\n');
    expect(split.bodyLineOffset).toBe(3);
  });

  const bad: Array<[string, string, string]> = [
    ['no frontmatter', '# Title\n', 'content/a.md:1:1 missing frontmatter: the file must start with a "---" line, then at least "title: …", then "---"'],
    ['an unclosed frontmatter', '---\ntitle: A\n', 'content/a.md:1:1 frontmatter is not closed: add a "---" line after it'],
    ['a missing title', '---\ngroup: A\n---\n', 'content/a.md:2:1 frontmatter.title: missing required field (expected string)'],
    ['a title of the wrong type', '---\ntitle: [A]\n---\n', 'content/a.md:2:8 frontmatter.title: expected string, received a list'],
    ['an unknown key', '---\ntitle: A\ntitel: B\n---\n', 'content/a.md:3:1 frontmatter.titel: unknown key "titel"'],
    ['bad YAML', '---\ntitle: "A\n---\n', 'content/a.md:3:1 YAML syntax error: Missing closing "quote'],
    ['a related entry without url', '---\ntitle: A\nrelated:\n  - title: B\n---\n', 'content/a.md:4:5 frontmatter.related[0].url: missing required field (expected string)'],
    // P8: a mapping as a key (the YAML library printed a warning of its own and the position was 1:1), and nesting thousands deep.
    ['a mapping as a key', '---\ntitle: A\n{a: 1}: 2\n---\n', 'content/a.md:3:1 a key must be plain text, not a mapping'],
    ['nesting 100 deep', `---\ntitle: A\ndeep: ${'['.repeat(100)}${']'.repeat(100)}\n---\n`, 'content/a.md:3:71 YAML nested more than 64 levels deep; flatten it'],
    ['nesting 3,000 deep', `---\ntitle: A\ndeep: ${'['.repeat(3000)}${']'.repeat(3000)}\n---\n`, 'content/a.md:3:71 YAML nested too deeply to be read (a config needs under 64 levels); flatten it'],
  ];
  for (const [name, source, message] of bad) {
    it(`reports ${name} with its position`, () => {
      try {
        splitFrontmatter(source, 'content/a.md');
        expect.unreachable('no error was thrown');
      } catch (e) {
        expect(e).toBeInstanceOf(InputError);
        expect((e as InputError).message).toBe(message);
      }
    });
  }
});

describe('Markdown pipeline', () => {
  it('extracts the h2 headings as anchors with the ids rehype-slug gives them', async () => {
    const { anchors, ids } = await render('## Getting started\n\ntext\n\n### Details\n\n## `output.filename`\n\n## Getting started\n');
    expect(anchors).toEqual([
      { title: 'Getting started', id: 'getting-started' },
      { title: 'output.filename', id: 'outputfilename' },
      { title: 'Getting started', id: 'getting-started-1' },
    ]);
    expect([...ids]).toEqual(['getting-started', 'details', 'outputfilename', 'getting-started-1']);
  });

  it('gives h2 and h3 a self-link', async () => {
    const out = await html('## Install\n\n### Options\n\n#### Deep\n');
    expect(out).toContain('<div class="heading"><h2 id="install">Install</h2><a class="anchor" href="&#0;docs-link:0&#0;" aria-labelledby="section-titled install">#</a></div>');
    expect(out).toContain('<h3 id="options">Options</h3><a class="anchor" href="&#0;docs-link:1&#0;" aria-labelledby="section-titled options"');
    expect(out).toContain('<h4 id="deep">Deep</h4>');
    expect(out).not.toContain('href="#deep"');
  });

  it('rejects an h1 in the body and skipped heading levels', async () => {
    expect(await problems('# Title\n\n## A\n\n#### B\n')).toEqual([
      'content/x.md:4:1 the page title is its only h1: use "##" for sections (the title comes from the frontmatter)',
      'content/x.md:8:1 heading level skips from h2 to h4',
    ]);
  });

  it('highlights code at build time with classes (no inline styles), a title and highlighted lines', async () => {
    const out = await html('```js title="webpack.config.js" {2}\nmodule.exports = {\n  mode: "production",\n};\n```\n');
    expect(out).toContain('<div class="code-title">webpack.config.js</div>');
    expect(out).toMatch(/<pre class="code" data-lang="js" tabindex="0"><code><span class="line"><span class="t[\w]{5}">module<\/span>/);
    expect(out).toMatch(/<span class="line hl">/);
    expect(out).not.toContain('style=');
    expect(out).toContain('<button type="button" class="copy" data-copy="">Copy</button>');
  });

  it('marks diff lines and keeps the markers out of the code', async () => {
    const out = await html('```js diff\n const a = 1;\n-const b = 2;\n+const b = 3;\n```\n');
    expect(out).toMatch(/<span class="line del">.*const.*b.*2/);
    expect(out).toMatch(/<span class="line add">.*const.*b.*3/);
    expect(out).not.toMatch(/>[+-]const/);
  });

  it("keeps the Markdown of an aside's own title (emphasis, code, links); its plain text labels the aside", async () => {
    const out = await html(':::tip[Use **this** and `that`]\nBody.\n:::\n');
    expect(out).toContain('<div class="aside aside-tip" role="note" aria-label="Use this and that"><p class="aside-title">Use <strong>this</strong> and <code>that</code></p>');
  });

  it('reads a diff as `git diff` prints it: one column of marks, then the code with its own indentation', async () => {
    const out = await html('```js diff\n function f() {\n-  return 1;\n+  return 2;\n   const x = 3;\n--mode;\n }\n```\n');
    const lines = [...out.matchAll(/<span class="line( add| del)?">(.*?)<\/span>(?=<span class="line|<\/code>|\n)/g)].map((m) => `${m[1]?.trim() ?? ''}|${m[2]!.replace(/<[^>]+>/g, '')}`);
    expect(lines).toEqual(['|function f() {', 'del|  return 1;', 'add|  return 2;', '|  const x = 3;', 'del|-mode;', '|}']);
  });

  it('colours the languages writers of other projects use too (Python, Go, Java, C, C++, C#, PHP, Ruby, Kotlin, Swift, PowerShell…), by their aliases too', async () => {
    const langs = ['python', 'py', 'go', 'java', 'c', 'cpp', 'c++', 'csharp', 'cs', 'php', 'ruby', 'rb', 'kotlin', 'swift', 'powershell', 'ps1', 'lua', 'scala'];
    expect(await problems(langs.map((lang) => `\`\`\`${lang}\nx = 1\n\`\`\`\n`).join('\n'))).toEqual([]);
    expect(LANGUAGE_NAMES).toMatch(/^javascript, typescript, .*, python, go, java, .*, text$/);
  });

  it('rejects an unknown language, a bad line range and an unknown fence option', async () => {
    expect(await problems('```jsx-ish\nx\n```\n\n```js {3}\na\nb\n```\n\n```js {a-b}\na\n```\n\n```js wrap\na\n```\n')).toEqual([
      `content/x.md:4:1 unknown code language "jsx-ish": use one of ${LANGUAGE_NAMES} (text for anything without syntax to colour)`,
      'content/x.md:8:1 bad line range "{3}": the block has 2 lines',
      'content/x.md:13:1 bad line range "{a-b}": expected numbers and ranges such as {2,4-6}',
      'content/x.md:17:1 unknown code block option "wrap" (expected title="…", {line ranges} or diff)',
    ]);
  });

  it('reads every option of a fence together, and names careless ones', async () => {
    const out = await html('```js title="a b.js" {1,3-4} diff\n a\n b\n+c\n-d\n e\n```\n\n```js\nx\n```\n');
    expect(out).toContain('<div class="code-block has-title"><div class="code-title">a b.js</div>');
    expect(out.match(/<span class="line[^"]*">/g)).toEqual(['line hl', 'line', 'line hl add', 'line hl del', 'line', 'line'].map((c) => `<span class="${c}">`));
    expect(out).toContain('<div class="code-block"><pre class="code" data-lang="js" tabindex="0">');
    // Careless options: a title without its closing quote (it showed the quote), an empty title, an option twice.
    expect(await problems('```js title="unterminated\na\n```\n\n```js title=""\na\n```\n\n```js title=a.js title=b.js\na\n```\n\n```js diff diff\na\n```\n')).toEqual([
      'content/x.md:4:1 the title "unterminated has no closing quote',
      'content/x.md:8:1 the title is empty: give the file name, such as title="app.config.js", or leave the option out',
      'content/x.md:12:1 two titles: give one',
      'content/x.md:16:1 diff is given twice',
    ]);
  });

  it('renders asides from directives and from GitHub alerts', async () => {
    const out = await html(':::warning[Mind the cache]\nText **here**.\n:::\n\n> [!TIP]\n> Use it.\n');
    expect(out).toContain('<div class="aside aside-warning" role="note" aria-label="Mind the cache"><p class="aside-title">Mind the cache</p><p>Text <strong>here</strong>.</p></div>');
    expect(out).toContain('<div class="aside aside-tip" role="note" aria-label="Tip"><p class="aside-title" data-aside-default="tip">Tip</p><p>Use it.</p></div>');
  });

  it('renders tabs with the ARIA tabs pattern and every panel present', async () => {
    expect(await problems('::::tabs\n:::tab[npm]\nx\n:::\n:::tab[yarn]\ny\n:::\n::::\n')).toEqual([]);
    const out = await html('::::tabs\n:::tab[npm]\n```bash\nnpm i\n```\n:::\n:::tab[yarn]\n```bash\nyarn add\n```\n:::\n::::\n');
    expect(out).toContain('<div role="tablist" class="tablist"><button type="button" role="tab" id="tabs-1-1-tab" aria-controls="tabs-1-1-panel" aria-selected="true" tabindex="0" data-label="npm">npm</button>');
    expect(out).toContain('<div role="tabpanel" id="tabs-1-2-panel" aria-labelledby="tabs-1-2-tab" class="tabpanel inactive" tabindex="0" data-label="yarn"><p class="tab-label">yarn</p>');
  });

  it('transforms directives nested in other directives', async () => {
    // An outer block needs more colons than the blocks inside it.
    const source = '::::::tip\nOutside.\n\n:::::tabs\n::::tab[a]\n:::note\nInside.\n:::\n::::\n:::::\n::::::\n';
    expect(await problems(source)).toEqual([]);
    const out = await html(source);
    expect(out).toContain('<div class="aside aside-tip"');
    expect(out).toContain('role="tabpanel"');
    expect(out).toContain('<div class="aside aside-note" role="note" aria-label="Note"><p class="aside-title" data-aside-default="note">Note</p><p>Inside.</p></div>');
  });

  it('rejects unknown directives and stray tabs, and keeps colons in prose as text', async () => {
    expect(await problems(':::sidenote\nx\n:::\n\n:::tab[a]\nx\n:::\n')).toEqual([
      'content/x.md:4:1 unknown directive "sidenote" (expected one of note, tip, warning, danger, tabs, cards, card, link-card, steps, file-tree)',
      'content/x.md:8:1 a :::tab block must be inside a ::::tabs block',
    ]);
    expect(await html('Use node:fs and webpack:5 here.\n')).toBe('<p>Use node:fs and webpack:5 here.</p>');
  });

  it('collects links with their positions', async () => {
    const { links, html } = await render('See [a](/a/) and\n[b](https://b.example) and [c](#c).\n');
    expect(links.map((l) => [l.href, l.line, l.column])).toEqual([
      ['/a/', 1, 5],
      ['#c', 2, 28],
    ]);
    // Internal links wait for their final href; external ones open in a new tab at once.
    expect(html).toBe('<p>See <a href="&#0;docs-link:0&#0;">a</a> and\n<a href="https://b.example" target="_blank" rel="noopener noreferrer">b</a> and <a href="&#0;docs-link:1&#0;">c</a>.</p>');
  });
});

describe('self-links on very long reference pages', () => {
  it('gives only h2s a self-link when a page has more than 300 h3s, and keeps every id', async () => {
    const body = '## Options\n\n' + Array.from({ length: 301 }, (_, i) => `### --flag-${i}\n\nText.\n`).join('\n');
    const out = await html(body);
    expect(out).toContain('<h2 id="options">Options</h2><a class="anchor"');
    expect(out).toContain('<h3 id="--flag-300">--flag-300</h3>');
    expect(out).not.toContain('aria-labelledby="section-titled --flag-0"');
    const short = await html('## A\n\n### B\n');
    expect(short).toContain('aria-labelledby="section-titled b"');
  });
});

describe('code colours', () => {
  it('reach AA contrast on the code background in both schemes', async () => {
    const { tokenClassesIn, tokenStylesheet } = await import('../../src/content/highlight.js');
    const { contrastRatio: contrast } = await import('../../src/theme/colors.js');
    // Comments, keywords, functions, constants, strings and tags: among them the themes' colours that fall short of AA.
    const body = await html('```js\n// a comment\nconst a = f(1, "s", true);\n```\n\n```html\n<p class="x">t</p>\n```\n');
    const pairs = [...tokenStylesheet(Object.keys(tokenClassesIn(body))).matchAll(/light-dark\((#\w{6}),(#\w{6})\)/g)].map((m) => [m[1]!, m[2]!] as const);
    expect(pairs.length).toBeGreaterThan(5);
    for (const [light, dark] of pairs) {
      expect(contrast(light, '#f6f8fa'), light).toBeGreaterThanOrEqual(4.5);
      expect(contrast(dark, '#161b22'), dark).toBeGreaterThanOrEqual(4.5);
    }
    // The comments' grey (#6a737d) falls short and is darkened; the text's colour is readable already, and unchanged.
    expect(pairs.map(([light]) => light)).toContain('#24292e');
    expect(pairs.map(([light]) => light)).not.toContain('#6a737d');
  });

  it('are those of the light and the dark theme, each highlighted on its own, for every code block of the site', async () => {
    const { createHighlighter } = await import('shiki');
    const { highlightBlocks, tokenClassesOf } = await import('../../src/content/highlight.js');
    const twoThemes = await createHighlighter({ themes: ['github-light', 'github-dark'], langs: [] });
    const blocks = pageBodies().flatMap(([, body]) => fencedCodeBlocks(body));
    expect(blocks.length).toBeGreaterThan(1000);
    const ours = await highlightBlocks(highlighter, blocks);
    const classes = tokenClassesOf([...ours.values()].flat(2).map(([name]) => name));
    for (const { key, lang, code } of blocks) {
      await twoThemes.loadLanguage(lang as never);
      const themes = { light: 'github-light', dark: 'github-dark' } as const;
      const expected = twoThemes.codeToTokensWithThemes(code, { lang: lang as never, themes, tokenizeTimeLimit: 0 }).map((line) =>
        line.map(({ content, variants: { light, dark } }) => [content, light!.color?.toUpperCase(), dark!.color?.toUpperCase(), Math.max(light!.fontStyle ?? 0, 0)]),
      );
      const got = ours.get(key)!.map((line) => line.map(([name, text]) => [text, classes[name]!.light.toUpperCase(), classes[name]!.dark.toUpperCase(), classes[name]!.fontStyle]));
      expect(got, `${lang} block: ${code.slice(0, 60)}`).toEqual(expected);
    }
  }, 120_000);
});

describe('GFM autolink literals', () => {
  it('still links bare URLs and e-mail addresses, whatever their case', async () => {
    const out = await html('See www.example.org, HTTPS://example.com/a and team@example.org.\n');
    expect(out).toContain('<a href="http://www.example.org" target="_blank" rel="noopener noreferrer">www.example.org</a>');
    expect(out).toContain('<a href="HTTPS://example.com/a" target="_blank" rel="noopener noreferrer">HTTPS://example.com/a</a>');
    expect(out).toContain('<a href="mailto:team@example.org">team@example.org</a>');
  });

  it('renders GFM the same on a page that cannot hold one (parsed without looking for them)', async () => {
    const { mayHoldAutolinks } = await import('../../src/content/mdast-parse.js');
    const body = '| a | b |\n| - | - |\n| ~~c~~ | d[^1] |\n\n- [x] done\n\n[^1]: A note.\n';
    expect(mayHoldAutolinks(body)).toBe(false);
    expect(mayHoldAutolinks(body + 'Mail a@b.co')).toBe(true);
    // A trailing URL makes the full parser run; the rest of the page must come out the same.
    const plain = await html(body);
    const full = await html(body + '\nhttps://example.com\n');
    expect(plain).toContain('<del>c</del>');
    expect(plain).toContain('<input type="checkbox" checked disabled>');
    expect(plain).toContain('<section data-footnotes');
    expect(full.replace(/<p><a href="https:\/\/example\.com"[^]*?<\/p>\n?/, '')).toBe(plain);
  });
});

describe('parsing without looking for autolink literals', () => {
  const full = unified().use(remarkParse).use(remarkGfm).use(remarkDirective);
  const fast = unified().use(remarkParse).use(remarkGfmWithoutAutolinks).use(remarkDirective);
  /** The tree the pipeline keeps: the fast parse, unless its text could hold a literal. */
  const kept = (body: string) => {
    const tree = fast.parse(body);
    return mayHoldAutolinks(body) && textMayHoldAutolinks(tree) ? full.parse(body) : tree;
  };

  it('parses again where text holds a mark, and not for marks in code, HTML or destinations', () => {
    const again = ['See www.example.org.', 'Mail team@example.org', '![logo at https://example.org](a.png)', '[go to https://example.org](https://example.org)', '| a |\n| - |\n| http://x.org |', '> quoted www.example.org', ':::note\nA note: https://example.org\n:::'];
    for (const body of again) expect(textMayHoldAutolinks(fast.parse(body)), body).toBe(true);
    const not = ['```js\nimport a from "@scope/pkg"; // https://example.org\n```', 'Use `@scope/pkg` or `www.example.org`.', '[docs](https://example.org/a)', '<span data-x="https://example.org">x</span>', ':::note{href="https://example.org"}\nText\n:::', 'Write <a href="mailto:team@example.org">to us</a>.'];
    for (const body of not) {
      expect(mayHoldAutolinks(body), body).toBe(true);
      expect(textMayHoldAutolinks(fast.parse(body)), body).toBe(false);
    }
  });

  it('keeps the very tree the full parser makes, on every page of the real site', () => {
    let skipped = 0;
    for (const [file, body] of pageBodies()) {
      if (mayHoldAutolinks(body) && !textMayHoldAutolinks(fast.parse(body))) skipped++;
      expect(kept(body), file).toEqual(full.parse(body));
    }
    // Pages with a mark only in code: the second parse they no longer need.
    expect(skipped).toBeGreaterThan(20);
  }, 120_000);
});

describe('code blocks found ahead of parsing', () => {
  /** The keys of the blocks a render of `body` asks to have highlighted (here given plain tokens), each once. */
  const parsedKeys = async (body: string) => {
    const asked = new Set<string>();
    const highlighter: TokenSource = {
      tokens: async (blocks) => {
        for (const block of blocks) asked.add(block.key);
        return new Map(blocks.map((b) => [b.key, plainTokens(b.code)]));
      },
    };
    await renderMarkdown(body, { file: 'content/x.md', lineOffset: 0, highlighter });
    return [...asked].sort();
  };
  const guessedKeys = (body: string) => fencedCodeBlocks(body).map((b) => b.key).sort();

  it('finds the fenced blocks the parser finds, with the code as highlighted', async () => {
    const body = [
      '# Title',
      '',
      '```js title="a.js" {1}',
      'const a = 1;',
      '```',
      '',
      '  ~~~~json',
      '  {',
      '    "a": 1',
      '  }',
      '  ~~~~',
      '',
      '```diff js',
      '+const b = 2;',
      '-const b = 1;',
      ' const c = 3;',
      '```',
      '',
      '````md',
      '```js',
      'inside a fence: not a block of its own',
      '```',
      '````',
      '',
      '```text',
      'plain text is not highlighted',
      '```',
      '',
      '```bash',
      'npm run build',
      '```',
    ].join('\n');
    const guessed = guessedKeys(body);
    expect(guessed).toHaveLength(4);
    expect(guessed).toEqual(await parsedKeys(body));
    expect(fencedCodeBlocks(body).map((b) => [b.lang, b.code])).toContainEqual(['json', '{\n  "a": 1\n}']);
  });

  it('misses blocks in lists and quotes, and guesses nothing the parser does not find', async () => {
    const body = ['- item', '', '  ```js', '  const inList = true;', '  ```', '', '> ```js', '> const quoted = true;', '> ```', '', '```js', 'const top = 1;', '```', ''].join('\n');
    const parsed = await parsedKeys(body);
    expect(parsed).toHaveLength(3);
    const guessed = guessedKeys(body);
    expect(guessed.length).toBeGreaterThan(0);
    for (const key of guessed) expect(parsed).toContain(key);
  });

  it('guesses right on the pages of the real site', async () => {
    let [found, wrong, parsed] = [0, 0, 0];
    for (const [file, body] of pageBodies()) {
      const keys = new Set(await parsedKeys(body));
      parsed += keys.size;
      for (const { key } of fencedCodeBlocks(body)) {
        if (keys.has(key)) found++;
        else wrong++;
      }
    }
    expect(parsed).toBeGreaterThan(1000);
    // Nothing is highlighted in vain, and nearly every block is found ahead.
    expect(wrong).toBe(0);
    expect(found / parsed).toBeGreaterThan(0.95);
  }, 120_000);
});

// A thread whose script cannot be found, while `broken` is set (the highlight thread's failure).
const entries = vi.hoisted(() => ({ broken: false }));
vi.mock('../../src/shared/paths.js', async (importOriginal) => {
  const paths = await importOriginal<typeof import('../../src/shared/paths.js')>();
  const broken = new URL('./no-such-worker.mjs', import.meta.url);
  return { ...paths, workerEntry: (name: 'pool' | 'serve') => (entries.broken ? broken : paths.workerEntry(name)) };
});

describe('highlighting on a thread of its own', () => {
  // Pages with enough code blocks to be worth a thread, which gets their blocks ahead; and one block more, not sent ahead.
  const body = '```js\nconst a = 1; // one\n```\n\n```json\n{ "a": [1, true, null] }\n```\n';
  const pages = Array.from({ length: 10 }, () => body);
  const blocks = [...fencedCodeBlocks(body), { key: 'later', lang: 'bash', code: 'npx webpack --mode production' }];
  const here = async () => [...(await highlightBlocks(highlighter, blocks)).values()];
  /** A highlight thread for `pages`, and how often it fell back on this thread's highlighter. */
  const threadOf = (bodies = pages) => {
    const counted = { fallbacks: 0 };
    const thread = highlightThreadFor(bodies, async () => {
      counted.fallbacks++;
      return highlighter;
    });
    return { thread, counted };
  };
  beforeAll(() => {
    vi.stubEnv('DOCS_WORKERS', '1');
  });
  afterAll(() => {
    vi.unstubAllEnvs();
  });

  it('gives the tokens this thread would, to blocks sent ahead and later, and is made only for 20 blocks or more', async () => {
    expect(threadOf(pages.slice(1)).thread).toBeUndefined();
    const local = await here();
    const { thread, counted } = threadOf();
    try {
      const tokens = await thread!.tokens(blocks);
      expect(blocks.map((b) => tokens.get(b.key))).toEqual(local);
    } finally {
      await thread!.close();
    }
    expect(counted.fallbacks).toBe(0);
  });

  it('highlights here what a failed thread did not answer', async () => {
    entries.broken = true;
    const { thread, counted } = threadOf();
    entries.broken = false;
    try {
      const tokens = await thread!.tokens(blocks);
      expect(blocks.map((b) => tokens.get(b.key))).toEqual(await here());
    } finally {
      await thread!.close();
    }
    expect(counted.fallbacks).toBeGreaterThan(0);
  });

  it('ends the thread when it fails to highlight a batch, and highlights that batch here', async () => {
    const { thread, counted } = threadOf();
    try {
      await thread!.tokens(blocks);
      // (Code that is not a string makes the highlighter throw, on either thread.)
      const bad = [{ key: 'bad', lang: 'js', code: 42 as unknown as string }];
      await expect(thread!.tokens(bad)).rejects.toThrow('code.split is not a function');
      expect(counted.fallbacks).toBe(1);
    } finally {
      await thread!.close();
    }
  });
});
