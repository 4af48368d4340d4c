import { createHash } from 'node:crypto';
import { formatPath, InputError, type SourceProblem } from '../shared/errors.js';
import { toolVersion } from '../shared/tool-version.js';
import { currentRecord } from '../io/record.js';
import { readSourceText } from '../io/sources.js';
import { parseValid } from './validate.js';
import { locate, parseLocatedYaml, type LocatedYaml } from './yaml-positions.js';
import { SiteConfigSchema, type SiteConfig } from './schema.js';

/* The config's reading, parsing and checks. */

/** A config as read and checked (by parseConfig: from its text, or from the record of the last build). */
export interface LoadedConfig {
  config: SiteConfig;
  /** Builds a problem located at a path inside the config. */
  problemAt(path: readonly PropertyKey[], message: string): SourceProblem;
}

/** Reads, parses and validates site.config.yaml; throws InputError listing every problem. */
export function loadConfig(path: string, displayName: string): LoadedConfig {
  try {
    return parseConfig(readSourceText(path, displayName), displayName);
  } catch (e) {
    // (A problem of the text has a line; one of the file as a whole, line 0, is said of the config file.)
    if (!(e instanceof InputError) || e.problems[0]!.line > 0) throw e;
    const { message } = e.problems[0]!;
    const code = message.match(/\((E[A-Z]+)\)/)?.[1];
    const why = code === 'ENOENT' ? `cannot read the config file: there is no file ${path} (${code})` : `cannot read the config file ${path}: ${message}`;
    throw new InputError([{ file: displayName, line: 1, column: 1, message: why }]);
  }
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
  let located: LocatedYaml | undefined;
  /** A problem at a path of the config, with the line and column the path has in the text. */
  const problemAt: LoadedConfig['problemAt'] = (path, message) =>
    ({ file, ...locate((located ??= parseLocatedYaml(source, file).located), path), path: formatPath(path), message });
  if (cached) return { config: cached, problemAt };
  const parsed = parseValid(SiteConfigSchema, source, file);
  located = parsed.located;
  const problemsBetween = crossProblems(parsed.data, problemAt);
  if (problemsBetween.length) throw new InputError(problemsBetween);
  record?.set('config', key, parsed.data);
  return { config: parsed.data, problemAt };
}

/** Rules that span several fields and so cannot live in the zod schema. */
function crossProblems(config: SiteConfig, problemAt: LoadedConfig['problemAt']): SourceProblem[] {
  const problems: SourceProblem[] = [];
  /** Keeps where `key` is first listed (at `first`); listed again, it is a problem at `path` that names that place. */
  const once = (seen: Map<string, string>, key: string, path: PropertyKey[], first: PropertyKey[], message: (first: string) => string) => {
    const before = seen.get(key);
    if (before) problems.push(problemAt(path, message(before)));
    else seen.set(key, formatPath(first));
  };
  const seen = new Map<string, string>();
  const folders = new Map<string, string>();
  const seeFolder = (directory: string, path: PropertyKey[]) =>
    once(folders, directory, path, path, (first) => `the folder content/${directory}/ is listed twice (first at ${first}); its pages can be in one place only`);
  config.sections.forEach((section, s) => {
    once(seen, `section:${section.url}`, ['sections', s, 'url'], ['sections', s], (first) => `section "${section.url}" is listed twice (first at ${first})`);
    if (section.autogenerate && section.pages.length) {
      const { directory } = section.autogenerate;
      const message = `section "${section.url || '(home)'}" lists its pages and takes them from content/${directory}/ at once: to list both, put the folder among the pages, where its pages go ("- autogenerate: { directory: ${directory} }")`;
      problems.push(problemAt(['sections', s, 'autogenerate'], message));
    }
    if (section.autogenerate) seeFolder(section.autogenerate.directory, ['sections', s, 'autogenerate', 'directory']);
    section.pages.forEach((page, p) => {
      const path = ['sections', s, 'pages', p];
      if (typeof page !== 'string') seeFolder(page.autogenerate.directory, [...path, 'autogenerate', 'directory']);
      else if (page === section.url) problems.push(problemAt(path, `page "${page}" is the section's own index page; do not list it again`));
      else once(seen, page, path, path, (first) => `page "${page}" is listed twice (first at ${first})`);
    });
  });
  // Between the keys of languages and versions: each language and version once, no version named like a language.
  const codes = new Map<string, string>();
  config.languages.forEach((entry, i) => {
    if (!('code' in entry)) return;
    once(codes, entry.code.toLowerCase(), ['languages', i, 'code'], ['languages', i], (first) => `language "${entry.code}" is listed twice (first at ${first})`);
  });
  const versions = new Map<string, string>();
  config.versions.forEach((version, v) => {
    once(versions, version.name, ['versions', v, 'name'], ['versions', v], (first) => `version "${version.name}" is listed twice (first at ${first})`);
    if (codes.has(version.name)) problems.push(problemAt(['versions', v, 'name'], `"${version.name}" is also a language code: the two would share /${version.name}/`));
    if (v === 0 && (version.sections || version.navigation)) {
      problems.push(problemAt(['versions', 0], 'the first version is the current one: its sections and navigation are the config\'s own sections: and navigation:; remove them here'));
    }
  });
  // A page of the default tree under a folder named like a language or a version would be served where that tree is.
  const prefixes = [...[...codes.keys()].slice(1), ...[...versions.keys()].slice(1)];
  config.sections.forEach((section, s) => {
    const ids = [section.url, ...section.pages.map((entry) => (typeof entry === 'string' ? entry : entry.autogenerate.directory)), ...(section.autogenerate ? [section.autogenerate.directory] : [])];
    for (const id of ids) {
      const top = id.split('/')[0]!;
      if (prefixes.includes(top)) problems.push(problemAt(['sections', s], `"${id}" is under content/${top}/, the folder of the language or version "${top}"; move the page or rename the folder`));
    }
  });
  return problems;
}
