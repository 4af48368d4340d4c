import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DESKTOP, hasChromium, launch, offline, PHONE } from '../helpers/browser.js';
import { builtSite } from '../helpers/built.js';
import { editFile, fixtureSite } from '../helpers/site.js';

/* Reader and writer features on the fixture site (built from the repository, so git history is available). */

let browser: Browser;
let site: Awaited<ReturnType<typeof builtSite>>;
beforeAll(async () => {
  site = await builtSite();
  if (hasChromium) browser = await launch();
});
afterAll(async () => {
  await browser?.close();
  await site?.close();
});

const html = (path: string) => readFileSync(join(site.dir, path), 'utf8');

async function open(path: string, options = DESKTOP, context?: BrowserContext): Promise<Page> {
  const ctx = context ?? (await browser.newContext({ ...options, permissions: ['clipboard-read', 'clipboard-write'] }));
  const page = await ctx.newPage();
  await offline(page);
  await page.goto(site.server.url + path);
  return page;
}

describe('every page', () => {
  it('is titled "<page> | site", the home page just "site", with description and Open Graph tags', () => {
    expect(html('index.html')).toContain('<title>fixture</title>');
    const first = html('guides/first/index.html');
    expect(first).toContain('<title>First guide | fixture</title>');
    expect(first).toContain('<meta property="og:description" content="The first guide."/>');
    expect(first).toContain('<meta property="og:url" content="https://docs.example.org/guides/first/"/>');
  });

  it('links "Edit this page" to the source and "Jump to repository" when the frontmatter names one', () => {
    const first = html('guides/first/index.html');
    expect(first).toContain('href="https://github.com/example/docs/edit/main/content/guides/first.md"');
    expect(first).toMatch(/<a href="https:\/\/github.com\/example\/first" target="_blank" rel="noopener noreferrer">Jump to repository/);
    expect(html('guides/second/index.html')).not.toContain('Jump to repository');
  });

  it('ends with further reading, sorted contributors as lazy fixed-size avatars, and previous/next pages', () => {
    const first = html('guides/first/index.html');
    expect(first).toMatch(/<h2 id="further-reading">Further reading<\/h2><ul><li><a href="\/guides\/second\/">Second guide<\/a>/);
    const avatars = [...first.matchAll(/<img src="https:\/\/github.com\/([\w-]+)\.png\?size=90" alt="" width="40" height="40" loading="lazy"/g)].map((m) => m[1]);
    expect(avatars).toEqual(['Alpha-Dev', 'zeta-writer']);
    expect(first).toContain('href="https://github.com/Alpha-Dev"');
    expect(first).toMatch(/<a class="page-link page-link-prev" href="\/guides\/" rel="prev">.*Guides<\/span><\/a>/);
    expect(first).toMatch(/<a class="page-link page-link-next" href="\/guides\/second\/" rel="next">.*Second guide<\/span><\/a>/);
  });

  it('shows the date of the last change of each page from git history, and nothing without history', async () => {
    // A copy of the fixture in a repository of its own, with commits at known dates (the checkout's history may be absent).
    const repo = fixtureSite();
    const env = { ...process.env, GIT_DIR: undefined, GIT_WORK_TREE: undefined, GIT_INDEX_FILE: undefined };
    const git = (date: string, ...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=Docs Test', '-c', 'user.email=docs-test@example.org', '-c', 'commit.gpgsign=false', ...args], {
        cwd: repo,
        env: { ...env, GIT_AUTHOR_DATE: `${date}T12:00:00Z`, GIT_COMMITTER_DATE: `${date}T12:00:00Z` },
        stdio: 'ignore',
      });
    const withHistory = await (async () => {
      try {
        git('2021-03-04', 'init', '-q');
        git('2021-03-04', 'add', '.');
        git('2021-03-04', 'commit', '-q', '-m', 'fixture');
        editFile(join(repo, 'content/guides/first.md'), 'Intro with', 'An intro with');
        git('2022-05-06', 'commit', '-q', '-a', '-m', 'first guide');
        return await builtSite(repo);
      } catch (e) {
        rmSync(repo, { recursive: true, force: true });
        throw e;
      }
    })();
    try {
      expect(readFileSync(join(withHistory.dir, 'guides/first/index.html'), 'utf8')).toContain('Last updated <time datetime="2022-05-06">');
      expect(readFileSync(join(withHistory.dir, 'guides/second/index.html'), 'utf8')).toContain('Last updated <time datetime="2021-03-04">');
    } finally {
      await withHistory.close();
      rmSync(repo, { recursive: true, force: true });
    }
    // A copy outside any repository has no history: the line is left out, the build still works.
    const plain = fixtureSite();
    const copy = await builtSite(plain);
    try {
      expect(readFileSync(join(copy.dir, 'guides/first/index.html'), 'utf8')).not.toContain('Last updated');
    } finally {
      await copy.close();
      rmSync(plain, { recursive: true, force: true });
    }
  });
});

