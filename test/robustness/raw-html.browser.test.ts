import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launch, offline } from '../helpers/browser.js';
import { docsIn, expectNoStack, expectRejected, put, scratchSite, type Scratch } from './harness.js';

/*
 * Raw HTML in Markdown (F17; report section 2, probes 1-24 and 109): the
 * probes are built into a page, served by a plain static server that knows
 * nothing of `_headers` (so only the page's own CSP meta applies, as on a
 * host that ignores the file), and opened in Chromium: hovered, tabbed
 * through, clicked. No alert may fire and our own pages may cause no CSP
 * violation. A second pass strips the CSP meta as well: the sanitiser alone
 * must keep the probes inert. Links to javascript:, vbscript: and data: in
 * Markdown syntax are build errors with their position.
 */

const PROBES = `---
title: Raw HTML probes
---

Intro.

<script>alert(1)</script>

<img src="x" onerror="alert(2)">

<svg onload="alert(3)"><circle r="5"></circle></svg>

<iframe src="javascript:alert(4)"></iframe>

<a id="p5" href="javascript:alert(5)">raw javascript link</a>

<details open ontoggle="alert(10)"><summary id="p10">Toggle</summary>Body</details>

<div id="p11" style="animation: spin 1s" onanimationstart="alert(11)">animated</div>

<input autofocus onfocus="alert(12)">

<object data="javascript:alert(13)"></object>

<embed src="javascript:alert(25)">

<form action="javascript:alert(14)"><button id="p14">Send</button></form>

<meta http-equiv="refresh" content="0;url=javascript:alert(15)">

<base href="https://evil.example/">

<style>body { background: url("javascript:alert(26)") }</style>

<div id="p27" onmouseover="alert(27)">hover me</div>

<a id="p28" href="data:text/html,<script>alert(28)</script>">data link</a>

<svg><a href="javascript:alert(29)"><text id="p29" x="0" y="15">svg link</text></a></svg>

<math><mi xlink:href="javascript:alert(30)">x</mi></math>

<noscript><p title="</noscript><img src=x onerror=alert(31)>"></noscript>

## Heading <img src="x" onerror="alert(16)">

> [!NOTE]
> <img src="x" onerror="alert(23)">

A footnote.[^1]

[^1]: <img src="x" onerror="alert(24)">

<script src="/evil.js"></script>

## Forged markers

The pipeline marks its own markup with an attribute whose name it makes at random; a writer's copy of the name's known part trusts nothing.

<script data-docs-own>alert(33)</script>

<script data-docs-own0123456789abcdef>alert(34)</script>

<script dataDocsOwn data-docs-own="">alert(35)</script>

<div id="p36" data-docs-own onclick="alert(36)">forged div 36</div>

<div id="p37" data-docs-own0123456789abcdef onclick="alert(37)">forged div 37</div>

<div id="p38" dataDocsOwn onmouseover="alert(38)">forged div 38</div>

<img src="x" data-docs-own onerror="alert(39)">

<img src="x" data-docs-own0123456789abcdef onerror="alert(40)">

<img src="x" dataDocsOwn data-docs-own-0123456789abcdef onerror="alert(41)">

<p data-docs-own><img src="x" data-docs-own onerror="alert(42)"><span id="p43" data-docs-own onclick="alert(43)">forged span 43</span></p>

## What is kept

<details><summary>Summary kept</summary>Details body kept</details>

Press <kbd>Ctrl</kbd> and x<sup>2</sup>.

<table><thead><tr><th>Head</th></tr></thead><tbody><tr><td>Cell kept</td></tr></tbody></table>

<a id="legacy-anchor"></a><span class="custom-class">classed</span>

<svg viewBox="0 0 10 10" width="10" height="10"><path d="M0 0L10 10" stroke="black"></path></svg>
`;

let s: Scratch;
let browser: Browser | undefined;
let html: string;

beforeAll(async () => {
  s = scratchSite();
  put(s, 'content/guides/probes.md', PROBES);
  put(s, 'static/evil.js', 'alert(109);\n');
  // The probes' images (src="x") are checked like links: a file of that name beside the page's folder.
  put(s, 'static/guides/x', 'not an image\n');
  const run = await docsIn(s, ['build', '-q']);
  expectNoStack(run);
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  html = readFileSync(join(s.site, 'dist/guides/probes/index.html'), 'utf8');
  if (hasChromium) browser = await launch();
});

afterAll(async () => {
  await browser?.close();
  s?.remove();
});

