import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OutputWriter } from '../../src/build/output.js';
import { TEMPLATES_DIR } from '../../src/build/parts.js';
import { documentsData, documentWriter } from '../../src/build/render-tasks.js';
import { build } from '../../src/engine/build.js';
import { Engine } from '../../src/engine/engine.js';
import { systemErrorMessage } from '../../src/shared/errors.js';
import { stageTimes } from '../../src/shared/stages.js';
import { ROOT } from '../helpers/content.js';
import { snapshotDir } from '../helpers/site.js';

/*
 * The documents of a build (pages in their chrome, printable sections) rendered by worker threads
 * of the pool, which make the render contexts again from the site model they are sent: the same
 * bytes as the build's own thread makes alone, for a site with its own components and theme and
 * for one in several languages and versions.
 */

const scratch = mkdtempSync(join(tmpdir(), 'docs-documents-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Builds `fixture` into a folder of its own with DOCS_WORKERS and the cache off; returns the folder. */
async function buildWith(fixture: string, name: string, workers: string, pool = {}): Promise<string> {
  const saved = { cache: process.env.DOCS_CACHE, workers: process.env.DOCS_WORKERS };
  const out = join(scratch, `${fixture}-${name}`);
  try {
    process.env.DOCS_CACHE = '0';
    process.env.DOCS_WORKERS = workers;
    await build({ root: join(ROOT, 'test/fixtures', fixture), out, pool });
  } finally {
    for (const [key, value] of [['DOCS_CACHE', saved.cache], ['DOCS_WORKERS', saved.workers]] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
  return out;
}

describe('documents rendered on worker threads', () => {
  for (const fixture of ['themed', 'trees', 'site']) {
    it(`writes the same bytes as one thread alone: test/fixtures/${fixture}`, async () => {
      const rendered = () => stageTimes.documents ?? 0;
      let before = rendered();
      const alone = snapshotDir(await buildWith(fixture, 'alone', '0'));
      expect(rendered()).toBeGreaterThan(before);
      expect([...alone.keys()].some((path) => path.endsWith('printable/index.html'))).toBe(true);
      // Workers alone render every document (this thread renders none), then workers and this thread together.
      before = rendered();
      const workers = snapshotDir(await buildWith(fixture, 'workers', '2', { minDocuments: 1, mainThread: false }));
      expect(rendered()).toBe(before);
      expect(workers).toEqual(alone);
      expect(snapshotDir(await buildWith(fixture, 'shared', '2', { minDocuments: 1 }))).toEqual(alone);
    }, 120_000);
  }

  it('renders on the main thread what a worker whose heap is too small could not', async () => {
    const alone = snapshotDir(await buildWith('site', 'alone-heap', '0'));
    expect(snapshotDir(await buildWith('site', 'small-heap', '2', { minDocuments: 1, mainThread: false, heapMb: 4 }))).toEqual(alone);
  }, 120_000);

  it('reports a document a worker thread could not write as the build\'s own failed write, naming the file', async () => {
    const root = join(ROOT, 'test/fixtures/site');
    const engine = new Engine({ root, configPath: join(root, 'site.config.yaml'), templatesDir: TEMPLATES_DIR, base: '/', render: true, keepHtml: true });
    const update = await engine.update({ full: true });
    if (!update.ok || !update.rendering) throw new Error('the fixture site did not load');
    const contexts = update.rendering.contexts.map((c) => c.ctx);
    // Where the folder of the output should be, a file: no document can be written under it.
    const blocked = join(scratch, 'blocked');
    writeFileSync(blocked, '');
    const write = documentWriter(structuredClone(documentsData(root, blocked, update.site.config, contexts)));
    const answer = write({ task: ['page', 0, 0], path: 'guides/index.html', bodies: [] });
    expect(answer).toMatchObject({ size: 0, failure: { code: 'ENOTDIR', syscall: 'mkdir' } });
    // The page's locateField was left out of what the worker got, not out of the site.
    expect(typeof contexts[0]!.site.pages[0]!.locateField).toBe('function');
    const out = new OutputWriter(join(scratch, 'never'));
    out.writtenElsewhere('guides/index.html', 'key', 0, Object.assign(new Error(answer.failure!.message), answer.failure));
    const failure = await out.commit().then(() => undefined, (e: unknown) => e);
    expect(systemErrorMessage(failure)).toMatch(/guides\/index\.html: .*\(ENOTDIR, while trying to mkdir\)$/);
    await out.abort();
  });
});
