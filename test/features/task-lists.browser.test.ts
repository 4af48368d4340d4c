import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadHighlighter } from '../../src/content/highlight.js';
import { renderMarkdown } from '../../src/content/markdown.js';
import { axeViolations } from '../helpers/a11y.js';
import { hasChromium, launch } from '../helpers/browser.js';
import { ROOT } from '../helpers/content.js';

/*
 * Task lists (`- [x] Done`): each checkbox is named by its item's text, in a <label> with it (Lighthouse's
 * and axe's "label" rule failed on every checkbox: the starter's Markdown page scored 97 in accessibility).
 */

const BODY = `- [x] A done task with \`code\` and a [link](https://example.org/)
- [ ] An open task
  - [ ] A nested one
- [ ] ![A picture](https://example.org/a.png) alone
- Not a task

1. [x] A loose item

   More text.

2. [ ] Another loose item
`;

let html: string;
beforeAll(async () => {
  html = (await renderMarkdown(BODY, { file: 'content/x.md', lineOffset: 3, highlighter: loadHighlighter })).html;
});

describe('task lists', () => {
  it("put each checkbox and its item's text, up to a nested list or paragraph, in a label", () => {
    expect(html).toContain('<li class="task-list-item"><label><input type="checkbox" checked disabled> A done task with <code>code</code> and a <a href="https://example.org/" target="_blank" rel="noopener noreferrer">link</a></label></li>');
    expect(html).toMatch(/<label><input type="checkbox" disabled> An open task\s*<\/label><ul class="contains-task-list">\s*<li class="task-list-item"><label><input type="checkbox" disabled> A nested one<\/label><\/li>/);
    expect(html).toContain('<p><label><input type="checkbox" checked disabled> A loose item</label></p>\n<p>More text.</p>');
    expect(html).toContain('<p><label><input type="checkbox" disabled> Another loose item</label></p>');
    expect(html).toContain('<li>Not a task</li>');
    expect(html).toMatch(/<label><input type="checkbox" disabled> <img src="[^"]*" alt="A picture"> alone<\/label>/);
  });
});

describe.runIf(hasChromium)('task lists in a browser', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launch();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('give every checkbox an accessible name (axe finds no unlabelled checkbox)', async () => {
    const page = await browser.newPage();
    await page.route(/^https?:\/\/example\.org\//, (route) => route.fulfill({ status: 204, body: '' }));
    await page.setContent(`<!DOCTYPE html><html lang="en"><head><title>Tasks</title></head><body><main>${html}</main></body></html>`);
    const names = await page.evaluate(() => [...document.querySelectorAll('input[type=checkbox]')].map((box) => (box as HTMLInputElement).labels?.[0]?.textContent?.trim()));
    expect(names).toEqual(['A done task with code and a link', 'An open task', 'A nested one', 'alone', 'A loose item', 'Another loose item']);
    expect((await axeViolations(page)).filter((v) => v.id === 'label')).toEqual([]);
    await page.close();
  });

  it("show a bulleted task's checkbox in place of its bullet, and keep a numbered task's number", async () => {
    const styles = join(ROOT, 'templates/styles');
    const css = readdirSync(styles).filter((f) => f.endsWith('.css')).sort().map((f) => readFileSync(join(styles, f), 'utf8')).join('\n');
    const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
    await page.route(/^https?:\/\/example\.org\//, (route) => route.fulfill({ status: 204, body: '' }));
    await page.setContent(`<!DOCTYPE html><html lang="en"><head><title>Tasks</title><style>${css}</style></head><body><div class="markdown">${html}</div></body></html>`);
    const items = await page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>('.task-list-item')].map((li) => {
        const box = li.querySelector('input')!.getBoundingClientRect();
        const content = li.getBoundingClientRect().left + parseFloat(getComputedStyle(li).paddingLeft);
        return { list: li.parentElement!.tagName, marker: getComputedStyle(li).listStyleType, boxInGutter: box.right <= content };
      }),
    );
    expect(items.filter((item) => item.list === 'UL')).toEqual(Array(4).fill({ list: 'UL', marker: 'none', boxInGutter: true }));
    expect(items.filter((item) => item.list === 'OL').map((item) => item.marker)).toEqual(['decimal', 'decimal']);
    await page.close();
  });
});
