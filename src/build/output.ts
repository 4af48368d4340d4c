import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Writes a build into a temporary folder beside the output folder and swaps
 * it in only when everything was written: a failed build leaves the previous
 * output byte-for-byte untouched.
 */
export class OutputWriter {
  readonly target: string;
  readonly temp: string;

  constructor(outDir: string) {
    this.target = resolve(outDir);
    mkdirSync(dirname(this.target), { recursive: true });
    this.temp = mkdtempSync(join(dirname(this.target), `.${basename(this.target)}-build-`));
  }

  write(relPath: string, contents: string | Buffer): void {
    const file = join(this.temp, relPath);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, contents);
  }

  /** Replaces the output folder with the finished build. */
  commit(): void {
    const old = `${this.temp}-old`;
    if (existsSync(this.target)) renameSync(this.target, old);
    renameSync(this.temp, this.target);
    rmSync(old, { recursive: true, force: true });
  }

  abort(): void {
    rmSync(this.temp, { recursive: true, force: true });
  }
}
