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
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Each patch makes the same result in less time; the tests compare the trees the patched and the
 * installed packages make of every page of the site, of the benchmark's shapes and of edge cases
 * (test/generator/patched-packages.test.ts). Each is a list of edits, each edit one exact piece of
 * the file and what replaces it.
 *
 * - mdast-util-from-markdown turns the parser's events into the tree. For each of the events (about
 *   one per 3 bytes of a page) it copied its whole compile context into a new object, up to three
 *   times, to call a handler with it; the only property that differs between events is
 *   `sliceSerialize`. On 1 MB of short lists that loop was 15 % of the parse and much of its
 *   garbage collection. The patched loop sets `sliceSerialize` on one context object and calls the
 *   handlers with it. No handler keeps its `this` past the call or sets a property on it (each
 *   reads the shared stacks and data through it), so every handler sees the same values as before.
 * - micromark-util-subtokenize walks every event of a document once per level of nesting, and looks
 *   up at each event whether it starts a stretch to jump over. Those stretches were kept as the
 *   numbered keys of a plain object, merged into it with Object.assign; they are kept in a Map,
 *   with the same keys and values (a later stretch at the same key replaces the earlier, as
 *   before). The parse of 1 MB of short lists, in the build's parts, took 2.47-3.56 s against
 *   2.81-3.81 s (8 runs each, alternated in one process). Each walk also copied the events into a
 *   buffer and back, even when it found nothing to do (the last walk of every document does): it
 *   now returns at once when no event is to be expanded (an entry with a content type) and no
 *   container closes (the only events the walk acts on), and copies back only what it changed. The
 *   same parse: 1.30-1.94 s against 1.35-1.94 s, medians 1.41 and 1.57 s (12 runs each).
 * - mdast-util-to-hast looks for definitions with unist-util-visit, which makes a function and an
 *   array of ancestors for every node of the page: 160 ms of a 3.7 s build of 1 MB of lists (CPU
 *   profile of the page thread), 2 ms with a loop over a stack. The loop visits the same nodes in
 *   the same order (children pushed last to first), so the first definition of a label still wins.
 */
