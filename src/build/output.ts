import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';

/** Most bytes of file contents waiting to be written before `ready` makes the caller wait. */
const MAX_IN_FLIGHT = 32 * 1024 * 1024;

/**
 * Writes a build into a temporary folder beside the output folder and swaps
 * it in only when everything was written: a failed build leaves the previous
 * output byte-for-byte untouched. Files are written in the background while
 * the build renders the next ones; `commit` waits for them.
 */
export class OutputWriter {
  readonly target: string;
  readonly temp: string;
  /** Folders made or being made, so that each is made once. */
  private readonly folders = new Map<string, Promise<unknown>>();
  private inFlight = 0;
  /** Bytes (characters) of the writes in flight, and the callers waiting for them to come down. */
  private inFlightSize = 0;
  private waiting: Array<() => void> = [];
  private failure: unknown;
  private drained: (() => void) | undefined;

  constructor(outDir: string) {
    this.target = resolve(outDir);
    mkdirSync(dirname(this.target), { recursive: true });
    this.temp = mkdtempSync(join(dirname(this.target), `.${basename(this.target)}-build-`));
    this.folders.set(this.temp, Promise.resolve());
  }

  write(relPath: string, contents: string | Buffer): void {
    const file = join(this.temp, relPath);
    const folder = dirname(file);
    let made = this.folders.get(folder);
    if (!made) this.folders.set(folder, (made = mkdir(folder, { recursive: true })));
    this.inFlight++;
    this.inFlightSize += contents.length;
    made.then(() => writeFile(file, contents)).then(
      () => this.done(contents.length),
      (e: unknown) => {
        this.failure ??= e;
        this.done(contents.length);
      },
    );
  }

  /**
   * Resolves once the writes in flight hold less than MAX_IN_FLIGHT: a caller
   * that makes files faster than the disk takes them waits here, so memory
   * does not grow with the size of the site.
   */
  async ready(): Promise<void> {
    if (this.inFlightSize >= MAX_IN_FLIGHT) await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private done(size: number): void {
    this.inFlightSize -= size;
    if (this.inFlightSize < MAX_IN_FLIGHT) for (const resolve of this.waiting.splice(0)) resolve();
    if (--this.inFlight === 0) this.drained?.();
  }

  /** Waits for every write started so far; throws the first failure. */
  private async settle(): Promise<void> {
    if (this.inFlight > 0) await new Promise<void>((resolve) => (this.drained = resolve));
    this.drained = undefined;
    if (this.failure) throw this.failure;
  }

  /** Replaces the output folder with the finished build. */
  async commit(): Promise<void> {
    await this.settle();
    const old = `${this.temp}-old`;
    if (existsSync(this.target)) renameSync(this.target, old);
    renameSync(this.temp, this.target);
    rmSync(old, { recursive: true, force: true });
  }

  async abort(): Promise<void> {
    await this.settle().catch(() => undefined);
    rmSync(this.temp, { recursive: true, force: true });
  }
}
