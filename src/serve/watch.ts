import { lstatSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Change, WorkerData } from './protocol.js';

/*
 * Watches what a build reads and says what kind of change each event is.
 * Folders that do not exist yet (static/) are seen when they appear.
 */

type WatchPaths = Omit<WorkerData, 'tsconfig'>;

/** Folders of the site's own stylesheets and components: a change rebuilds (the theme is read at every build). */
const THEME_FOLDERS = ['theme', 'components'];

/** Editor leftovers that are never part of a build. */
const IGNORED = /(^|[/\\])(node_modules|\.git|\.#[^/\\]*|#[^/\\]*#)$|(~|\.sw[a-p]|\.tmp|\.crswap|[/\\]4913)$/;

const inside = (dir: string, path: string) => {
  const rel = relative(dir, path);
  return rel !== '' && !rel.startsWith('..') && !rel.startsWith(sep) ? rel.split(sep).join('/') : null;
};

/** What an event on `path` means for the build; null when the build does not read the file. */
export function classify(paths: WatchPaths, event: string, file: string): Change | null {
  const path = resolve(file);
  if (path === resolve(paths.configPath)) return { full: true };
  const templates = inside(resolve(paths.templatesDir), path);
  if (templates !== null) {
    if (templates.startsWith('styles/')) return { css: true };
    if (templates.startsWith('client/')) return { client: true };
    if (templates === 'favicon.svg') return { files: true };
    if (/\.(tsx?|mts|cts|jsx?|mjs|cjs|json)$/.test(templates)) return { templates: true };
    return event === 'unlinkDir' || event === 'addDir' ? { templates: true } : null;
  }
  const content = inside(join(paths.root, 'content'), path);
  if (content !== null) {
    if (event === 'addDir' || event === 'unlinkDir') return { contentTree: true };
    return content.endsWith('.md') ? { content: [content] } : null;
  }
  if (inside(join(paths.root, 'static'), path) !== null || path === join(resolve(paths.root), 'static')) return { files: true };
  // The site's own stylesheets and components (theme.css, components: in the config), in their usual folders.
  for (const folder of THEME_FOLDERS) if (inside(join(paths.root, folder), path) !== null) return { files: true };
  return null;
}

/**
 * Whether `path` is a symbolic link the watcher must not follow: one that
 * leads out of the site (the build does not read there: a link to /usr
 * would have the watcher walk, and hold in memory, a whole system), one
 * whose target holds the link (a loop), or one that leads nowhere.
 */
function linkNotFollowed(siteRoot: string, path: string): boolean {
  try {
    if (!lstatSync(path).isSymbolicLink()) return false;
  } catch {
    return false;
  }
  try {
    const target = realpathSync(path);
    const folder = realpathSync(dirname(path));
    return inside(siteRoot, target) === null || target === folder || inside(target, folder) !== null;
  } catch {
    return true;
  }
}

export function watchSite(paths: WatchPaths, onChange: (change: Change, file: string) => void, onError: (e: unknown) => void) {
  const root = resolve(paths.root);
  const config = resolve(paths.configPath);
  const realRoot = realpathSync(root);
  /*
   * The site's folder itself is watched (its other entries ignored), not only content/, static/ and the
   * config: a folder or a config file deleted and made again (rm -rf and a checkout, an editor that saves
   * by renaming) is then seen again, where a watch of the path alone ends with the file it watched.
   */
  const wanted = new Set([join(root, 'content'), join(root, 'static'), config, ...THEME_FOLDERS.map((f) => join(root, f))]);
  const configFolder = dirname(config);
  /*
   * A link the watcher does not follow gets no event of its own, but the build reads it (and refuses
   * it: a page that leads out of the site, a link to nothing): one added after the start is told as
   * an addition of its path, once, so that its problem shows without waiting for another save.
   */
  let started = false;
  const linksSeen = new Set<string>();
  const notFollowed = (path: string) => {
    if (!linkNotFollowed(realRoot, path)) return false;
    if (started && !linksSeen.has(path)) {
      linksSeen.add(path);
      queueMicrotask(() => {
        const change = classify(paths, 'add', path) ?? (inside(join(root, 'content'), path) !== null ? { contentTree: true } : null);
        if (change) onChange(change, path);
      });
    }
    return true;
  };
  const watcher: FSWatcher = watch([root, ...(configFolder === root ? [] : [configFolder]), resolve(paths.templatesDir)], {
    ignoreInitial: true,
    ignored: (file: string) => {
      if (IGNORED.test(file)) return true;
      const path = resolve(file);
      if (dirname(path) === root && !wanted.has(path)) return true;
      // A config file outside the site's folder: that file alone of its folder (and the site, should that be there too).
      if (dirname(path) === configFolder && configFolder !== root && path !== config && path !== root) return true;
      return inside(root, path) !== null && notFollowed(path);
    },
  });
  watcher.on('all', (event, file) => {
    const change = classify(paths, event, file);
    if (change) onChange(change, file);
  });
  watcher.on('error', onError);
  const ready = new Promise<void>((resolve) =>
    watcher.once('ready', () => {
      started = true;
      resolve();
    }),
  );
  return { ready, close: () => watcher.close() };
}
