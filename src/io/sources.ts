import { existsSync, lstatSync, readdirSync, readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { InputError, type SourceProblem } from '../shared/errors.js';
import { isWithin } from '../shared/paths.js';

/*
 * What the build reads from the writer's folders, and the rules that keep it
 * to what the writer put there: only regular files, only inside the site
 * folder, only valid UTF-8 text.
 *
 * Symbolic links under content/ are followed while they resolve inside the
 * site folder (a page shared between two places, say); a link that leads
 * outside it, a dangling link and a loop are problems with their path, so
 * that nothing from elsewhere on the computer is published by accident.
 */

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** A page path part: what the config accepts ("guides/tree-shaking"), so that every page has a plain URL. */
const PAGE_NAME = /^[a-z0-9][a-z0-9._-]*$/;

function kindOf(st: Stats): string {
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return 'not a regular file';
}

/**
 * Lists the Markdown files of the content folder (relative to it, with `/`,
 * sorted) with every problem of the folder's shape: a missing folder, links
 * outside the site or dangling or in a loop, a `.md` that is a folder or a
 * pipe or a device, a file name that is not a valid page path.
 */
export function scanContent(rootDir: string, contentDir: string): { files: string[]; problems: SourceProblem[] } {
  const display = (abs: string) => relative(rootDir, abs).split(sep).join('/');
  const problems: SourceProblem[] = [];
  const files: string[] = [];
  const problem = (abs: string, message: string) => problems.push({ file: display(abs), line: 0, column: 0, message });
  let realRoot: string;
  let realContent: string;
  try {
    realRoot = realpathSync(rootDir);
    realContent = realpathSync(contentDir);
    if (!statSync(realContent).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const message =
      code === 'ENOENT' ? `there is no content folder (looked for ${contentDir}); make it and put the pages there` : `cannot read the content folder ${contentDir} (${code ?? (e as Error).message})`;
    problems.push({ file: display(contentDir) + '/', line: 0, column: 0, message });
    return { files, problems };
  }
  // Real paths of the folders on the way down (`realDir` the last): a link back to one of them is a loop.
  const walk = (dir: string, realDir: string, rel: string, ancestors: Set<string>) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      problem(dir, `cannot read this folder (${(e as NodeJS.ErrnoException).code})`);
      return;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      const abs = join(dir, entry.name);
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      const isMd = entry.name.endsWith('.md');
      let st: Stats | undefined;
      if (entry.isSymbolicLink()) {
        let real: string;
        try {
          real = realpathSync(abs);
          st = statSync(real);
        } catch (e) {
          const code = (e as NodeJS.ErrnoException).code;
          if (code === 'ELOOP') problem(abs, 'this symbolic link is part of a loop of links');
          else problem(abs, `this symbolic link leads nowhere (its target does not exist): remove it or fix its target`);
          continue;
        }
        if (!isWithin(real, realRoot)) {
          problem(abs, `this symbolic link leads outside the site folder (to ${real}); docs publishes only files inside the site folder, so copy the file in instead`);
          continue;
        }
        if (st.isDirectory()) {
          if (ancestors.has(real)) problem(abs, 'this symbolic link leads back to a folder that holds it (a loop)');
          else walk(abs, real, relPath, new Set(ancestors).add(real));
          continue;
        }
      } else if (entry.isDirectory()) {
        if (isMd) {
          problem(abs, 'this is a folder whose name ends in .md; a page is a file (rename the folder)');
          continue;
        }
        // (A folder, not a link: its real path is its name in its parent's.)
        const realChild = join(realDir, entry.name);
        walk(abs, realChild, relPath, new Set(ancestors).add(realChild));
        continue;
      } else if (!entry.isFile()) {
        st = lstatSync(abs);
      }
      if (!isMd) {
        // Markdown by another spelling would be left out without a word.
        const other = /^(.*)\.(?:md|markdown|mdown|mkdn?|mdx)$/i.exec(entry.name);
        if (other) problem(abs, `pages are files whose names end in .md, and this one is not read (rename it to ${other[1]}.md, or move it out of content/)`);
        continue;
      }
      if (st && !st.isFile()) {
        problem(abs, `this is ${kindOf(st)}, not a Markdown file; remove it from content/`);
        continue;
      }
      const id = relPath.slice(0, -3);
      const bad = id.split('/').find((part) => !PAGE_NAME.test(part));
      if (bad !== undefined) {
        const what = bad === id.split('/').at(-1) ? 'file' : 'folder';
        problem(
          abs,
          /^[a-z0-9._-]*$/.test(bad)
            ? `"${bad}" cannot be part of a page's URL: it must start with a lowercase letter or a digit (rename the ${what}; content/ has no hidden or draft pages, keep drafts outside it)`
            : `"${bad}" cannot be part of a page's URL: use lowercase letters, digits, ".", "-" and "_" only (rename the ${what})`,
        );
        continue;
      }
      files.push(relPath);
    }
  };
  walk(contentDir, realContent, '', new Set([realContent]));
  files.sort();
  return { files, problems };
}

