import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { InputError } from '../shared/errors.js';
import { parseLocatedYaml, type LocatedYaml } from './yaml-positions.js';
import { toolVersion } from '../shared/tool-version.js';
import { currentRecord } from '../io/record.js';
import { readSourceText } from '../io/sources.js';
import { configProblemAt, parseChecked, type LoadedConfig } from './checked.js';
import type { SiteConfig } from './schema.js';

/** Reads, parses and validates site.config.yaml; throws InputError listing every problem. */
export function loadConfig(path: string, displayName = basename(path)): LoadedConfig {
  let source: string;
  try {
    source = readSourceText(path, displayName);
  } catch (e) {
    if (!(e instanceof InputError) || e.problems[0]!.line > 0) throw e;
    const { message } = e.problems[0]!;
    const code = message.match(/\((E[A-Z]+)\)/)?.[1];
    const why = code === 'ENOENT' ? `cannot read the config file: there is no file ${path} (${code})` : `cannot read the config file ${path}: ${message}`;
    throw new InputError([{ file: displayName, line: 1, column: 1, message: why }]);
  }
  return parseConfig(source, displayName);
}

/*
 * A config that passed every check is kept in the record of the last build
 * (src/io/record.ts) under a hash of its text and of the tool: the next build
 * with the same text skips parsing and validating it (a tenth of a second for
 * a site of 1,000 pages, whose sections list every page). Positions for a
 * later problem (a listed page with no file, say) are then found by parsing
 * the text when one is reported.
 */
export function parseConfig(source: string, file: string): LoadedConfig {
  const key = createHash('sha256').update(toolVersion()).update('\0').update(source).digest('hex');
  const record = currentRecord();
  const cached = record?.get<SiteConfig>('config', key);
  if (cached) {
    let located: LocatedYaml | undefined;
    const problemAt: LoadedConfig['problemAt'] = (path, message) => configProblemAt(file, () => (located ??= parseLocatedYaml(source, file).located))(path, message);
    return { config: cached, problemAt };
  }
  const loaded = parseChecked(source, file);
  record?.set('config', key, loaded.config);
  return loaded;
}
