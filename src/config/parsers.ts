import { stageTimes } from '../shared/stages.js';
import type * as Loaded from './parsers-loaded.js';

/*
 * The YAML parser and the schemas (the yaml and zod packages, two fifths of
 * the tool's code) load only when something needs them: a config or
 * frontmatter that is not in the cache, or the line and column of a problem.
 * A rebuild whose config and frontmatter all come from the cache starts
 * without them. Code that needs them calls parsers(), which throws
 * ParsersNotLoaded until loadParsers() has run; the async callers
 * (withParsers) then load them and run the same step again.
 */

let loaded: typeof Loaded | undefined;
let loading: Promise<typeof Loaded> | undefined;

/** Loads the parsers (once); the time it took is the stage "parsers" (see src/shared/stages.ts). */
export async function loadParsers(): Promise<typeof Loaded> {
  if (loaded) return loaded;
  const start = performance.now();
  loaded = await (loading ??= import('./parsers-loaded.js'));
  stageTimes.parsers ??= performance.now() - start;
  return loaded;
}

/** Thrown by parsers() before loadParsers(). */
export class ParsersNotLoaded extends Error {
  constructor() {
    super('the YAML parser and schemas are not loaded (call loadParsers first)');
  }
}

/** The loaded parsers; throws ParsersNotLoaded before loadParsers(). */
export function parsers(): typeof Loaded {
  if (!loaded) throw new ParsersNotLoaded();
  return loaded;
}

/** Runs `step`; if it needed the parsers before they were loaded, loads them and runs it again. */
export async function withParsers<T>(step: () => T): Promise<T> {
  try {
    return step();
  } catch (e) {
    if (!(e instanceof ParsersNotLoaded)) throw e;
    await loadParsers();
    return step();
  }
}
