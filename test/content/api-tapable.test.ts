import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, scratchDir, writeFiles } from '../helpers/content.js';
import { exampleTracker, h3sUnder, readPage, reportCount } from './api-helpers.js';

const require = createRequire(import.meta.url);
const run = promisify(execFile);
const PAGE = 'api/tapable';

describe('/api/tapable/', () => {
  const examples = exampleTracker(PAGE);
  let dir: string;
  beforeAll(() => {
    dir = scratchDir('api-tapable');
    writeFiles(dir, { 'package.json': '{ "private": true }\n' });
  });
  afterAll(() => removeDir(dir));

  it('has a heading for every hook class tapable exports, and none for classes it does not', () => {
    const tapable = require('tapable') as Record<string, unknown>;
    const exported = Object.keys(tapable).filter((k) => typeof tapable[k] === 'function');
    const documented = h3sUnder(PAGE, 'Hook classes').map((s) => s.text);
    reportCount('tapable hook classes', exported.length);
    expect(exported.filter((k) => !documented.includes(k)), 'exported but not documented').toEqual([]);
    expect(documented.filter((k) => !exported.includes(k)), 'documented but not exported').toEqual([]);
  });

  it('runs every example and prints exactly the output shown under it', async () => {
    const titled = readPage(PAGE).blocks.filter((b) => b.lang === 'js' && b.title);
    expect(titled.length).toBeGreaterThan(5);
    await Promise.all(
      titled.map(async (block) => {
        const code = examples.code(block.title!);
        const shown = examples.after(block.title!);
        expect(shown?.lang, `${block.title} is followed by its output in a text block`).toBe('text');
        writeFiles(dir, { [block.title!]: code });
        const { stdout } = await run(process.execPath, [join(dir, block.title!)], { cwd: dir, timeout: 10_000 });
        expect(stdout.trim(), `output of ${block.title}`).toBe(shown!.code.trim());
      }),
    );
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
