#!/usr/bin/env node
// What moved upstream since the tests' lockfile: npm run check:upstream [-- --all]
//
// Reads every install command the pages show (npm install / npm i / yarn add / pnpm add, in the
// Markdown of content/), takes the package names, asks the npm registry (`npm view`) for the latest
// version of each, and compares it with the version the tests install (package-lock.json). Prints
// a table of the packages whose latest version moved a major or minor version past the locked one
// (with --all: every package). The first step of a content update: each row is a page to re-read
// against what a reader installs today. Needs the network; not part of npm test.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const all = process.argv.includes('--all');

function markdownFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? markdownFiles(path) : entry.name.endsWith('.md') ? [path] : [];
  });
}

/** Package names of an install command's arguments (flags, paths and URLs left out; `name@range` without the range). */
function packagesOf(args) {
  return args
    .split(/\s+/)
    .filter((arg) => arg && !arg.startsWith('-') && !/^[./~]|:\/\//.test(arg))
    .map((arg) => (arg.startsWith('@') ? `@${arg.slice(1).split('@')[0]}` : arg.split('@')[0]))
    .filter((name) => /^(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/.test(name));
}

const INSTALL = /(?:npm (?:install|i|add)|yarn add|pnpm (?:add|install)|bun add)((?: +[^\s`"'|&;<>]+)+)/g;
const pages = new Map();
for (const file of markdownFiles(join(root, 'content'))) {
  for (const match of readFileSync(file, 'utf8').matchAll(INSTALL)) {
    for (const name of packagesOf(match[1])) {
      if (!pages.has(name)) pages.set(name, new Set());
      pages.get(name).add(relative(root, file));
    }
  }
}

const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')).packages ?? {};
const locked = (name) => lock[`node_modules/${name}`]?.version;
const parts = (version) => (version ?? '').split(/[.+-]/).map(Number);

const rows = [];
for (const name of [...pages.keys()].sort()) {
  let latest;
  try {
    latest = execFileSync('npm', ['view', name, 'version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    latest = '(not found)';
  }
  const have = locked(name);
  const [lm, ln] = parts(latest);
  const [hm, hn] = parts(have);
  const moved = !have ? 'not locked' : lm > hm ? 'major' : lm === hm && ln > hn ? 'minor' : '';
  if (all || moved) rows.push({ package: name, 'tests lock': have ?? '-', latest, moved, pages: [...pages.get(name)].length });
}
if (rows.length) console.table(rows);
else console.log(`Every one of the ${pages.size} packages the pages install is at the latest minor version the tests lock.`);
