import { createHash } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { cachePath, layerEnabled, readCachedFile, writeCachedFile } from './cache.js';

/*
 * The record of the last build: one file of the cache (`record/`) per output folder, and one per
 * site root of `docs serve`, holding what is the state of a build rather than of one page: the
 * output manifest, the pages' metas, the links, the search index's state, the checked config and
 * the bundled assets. Each part is used only under the key of what it was made from. The file is
 * read when a part is first asked for and written once the build has committed, so a build never
 * reads what it wrote. A record that is missing, damaged or another folder's is no record.
 * DOCS_CACHE_OFF=links turns a part off (its name up to the first space), =record all of them.
 */

type Parts = Record<string, { key: string; value: unknown }>;

/*
 * The record of the build running. A plain variable, not an AsyncLocalStorage (which on Node 20 puts
 * a hook on every promise: 5-9 % more CPU time in a warm build): should two builds run at once in
 * one process, one may read or set the other's parts, which costs time only, as every part is used
 * only under its key (and the output writer takes its own folder's record).
 */
let current: BuildRecord | undefined;

export const currentRecord = (): BuildRecord | undefined => current;

const partOn = (part: string) => layerEnabled('record') && layerEnabled(part.split(' ')[0]!);

export class BuildRecord {
  /** The name of the record's files. */
  readonly id: string;
  private read: Parts | undefined;
  private readonly next: Parts = {};
  private dirty = false;
  private running = 0;

  constructor(readonly name: string) {
    this.id = createHash('sha256').update(name).digest('hex').slice(0, 32);
  }

  /** Runs `fn` with this record as the current one (`docs serve` runs a page beside a build, both with its record). */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    const previous = current;
    current = this;
    this.running++;
    try {
      return await fn();
    } finally {
      if (--this.running === 0 && current === this) current = previous;
    }
  }

  private parts(): Parts {
    if (this.read) return this.read;
    this.read = {};
    try {
      const saved = JSON.parse(readCachedFile('record', `${this.id}.json`)?.toString() ?? 'null') as { name?: unknown; parts?: Parts } | null;
      if (saved && saved.name === this.name && typeof saved.parts === 'object') this.read = saved.parts;
    } catch {
      // A damaged record is no record.
    }
    return this.read;
  }

  /** A part as the last build left it, when it was made under `key`. */
  get<T>(part: string, key: string): T | undefined {
    const saved = partOn(part) ? this.parts()[part] : undefined;
    return saved?.key === key ? (saved.value as T) : undefined;
  }

  /** A part of this build, for the next one (the parts it does not set stay as they were). */
  set(part: string, key: string, value: unknown): void {
    if (!partOn(part)) return;
    this.next[part] = { key, value };
    this.dirty = true;
  }

  /** Removes the record's file (while the output folder changes: a build stopped then leaves none). */
  remove(): void {
    if (!layerEnabled('record')) return;
    this.parts();
    this.dirty = true;
    try {
      unlinkSync(cachePath('record', `${this.id}.json`));
    } catch {
      // There was none.
    }
  }

  /** Writes the record, when this build changed it (without one, the next build does the full work). */
  async save(): Promise<void> {
    if (!this.dirty || !layerEnabled('record')) return;
    this.read = { ...this.parts(), ...this.next };
    for (const part of Object.keys(this.next)) delete this.next[part];
    this.dirty = false;
    await writeCachedFile('record', `${this.id}.json`, JSON.stringify({ name: this.name, parts: this.read }));
  }

  /** A file of a part too large for the record's JSON, or undefined; the part must tell whether it belongs. */
  readFile(part: string, suffix: string): Buffer | undefined {
    return partOn(part) ? readCachedFile('record', `${this.id}.${suffix}`) : undefined;
  }

  /** Stores such a file in the background. */
  writeFile(part: string, suffix: string, contents: Uint8Array): void {
    if (partOn(part)) void writeCachedFile('record', `${this.id}.${suffix}`, contents);
  }
}
