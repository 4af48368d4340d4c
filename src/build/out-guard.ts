import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join, parse, resolve } from 'node:path';
import { isWithin } from '../shared/paths.js';
import { OUTPUT_MARKER } from '../site/model.js';

/** A wrong command line (exit code 2): the build refuses before it touches anything. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The path with every existing part resolved through symbolic links (the rest appended as written). */
function real(path: string): string {
  const abs = resolve(path);
  const missing: string[] = [];
  let current = abs;
  for (;;) {
    try {
      return join(realpathSync(current), ...missing.reverse());
    } catch {
      const parent = dirname(current);
      if (parent === current) return abs;
      missing.push(basename(current));
      current = parent;
    }
  }
}

/**
 * Refuses a site folder (--root) that does not exist or is not a folder, before
 * anything is made for it (the output folder, its lock).
 */
export function checkSiteFolder(root: string, display: string): void {
  let st;
  try {
    st = statSync(root);
  } catch {
    throw new UsageError(`--root ${display}: there is no folder ${resolve(root)}. Nothing was written; name the folder that holds site.config.yaml.`);
  }
  if (!st.isDirectory()) throw new UsageError(`--root ${display}: ${resolve(root)} is a file, not a folder. Nothing was written; name the folder that holds site.config.yaml.`);
}

/**
 * Refuses a --config that names no file at all: nothing, or a folder (exit 2, before anything is
 * read). A config file that does not exist yet is a problem of the site, reported with the others.
 */
export function checkConfigFile(config: string | undefined, root: string): void {
  if (config === undefined) return;
  if (config.trim() === '') throw new UsageError(`--config "${config}": name the site's config file, such as site.config.yaml. Nothing was written.`);
  let st;
  try {
    st = statSync(resolve(root, config));
  } catch {
    return;
  }
  if (st.isDirectory()) throw new UsageError(`--config ${config}: ${resolve(root, config)} is a folder; name the site's config file in it, such as ${join(config, 'site.config.yaml')}. Nothing was written.`);
}

/**
 * Refuses an output folder whose replacement would lose a writer's files:
 * the filesystem root, the home folder, the site root or any folder above
 * it, a folder of sources (content/, static/, the config file and what holds
 * them), anything inside content/ or static/ (it would be read back as a
 * source), a file, and a non-empty folder that is not the output of a build.
 * Throws UsageError naming the reason; returns the resolved output path.
 */
export function checkOutputFolder(outDir: string, sources: { root: string; config: string; display: string }): string {
  const out = resolve(outDir);
  const realOut = real(out);
  const root = real(sources.root);
  const refuse = (why: string) => {
    throw new UsageError(`--out ${sources.display}: ${why}. Nothing was written or deleted; choose another output folder (the default is dist/).`);
  };
  if (parse(realOut).root === realOut) refuse('this is the root of the file system');
  if (realOut === real(homedir())) refuse('this is your home folder');
  const content = join(root, 'content');
  const staticDir = join(root, 'static');
  const config = real(sources.config);
  const named: Array<[string, string]> = [
    [root, 'the site folder'],
    [content, 'the content/ folder'],
    [staticDir, 'the static/ folder'],
    [config, `the config file ${basename(config)}`],
  ];
  for (const [path, what] of named) {
    if (realOut === path) refuse(`this is ${what}, which a build would replace`);
    if (isWithin(path, realOut)) refuse(`this folder holds ${what}, which a build would replace`);
  }
  if (isWithin(realOut, content)) refuse('this is inside content/, where the output would be read as pages');
  if (isWithin(realOut, staticDir)) refuse('this is inside static/, where the output would be copied into itself');
  let st;
  try {
    st = statSync(realOut);
  } catch {
    return out; // Nothing there yet.
  }
  if (!st.isDirectory()) refuse('this is a file, not a folder');
  // Only an empty folder or one marked as a build's output (OUTPUT_MARKER) is replaced, whatever else it holds
  // (a hand-made site has a 404.html, a sitemap.xml and a _headers too).
  let marked = false;
  try {
    const names = readdirSync(realOut);
    marked = names.length === 0 || names.includes(OUTPUT_MARKER);
  } catch {
    // One that cannot be read is refused too.
  }
  if (!marked) {
    refuse(`this folder is not empty and has no ${OUTPUT_MARKER} file, the mark every build leaves in its output (if its files may go, empty it yourself)`);
  }
  // A symbolic link (a deploy folder linked into the project): the build replaces the folder it leads to, and the link stays.
  return lstatSync(out).isSymbolicLink() ? realOut : out;
}

