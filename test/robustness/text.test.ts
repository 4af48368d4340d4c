import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { docsIn, expectNoStack, expectRejected, goodBuild, scratchSite, type Scratch } from './harness.js';

/*
 * The bytes of the writer's files (report rows #8, #25-#27, #30; F7, F8,
 * F10-F12): text that is not UTF-8, NUL characters, a byte order mark, YAML
 * alias bombs, lists and quotes nested 10,000 deep. Each is a positioned
 * problem (file:line:column), exit 1, no stack, nothing changed; a BOM is
 * accepted.
 */

let s: Scratch;
let second: Buffer;
let config: Buffer;
const SECOND = 'content/guides/second.md';

beforeAll(async () => {
  s = scratchSite();
  second = readFileSync(join(s.site, SECOND));
  config = readFileSync(join(s.site, 'site.config.yaml'));
  await goodBuild(s);
});

afterEach(() => {
  writeFileSync(join(s.site, SECOND), second);
  writeFileSync(join(s.site, 'site.config.yaml'), config);
});

afterAll(() => s?.remove());

const write = (rel: string, bytes: string | Buffer) => writeFileSync(join(s.site, rel), bytes);
/** Builds the scratch site (exit 0, nothing on stderr) and returns the article of the second guide as built. */
async function builtSecond(): Promise<string> {
  const run = await docsIn(s, ['build', '-q']);
  expectNoStack(run);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  const html = readFileSync(join(s.site, 'dist', 'guides', 'second', 'index.html'), 'utf8');
  return html.slice(html.indexOf('<div class="markdown">'), html.indexOf('</article>'));
}
/** Line number (1-based) of the line after the last one of `text`, once a line break is added after it. */
const lineAfter = (text: Buffer | string) => text.toString().split('\n').length + 1;

describe('text that is not UTF-8 (F10)', () => {
  it('#25 a Latin-1 title: the first bad byte with its line and column', async () => {
    write(SECOND, Buffer.concat([Buffer.from('---\ntitle: Caf'), Buffer.from([0xe9, 0x20, 0xff, 0xfe]), Buffer.from('\n---\n\nText.\n')]));
    await expectRejected(s, ['build'], [`${SECOND}:2:11 byte 0xe9 is not UTF-8 text; save the file as UTF-8 (it looks like Latin-1 or Windows-1252)`]);
  });

  it('#25 a Latin-1 byte in the body, after multi-byte UTF-8 on the same line', async () => {
    write(SECOND, Buffer.concat([second, Buffer.from('\nnaïve → '), Buffer.from([0xff]), Buffer.from('\n')]));
    await expectRejected(s, ['build'], [`${SECOND}:${lineAfter(second)}:9 byte 0xff is not UTF-8 text; save the file as UTF-8 (it looks like Latin-1 or Windows-1252)`]);
  });

  it('#25 a Latin-1 config file', async () => {
    write('site.config.yaml', Buffer.concat([Buffer.from('# Caf'), Buffer.from([0xe9]), Buffer.from('\n'), config]));
    await expectRejected(s, ['build'], ['site.config.yaml:1:6 byte 0xe9 is not UTF-8 text; save the file as UTF-8 (it looks like Latin-1 or Windows-1252)']);
  });

  it('a bad byte after a byte order mark and a real U+FFFD on its line: the column counts the character once and not the mark', async () => {
    write('site.config.yaml', Buffer.concat([Buffer.from('\ufeff# Caf\ufffd'), Buffer.from([0xe2, 0x28]), Buffer.from('\n'), config]));
    await expectRejected(s, ['build'], ['site.config.yaml:1:7 byte 0xe2 is not UTF-8 text; save the file as UTF-8 (it looks like Latin-1 or Windows-1252)']);
  });

  it('a UTF-16 page (as some editors save it)', async () => {
    write(SECOND, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('---\ntitle: x\n---\n', 'utf16le')]));
    await expectRejected(s, ['check'], [`${SECOND}:1:1 byte 0xff is not UTF-8 text; save the file as UTF-8 (it looks like Latin-1 or Windows-1252)`]);
  });
});

describe('#26 NUL characters (F11)', () => {
  it('in the frontmatter', async () => {
    write(SECOND, '---\ntitle: Zero\0byte\n---\n\nText.\n');
    await expectRejected(s, ['build'], [`${SECOND}:2:12 a NUL character (byte 0) is not text; remove it`]);
  });
  it('in the body', async () => {
    write(SECOND, `${second}\nText \0 here.\n`);
    await expectRejected(s, ['build'], [`${SECOND}:${lineAfter(second)}:6 a NUL character (byte 0) is not text; remove it`]);
  });
  it('in the config', async () => {
    write('site.config.yaml', `${config}# \0\n`);
    await expectRejected(s, ['check'], [`site.config.yaml:${lineAfter(config) - 1}:3 a NUL character (byte 0) is not text; remove it`]);
  });
});

