import { createHash } from 'node:crypto';
import { accessSync, chmodSync, constants, copyFileSync, existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { BuildRecord, currentRecord } from '../io/record.js';
import { SET_ASIDE, tempFolderPrefix } from './output-lock.js';
import { faultPoint } from './faults.js';

/** Files written at once: well under the smallest usual limit of open files (1,024), which a build shares with its threads. */
const MAX_OPEN = 128;

/** What the last build wrote: per file, the key it was made from and its size; and when the build ended. */
interface Manifest {
  /** Date.now() once every file of the build was in place. */
  time: number;
  files: Record<string, [key: string, size: number]>;
}

export type Contents = string | Buffer;

/** A key for contents that have no cheaper one: a hash of the bytes. */
export function contentKey(contents: Contents): string {
  return createHash('sha1').update(contents).digest('hex');
}

/**
 * Writes a build so that a failed build leaves the previous output
 * byte-for-byte untouched, and keeps what did not change.
 *
 * Every file comes with a key: a hash of what it is made from (for a page,
 * the site model and the page's source), or of its bytes. A manifest in the
 * record of the last build into this folder (src/io/record.ts) holds the key
 * and size of every file of that build. A file whose key and size are those of the manifest, and
 * that nobody changed since (its mtime is not after the end of that build),
 * is kept where it is: the caller may skip making it (`keep`), and `write`
 * skips writing it.
 *
 * Files to write go to a temporary folder beside the output folder, in the
 * background while the build makes the next ones; `commit` waits for them.
 * `commit` swaps the temporary folder in whole, with the files kept from the
 * last build hard-linked into it (a one-page edit writes a handful of files
 * and links the thousands it keeps, rather than rewriting them). Nothing in
 * the output folder changes before `commit`, and the swap is two renames.
 */
export class OutputWriter {
  readonly target: string;
  readonly temp: string;
  /** The record the manifest is part of (the build's, or one of the writer's own), written once the output is in place. */
  private readonly record: BuildRecord;
  /** The last build's manifest, when it describes the output folder as it is. */
  private readonly previous: Manifest | undefined;
  /** Every file of this build: its key and size, and for a file the last build wrote at another path, that path. */
  private readonly files = new Map<string, { key: string; size: number; from?: string }>();
  /** Paths of the last build's files by key, and those taken to move (see keepMoved). */
  private byKey: Map<string, string[]> | undefined;
  private readonly moved = new Set<string>();
  /** Folders made or being made, so that each is made once. */
  private readonly folders = new Map<string, Promise<unknown>>();
  /** Most bytes of file contents waiting to be written before `ready` makes the caller wait. */
  private readonly maxInFlight = 32 * 1024 * 1024;
  private inFlight = 0;
  /** Files being written now (at most MAX_OPEN), and the writes waiting for one of those places. */
  private open = 0;
  private readonly queued: Array<() => void> = [];
  /** Bytes (characters) of the writes in flight, and the callers waiting for them to come down. */
  private inFlightSize = 0;
  private waiting: Array<() => void> = [];
  private failure: unknown;
  private drained: (() => void) | undefined;
  /** Set by a signal (see interrupt): the build stops at its next write, and commits nothing. */
  private interrupted = false;

  /** `link` makes a hard link (linkSync; a test gives a function that fails as some file systems do). */
  constructor(outDir: string, private readonly link: (existing: string, path: string) => void = linkSync) {
    this.target = resolve(outDir);
    mkdirSync(dirname(this.target), { recursive: true });
    this.temp = mkdtempSync(join(dirname(this.target), tempFolderPrefix(this.target)));
    // mkdtemp makes the folder 0700; the output is for a web server that may run as another user. (process.umask()
    // without an argument is deprecated, as it briefly changes the umask to read it, but it is the only way to read
    // it, and no other thread of this process makes files at this instant.)
    chmodSync(this.temp, 0o777 & ~process.umask());
    this.folders.set(this.temp, Promise.resolve());
    const record = currentRecord();
    this.record = record?.name === this.target ? record : new BuildRecord(this.target);
    this.previous = existsSync(this.target) ? this.record.get<Manifest>('output', this.target) : undefined;
  }

  /**
   * Whether the output already holds `relPath` as made from `key`: then it is
   * part of this build as it is, and the caller need not make it.
   */
  keep(relPath: string, key: string): boolean {
    const entry = this.previous?.files[relPath];
    if (!entry || entry[0] !== key || !this.intact(relPath)) return false;
    this.files.set(relPath, { key, size: entry[1], from: relPath });
    return true;
  }

  /** Whether a file of the last build is in the output as that build left it (same size, not changed since). */
  private intact(relPath: string): boolean {
    const entry = this.previous!.files[relPath]!;
    try {
      const st = statSync(join(this.target, relPath));
      // (The manifest's time is whole milliseconds, a file's is finer: a file written in the millisecond the build ended counts as before it.)
      return st.isFile() && st.size === entry[1] && Math.floor(st.mtimeMs) <= this.previous!.time;
    } catch {
      return false;
    }
  }

  /**
   * Like `keep`, and also true when the last build wrote a file of this key
   * at another path that this build does not keep: it is moved to `relPath`.
   * For files whose key is a hash of their bytes and whose paths change from
   * build to build (the search index's folder is named by its version).
   */
  keepMoved(relPath: string, key: string): boolean {
    if (this.keep(relPath, key)) return true;
    if (!this.previous) return false;
    if (!this.byKey) {
      this.byKey = new Map();
      for (const [path, [k]] of Object.entries(this.previous.files)) {
        const paths = this.byKey.get(k);
        if (paths) paths.push(path);
        else this.byKey.set(k, [path]);
      }
    }
    for (const from of this.byKey.get(key) ?? []) {
      if (this.moved.has(from) || this.files.has(from) || !this.intact(from)) continue;
      this.moved.add(from);
      this.files.set(relPath, { key, size: this.previous.files[from]![1], from });
      return true;
    }
    return false;
  }

  /** Adds a file to the build; `key` defaults to a hash of the contents. */
  write(relPath: string, contents: Contents, key?: string): void {
    if (this.interrupted) throw interruption();
    if (this.keep(relPath, (key ??= contentKey(contents)))) return;
    this.files.set(relPath, { key, size: typeof contents === 'string' ? Buffer.byteLength(contents) : contents.length });
    const file = join(this.temp, relPath);
    const folder = dirname(file);
    let made = this.folders.get(folder);
    if (!made) this.folders.set(folder, (made = mkdir(folder, { recursive: true })));
    this.inFlight++;
    this.inFlightSize += contents.length;
    this.slot()
      .then(() => made)
      .then(() => writeFile(file, contents))
      .finally(() => this.release())
      .catch((e: unknown) => {
        this.failure ??= namedAfter(e, file);
      })
      .then(() => this.done(contents.length));
  }

  /** Waits for one of the MAX_OPEN files that may be open at once (thousands of small files would take every file handle). */
  private slot(): Promise<void> {
    if (this.open < MAX_OPEN) {
      this.open++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => this.queued.push(resolve));
  }

  private release(): void {
    const next = this.queued.shift();
    if (next) next();
    else this.open--;
  }

  /**
   * Adds a file that another writer (a worker thread) puts at join(temp, relPath) before `commit`;
   * `failure`: the error that writer met instead (thrown by commit, as a failed write of its own).
   */
  writtenElsewhere(relPath: string, key: string, size: number, failure?: unknown): void {
    if (this.interrupted) throw interruption();
    if (failure) this.failure ??= namedAfter(failure, join(this.temp, relPath));
    this.files.set(relPath, { key, size });
  }

  /**
   * Resolves once the writes in flight hold less than maxInFlight: a caller
   * that makes files faster than the disk takes them waits here, so memory
   * does not grow with the size of the site.
   */
  async ready(): Promise<void> {
    if (this.interrupted) throw interruption();
    if (this.inFlightSize >= this.maxInFlight) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private done(size: number): void {
    this.inFlightSize -= size;
    if (this.inFlightSize < this.maxInFlight) for (const resolve of this.waiting.splice(0)) resolve();
    if (--this.inFlight === 0) this.drained?.();
  }

  /** Waits for every write started so far; throws the first failure. */
  private async settle(): Promise<void> {
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    this.drained = undefined;
    if (this.failure) throw this.failure;
  }

  /**
   * Puts the finished build in place of the output folder, whole: the files this build kept from the
   * last one are hard-linked into the temporary folder (no copy), so that it holds the complete new
   * output, which then takes the output folder's place by renaming: the old folder is renamed aside
   * (`<temporary folder>-old`), the new one into its place, and the old one renamed again
   * (`-gone`) before it is removed. A plain folder cannot be replaced by one system call (rename(2)
   * moves a folder only onto an empty one), so between the two renames the output folder is missing
   * for an instant; a build killed right there leaves the old output whole under the `-old` name,
   * and the next build puts it back before anything else (see output-lock.ts), even if it then
   * fails. Whenever else the process is killed, the output folder is the old output or the new one.
   */
  async commit(): Promise<void> {
    await this.settle();
    if (this.interrupted) throw interruption();
    faultPoint('commit-start');
    if (this.unchanged()) {
      // The output folder already is this build's output: nothing to swap (its manifest still describes it).
      rmSync(this.temp, { recursive: true, force: true });
      await this.record.save();
      faultPoint('commit-done');
      return;
    }
    // An output folder this user may not change (made by a build run as another user): refused before anything moves,
    // rather than swapped for one while the old stays beside it for good.
    if (existsSync(this.target)) accessSync(this.target, constants.W_OK);
    // No record while the output folder changes: should this stop half way, the next build writes everything.
    this.record.remove();
    faultPoint('commit-manifest-removed');
    if (this.previous) this.linkKept();
    faultPoint('commit-linked');
    const old = `${this.temp}${SET_ASIDE}`;
    const hadOutput = existsSync(this.target);
    if (hadOutput) renameSync(this.target, old);
    faultPoint('commit-between-renames');
    renameSync(this.temp, this.target);
    faultPoint('commit-swapped');
    if (hadOutput) {
      try {
        // Renamed first: a removal cut short leaves no half output under the name the next build would put back.
        const gone = `${this.temp}-gone`;
        renameSync(old, gone);
        faultPoint('commit-old-renamed');
        rmSync(gone, { recursive: true, force: true });
      } catch {
        // The new output is in place; the old one is only left over (the next build removes it, see output-lock.ts).
      }
    }
    faultPoint('commit-old-removed');
    const files: Manifest['files'] = {};
    for (const [path, { key, size }] of this.files) files[path] = [key, size];
    this.record.set('output', this.target, { time: Date.now(), files } satisfies Manifest);
    await this.record.save();
    faultPoint('commit-done');
  }

  /** Whether this build keeps every file of the last one where it is and writes none, and the folder holds nothing else. */
  private unchanged(): boolean {
    const previous = this.previous;
    if (!previous || this.files.size !== Object.keys(previous.files).length) return false;
    for (const [path, { from }] of this.files) if (from !== path) return false;
    try {
      // (Paths as the folder lists them: a writer may name a file "/assets/x.js".)
      const listed = new Set(Object.keys(previous.files).map((path) => relative(this.target, join(this.target, path))));
      let count = 0;
      for (const entry of readdirSync(this.target, { recursive: true, withFileTypes: true })) {
        if (entry.isDirectory()) continue;
        // A file added by hand goes, as with any other build.
        if (!listed.has(relative(this.target, join(entry.parentPath, entry.name)))) return false;
        count++;
      }
      return count === listed.size;
    } catch {
      return false;
    }
  }

  /** Links every file this build keeps from the output folder (at its old path) into the temporary folder, at its new path. */
  private linkKept(): void {
    const made = new Set<string>();
    for (const [path, { from }] of this.files) {
      if (from === undefined) continue;
      const to = join(this.temp, path);
      const folder = dirname(to);
      if (!made.has(folder)) {
        mkdirSync(folder, { recursive: true });
        made.add(folder);
      }
      try {
        this.link(join(this.target, from), to);
        faultPoint('commit-linking');
      } catch (e) {
        // A file system without hard links (or with a limit on them): the file is copied.
        if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'EXDEV', 'EMLINK', 'ENOSYS'].includes((e as NodeJS.ErrnoException).code ?? '')) throw e;
        copyFileSync(join(this.target, from), to);
      }
    }
  }

  /**
   * Ctrl+C or a kill: the build stops at its next write or wait (it throws), and its failure
   * path waits for the writes in flight before it removes the temporary folder (abort): removing it
   * while they land would leave files, and folders made again.
   */
  interrupt(): void {
    this.interrupted = true;
  }

  /** Removes the temporary folder at once (writes may still be landing in it: what they leave, the next build removes). */
  discard(): void {
    try {
      rmSync(this.temp, { recursive: true, force: true, maxRetries: 5, retryDelay: 20 });
    } catch {
      // Left for the next build into the folder, which removes what interrupted builds left.
    }
  }

  async abort(): Promise<void> {
    await this.settle().catch(() => undefined);
    rmSync(this.temp, { recursive: true, force: true });
  }
}

/** What a write of an interrupted build throws (see OutputWriter.interrupt). */
const interruption = () => new Error('the build was interrupted');

/** A write's error with the file it was writing: a disk-full error names no file, and the message should. */
function namedAfter(e: unknown, file: string): unknown {
  if (e && typeof e === 'object' && !(e as NodeJS.ErrnoException).path) (e as NodeJS.ErrnoException).path = file;
  return e;
}
