import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../src/cli/cli.js';
import { listFiles, ROOT } from './content.js';

/** A copy of the fixture site in a temporary folder, to break and build. */
export function fixtureSite(): string {
  const dir = mkdtempSync(join(tmpdir(), 'docs-site-'));
  cpSync(join(ROOT, 'test/fixtures/site'), dir, { recursive: true });
  return dir;
}

export function editFile(path: string, from: string | RegExp, to: string): void {
  const before = readFileSync(path, 'utf8');
  const after = before.replace(from, to);
  if (before === after) throw new Error(`the edit did not apply to ${path}: ${String(from)}`);
  writeFileSync(path, after);
}

/** Runs the CLI in-process and captures what it prints. */
export async function runDocs(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await main(['node', 'docs', ...args], {
    out: { write: (s: string) => (out += s), isTTY: false },
    err: { write: (s: string) => (err += s) },
  });
  return { code, out, err };
}

/** Every file of a folder with its bytes, for byte-for-byte comparisons. */
export function snapshotDir(dir: string): Map<string, string> {
  return new Map(listFiles(dir).map((f) => [f, readFileSync(join(dir, f)).toString('base64')]));
}

/** Runs `fn` with DOCS_CACHE_DIR set to `dir`, then puts the variable back as it was. */
export async function withCacheDir<T>(dir: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env.DOCS_CACHE_DIR;
  process.env.DOCS_CACHE_DIR = dir;
  try {
    return await fn();
  } finally {
    if (saved === undefined) delete process.env.DOCS_CACHE_DIR;
    else process.env.DOCS_CACHE_DIR = saved;
  }
}
