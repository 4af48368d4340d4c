import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launch, offline, serveStatic, type StaticServer } from '../helpers/browser.js';
import { ROOT } from '../helpers/content.js';
import { runDocs } from '../helpers/site.js';

/* The real `docs build` on the real site.config.yaml and content, then a reader's view in Chromium. */

let out: string;
let server: StaticServer;
let browser: Browser;
let build: { code: number; out: string; err: string };

beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), 'docs-e2e-'));
  build = await runDocs(['build', '--root', ROOT, '--out', out]);
  server = await serveStatic(out);
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  rmSync(out, { recursive: true, force: true });
});

describe('docs build on the repository', () => {
  it('succeeds and writes every page listed in site.config.yaml', () => {
    expect(build.err).toBe('');
    expect(build.code).toBe(0);
    expect(build.out).toMatch(/^Built \d+ pages in \d+\.\d s → /m);
    const config = parse(readFileSync(join(ROOT, 'site.config.yaml'), 'utf8')) as { sections: Array<{ url: string; pages?: string[] }> };
    const ids = config.sections.flatMap((s) => [s.url, ...(s.pages ?? [])]);
    const missing = ids.filter((id) => !existsSync(join(out, id, 'index.html')));
    expect(missing).toEqual([]);
    expect(ids.length).toBeGreaterThan(140);
  });
});

describe.runIf(hasChromium)('a reader on the built site', () => {
  it('sees the example page of SPEC.md with its header, sidebar of plugins and content', async () => {
    const page = await (await browser.newContext(DESKTOP)).newPage();
    await offline(page);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(server.url + '/plugins/normal-module-replacement-plugin/');
    expect(await page.title()).toBe('NormalModuleReplacementPlugin | webpack');
    expect(await page.locator('h1').textContent()).toBe('NormalModuleReplacementPlugin');
    expect(await page.locator('.topnav a[aria-current]').textContent()).toBe('Documentation');
    expect(await page.locator('.subnav a[aria-current]').textContent()).toBe('Plugins');
    const sidebarLinks = await page.locator('.sidebar-row a').count();
    expect(sidebarLinks).toBeGreaterThanOrEqual(38);
    expect(await page.locator('.sidebar-group').count()).toBe(0);
    const anchors = await page.locator('.sidebar-item.open .sidebar-anchors a').allTextContents();
    expect(anchors).toEqual(expect.arrayContaining(['Usage', 'Options']));
    expect(await page.locator('.sidebar-item.open .sidebar-anchors a').first().getAttribute('href')).toMatch(/^#/);
    expect(await page.locator('.markdown pre.code').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
  });

  it('goes from the home page through the concepts to a guide by following links', async () => {
    const page = await (await browser.newContext(DESKTOP)).newPage();
    await offline(page);
    await page.goto(server.url + '/');
    expect(await page.title()).toBe('webpack');
    await page.locator('.markdown a[href="/concepts/"]').first().click();
    await page.waitForURL('**/concepts/');
    expect(await page.locator('h1').textContent()).toBe('Concepts');
    await page.locator('.sidebar-row a', { hasText: 'Entry Points' }).click();
    await page.waitForURL('**/concepts/entry-points/');
    await page.locator('.page-link-next').click();
    await page.waitForURL('**/concepts/output/');
  });
});