/** The article of the probes page (the page chrome has scripts of its own). */
const article = () => {
  // (From the article's text: the page's description in its head repeats the first paragraph.)
  const start = html.indexOf('<p>Intro.</p>');
  const end = html.indexOf('</article>', start);
  expect(start).toBeGreaterThan(0);
  expect(end).toBeGreaterThan(start);
  return html.slice(start, end);
};

describe('raw HTML as built', () => {
  it('holds no script, handler, javascript:/data: URL, frame, object, embed, base, meta, form, input or style', () => {
    const body = article();
    expect(body).not.toMatch(/<script|<iframe|<object|<embed|<base|<meta|<form|<input|<style|<noscript/i);
    // Handlers outside attribute values (a title may hold the text of a probe, as #31's does).
    expect(body.replace(/"[^"]*"/g, '""')).not.toMatch(/\son[a-z]+=/i);
    expect(body).not.toMatch(/javascript:|vbscript:|data:text/i);
    expect(body).not.toMatch(/\sstyle=/i);
  });
  it("a writer's copy of the pipeline's marker attribute (data-docs-own, data-docs-own0123456789abcdef, dataDocsOwn) on <script>, <div onclick>, <img onerror>: no script and no on* attribute reach the page", () => {
    const body = article();
    const forged = body.slice(body.indexOf('id="forged-markers"'), body.indexOf('id="what-is-kept"'));
    // The probes are in the page (their text and ids), without what made them dangerous.
    for (const text of ['forged div 36', 'forged div 37', 'forged div 38', 'forged span 43']) expect(forged).toContain(text);
    expect(forged).not.toMatch(/<script/i);
    expect(forged).not.toMatch(/alert\(3[345]\)/);
    expect(forged).not.toMatch(/\son[a-z]+=/i);
    expect(forged).not.toMatch(/data-?docs-?own/i);
    expect(forged.match(/<img /g)).toHaveLength(4);
  });
  it('keeps details, summary, kbd, sup, tables, ids, classes and static SVG', () => {
    const body = article();
    expect(body).toMatch(/<details><summary>Summary kept<\/summary>Details body kept<\/details>/);
    expect(body).toContain('<kbd>Ctrl</kbd>');
    expect(body).toContain('<sup>2</sup>');
    expect(body).toMatch(/<table>[\s\S]*<td>Cell kept<\/td>[\s\S]*<\/table>/);
    expect(body).toContain('id="legacy-anchor"');
    expect(body).toContain('class="custom-class"');
    expect(body).toMatch(/<svg viewBox="0 0 10 10" width="10" height="10"><path d="M0 0L10 10" stroke="black"><\/path><\/svg>/);
  });
});

describe('Markdown links that would run script are build errors with their position', () => {
  it('javascript:, vbscript:, data: links and a javascript: image', async () => {
    put(s, 'content/guides/links.md', `---\ntitle: Links\n---\n\n[six](javascript:alert(6)) and <javascript:alert(8)> and [data](data:text/html,hi)\n\n![img](javascript:alert(1)) and [vb](VBScript:msgbox(1)) and [upper](JavaScript:alert(2))\n`);
    // A tab written as a character reference is kept, percent-encoded: no scheme, a plain (missing) page.
    put(s, 'content/guides/tab.md', '---\ntitle: Tab\n---\n\n[tab](java&#9;script:alert(32))\n');
    const link = (href: string) => `link to "${href}": javascript:, vbscript: and data: links are not allowed (they run script or hide content); link to a page or an https:// address`;
    try {
      await expectRejected(s, ['check'], [
        `content/guides/links.md:5:1 ${link('javascript:alert(6)')}`,
        `content/guides/links.md:5:32 ${link('javascript:alert(8)')}`,
        `content/guides/links.md:5:58 ${link('data:text/html,hi')}`,
        'content/guides/links.md:7:1 image source "javascript:alert(1)" would run script; use the address of an image',
        `content/guides/links.md:7:33 ${link('VBScript:msgbox(1)')}`,
        `content/guides/links.md:7:62 ${link('JavaScript:alert(2)')}`,
        'content/guides/tab.md:5:1 links to "java%09script:alert(32)", which is not a page of this site',
      ]);
    } finally {
      rmSync(join(s.site, 'content/guides/tab.md'));
      put(s, 'content/guides/links.md', '---\ntitle: Links\n---\n\nNone.\n');
    }
  });
});

/**
 * A plain static server of the built folder: no `_headers`, no CSP header.
 * With `stripCsp`, the CSP meta is taken out of every page as well.
 */
async function staticServer(root: string, stripCsp: boolean): Promise<{ url: string; close(): Promise<void> }> {
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css', '.json': 'application/json', '.svg': 'image/svg+xml' };
  const server: Server = createServer((req, res) => {
    let file = normalize(join(root, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
    if (!file.startsWith(root + sep)) file = join(root, '404.html');
    if (file.endsWith(sep)) file = join(file, 'index.html');
    let body: Buffer;
    try {
      body = readFileSync(file);
    } catch {
      res.writeHead(404, { 'Content-Type': types['.html'] }).end(readFileSync(join(root, '404.html')));
      return;
    }
    if (stripCsp && file.endsWith('.html')) body = Buffer.from(body.toString().replace(/<meta http-equiv="Content-Security-Policy"[^>]*>/g, ''));
    res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream' }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** Opens a page and records every dialog (dismissed) and every CSP violation. */
async function open(url: string): Promise<{ page: Page; dialogs: string[]; violations: string[] }> {
  const context = await browser!.newContext(DESKTOP);
  const page = await context.newPage();
  await offline(page);
  const dialogs: string[] = [];
  const violations: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  page.on('console', (m) => {
    if (/Content Security Policy|Refused to/i.test(m.text())) violations.push(m.text());
  });
  await page.exposeFunction('__violation', (v: string) => violations.push(v));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => (window as unknown as { __violation(v: string): void }).__violation(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(url, { waitUntil: 'load' });
  return { page, dialogs, violations };
}

/** Everything a reader might do to the probes: hover, tab through, click. */
async function exercise(page: Page): Promise<void> {
  for (const id of ['p27', 'p11', 'p10', 'p29']) await page.hover(`#${id}`, { timeout: 2000 }).catch(() => undefined);
  for (let i = 0; i < 15; i++) await page.keyboard.press('Tab');
  for (const id of ['p5', 'p14', 'p28', 'p29', 'p10', 'p36', 'p37', 'p38', 'p43']) {
    await page.click(`#${id}`, { timeout: 2000, noWaitAfter: true }).catch(() => undefined);
    if (!page.url().includes('/guides/probes/')) await page.goBack().catch(() => undefined);
  }
  await page.waitForTimeout(300);
}

describe.runIf(hasChromium)('the probes in Chromium, from a static server that ignores _headers', () => {
  it('as built (the CSP meta only): no dialog, no CSP violation on the probes page, a guide and a redirect page', async () => {
    const server = await staticServer(join(s.site, 'dist'), false);
    try {
      for (const path of ['/guides/probes/', '/guides/first/', '/old-first/']) {
        const { page, dialogs, violations } = await open(server.url + path);
        if (path === '/guides/probes/') await exercise(page);
        else await page.waitForTimeout(500);
        expect(dialogs, path).toEqual([]);
        expect(violations, path).toEqual([]);
        if (path === '/old-first/') expect(new URL(page.url()).pathname).toBe('/guides/first/');
        await page.context().close();
      }
    } finally {
      await server.close();
    }
  });

  it("with the CSP meta stripped: a writer's copy of the pipeline's marker leaves no script and no on* attribute in the page, and clicking the probes opens no dialog", async () => {
    const server = await staticServer(join(s.site, 'dist'), true);
    try {
      const { page, dialogs } = await open(`${server.url}/guides/probes/`);
      expect(await page.locator('#p36').count()).toBe(1);
      for (const id of ['p36', 'p37', 'p43']) await page.click(`#${id}`, { timeout: 2000 });
      await page.hover('#p38', { timeout: 2000 });
      await page.waitForTimeout(300);
      expect(dialogs).toEqual([]);
      const found = await page.evaluate(() => {
        const article = document.querySelector('article')!;
        const handlers = [...article.querySelectorAll('*')].flatMap((el) => el.getAttributeNames().filter((name) => /^on/i.test(name) || /docs-?own/i.test(name)).map((name) => `${el.tagName} ${name}`));
        return { scripts: article.querySelectorAll('script').length, handlers };
      });
      expect(found).toEqual({ scripts: 0, handlers: [] });
      await page.context().close();
    } finally {
      await server.close();
    }
  });

  it('with the CSP meta stripped too: the sanitiser alone keeps every probe inert (the hovers, tabs and clicks of exercise())', async () => {
    const server = await staticServer(join(s.site, 'dist'), true);
    try {
      const { page, dialogs } = await open(`${server.url}/guides/probes/`);
      await exercise(page);
      expect(dialogs).toEqual([]);
      // The kept markup works: the anchor is there and the details open.
      expect(await page.locator('#legacy-anchor').count()).toBe(1);
      await page.context().close();
    } finally {
      await server.close();
    }
  });
});
