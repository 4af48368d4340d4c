import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { redirectPage, redirectsFile } from '../../src/build/files.js';
import type { Site } from '../../src/site/model.js';
import { docsIn, expectNoStack, expectRejected, goodBuild, ROOT, scratchSite, type Scratch } from './harness.js';

/*
 * Redirects (F4, F5; report rows #44, #45 and the XSS probes #207, #208,
 * #r2): a redirect's source and target are written into HTML attributes and
 * into the `_redirects` rules of static hosts. Anything but a plain URL path
 * is refused with its position; the pages escape what they write and carry
 * the CSP of every page.
 */

let s: Scratch;
let config: string;

beforeAll(async () => {
  s = scratchSite();
  config = readFileSync(join(s.site, 'site.config.yaml'), 'utf8');
  await goodBuild(s);
});

afterEach(() => writeFileSync(join(s.site, 'site.config.yaml'), config));
afterAll(() => s?.remove());

/** The config with these lines added under `redirects:` (after line 59, the fixture's one redirect). */
function withRedirects(lines: string[]): void {
  const anchor = '  /old-first/: /guides/first/\n';
  expect(config.split('\n').indexOf(anchor.trimEnd())).toBe(58);
  writeFileSync(join(s.site, 'site.config.yaml'), config.replace(anchor, anchor + lines.map((l) => `${l}\n`).join('')));
}

