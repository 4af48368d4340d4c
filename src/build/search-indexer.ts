import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { codeVersion, flushCacheWrites, readCache } from '../io/cache.js';
import { currentRecord } from '../io/record.js';
import { contentKey, type OutputWriter } from './output.js';
import { encodeIndex, packPostings, unpackPostings, type IndexFile, type Posting, type ShardKeys } from './search-encoding.js';
import { createBodyReader, entryOf, type PageEntry, type SearchPlace } from '../content/search-sections.js';

/*
 * The index writer: takes the pages one by one (SearchInput), keeps their postings (from each
 * page's entry, see entryOf in src/content/search-sections.ts, made where the page renders or
 * here from its HTML) and makes the index files (their layout and bytes: src/build/search-encoding.ts).
 * A rebuild starts from the last build's state and puts in only the pages whose entry changed.
 */

/** A page as the index gets it. */
export interface SearchInput extends SearchPlace {
  title: string;
  /**
   * The rendered Markdown body (HTML; headings carry their ids). It may be
   * left out when `sourceKey` is given: the indexer then takes it from the
   * render cache, and only if its own cache has no entry for the page.
   */
  html?: string;
  /** The render cache key of the page's Markdown (SourcePage.sourceKey): it stands for the body in the entry's key. */
  sourceKey?: string;
  /** The page's entry, when it was made where the page was rendered: then `html` is not read. */
  entry?: PageEntry;
}

let entryVersion: string | undefined;
const indexerVersion = () => (entryVersion ??= codeVersion(['src/build/search-indexer.ts', 'src/build/search-encoding.ts', 'src/content/search-sections.ts', 'templates/client/search-text.ts']));
const pageKey = (input: SearchInput) =>
  createHash('sha256')
    .update(indexerVersion())
    .update(JSON.stringify([input.url, input.title, input.section ?? '', input.slug]))
    // The body HTML is a function of the Markdown's render cache key: hashing that is cheaper.
    .update(input.sourceKey !== undefined ? `source:${input.sourceKey}` : `html:${input.html ?? ''}`)
    .digest('hex');

/** The body HTML of a page, from the input or else from the render cache (an earlier build's render). */
function htmlOf(input: SearchInput): string {
  if (input.html !== undefined) return input.html;
  const cached = input.sourceKey === undefined ? undefined : readCache(input.sourceKey)?.html;
  if (!cached) throw new Error(`search index: no HTML for ${input.url} (the render cache lost it during the build; build again)`);
  return cached;
}

/*
 * The state of the last build's index, a part of the record of the last build
 * (src/io/record.ts), so that a rebuild does not merge every page's entry
 * again: when no page's entry changed, the files are those of the last build;
 * when some did, only their postings are taken out and put in again. The
 * head is in the record's JSON; the postings (large, read only when a page
 * changed or a file must be written again) are a file of the record beside it.
 */

interface StateHead {
  /** The pages' entry keys in order: what the state is a function of, with the indexer's version (the record part's key). */
  keys: string[];
  /** The key of the whole list (see listKey); the postings file carries it too. */
  list: string;
  lengths: number[];
  shares: number[];
  /** Per page: its document's content key and size. */
  docs: Array<[key: string, size: number]>;
  /** Per term shard: the content key of its bytes before and after compression, and its compressed size. */
  shards: ShardKeys[];
  /** The index files, as SearchIndexer.list gives them. */
  files: Array<[path: string, key: string, size: number]>;
}

/** The indexer's code and Node's version (its zlib compresses the shards). */
const stateVersion = () => `${indexerVersion()} ${process.version}`;

const listKey = (keys: readonly string[]) => {
  const hash = createHash('sha256').update(indexerVersion());
  for (const key of keys) hash.update(key);
  return hash.digest('hex');
};

/** A typed array of `list` with `value` put in at `at`. */
function insertAt(list: number[] | Uint32Array, at: number, value: number): Uint32Array {
  const grown = new Uint32Array(list.length + 1);
  grown.set(list.slice(0, at));
  grown[at] = value;
  grown.set(list.slice(at), at + 1);
  return grown;
}

/** Above this many changed pages, the index is merged from every page's entry instead of changed in place. */
const MAX_CHANGED = 1000;

export type SearchIndexer = ReturnType<typeof createSearchIndexer>;

/**
 * `state` names the saved state of the index in the current record (one per language and version of
 * the site, say): with it, the indexer starts from the last build's state under that name and saves
 * its own. The files are the same bytes with or without.
 */
