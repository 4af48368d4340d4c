// Module hooks of patched-files-hooks.mjs.
import { readFileSync } from 'node:fs';
import { PATCHES, patchedUrl, unpatchedPath } from '../../scripts/patch-packages.mjs';

const kept = new Map(PATCHES.map((patch) => [patchedUrl(patch), unpatchedPath(patch.file)]));
const unpatched = process.env.DOCS_TEST_UNPATCHED === '1';

export async function load(url, context, nextLoad) {
  const copy = kept.get(url.split('?')[0]);
  if (!copy) return nextLoad(url, context);
  process.stderr.write(`${unpatched ? 'unpatched' : 'patched'}: ${url}\n`);
  if (!unpatched) return nextLoad(url, context);
  return { format: 'module', source: readFileSync(copy, 'utf8'), shortCircuit: true };
}
