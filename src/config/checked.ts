import { formatPath, InputError, type SourceProblem } from '../shared/errors.js';
import { parseValid } from './validate.js';
import { locate, type LocatedYaml } from './yaml-positions.js';
import { SiteConfigSchema, type SiteConfig } from './schema.js';

/* The config's parsing and checks. */

/** A config as read and checked (by parseChecked, or from the cache: see src/config/load.ts). */
export interface LoadedConfig {
  config: SiteConfig;
  /** Builds a problem located at a path inside the config. */
  problemAt(path: readonly PropertyKey[], message: string): SourceProblem;
}

/** A problem at a path of the config, with the line and column the path has in `located()` (called when a problem is reported). */
export function configProblemAt(file: string, located: () => LocatedYaml): LoadedConfig['problemAt'] {
  return (path, message) => ({ file, ...locate(located(), path), path: formatPath(path), message });
}

/** Parses and validates a config's text; throws InputError listing every problem. */
export function parseChecked(source: string, file: string): LoadedConfig {
  const { data: config, located } = parseValid(SiteConfigSchema, source, file);
  const problemAt = configProblemAt(file, () => located);
  const problemsBetween = crossProblems(config, problemAt);
  if (problemsBetween.length) throw new InputError(problemsBetween);
  return { config, problemAt };
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
