import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { cachePath, layerEnabled, readCachedFile, readCheckedFileSync, writeCachedFile, writeCheckedFileSync } from './cache.js';

/*
 * The record of the last build: one file of the cache (kind `record`) per output folder, and one
 * per site root of `docs serve`, holding what is the state of a build rather than of one page: the
 * output manifest, the pages' metas, the links by page, the search index's state, the checked
 * config and the bundled assets. Each part carries the key of what it was made from and is used
 * only under that key. The file is read once, when a part is first asked for, and written once,
 * when the build has committed (docs build: after the output swap; docs serve: after a
 * successful build), so a build never reads back what it wrote. A record that is missing, cut
 * short, damaged or another folder's is no record: the build does the full work.
 *
 * A part's name is its family (the word before the first space): DOCS_CACHE_OFF=links turns the
 * `links` part off, DOCS_CACHE_OFF=record the whole record (see scripts/bench-layers.mjs).
 */

type Parts = Record<string, { key: string; value: unknown }>;

const current = new AsyncLocalStorage<BuildRecord>();

/** The record of the build running in this async context, if any. */
export const currentRecord = (): BuildRecord | undefined => current.getStore();

const partOn = (part: string) => layerEnabled('record') && layerEnabled(part.split(' ')[0]!);

export class BuildRecord {
  /** The name of the record's files in the cache's `record/` folder. */
  readonly id: string;
  private read: Parts | undefined;
  private readonly next: Parts = {};
  private dirty = false;

  constructor(readonly name: string) {
    this.id = createHash('sha256').update(name).digest('hex').slice(0, 32);
  }

  /** Runs `fn` with this record as the current one (see currentRecord). */
  run<T>(fn: () => T): T {
    return current.run(this, fn);
  }

  private parts(): Parts {
    if (this.read) return this.read;
    this.read = {};
    if (!layerEnabled('record')) return this.read;
    try {
      const saved = JSON.parse(readCheckedFileSync(cachePath('record', `${this.id}.json`)) ?? 'null') as { name?: unknown; parts?: unknown } | null;
      if (saved?.name === this.name && saved.parts && typeof saved.parts === 'object') this.read = saved.parts as Parts;
    } catch {
      // A damaged record is no record.
    }
    return this.read;
  }

  /** A part as the last build left it, when it was made under `key`. */
  get<T>(part: string, key: string): T | undefined {
    if (!partOn(part)) return undefined;
    const saved = this.parts()[part];
    return saved && typeof saved === 'object' && saved.key === key ? (saved.value as T) : undefined;
  }

  /** A part of this build, for the next one (parts this build did not set stay as they were). */
  set(part: string, key: string, value: unknown): void {
    if (!partOn(part)) return;
    this.next[part] = { key, value };
    this.dirty = true;
  }

  /** Removes the record's file (while the output folder changes: a build stopped then finds none). */
  remove(): void {
    if (!layerEnabled('record')) return;
    this.parts();
    this.dirty = true;
    try {
      unlinkSync(cachePath('record', `${this.id}.json`));
    } catch {
      // There was none (or the cache folder cannot be used).
    }
  }

  /** Writes the record, when this build changed it; what the next build run in this process starts from. */
  save(): void {
    if (!this.dirty || !layerEnabled('record')) return;
    const parts = { ...this.parts(), ...this.next };
    try {
      writeCheckedFileSync(cachePath('record', `${this.id}.json`), JSON.stringify({ name: this.name, parts }));
    } catch {
      // Without a record the next build does the full work: slower, the same output.
    }
    this.read = parts;
    for (const part of Object.keys(this.next)) delete this.next[part];
    this.dirty = false;
  }

  /** A file of a part too large for the record's JSON (`suffix` names it), or undefined. */
  readFile(part: string, suffix: string): Buffer | undefined {
    return partOn(part) ? readCachedFile('record', `${this.id}.${suffix}`) : undefined;
  }

  /** Stores such a file in the background; the part, written later, must tell whether it belongs (see readFile). */
  writeFile(part: string, suffix: string, contents: Uint8Array): void {
    if (partOn(part)) void writeCachedFile('record', `${this.id}.${suffix}`, contents);
  }
}
