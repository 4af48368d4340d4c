// Module hooks of patched-files-hooks.mjs. DOCS_TEST_UNPATCHED: '1' for every patch, or the names of
// the packages to load as installed, separated by commas (scripts/bench-patches.mjs).
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fileUrl, PATCHES, unpatchedText } from '../../scripts/patches.mjs';

const setting = process.env.DOCS_TEST_UNPATCHED ?? '';
const asInstalled = new Set(setting === '1' ? PATCHES.map((patch) => patch.package) : setting.split(',').filter(Boolean));
const files = new Map(PATCHES.flatMap((patch) => patch.files.map((file) => [fileUrl(file.path), { file, unpatched: asInstalled.has(patch.package) }])));

export async function load(url, context, nextLoad) {
  const found = files.get(url.split('?')[0]);
  if (!found) return nextLoad(url, context);
  process.stderr.write(`${found.unpatched ? 'unpatched' : 'patched'}: ${url}\n`);
  if (!found.unpatched) return nextLoad(url, context);
  return { format: 'module', source: unpatchedText(readFileSync(fileURLToPath(url.split('?')[0]), 'utf8'), found.file), shortCircuit: true };
}