/**
 * Reads a writer's text file: UTF-8 only (a byte that is not UTF-8 is a
 * problem at its line and column, never a silent U+FFFD), no NUL character,
 * a leading byte order mark dropped. Throws InputError (at the first bad byte or NUL).
 */
export function readSourceText(absPath: string, displayPath: string): string {
  const problem = (message: string, { line, column } = { line: 0, column: 0 }) => new InputError([{ file: displayPath, line, column, message }]);
  let st: Stats;
  try {
    st = statSync(absPath);
  } catch (e) {
    throw problem(`cannot read this file (${(e as NodeJS.ErrnoException).code})`);
  }
  // A pipe or a device would block the read, or never end.
  if (!st.isFile()) throw problem(`this is ${st.isDirectory() ? 'a folder' : kindOf(st)}, not a text file`);
  const bytes = readFileSync(absPath);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    // The first byte that is not UTF-8: where a lenient decoding has a U+FFFD (EF BF BD) that the file does not hold.
    // (A byte order mark is kept to count the bytes, and left out of the column, as the file's text has none.)
    const lenient = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);
    let bad = 0;
    let chars = 0;
    for (const char of lenient) {
      if (char === '\ufffd' && !(bytes[bad] === 0xef && bytes[bad + 1] === 0xbf && bytes[bad + 2] === 0xbd)) break;
      bad += Buffer.byteLength(char);
      chars += char.length;
    }
    const byte = bytes[bad]!;
    const where = positionIn(lenient.slice(0, chars).replace(/^\ufeff/, ''));
    const looks = byte >= 0x80 ? 'Latin-1 or Windows-1252' : 'another encoding';
    throw problem(`byte 0x${byte.toString(16).padStart(2, '0')} is not UTF-8 text; save the file as UTF-8 (it looks like ${looks})`, where);
  }
  const nul = text.indexOf('\0');
  if (nul >= 0) throw problem('a NUL character (byte 0) is not text; remove it', positionIn(text.slice(0, nul)));
  return text;
}

/** Line and column (1-based) just after `before`. */
function positionIn(before: string): { line: number; column: number } {
  return { line: before.split('\n').length, column: before.length - before.lastIndexOf('\n') };
}

/**
 * What in static/ is not copied: symbolic links (wherever they lead: the
 * folder's files are copied as they are, and a link could publish anything
 * on the computer) and anything that is not a regular file or a folder.
 */
export function staticWarnings(rootDir: string, staticDir: string): SourceProblem[] {
  const warnings: SourceProblem[] = [];
  const walk = (dir: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const abs = join(dir, entry.name);
      const file = relative(rootDir, abs).split(sep).join('/');
      if (entry.isDirectory()) walk(abs);
      else if (entry.isSymbolicLink()) warnings.push({ file, line: 0, column: 0, message: 'a symbolic link in static/ is not copied; copy the file itself into static/ to publish it' });
      else if (!entry.isFile()) warnings.push({ file, line: 0, column: 0, message: 'not a regular file, so it is not copied' });
    }
  };
  walk(staticDir);
  return warnings;
}

export function listStatic(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => d.isFile())
    .map((d) => '/' + relative(dir, join(d.parentPath, d.name)).split(sep).join('/'))
    .sort();
}
