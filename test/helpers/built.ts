import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from '../../src/engine/build.js';
import { ROOT } from './content.js';
import { serveStatic, type StaticServer } from './browser.js';

/** Builds a site (the fixture by default) into a temporary folder and serves it. */
export async function builtSite(root = join(ROOT, 'test/fixtures/site'), headers: Record<string, string> = {}): Promise<{ dir: string; server: StaticServer; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'docs-built-'));
  await build({ root, out: dir });
  const server = await serveStatic(dir, headers);
  return {
    dir,
    server,
    close: async () => {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
