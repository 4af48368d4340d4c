#!/usr/bin/env node
// The patches of installed packages: patches/<package>+<version>.patch, applied by patch-package when
// `npm install` or `npm ci` runs the project's prepare script (patches/README.md says what each changes
// and why). This module only reads them, for three uses:
//
// - `docs build` and `docs serve` say in one line when a patch is not applied (bin/docs.js), instead of
//   building more slowly without a word: each patch adds, to every file it changes, a comment naming
//   its patch file, and a file without that name is not patched;
// - the key of the bundle bin/docs.js makes counts the patched files;
// - the tests rebuild each file as installed by reversing its patch (unpatchedText), to check that the
//   patched packages give the same trees as the packages as published.
//
// `node scripts/patches.mjs --check` exits 1, with the same line, when a patch is not applied.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The patches in a folder (none when there is no such folder), each with the files it changes and,
 * for each file, its hunks: where they start in the patched file, and their lines as the patch writes
 * them (' ' kept, '-' removed, '+' added).
 */
export function readPatches(dir = join(root, 'patches')) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.patch'))
    .sort()
    .map((name) => {
      // <package>+<version>.patch, where a scoped package's name is @scope+name.
      const parts = name.replace(/(\.dev)?\.patch$/, '').split('+');
      const version = parts.pop();
      return { name, package: parts.join('/'), version, files: parseFiles(name, readFileSync(join(dir, name), 'utf8')) };
    });
}

function parseFiles(name, text) {
  const files = [];
  let file;
  let hunk;
  for (const line of text.split('\n')) {
    const header = /^diff --git a\/(\S+) b\/(\S+)$/.exec(line);
    if (header) {
      if (header[1] !== header[2]) throw new Error(`${name}: renames a file (${header[1]}), which this reader does not handle`);
      file = { path: header[1], hunks: [] };
      files.push(file);
      hunk = undefined;
      continue;
    }
    if (!file) continue;
    if (/^(new|deleted) file mode/.test(line)) throw new Error(`${name}: adds or deletes ${file.path}, which this reader does not handle`);
    const at = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(line);
    if (at) {
      hunk = { start: Number(at[1]), lines: [] };
      file.hunks.push(hunk);
    } else if (hunk && /^[ +-]/.test(line)) hunk.lines.push(line);
    // A last line without a newline: read as it is while both sides end the same way.
    else if (hunk && line.startsWith('\\') && hunk.lines.at(-1)?.[0] !== ' ') {
      throw new Error(`${name}: adds or removes the newline at the end of ${file.path}, which this reader does not handle`);
    }
  }
  return files;
}

/** The patches of the repository (patches/), read once. */
export const PATCHES = readPatches();

/** Every file a patch changes, relative to the repository (node_modules/…). */
export const PATCHED_FILES = PATCHES.flatMap((patch) => patch.files.map((file) => file.path));

/** Whether every file of a patch is there and holds the comment naming the patch; `base`: the folder that holds node_modules. */
export function isApplied(patch, base = root) {
  return patch.files.every((file) => {
    const path = join(base, file.path);
    return existsSync(path) && readFileSync(path, 'utf8').includes(`patches/${patch.name}`);
  });
}

/**
 * The one line `docs build` and `docs serve` print when a patch is not applied (the install ran
 * without scripts, or a package moved to another version), or undefined when every patch is.
 */
export function missingPatchesLine(base = root, patches = PATCHES) {
  const missing = patches.filter((patch) => !isApplied(patch, base));
  if (!missing.length) return undefined;
  const names = missing.map((patch) => patch.package).join(', ');
  return `docs: ${missing.length} of the ${patches.length} speed patches of the Markdown packages ${missing.length === 1 ? 'is' : 'are'} not applied (${names}): pages build the same, more slowly; \`npx patch-package\` applies them (npm install and npm ci run it unless scripts are turned off).`;
}

/** The URL Node loads a patched file from. */
export function fileUrl(path) {
  return pathToFileURL(join(root, path)).href;
}

/**
 * A file as installed, made from the file as patched by reversing the hunks of its patch. Throws,
 * naming the file and line, when the text does not match the patch (the file is not patched, or the
 * patch was written against another version).
 */
export function unpatchedText(patched, file) {
  const lines = patched.split('\n');
  // From the last hunk to the first, so that the line numbers of the earlier ones still hold.
  for (const hunk of [...file.hunks].reverse()) {
    const after = hunk.lines.filter((line) => line[0] !== '-').map((line) => line.slice(1));
    const before = hunk.lines.filter((line) => line[0] !== '+').map((line) => line.slice(1));
    // An empty file side starts one line earlier in the patch's numbering.
    const at = after.length ? hunk.start - 1 : hunk.start;
    after.forEach((line, i) => {
      if (lines[at + i] !== line) throw new Error(`${file.path}:${at + i + 1}: not the text the patch made (expected ${JSON.stringify(line)}, found ${JSON.stringify(lines[at + i])})`);
    });
    lines.splice(at, after.length, ...before);
  }
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv.includes('--check')) {
  const line = missingPatchesLine();
  if (line) {
    console.error(line);
    process.exitCode = 1;
  }
}
