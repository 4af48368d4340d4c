import { readFileSync } from 'node:fs';
import { treesOf } from './trees.js';

/*
 * Reads documents as a JSON array from the file named by its argument and
 * writes treesOf() of each, as a JSON array, to standard output. Run by the
 * patches test under plain Node, with patched-files-hooks.mjs: the packages
 * load as Node loads them for the tool (not their development builds, which
 * the test runner would pick), patched or, with DOCS_TEST_UNPATCHED=1, as
 * installed.
 */
const documents = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as string[];
process.stdout.write(JSON.stringify(documents.map(treesOf)));
