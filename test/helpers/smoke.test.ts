import { describe, expect, it } from 'vitest';
import { compile, evaluateConfig, validate } from './webpack.js';
import { headingsOf, readPage } from './content.js';

describe('content test helpers', () => {
  it('compiles a project with the real webpack and returns the emitted files', async () => {
    const result = await compile('smoke', { 'src/index.js': 'export const a = 1; console.log(a);' }, { entry: './src/index.js' });
    try {
      expect(Object.keys(result.outputs)).toEqual(['main.js']);
      expect(result.outputs['main.js']).toContain('console.log(1)');
    } finally {
      result.cleanup();
    }
  });

  it('evaluates and validates a CommonJS config', () => {
    const config = evaluateConfig("const path = require('path'); module.exports = { entry: './a.js', output: { path: path.resolve(__dirname, 'dist') } };", '/tmp');
    expect(() => validate(config)).not.toThrow();
    expect(() => validate({ entry: 1 })).toThrow(/configuration\.entry/);
  });

  it('reads code blocks and heading ids of a page', async () => {
    const page = readPage('');
    expect(page.frontmatter.title).toBe('webpack');
    expect(page.blocks.find((b) => b.title === 'src/index.js')?.lang).toBe('js');
    const headings = await headingsOf('');
    expect(headings.length).toBeGreaterThan(2);
    for (const h of headings) {
      expect(h.depth).toBeGreaterThanOrEqual(2);
      // github-slugger ids: lowercase, no spaces.
      expect(h.id).toMatch(/^[a-z0-9_-]+$/);
    }
  });
});
