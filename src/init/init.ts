import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { UsageError } from '../build/out-guard.js';
import { PACKAGED, TOOL_ROOT } from '../shared/paths.js';

/** The starter site's files, as init writes them ({{schema}} in them becomes the path of the tool's JSON Schema). */
const STARTER = join(TOOL_ROOT, 'templates', 'starter');

/**
 * `docs init [dir]`: writes a neutral starter site (a config that names its
 * JSON Schema, a home page, two sections, a page of every Markdown extension,
 * a logo) into an empty or missing folder. Never writes into a folder that
 * holds anything.
 */
export function initSite(dir: string): { root: string; files: string[] } {
  const root = resolve(dir);
  let existing: string[] = [];
  try {
    existing = readdirSync(root);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOTDIR') throw new UsageError(`${root} is a file, not a folder`);
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  if (existing.length) {
    throw new UsageError(`${root} is not empty (it holds ${existing.length} entr${existing.length === 1 ? 'y' : 'ies'}, such as ${existing.sort()[0]}); docs init writes only into an empty or new folder`);
  }
  const schema = relative(root, schemaFile(root)).split(sep).join('/');
  const files = readdirSync(STARTER, { recursive: true, encoding: 'utf8' }).filter((path) => statSync(join(STARTER, path)).isFile()).sort();
  for (const path of files) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, readFileSync(join(STARTER, path), 'utf8').replaceAll('{{schema}}', schema));
  }
  return { root, files };
}

/**
 * The tool's JSON Schema as the site's config names it: through node_modules/<package>/ of the nearest
 * folder above the site that has the tool installed (so the path stays right wherever the tool's files
 * really are, a linked folder included), or else the file of the running tool.
 */
function schemaFile(root: string): string {
  const { name } = JSON.parse(readFileSync(join(TOOL_ROOT, 'package.json'), 'utf8')) as { name: string };
  for (let dir = root; ; dir = dirname(dir)) {
    const installed = join(dir, 'node_modules', name, 'site.config.schema.json');
    if (existsSync(installed)) return installed;
    if (dirname(dir) === dir) return join(TOOL_ROOT, 'site.config.schema.json');
  }
}

/**
 * How to run this tool from the folder `cwd`, as `docs init` prints it: `npx docs` in a project that has
 * it installed, `docs` when it is installed globally, and else `node <path of its command>`.
 */
export function docsCommand(cwd: string): string {
  const tool = TOOL_ROOT.replace(/[\\/]$/, '');
  const modules = dirname(tool);
  if (basename(modules) === 'node_modules') {
    const project = dirname(modules);
    if (!existsSync(join(project, 'package.json'))) return 'docs';
    const fromProject = relative(project, cwd);
    if (!fromProject.startsWith('..') && !isAbsolute(fromProject)) return 'npx docs';
  }
  return `node ${shellWord(relative(cwd, join(tool, 'bin', PACKAGED ? 'installed.js' : 'docs.js')))}`;
}

/** A path as one word of a shell command (quoted when it holds anything else than plain path characters). */
export function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`;
}