export function createSearchIndexer(options: { state?: string } = {}) {
  const record = options.state === undefined ? undefined : currentRecord();
  const stateName = options.state === undefined ? '' : createHash('sha256').update(options.state).digest('hex').slice(0, 32);
  const part = `search ${stateName}`;
  // Terms are numbered in the order first seen (the first `sortedTerms` came sorted from the state);
  // a page's counts live in an array indexed by term.
  const termIds = new Map<string, number>();
  const termNames: string[] = [];
  let sortedTerms = 0;
  /**
   * Postings by term number. A term on one page alone (most terms of a site, and nearly all of the
   * hundreds of thousands of a generated table's) is a number: where its page and value are in
   * `onePage` and `oneValue`. A Posting, an object and two arrays, takes some 150 bytes more.
   */
  const postings: Array<Posting | number> = [];
  let onePage = new Uint32Array(1024);
  let oneValue = new Uint32Array(1024);
  let ones = 0;
  /** Per page (in the order added): its entry's key, body length, title share and document. */
  const keys: string[] = [];
  const lengths: number[] = [];
  /** Per page: the title bonus of a term that is a whole word of the title. */
  const titleShares: number[] = [];
  const docKeys: Array<[key: string, size: number]> = [];
  const documents: Array<Buffer | undefined> = [];
  /** Pages as given (most without their body), to make their entries when the index is merged. */
  const inputs: SearchInput[] = [];
  let built: IndexFile[] | undefined;
  /** Reads the bodies of pages whose entry was not made where they rendered. */
  const readBody = createBodyReader();

  /*
   * Two ways to get to the postings. Merged: each page's entry is merged as it comes (a first
   * build, or one after the page list changed). From the state: pages whose entry is the one at
   * their place in the last build wait; changed pages' entries are put in place at the end.
   */
  const head = record?.get<StateHead>(part, stateVersion());
  /** Each page's place in the last build's index, by its entry's key (a page added or removed before it moves it). */
  const lastPlace = new Map(head?.keys.map((key, page) => [key, page]));
  let merged = !head;
  const changed = new Map<number, PageEntry>();

  /** A new term, on `page` alone. */
  const addTerm = (term: string, page: number, value: number) => {
    if (ones === onePage.length) {
      const pages = new Uint32Array(ones * 2);
      const values = new Uint32Array(ones * 2);
      pages.set(onePage);
      values.set(oneValue);
      onePage = pages;
      oneValue = values;
    }
    onePage[ones] = page;
    oneValue[ones] = value;
    termIds.set(term, postings.length);
    termNames.push(term);
    postings.push(ones++);
  };
  /** A term's posting (one made for a term on one page: the encoder lets it go). */
  const postingAt = (id: number): Posting => {
    const posting = postings[id]!;
    return typeof posting === 'number' ? { pages: [onePage[posting]!], values: [oneValue[posting]!] } : posting;
  };
  /** A term's posting, kept as an object from now on: to change it. */
  const postingToChange = (id: number): Posting => (postings[id] = postingAt(id));
  /** A page's entry, as made where the page was rendered, or else from its body HTML. */
  const entryAt = (page: number, input = inputs[page]!): PageEntry => input.entry ?? entryOf(input, readBody(htmlOf(input)));

  /**
   * Takes a page's length, share and document from its entry, and adds its terms to the postings
   * (pages in increasing order: a page after every page there is goes at the end).
   */
  const post = (page: number, entry: PageEntry, atEnd: boolean) => {
    const doc = Buffer.from(entry.doc, 'base64');
    lengths[page] = entry.length;
    titleShares[page] = entry.share;
    documents[page] = doc;
    docKeys[page] = [contentKey(doc), doc.length];
    entry.terms.forEach((term, i) => {
      const id = termIds.get(term);
      if (id === undefined) return addTerm(term, page, entry.values[i]!);
      const posting = postingToChange(id);
      if (atEnd) {
        (posting.pages as number[]).push(page);
        (posting.values as number[]).push(entry.values[i]!);
        return;
      }
      // (The state's postings stay typed arrays: one kind of array keeps the encoding loop fast.)
      const { pages, values } = posting;
      let at = 0;
      for (let end = pages.length; at < end; ) {
        const middle = (at + end) >> 1;
        if (pages[middle]! < page) at = middle + 1;
        else end = middle;
      }
      posting.pages = insertAt(pages, at, page);
      posting.values = insertAt(values, at, entry.values[i]!);
    });
  };

  /** Leaves the state's way: every page's entry merged, in order. */
  const mergeAll = () => {
    merged = true;
    for (let page = 0; page < keys.length; page++) post(page, changed.get(page) ?? entryAt(page), true);
    changed.clear();
  };

  const add = (input: SearchInput) => {
    built = undefined;
    const page = keys.length;
    const key = pageKey(input);
    keys.push(key);
    const known = !merged && lastPlace.has(key);
    // A page the state has keeps its body when it came with one (rendered again: the render cache lost it), for a merge.
    inputs.push(known || (input.html === undefined && !input.entry) ? input : { ...input, html: undefined, entry: undefined });
    if (known) return;
    // (With the body as given, when the page was just rendered.)
    const entry = entryAt(page, input);
    if (merged) return post(page, entry, true);
    changed.set(page, entry);
    // Most of the site changed (a new pipeline, say): merging is then the shorter way, and holds no entries.
    if (changed.size > MAX_CHANGED) mergeAll();
  };

  /** Reads the state's postings, and the lengths and documents' keys of the pages still there (at `place`); false when they are not there. */
  const loadState = (place: Int32Array): boolean => {
    const bytes = record!.readFile(part, `${stateName}.bin`);
    const saved = bytes && unpackPostings(bytes, head!.list);
    if (!saved || head!.lengths.length !== head!.keys.length) return false;
    saved.terms.forEach((term, id) => {
      termIds.set(term, id);
      termNames.push(term);
      postings.push(saved.postings[id]!);
    });
    sortedTerms = saved.terms.length;
    place.forEach((page, last) => {
      if (page < 0) return;
      lengths[page] = head!.lengths[last]!;
      titleShares[page] = head!.shares[last]!;
      docKeys[page] = head!.docs[last]!;
    });
    return true;
  };

  /** The postings of this build from the state's: pages moved to their new places, the changed and removed pages' terms out, the changed pages' in. */
  const applyChanges = () => {
    // Each page of the last index: its place now, or -1 (changed or removed).
    const place = new Int32Array(head!.keys.length).fill(-1);
    keys.forEach((key, page) => {
      if (!changed.has(page)) place[lastPlace.get(key)!] = page;
    });
    // (Nothing is posted before: every page waited or was put in `changed`.)
    if (!loadState(place)) return mergeAll();
    for (const posting of postings.map((_, id) => postingToChange(id))) {
      const { pages, values } = posting;
      let moved = false;
      for (let i = 0; i < pages.length && !moved; i++) moved = place[pages[i]!] !== pages[i];
      if (!moved) continue;
      let at = 0;
      let sorted = true;
      const keptPages = new Uint32Array(pages.length);
      const keptValues = new Uint32Array(pages.length);
      for (let i = 0; i < pages.length; i++) {
        const page = place[pages[i]!]!;
        if (page < 0) continue;
        if (at && page < keptPages[at - 1]!) sorted = false;
        keptPages[at] = page;
        keptValues[at++] = values[i]!;
      }
      // (Pages keep their order unless the config reordered them.)
      const order = sorted ? undefined : Array.from({ length: at }, (_, i) => i).sort((a, b) => keptPages[a]! - keptPages[b]!);
      posting.pages = order ? Uint32Array.from(order, (i) => keptPages[i]!) : keptPages.slice(0, at);
      posting.values = order ? Uint32Array.from(order, (i) => keptValues[i]!) : keptValues.slice(0, at);
    }
    for (const [page, entry] of changed) post(page, entry, false);
    changed.clear();
    merged = true;
  };

  /** The files, from the postings. */
  const build = (): IndexFile[] => {
    if (built) return built;
    if (!merged) applyChanges();
    // Every term in sorted order (the state's came sorted: a run that the engine's merge sort takes whole, sorting in the ones added since).
    const order = sortedTerms === termNames.length ? termNames : termNames.slice().sort();
    const { files, shards } = encodeIndex({
      terms: order,
      postingOf: (term) => postingAt(termIds.get(term)!),
      lengths,
      titleShares,
      docKeys,
      // (From this build, or from the page's entry.)
      documentOf: (page) => documents[page] ?? Buffer.from(entryAt(page).doc, 'base64'),
      previousShards: head?.shards ?? [],
    });
    built = files;
    if (record) saveState(order, built, shards);
    return built;
  };

  /** Saves what the next build starts from. */
  const saveState = (order: string[], files: IndexFile[], shards: ShardKeys[]) => {
    const list = listKey(keys);
    const live = order.filter((term) => {
      const posting = postings[termIds.get(term)!]!;
      return typeof posting === 'number' || posting.pages.length > 0;
    });
    // The head goes into the record when the build has committed, and is used only with postings of its own list.
    record!.writeFile(part, `${stateName}.bin`, packPostings(list, live, (term) => postingAt(termIds.get(term)!)));
    record!.set(part, stateVersion(), {
      keys,
      list,
      lengths,
      shares: titleShares,
      docs: docKeys,
      shards,
      files: files.map((f) => [f.path, f.key, f.size]),
    } satisfies StateHead);
  };

  /** When every page's entry is the one of the last build, so are the files. */
  const unchanged = () => !merged && !changed.size && head!.keys.length === keys.length && head!.keys.every((key, page) => keys[page] === key);
  const list = (): Array<[string, string, number]> => {
    if (!built && unchanged()) return head!.files;
    return build().map((f): [string, string, number] => [f.path, f.key, f.size]);
  };

  return {
    /** Adds a page; pages are numbered in the order they are added. */
    add,
    /** The index files (paths relative to the search-index/ folder), once every page is added. */
    files: () => build().map((f) => ({ path: f.path, content: f.content() })),
    /** The same files' paths, with a hash of their bytes (a key for OutputWriter) and their sizes. */
    list,
    /**
     * Adds the index files to `out` under `folder` (search-index/, or zh/search-index/), but for those the output
     * holds already: their folder is named by the index's key, and an unchanged file moves to the new folder.
     */
    async writeTo(out: OutputWriter, folder: string) {
      let byPath: Map<string, IndexFile> | undefined;
      for (const [path, key] of list()) {
        if (out.keepMoved(join(folder, path), key)) continue;
        // (Made only when a file must be written: when no page changed, the list is the last build's.)
        const file = (byPath ??= new Map(build().map((f) => [f.path, f]))).get(path)!;
        out.write(join(folder, path), file.content(), key);
      }
      await flushCacheWrites();
    },
  };
}