describe('site-wide files', () => {
  it('writes redirect pages with a meta refresh and canonical link, and a _redirects file', () => {
    const redirect = html('old-first/index.html');
    expect(redirect).toContain('<meta http-equiv="refresh" content="0; url=/guides/first/">');
    expect(redirect).toContain('<link rel="canonical" href="https://docs.example.org/guides/first/">');
    expect(html('_redirects')).toBe('/old-first/ /guides/first/ 301\n');
  });

  it('writes llms.txt by section and llms-full.txt with every page as Markdown', () => {
    const llms = html('llms.txt');
    expect(llms).toContain('## Guides\n\n- [Guides](https://docs.example.org/guides/): All guides.\n- [First guide](https://docs.example.org/guides/first/): The first guide.');
    const full = html('llms-full.txt');
    expect(full).toContain('# First guide\n\nSource: https://docs.example.org/guides/first/\n\nIntro with an [external link](https://example.com)');
    expect(full.indexOf('# First guide')).toBeLessThan(full.indexOf('# Second guide'));
  });

  it('writes a printable page per section with every page in sidebar order, left out of sitemap and search', () => {
    const printable = html('guides/printable/index.html');
    const order = ['Guides', 'First guide', 'Second guide', 'Long guide'].map((t) => printable.indexOf(`">${t}</h2>`));
    expect(order.every((v, i) => v > 0 && (i === 0 || v > order[i - 1]!))).toBe(true);
    expect(printable.match(/<h1>/g)).toHaveLength(1);
    expect(printable).toContain('<h3 id="guides-first--install">Install</h3>');
    expect(printable).toContain('href="#guides-first--install"');
    expect(html('sitemap.xml')).not.toContain('printable');
    expect(html('guides/first/index.html')).toContain('<a href="/guides/printable/">Printable section</a>');
  });
});