const decode = (s: string) => s.replace(/&#x27;|&#39;/g, "'").replace(/&quot;/g, '"').replace(/&amp;/g, '&');

const RULE =
  'expected a plain URL path: letters, digits and - . _ ~ ! $ & ( ) * + , ; = : @ %XX between slashes, no spaces, quotes, angle brackets, "." or ".." segments';

describe('redirect paths that are not plain URL paths are refused with their position', () => {
  it('#207 a target that breaks out of the attribute (autofocus onfocus)', async () => {
    withRedirects([`  /r1/: '/guides/first/#x" tabindex="1" autofocus onfocus="alert(207)'`]);
    await expectRejected(s, ['build'], [`site.config.yaml:60:9 redirects./r1/: ${RULE}`]);
  });

  it('#208 a target with a query holding markup', async () => {
    withRedirects([`  /r3/: '/guides/first/?"><img src=x onerror=alert(208)>'`]);
    await expectRejected(s, ['build'], [`site.config.yaml:60:9 redirects./r3/: ${RULE}`]);
  });

  it('#r2 a source key with line breaks cannot add a rule to _redirects; the message stays on one line', async () => {
    withRedirects(['  "/r2/\\n/*  https://evil.example/  200!\\n/r2b/": /guides/first/']);
    await expectRejected(s, ['build'], [`site.config.yaml:60:3 redirects./r2/\\n/*  https://evil.example/  200!\\n/r2b/: bad key: ${RULE}`]);
  });

  it('#45 and the other shapes: dot segments, //host, /\\host, spaces, tabs, control characters, javascript:', async () => {
    withRedirects([
      '  /../../../rel-escape-probe/: /guides/first/',
      '  /r4/: /guides/../first/',
      '  /r5/: //evil.example/',
      '  /r6/: "/guides/first/ x"',
      '  "/r7/\\t": /guides/first/',
      '  /r8/: "/guides/first/\\u0007"',
      '  /r10/: javascript:alert(1)',
      '  /r11/: /\\evil.example/',
      '  /r12/: /guides/./first/',
    ]);
    await expectRejected(s, ['check'], [
      `site.config.yaml:60:3 redirects./../../../rel-escape-probe/: bad key: ${RULE}`,
      `site.config.yaml:61:9 redirects./r4/: ${RULE}`,
      `site.config.yaml:62:9 redirects./r5/: ${RULE}`,
      `site.config.yaml:63:9 redirects./r6/: ${RULE}`,
      `site.config.yaml:64:3 redirects./r7/\\t: bad key: ${RULE}`,
      `site.config.yaml:65:9 redirects./r8/: ${RULE}`,
      'site.config.yaml:66:10 redirects./r10/: expected a path starting with "/"',
      `site.config.yaml:66:10 redirects./r10/: ${RULE}`,
      `site.config.yaml:67:10 redirects./r11/: ${RULE}`,
      `site.config.yaml:68:10 redirects./r12/: ${RULE}`,
    ]);
  });

  it('#44 redirects that loop or lead to a missing page', async () => {
    withRedirects(['  /a/: /b/', '  /b/: /a/', '  /gone/: /guides/nope/']);
    await expectRejected(s, ['build'], [
      'site.config.yaml:60:8 redirects./a/: redirect target "/b/" is not a page',
      'site.config.yaml:61:8 redirects./b/: redirect target "/a/" is not a page',
      'site.config.yaml:62:11 redirects./gone/: redirect target "/guides/nope/" is not a page',
    ]);
  });
  it('two redirects for one address (/a and /a/): a static host would follow either', async () => {
    withRedirects(['  /a: /guides/first/', '  /a/: /guides/second/']);
    await expectRejected(s, ['build'], ['site.config.yaml:61:8 redirects./a/: "/a/" and "/a" are the same address to a static host; keep one of the two redirects']);
  });
});

describe('redirects that would replace what the build writes, or stand for many addresses', () => {
  it('a source that names a file the build writes (_headers, 404.html, the assets, a printable document) or that is a pattern of _redirects', async () => {
    withRedirects(['  /_headers: /guides/first/', '  /404.html: /guides/first/', '  /assets/x: /guides/first/', '  /guides/printable/: /guides/first/', '  "/*": /guides/first/', '  /old/:id: /guides/first/']);
    const writes = (path: string, from = `/${path}`) => `the build writes ${path} itself, and a redirect from "${from}" would replace it; choose another address`;
    await expectRejected(s, ['check'], [
      `site.config.yaml:60:14 redirects./_headers: ${writes('_headers')}`,
      `site.config.yaml:61:14 redirects./404.html: ${writes('404.html')}`,
      `site.config.yaml:62:14 redirects./assets/x: ${writes('assets/x')}`,
      `site.config.yaml:63:23 redirects./guides/printable/: ${writes('guides/printable', '/guides/printable/')}`,
      'site.config.yaml:64:9 redirects./*: "/*" is a pattern to static hosts ("*" and a leading ":" stand for any text in _redirects): name one address',
      'site.config.yaml:65:13 redirects./old/:id: "/old/:id" is a pattern to static hosts ("*" and a leading ":" stand for any text in _redirects): name one address',
    ]);
  });

  it('X6 escaped dots, slashes, backslashes and control characters, which hosts decode into what the rule refuses', async () => {
    withRedirects(['  /%2e%2e/guides/first/: /guides/first/', '  /a%2Fb/: /guides/first/', '  /c%5Cd/: /guides/first/', '  /nul%00/: /guides/first/', '  /line%0a/: /guides/first/', '  /fine/: /guides/%2E%2E/first/', '  /query/: /guides/first/?q=%2e']);
    const encoded =
      'write "." and "/" as themselves: %2E, %2F, %5C and escaped control characters (%00 to %1F, %7F) are read as dots, separators or controls';
    await expectRejected(s, ['check'], [
      `site.config.yaml:60:3 redirects./%2e%2e/guides/first/: bad key: ${encoded}`,
      `site.config.yaml:61:3 redirects./a%2Fb/: bad key: ${encoded}`,
      `site.config.yaml:62:3 redirects./c%5Cd/: bad key: ${encoded}`,
      `site.config.yaml:63:3 redirects./nul%00/: bad key: ${encoded}`,
      `site.config.yaml:64:3 redirects./line%0a/: bad key: ${encoded}`,
      `site.config.yaml:65:11 redirects./fine/: ${encoded}`,
    ]);
  });

  it('P5 a source that is a page\'s own file (/index.html) or under it: refused by check as by build, never a file-system error', async () => {
    withRedirects(['  /index.html: /guides/second/', '  /guides/first/index.html: /guides/second/', '  /guides/first/index.html/x/: /guides/second/']);
    const own = (file: string, page: string, from: string) =>
      `the build writes ${file} itself (the page ${page}), and a redirect from "${from}" would replace it; redirect from ${page} or another address`;
    const problems = [
      `site.config.yaml:60:16 redirects./index.html: ${own('index.html', '/', '/index.html')}`,
      `site.config.yaml:61:29 redirects./guides/first/index.html: ${own('guides/first/index.html', '/guides/first/', '/guides/first/index.html')}`,
      `site.config.yaml:62:32 redirects./guides/first/index.html/x/: ${own('guides/first/index.html', '/guides/first/', '/guides/first/index.html/x/')}`,
    ];
    await expectRejected(s, ['check'], problems);
    await expectRejected(s, ['build'], problems);
  });

  it('a source that is the address of a file of static/, and a target whose anchor the page does not have', async () => {
    mkdirSync(join(s.site, 'static'), { recursive: true });
    writeFileSync(join(s.site, 'static', 'logo.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>\n');
    try {
      withRedirects(['  /logo.svg: /guides/first/', '  /anchor/: /guides/first/#no-such-heading']);
      await expectRejected(s, ['check'], [
        'site.config.yaml:61:13 redirects./anchor/: redirect target "/guides/first/#no-such-heading": /guides/first/ has no such anchor',
        'static/logo.svg: the redirect of /logo.svg would make this file\'s address a folder (for its redirect page); remove the file or the redirect',
      ]);
    } finally {
      rmSync(join(s.site, 'static'), { recursive: true });
    }
  });
});

describe('many redirects', () => {
  it('1,500 of them build under a limit of 256 open files (the build used to open a file for each at once: EMFILE)', async () => {
    withRedirects(Array.from({ length: 1500 }, (_, i) => `  /old/p${i}/: /guides/first/`));
    const run = spawnSync('bash', ['-c', `ulimit -n 256 && exec ${JSON.stringify(process.execPath)} ${JSON.stringify(join(ROOT, 'bin/docs.js'))} build -q --out many-out`], {
      cwd: s.site,
      env: { ...process.env, DOCS_CACHE_DIR: s.cache },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(readFileSync(join(s.site, 'many-out', 'old', 'p1499', 'index.html'), 'utf8')).toContain('/guides/first/');
  });
});

describe('redirect pages and rules as built', () => {
  it('a redirect with a query and a fragment: the page carries the CSP meta of every page, _redirects one rule a line', async () => {
    withRedirects(['  /with-query/: /guides/first/?from=old&x=1#install']);
    const run = await docsIn(s, ['build', '-q']);
    expectNoStack(run);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const page = readFileSync(join(s.site, 'dist/with-query/index.html'), 'utf8');
    const guide = readFileSync(join(s.site, 'dist/guides/first/index.html'), 'utf8');
    // The same policy, whichever character references each writer uses for its quotes.
    const csp = (html: string) => decode(/<meta http-equiv="Content-Security-Policy" content="([^"]+)"\/?>/.exec(html)?.[1] ?? 'none');
    expect(csp(page)).toBe(csp(guide));
    expect(csp(page)).toMatch(/^default-src 'self'; script-src 'self' 'sha256-/);
    expect(page).toContain('<meta http-equiv="refresh" content="0; url=/guides/first/?from=old&amp;x=1#install">');
    expect(page).toContain('<a href="/guides/first/?from=old&amp;x=1#install">');
    expect(readFileSync(join(s.site, 'dist/_redirects'), 'utf8')).toBe('/old-first/ /guides/first/ 301\n/with-query/ /guides/first/?from=old&x=1#install 301\n');
  });

  // The schema refuses these paths before they reach the writers; the writers hold even so.
  const site = { config: { site: { url: 'https://docs.example.org', language: 'en' }, redirects: {} } } as unknown as Site;
  it('redirectPage escapes quotes and angle brackets in every attribute', () => {
    const html = redirectPage(site, '/', '/guides/first/#x" autofocus onfocus="alert(207)', "default-src 'self'");
    expect(html).not.toContain('" autofocus');
    expect(html).toContain('href="/guides/first/#x&quot; autofocus onfocus=&quot;alert(207)"');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src &#39;self&#39;">`);
  });
  it('redirectsFile refuses a path holding a line break or a space', () => {
    const bad = { ...site, config: { ...site.config, redirects: { '/r2/\n/*  https://evil.example/  200!': '/guides/first/' } } } as unknown as Site;
    expect(() => redirectsFile(bad, '/')).toThrow(/holds whitespace/);
  });
});
