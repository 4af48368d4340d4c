import { createElement as h } from 'react';
import { describe, expect, it } from 'vitest';
import { renderDocument } from '../../src/build/render.js';

describe('renderDocument', () => {
  it('writes the attribute names React keeps in camelCase in lowercase, and leaves raw HTML and SVG names as they are', () => {
    const body = '<p><code>&#x3C;input autoComplete="off" spellCheck="false"></code></p>';
    const html = renderDocument((raw) =>
      h('html', { lang: 'en' }, h('head', null, h('meta', { charSet: 'utf-8' }), h('title', null, 't')), h('body', null,
        h('input', { type: 'text', autoComplete: 'off', spellCheck: false, enterKeyHint: 'search', tabIndex: -1 }),
        h('svg', { viewBox: '0 0 16 16' }),
        h('div', { className: 'markdown', dangerouslySetInnerHTML: { __html: raw(body) } }),
        h('time', { dateTime: '2024-05-01' }, '1 May 2024'),
      )),
    );
    expect(html.startsWith('<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"/>')).toBe(true);
    expect(html).toContain('<input type="text" autocomplete="off" spellcheck="false" enterkeyhint="search" tabindex="-1"/>');
    expect(html).toContain('<svg viewBox="0 0 16 16">');
    expect(html).toContain('<time datetime="2024-05-01">');
    // The body, as text in code, keeps what it shows.
    expect(html).toContain(`<div class="markdown">${body}</div>`);
  });
});