describe.runIf(hasChromium)('behaviour in the browser', () => {
  it('copies code without diff markers or removed lines, and announces it', async () => {
    const page = await open('/guides/first/');
    await page.locator('.code-block', { hasText: 'example.config.js' }).locator('.copy').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("module.exports = {\n  mode: 'production',\n};");
    expect(await page.locator('.code-block', { hasText: 'example.config.js' }).locator('.copy').textContent()).toBe('Copied');
    await expect.poll(() => page.locator('[aria-live="polite"]').last().textContent()).toBe('Copied to clipboard');
  });

  it('copies a diff as the new version: removed lines dropped, no + markers', async () => {
    const page = await open('/guides/first/');
    await page.locator('.code-block', { hasText: 'upgrade.js' }).locator('.copy').click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe("const mode = 'production';\nconst cache = true;");
  });

  it('switches tabs with the arrow keys and remembers the choice across pages', async () => {
    const page = await open('/guides/first/');
    const tabs = page.locator('.tabs').first();
    expect(await tabs.locator('[role="tabpanel"]:visible').textContent()).toContain('npm install example');
    await tabs.getByRole('tab', { name: 'npm', exact: true }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await tabs.getByRole('tab', { name: 'pnpm' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('pnpm');
    expect(await tabs.locator('[role="tabpanel"]:visible').textContent()).toContain('pnpm add example');
    await page.goto(site.server.url + '/guides/second/');
    const second = page.locator('.tabs').first();
    expect(await second.getByRole('tab', { name: 'pnpm' }).getAttribute('aria-selected')).toBe('true');
    expect(await second.locator('[role="tabpanel"]:visible').textContent()).toContain('pnpm add second');
  });

  it('an address whose anchor is in a tab that is not shown selects that tab (on load and on a change of the anchor)', async () => {
    const page = await open('/guides/first/');
    const pnpmPanel = await page.locator('.tabs').first().locator('[role="tabpanel"]').nth(1).getAttribute('id');
    const npmPanel = await page.locator('.tabs').first().locator('[role="tabpanel"]').nth(0).getAttribute('id');
    await page.evaluate(() => localStorage.clear());
    await page.goto(`${site.server.url}/guides/first/#${pnpmPanel}`);
    const tabs = page.locator('.tabs').first();
    expect(await tabs.getByRole('tab', { name: 'pnpm' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.locator(`#${pnpmPanel}`).isVisible()).toBe(true);
    await page.evaluate((id) => (location.hash = `#${id}`), npmPanel);
    await expect.poll(() => tabs.getByRole('tab', { name: 'npm', exact: true }).getAttribute('aria-selected')).toBe('true');
    expect(await page.locator(`#${pnpmPanel}`).isVisible()).toBe(false);
  });

  it('shows every tab panel, labelled, when JavaScript is off', async () => {
    const context = await browser.newContext({ ...DESKTOP, javaScriptEnabled: false });
    const page = await open('/guides/first/', DESKTOP, context);
    const panels = page.locator('.tabs').first().locator('[role="tabpanel"]');
    expect(await panels.count()).toBe(2);
    expect(await panels.nth(1).isVisible()).toBe(true);
    expect(await page.locator('.tabs').first().locator('.tablist').isVisible()).toBe(false);
    expect(await panels.nth(1).locator('.tab-label').textContent()).toBe('pnpm');
  });

  it('cycles the colour theme, stores it and applies it before first paint on the next page', async () => {
    const context = await browser.newContext({ ...DESKTOP, colorScheme: 'light' });
    const page = await open('/guides/first/', DESKTOP, context);
    const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(await bg()).toBe('rgb(255, 255, 255)');
    await page.click('[data-theme-toggle]'); // light
    await page.click('[data-theme-toggle]'); // dark
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBe('dark');
    expect(await page.getAttribute('[data-theme-toggle]', 'aria-label')).toBe('Colour theme: dark');
    await page.addInitScript(() => {
      requestAnimationFrame(() => ((window as unknown as { firstTheme: string }).firstTheme = getComputedStyle(document.body).backgroundColor));
    });
    await page.goto(site.server.url + '/guides/second/');
    await page.waitForFunction(() => (window as unknown as { firstTheme?: string }).firstTheme !== undefined);
    expect(await page.evaluate(() => (window as unknown as { firstTheme: string }).firstTheme)).toBe('rgb(18, 24, 28)');
    await page.click('[data-theme-toggle]'); // system
    expect(await page.evaluate(() => localStorage.getItem('theme'))).toBeNull();
    expect(await bg()).toBe('rgb(255, 255, 255)');
  });

  it('follows the system colour scheme by default', async () => {
    const context = await browser.newContext({ ...DESKTOP, colorScheme: 'dark' });
    const page = await open('/guides/first/', DESKTOP, context);
    expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(18, 24, 28)');
  });

  it('keeps an #anchor target visible below the top of the window', async () => {
    const page = await open('/guides/long/#step-7');
    const top = await page.evaluate(() => document.getElementById('step-7')!.getBoundingClientRect().top);
    expect(top).toBeGreaterThanOrEqual(0);
    expect(top).toBeLessThan(100);
  });

  it('shows the heading self-link on focus', async () => {
    const page = await open('/guides/first/');
    const anchor = page.locator('.heading > h2 + .anchor').first();
    expect(await anchor.evaluate((a) => getComputedStyle(a).opacity)).toBe('0');
    await anchor.focus();
    expect(await anchor.evaluate((a) => getComputedStyle(a).opacity)).toBe('1');
  });

  it('lets tables scroll sideways on phones instead of widening the page', async () => {
    const page = await open('/guides/second/', PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  });
});

describe.runIf(hasChromium)('print', () => {
  it('prints the content without the chrome', async () => {
    const page = await open('/guides/first/');
    await page.emulateMedia({ media: 'print' });
    for (const selector of ['.banner', '.header', '#sidebar', '.footer', '#chat-button', '.article-tools', '.pagination']) {
      expect(await page.locator(selector).first().isVisible(), selector).toBe(false);
    }
    expect(await page.locator('h1').isVisible()).toBe(true);
    expect(await page.locator('.markdown pre.code').first().isVisible()).toBe(true);
    const pdf = await page.pdf({ format: 'A4' });
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  });
});