export const PATCHES = [
  {
    name: 'mdast-util-from-markdown: one compile context for every event',
    file: 'node_modules/mdast-util-from-markdown/lib/index.js',
    edits: [
      {
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
    ],
  },
  {
    name: 'micromark-util-subtokenize: jumps in a Map; no copies when there is nothing to do',
    file: 'node_modules/micromark-util-subtokenize/index.js',
    edits: [
      {
        from: `  let more;
  const events = new SpliceBuffer(eventsArray);`,
        to: `  let more;
  // Patched by the docs generator (scripts/patch-packages.mjs): nothing to do without an event to expand or a container to
  // close (the loop below would only copy the events out and back); and no copy back when nothing changed.
  let todo = false;
  for (let i = 0; i < eventsArray.length; i++) {
    const event = eventsArray[i];
    if (event[0] === 'enter' ? event[1].contentType !== undefined : event[1]._container !== undefined) {
      todo = true;
      break;
    }
  }
  if (!todo) return true;
  let changed = false;
  const events = new SpliceBuffer(eventsArray);`,
      },
      {
        from: `  /** @type {Record<string, number>} */
  const jumps = {};`,
        to: `  // Patched by the docs generator (scripts/patch-packages.mjs): jumps in a Map.
  const jumps = new Map();`,
      },
      {
        from: `    while (index in jumps) {
      index = jumps[index];
    }`,
        to: `    while (jumps.has(index)) {
      index = jumps.get(index);
    }`,
      },
      {
        from: `        Object.assign(jumps, subcontent(events, index));
        index = jumps[index];`,
        to: `        subcontent(events, index, jumps);
        changed = true;
        index = jumps.get(index);`,
      },
      {
        from: `        events.splice(lineIndex, index - lineIndex + 1, parameters);
      }`,
        to: `        events.splice(lineIndex, index - lineIndex + 1, parameters);
        changed = true;
      }`,
      },
      {
        from: `  splice(eventsArray, 0, Number.POSITIVE_INFINITY, events.slice(0));`,
        to: `  if (changed) splice(eventsArray, 0, Number.POSITIVE_INFINITY, events.slice(0));`,
      },
      {
        from: `function subcontent(events, eventIndex) {`,
        to: `function subcontent(events, eventIndex, gaps) {`,
      },
      {
        from: `  /** @type {Record<string, number>} */
  const gaps = {};
`,
        to: ``,
      },
      {
        from: `    gaps[adjust + jumps[index][0]] = adjust + jumps[index][1];
    adjust += jumps[index][1] - jumps[index][0] - 1;
  }
  return gaps;
}`,
        to: `    gaps.set(adjust + jumps[index][0], adjust + jumps[index][1]);
    adjust += jumps[index][1] - jumps[index][0] - 1;
  }
}`,
      },
    ],
  },
  {
    name: 'mdast-util-to-hast: definitions found without a visitor',
    file: 'node_modules/mdast-util-to-hast/lib/state.js',
    edits: [
      {
        from: `  visit(tree, function (node) {
    if (node.type === 'definition' || node.type === 'footnoteDefinition') {`,
        to: `  // Patched by the docs generator (scripts/patch-packages.mjs): the same nodes in the same order, without a visitor.
  const stack = [tree]
  while (stack.length > 0) {
    const node = stack.pop()
    const children = node.children
    if (children) for (let index = children.length - 1; index >= 0; index--) stack.push(children[index])
    if (node.type === 'definition' || node.type === 'footnoteDefinition') {`,
      },
      {
        from: `        footnoteById.set(id, node)
      }
    }
  })

  return state`,
        to: `        footnoteById.set(id, node)
      }
    }
  }

  return state`,
      },
    ],
  },
];

/** The URL Node loads a patched file from. */
export function patchedUrl(patch) {
  return pathToFileURL(join(root, patch.file)).href;
}

/** Where the file as installed is kept. */
export function unpatchedPath(file) {
  return join(root, file.replace(/\.js$/, '.unpatched.js'));
}

/** 'applied', 'applies' (not yet), 'differs' (another version: left alone) or 'missing'; `base`: the folder that holds node_modules. */
export function patchState(patch, base = root) {
  const path = join(base, patch.file);
  if (!existsSync(path)) return 'missing';
  const text = readFileSync(path, 'utf8');
  if (patch.edits.every((edit) => text.includes(edit.to) && !text.includes(edit.from))) return 'applied';
  return patch.edits.every((edit) => text.split(edit.from).length === 2) ? 'applies' : 'differs';
}

/**
 * The one line `docs build` and `docs serve` print when a patch is not applied (the install ran
 * without scripts, or a package moved to another version), or undefined when every patch is.
 */
export function missingPatchesLine(base = root) {
  const missing = PATCHES.filter((patch) => patchState(patch, base) !== 'applied');
  if (!missing.length) return undefined;
  const names = missing.map((patch) => patch.file.split('/')[1]).join(', ');
  return `docs: ${missing.length} of the ${PATCHES.length} speed patches of the Markdown packages ${missing.length === 1 ? 'is' : 'are'} not applied (${names}): pages build the same, more slowly; \`node scripts/patch-packages.mjs\` applies them (npm install runs it unless scripts are turned off).`;
}

function apply(patch) {
  const state = patchState(patch);
  if (state !== 'applies') return state;
  const path = join(root, patch.file);
  const text = readFileSync(path, 'utf8');
  writeFileSync(unpatchedPath(patch.file), text);
  writeFileSync(path, patch.edits.reduce((patched, edit) => patched.replace(edit.from, () => edit.to), text));
  return 'applied';
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  let missing = 0;
  for (const patch of PATCHES) {
    const state = check ? patchState(patch) : apply(patch);
    if (state === 'applied') continue;
    missing++;
    const why =
      state === 'missing' ? 'is not installed' : state === 'applies' ? 'is as installed (`node scripts/patch-packages.mjs` patches it)' : 'is not the version the patch was written against';
    console.warn(`docs: not patched (${patch.name}): ${patch.file} ${why}. Pages build the same, more slowly.`);
  }
  if (check && missing) process.exitCode = 1;
}
