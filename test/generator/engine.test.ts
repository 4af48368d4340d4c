import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { TEMPLATES_DIR } from '../../src/build/parts.js';
import { Engine, type Update } from '../../src/engine/engine.js';
import { listFiles, ROOT } from '../helpers/content.js';
import { editFile, fixtureSite, runDocs, snapshotDir, withCacheDir } from '../helpers/site.js';

/*
 * The one engine (src/engine/engine.ts) that docs build, check and serve run: what an update parses
 * again, and the problems it finds, whoever asks.
 */

let site: string;
let cache: string;
beforeEach(() => {
  site = fixtureSite();
  cache = mkdtempSync(join(tmpdir(), 'docs-engine-cache-'));
});
afterEach(() => {
  rmSync(site, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
});

const engineOf = (incremental: boolean) =>
  new Engine({ root: site, configPath: join(site, 'site.config.yaml'), templatesDir: TEMPLATES_DIR, base: '/', render: true, keepHtml: true, incremental });
const ok = (update: Update) => {
  if (!update.ok) throw new Error(update.problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.message}`).join('\n'));
  return update;
};

describe('the engine', () => {
  it('parses every file at its first update, then only the files whose text changed, also when the config changed', async () => {
    await withCacheDir(cache, async () => {
      const engine = engineOf(true);
      const files = listFiles(join(site, 'content')).filter((f) => f.endsWith('.md'));
      const first = ok(await engine.update({ full: true }));
      expect(first.parsed).toBe(files.length);
      expect(ok(await engine.update({})).parsed).toBe(0);
      // A save that changes nothing, a save that changes a page, and a change of the config.
      expect(ok(await engine.update({ content: [files[0]!] })).parsed).toBe(0);
      const page = join(site, 'content', files[0]!);
      writeFileSync(page, `${readFileSync(page, 'utf8')}\nOne more paragraph.\n`);
      const edited = ok(await engine.update({ content: [files[0]!] }));
      expect(edited.parsed).toBe(1);
      expect(edited.rendering!.contexts[0]!.ctx.site.pages.some((p) => p.html.includes('One more paragraph.'))).toBe(true);
      editFile(join(site, 'site.config.yaml'), /title: .*/, 'title: Renamed site');
      const renamed = ok(await engine.update({ full: true }));
      expect(renamed.parsed).toBe(0);
      expect(renamed.site.config.site.title).toBe('Renamed site');
    });
  });

  it('without incremental updates to come (a build), knows no hashes: a later full update parses every file again, and gives the same site', async () => {
    await withCacheDir(cache, async () => {
      const engine = engineOf(false);
      const first = ok(await engine.update({ full: true }));
      const again = ok(await engine.update({ full: true }));
      expect(again.parsed).toBe(first.parsed);
      expect(again.site.pages.map((p) => p.url)).toEqual(first.site.pages.map((p) => p.url));
    });
  });

  it('reports a syntax error of the templates\' script as a problem at its place in docs build, and writes nothing', async () => {
    // A copy of the templates, which import ../src/… and packages as the originals do.
    const templates = join(site, 'templates');
    cpSync(TEMPLATES_DIR, templates, { recursive: true });
    for (const name of ['src', 'node_modules']) symlinkSync(join(ROOT, name), join(site, name), 'dir');
    const out = join(site, 'dist');
    expect((await runDocs(['build', '--root', site, '--out', out, '--quiet'])).code).toBe(0);
    const before = snapshotDir(out);
    // (The build's own option: a site's templates folder is not a user option of the command line.)
    const { build } = await import('../../src/engine/build.js');
    writeFileSync(join(templates, 'client', 'broken.ts'), 'export const x = ;\n');
    editFile(join(templates, 'client', 'main.ts'), /^/, "import './broken.js';\n");
    const failed = await build({ root: site, out, templates: templates + '/' }).then(
      () => undefined,
      (e: { problems?: Array<{ file: string; line: number; column: number; message: string }> }) => e.problems,
    );
    expect(failed).toEqual([{ file: 'templates/client/broken.ts', line: 1, column: 18, message: 'Unexpected ";"' }]);
    expect(snapshotDir(out)).toEqual(before);
  });
});
