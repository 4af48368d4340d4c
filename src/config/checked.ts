import { formatPath, InputError, type SourceProblem } from '../shared/errors.js';
import { zodProblems } from './validate.js';
import { locate, yamlValue, parseLocatedYaml, type LocatedYaml } from './yaml-positions.js';
import { SiteConfigSchema, type SiteConfig } from './schema.js';

/* The config's parsing and checks (loaded with the parsers: see src/config/parsers.ts). */

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
  const { located, problems } = parseLocatedYaml(source, file);
  if (problems.length) throw new InputError(problems);
  const data: unknown = yamlValue(located);
  const result = SiteConfigSchema.safeParse(data ?? {});
  if (!result.success) throw new InputError(zodProblems(result.error.issues, located));
  const problemAt = configProblemAt(file, () => located);
  const config = result.data;
  const crossProblems = [...checkConfig(config, problemAt), ...treeProblems(config, problemAt)];
  if (crossProblems.length) throw new InputError(crossProblems);
  return { config, problemAt };
}

/** Rules that span several fields and so cannot live in the zod schema. */
function checkConfig(config: SiteConfig, problemAt: LoadedConfig['problemAt']): SourceProblem[] {
  const problems: SourceProblem[] = [];
  const seen = new Map<string, string>();
  const folders = new Map<string, string>();
  const seeFolder = (directory: string, path: PropertyKey[]) => {
    const first = folders.get(directory);
    if (first) problems.push(problemAt(path, `the folder content/${directory}/ is listed twice (first at ${first}); its pages can be in one place only`));
    else folders.set(directory, formatPath(path));
  };
  config.sections.forEach((section, s) => {
    const sectionKey = `section:${section.url}`;
    if (seen.has(sectionKey)) {
      problems.push(problemAt(['sections', s, 'url'], `section "${section.url}" is listed twice (first at ${seen.get(sectionKey)})`));
    } else seen.set(sectionKey, formatPath(['sections', s]));
    if (section.autogenerate && section.pages.length) {
      const { directory } = section.autogenerate;
      const message = `section "${section.url || '(home)'}" lists its pages and takes them from content/${directory}/ at once: to list both, put the folder among the pages, where its pages go ("- autogenerate: { directory: ${directory} }")`;
      problems.push(problemAt(['sections', s, 'autogenerate'], message));
    }
    if (section.autogenerate) seeFolder(section.autogenerate.directory, ['sections', s, 'autogenerate', 'directory']);
    section.pages.forEach((page, p) => {
      const path = ['sections', s, 'pages', p];
      if (typeof page !== 'string') seeFolder(page.autogenerate.directory, [...path, 'autogenerate', 'directory']);
      else if (page === section.url) {
        problems.push(problemAt(path, `page "${page}" is the section's own index page; do not list it again`));
      } else if (seen.has(page)) {
        problems.push(problemAt(path, `page "${page}" is listed twice (first at ${seen.get(page)})`));
      } else seen.set(page, formatPath(path));
    });
  });
  return problems;
}

/** The rules between the keys: each language and version once, and no folder that is both a language and a page path. */
function treeProblems(config: SiteConfig, problemAt: LoadedConfig['problemAt']): SourceProblem[] {
  const problems: SourceProblem[] = [];
  const seen = new Map<string, string>();
  config.languages.forEach((entry, i) => {
    if (!('code' in entry)) return;
    const code = entry.code.toLowerCase();
    if (seen.has(code)) problems.push(problemAt(['languages', i, 'code'], `language "${entry.code}" is listed twice (first at ${seen.get(code)})`));
    else seen.set(code, formatPath(['languages', i]));
  });
  const versions = new Map<string, string>();
  config.versions.forEach((version, v) => {
    if (versions.has(version.name)) problems.push(problemAt(['versions', v, 'name'], `version "${version.name}" is listed twice (first at ${versions.get(version.name)})`));
    else versions.set(version.name, formatPath(['versions', v]));
    if (seen.has(version.name)) problems.push(problemAt(['versions', v, 'name'], `"${version.name}" is also a language code: the two would share /${version.name}/`));
    if (v === 0 && (version.sections || version.navigation)) {
      problems.push(problemAt(['versions', 0], 'the first version is the current one: its sections and navigation are the config\'s own sections: and navigation:; remove them here'));
    }
  });
  // A page of the default tree under a folder named like a language or a version would be served where that tree is.
  const prefixes = [...[...seen.keys()].slice(1), ...[...versions.keys()].slice(1)];
  config.sections.forEach((section, s) => {
    const ids = [section.url, ...section.pages.map((entry) => (typeof entry === 'string' ? entry : entry.autogenerate.directory)), ...(section.autogenerate ? [section.autogenerate.directory] : [])];
    for (const id of ids) {
      const top = id.split('/')[0]!;
      if (prefixes.includes(top)) problems.push(problemAt(['sections', s], `"${id}" is under content/${top}/, the folder of the language or version "${top}"; move the page or rename the folder`));
    }
  });
  return problems;
}
