import { join, relative, resolve, sep } from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Change } from './protocol.js';

/*
 * Watches what a build reads and says what kind of change each event is.
 * Folders that do not exist yet (static/) are watched too: chokidar reports
 * them when they appear.
 */

export interface WatchPaths {
  root: string;
  configPath: string;
  templatesDir: string;
}

/** Folders of the site's own stylesheets and components: a change rebuilds (the theme is read at every build). */
export const THEME_FOLDERS = ['theme', 'components'];

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

export interface SiteWatcher {
  ready: Promise<void>;
  close(): Promise<void>;
}

export function watchSite(paths: WatchPaths, onChange: (change: Change, file: string) => void, onError: (e: unknown) => void): SiteWatcher {
  const root = resolve(paths.root);
  const watcher: FSWatcher = watch([join(root, 'content'), resolve(paths.configPath), join(root, 'static'), ...THEME_FOLDERS.map((f) => join(root, f)), resolve(paths.templatesDir)], {
    ignoreInitial: true,
    ignored: (path: string) => IGNORED.test(path),
  });
  watcher.on('all', (event, file) => {
    const change = classify(paths, event, file);
    if (change) onChange(change, file);
  });
  watcher.on('error', onError);
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return { ready, close: () => watcher.close() };
}
