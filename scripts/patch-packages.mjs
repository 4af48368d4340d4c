#!/usr/bin/env node
// Patches of installed packages, applied after every install (package.json "postinstall").
//
// Each patch replaces one exact piece of a package's code, and only while the installed file holds
// that piece as it was written against: another version of the package is left as installed (the
// site builds the same, only slower) and this script says so. The file as installed is kept beside
// it (`<name>.unpatched.js`), which the tests use to check that the patched package gives the same
// result. Run again, it changes nothing. `node scripts/patch-packages.mjs --check` exits 1 when a
// patch is not applied.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * mdast-util-from-markdown turns the parser's events into the tree. For each of the events (about
 * one per 3 bytes of a page) it copied its whole compile context into a new object, up to three
 * times, to call a handler with it; the only property that differs between events is
 * `sliceSerialize`. On 1 MB of short lists that loop was 15 % of the parse and much of its garbage
 * collection. The patched loop sets `sliceSerialize` on one context object and calls the handlers
 * with it. No handler keeps its `this` past the call or sets a property on it (each reads the
 * shared stacks and data through it), so every handler sees the same values as before.
 */
export const PATCHES = [
  {
    name: 'mdast-util-from-markdown: one compile context for every event',
    file: 'node_modules/mdast-util-from-markdown/lib/index.js',
    from: `    events = prepared;
    index = -1;
    while (++index < events.length) {
      const handler = config[events[index][0]];
      if (events[index][0] === 'enter' && config.beforeEnter.length > 0) {
        callListeners(config.beforeEnter, {
          ...context,
          sliceSerialize: events[index][2].sliceSerialize
        }, events[index][1]);
      }
      if (own.call(handler, events[index][1].type)) {
        // Note: spread first, V8 has optimizations for object shape cloning.
        handler[events[index][1].type].call({
          ...context,
          sliceSerialize: events[index][2].sliceSerialize
        }, events[index][1]);
      }
      if (events[index][0] === 'exit' && config.afterExit.length > 0) {
        callListeners(config.afterExit, {
          ...context,
          sliceSerialize: events[index][2].sliceSerialize
        }, events[index][1]);
      }
    }
`,
    to: `    events = prepared;
    index = -1;
    // Patched by the docs generator (scripts/patch-packages.mjs): one context for every event.
    const shared = { ...context, sliceSerialize: undefined };
    while (++index < events.length) {
      const event = events[index];
      const token = event[1];
      shared.sliceSerialize = event[2].sliceSerialize;
      if (event[0] === 'enter' && config.beforeEnter.length > 0) callListeners(config.beforeEnter, shared, token);
      const handler = config[event[0]];
      if (own.call(handler, token.type)) handler[token.type].call(shared, token);
      if (event[0] === 'exit' && config.afterExit.length > 0) callListeners(config.afterExit, shared, token);
    }
`,
  },
];

/** Where the file as installed is kept. */
export function unpatchedPath(file) {
  return join(root, file.replace(/\.js$/, '.unpatched.js'));
}

/** 'applied', 'applies' (not yet), 'differs' (another version: left alone) or 'missing'. */
export function patchState(patch) {
  const path = join(root, patch.file);
  if (!existsSync(path)) return 'missing';
  const text = readFileSync(path, 'utf8');
  if (text.includes(patch.to)) return 'applied';
  return text.split(patch.from).length === 2 ? 'applies' : 'differs';
}

function apply(patch) {
  const state = patchState(patch);
  if (state !== 'applies') return state;
  const path = join(root, patch.file);
  const text = readFileSync(path, 'utf8');
  writeFileSync(unpatchedPath(patch.file), text);
  writeFileSync(path, text.replace(patch.from, () => patch.to));
  return 'applied';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let missing = 0;
  for (const patch of PATCHES) {
    const state = check ? patchState(patch) : apply(patch);
    if (state === 'applied') continue;
    missing++;
    const why = state === 'missing' ? 'is not installed' : 'is not the version the patch was written against';
    console.warn(`docs: not patched (${patch.name}): ${patch.file} ${why}. Pages build the same, more slowly.`);
  }
  if (check && missing) process.exitCode = 1;
}