describe('#27 a UTF-8 byte order mark is accepted (F12)', () => {
  it('in a page and in the config', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    write(SECOND, Buffer.concat([bom, second]));
    write('site.config.yaml', Buffer.concat([bom, config]));
    const run = await docsIn(s, ['build']);
    expectNoStack(run);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const html = readFileSync(join(s.site, 'dist/guides/second/index.html'), 'utf8');
    expect(html).toContain('<title>Second guide | fixture</title>');
    expect(html).not.toContain('\ufeff');
  });
});

/** 9 anchors of 9 aliases each, 8 levels: 9^9 strings once expanded. */
function aliasBomb(): string[] {
  const lines = ['a: &a ["x","x","x","x","x","x","x","x","x"]'];
  let prev = 'a';
  for (const name of 'bcdefghi') {
    lines.push(`${name}: &${name} [${Array(9).fill(`*${prev}`).join(',')}]`);
    prev = name;
  }
  return lines;
}

describe('#8 YAML alias bombs (F8)', () => {
  it('in the config: a problem at the first alias, no crash', async () => {
    write('site.config.yaml', `${aliasBomb().join('\n')}\n${config}`);
    await expectRejected(s, ['build'], [
      'site.config.yaml:2:8 YAML aliases expand to too much data (an alias that repeats other aliases many times over); write the values out instead',
    ]);
  });
  it('in a page\'s frontmatter', async () => {
    write(SECOND, `---\ntitle: Bomb\n${aliasBomb().join('\n')}\n---\n\nBody.\n`);
    await expectRejected(s, ['build'], [
      `${SECOND}:4:8 YAML aliases expand to too much data (an alias that repeats other aliases many times over); write the values out instead`,
    ]);
  });
});

describe('#30 nesting 10,000 deep (F7)', () => {
  const tooDeep = (line: number) =>
    `${SECOND}:${line}:1 lists and quotes nest more than 100 levels deep here; flatten them (a page this deep cannot be read anyway)`;
  it('10,000 nested lists on one line (- - - …)', async () => {
    write(SECOND, `${second}\n${'- '.repeat(10_000)}deep\n`);
    await expectRejected(s, ['build'], [tooDeep(lineAfter(second))]);
  });
  it('10,000 nested block quotes (> > > …), build and check', async () => {
    write(SECOND, `${second}\n${'> '.repeat(10_000)}deep\n`);
    await expectRejected(s, ['build'], [tooDeep(lineAfter(second))]);
    await expectRejected(s, ['check'], [tooDeep(lineAfter(second))]);
  });
  it('nested lists one per line, indented 300 deep', async () => {
    write(SECOND, `${second}\n${Array.from({ length: 300 }, (_, i) => `${'  '.repeat(i)}- x`).join('\n')}\n`);
    // Level 101 is the first past the limit.
    await expectRejected(s, ['build'], [tooDeep(lineAfter(second) + 101)]);
  });
  it('a run of 20,000 emphasis marks on one line: its column, at once (the parser would take minutes, then overflow)', async () => {
    write(SECOND, `${second}\nSome text ${'*'.repeat(20_000)}x${'*'.repeat(20_000)}\n`);
    await expectRejected(s, ['check'], [
      `${SECOND}:${lineAfter(second)}:11 a run of 20000 "*" characters nests emphasis more than 100 levels deep; shorten it, or put it in a code span`,
    ]);
  });
  it('a long run inside a code span is code, and a long horizontal rule is a rule, in the built page', async () => {
    write(SECOND, `${second}\n\`${'*'.repeat(500)}\`\n\n${'*'.repeat(500)}\n`);
    const body = await builtSecond();
    expect(body).toContain(`<p><code>${'*'.repeat(500)}</code></p>`);
    expect(body).toMatch(/<hr\/?>/);
    // The rule's stars are not shown as text: the code span holds the only run.
    expect(body.split('*'.repeat(500))).toHaveLength(2);
  });
  it('100 levels are still a page: 100 nested block quotes around the text in the built page', async () => {
    write(SECOND, `${second}\n${'> '.repeat(100)}deep enough\n`);
    const body = await builtSecond();
    expect(body.replace(/\s+/g, '')).toContain(`${'<blockquote>'.repeat(100)}<p>deepenough</p>${'</blockquote>'.repeat(100)}`);
    expect(body.match(/<blockquote>/g)).toHaveLength(100);
  });
});
