// Module hooks of patched-files-hooks.mjs.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { fileUrl, PATCHES, unpatchedText } from '../../scripts/patches.mjs';

const patched = new Map(PATCHES.flatMap((patch) => patch.files.map((file) => [fileUrl(file.path), file])));
const unpatched = process.env.DOCS_TEST_UNPATCHED === '1';

export async function load(url, context, nextLoad) {
  const file = patched.get(url.split('?')[0]);
  if (!file) return nextLoad(url, context);
  process.stderr.write(`${unpatched ? 'unpatched' : 'patched'}: ${url}\n`);
  if (!unpatched) return nextLoad(url, context);
  return { format: 'module', source: unpatchedText(readFileSync(fileURLToPath(url.split('?')[0]), 'utf8'), file), shortCircuit: true };
}
