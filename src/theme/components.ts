import { createHash } from 'node:crypto';
import { readFileSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, resolve, sep } from 'node:path';
import * as React from 'react';
import type { ComponentType } from 'react';
import * as jsxRuntime from 'react/jsx-runtime';
import { COMPONENT_NAMES, type ComponentName, type SiteConfig } from '../config/schema.js';
import { esbuildProblems, InputError, type SourceProblem } from '../shared/errors.js';
import { isWithin, PACKAGED, TOOL_ROOT } from '../shared/paths.js';
import { hashOf } from '../shared/tool-version.js';
import { imageRatio, logoFiles } from './theme.js';

/* The site's own React components (config `components:`), compiled and run in the build. */

export type Components = Partial<Record<ComponentName, ComponentType<any>>>;

const compiled = new Map<string, ReturnType<typeof compileComponent>>();

/**
 * The site's own components (config `components:`), compiled with esbuild
 * into one CommonJS module each and run here, in the build: they are rendered
 * to HTML like the built-in ones and never reach the browser. Their imports
 * of react and react/jsx-runtime get the tool's React; every other import is
 * bundled from the site's files, which must lie inside the site folder (so that
 * nothing from elsewhere is published by accident), or is the tool's documented
 * helper module (see helpersImport). This is not a sandbox:
 * components are the site authors' code and run with the build's rights (they
 * can reach Node.js through its globals), as README's Safety says.
 * Returns the components and a hash of their sources (part of every page's key).
 */
export function loadComponents(root: string, config: SiteConfig): { components: Components; key: string; logoRatio: number } {
  const components: Components = {};
  const key = createHash('sha256');
  const logo = logoFiles(config);
  const logoRatio = logo ? imageRatio(resolve(root, logo.light)) : 1;
  key.update(String(logoRatio));
  const problems: SourceProblem[] = [];
  for (const name of COMPONENT_NAMES) {
    const file = config.components[name];
    if (!file) continue;
    const entry = resolve(root, file);
    // By part and file: one file may export several parts (Header and Footer), each its own function.
    const compiledKey = `${name}\0${entry}`;
    let done = compiled.get(compiledKey);
    if (!done || !done.inputs.every(([path, hash]) => hashOf(path) === hash)) {
      try {
        done = compileComponent(root, entry, name);
        compiled.set(compiledKey, done);
      } catch (e) {
        if (!(e instanceof InputError)) throw e;
        problems.push(...e.problems);
        continue;
      }
    }
    components[name] = done.component;
    key.update(name).update('\0');
    for (const [path, hash] of done.inputs) key.update(path).update(hash);
  }
  if (problems.length) throw new InputError(problems);
  return { components, key: key.digest('hex').slice(0, 16), logoRatio };
}

const toolRequire = createRequire(import.meta.url);

/**
 * The one module of the tool a component may import: its public entry, the package's own name (the
 * helpers `href` and `isExternal` and the components' types, templates/types.ts). It is always the
 * running tool's own file wherever the site is, and a path that leads to that file is let in too.
 */
let toolPackage: string | undefined;
const helpersImport = () => (toolPackage ??= (JSON.parse(readFileSync(join(TOOL_ROOT, 'package.json'), 'utf8')) as { name: string }).name);
/** Installed from the package, the entry as compiled when it was packed (lib/index.js); else its source. */
const helpersFile = () => (PACKAGED ? join(TOOL_ROOT, 'lib', 'index.js') : join(TOOL_ROOT, 'templates', 'types.ts'));

function compileComponent(root: string, entry: string, name: ComponentName) {
  const { buildSync } = toolRequire('esbuild') as typeof import('esbuild');
  const display = (path: string) => relative(root, path).split(sep).join('/');
  let result: import('esbuild').BuildResult<{ write: false; metafile: true }>;
  try {
    result = buildSync({
      entryPoints: [entry],
      bundle: true,
      write: false,
      metafile: true,
      format: 'cjs',
      platform: 'neutral',
      target: ['node20'],
      jsx: 'automatic',
      external: ['react', 'react/jsx-runtime', 'react-dom', 'react-dom/server'],
      logLevel: 'silent',
      absWorkingDir: root,
      alias: { [helpersImport()]: helpersFile() },
    });
  } catch (e) {
    throw new InputError(esbuildProblems(e, root, root, entry, `component ${name}: `));
  }
  // Every file the component is made of is the site's own: through a link or an import, a file outside would be published.
  const realRoot = realpathSync(root);
  const helpers = realpathSync(helpersFile());
  const outside = Object.keys(result.metafile.inputs)
    .map((file) => realpathSync(resolve(root, file)))
    .filter((real) => real !== helpers && !isWithin(real, realRoot));
  if (outside.length) {
    throw new InputError([
      { file: display(entry), line: 1, column: 1, message: `component ${name}: ${outside.join(', ')} ${outside.length === 1 ? 'is' : 'are'} outside the site folder; a component may import react, the site's own files and ${helpersImport()} only` },
    ]);
  }
  const code = result.outputFiles[0]!.text;
  // The React the pages are rendered with (one copy, so that hooks work in a component too).
  const modules: Record<string, unknown> = { react: React, 'react/jsx-runtime': jsxRuntime };
  const mod = { exports: {} as Record<string, unknown> };
  const requireShim = (id: string) => {
    if (id in modules) return modules[id];
    throw new Error(`component ${name} (${display(entry)}) imports "${id}": a component may import react, the site's own files and ${helpersImport()} only`);
  };
  try {
    new Function('module', 'exports', 'require', code)(mod, mod.exports, requireShim);
  } catch (e) {
    // What the file does when it is loaded (a throw at its top level, an import of a Node module) is the file's.
    const message = e instanceof Error ? e.message : String(e);
    throw new InputError([{ file: display(entry), line: 1, column: 1, message: message.startsWith('component ') ? message : `component ${name}: it failed while loading: ${message}` }]);
  }
  const component = (mod.exports[name] ?? mod.exports.default) as ComponentType<any> | undefined;
  if (typeof component !== 'function') {
    throw new InputError([{ file: display(entry), line: 1, column: 1, message: `component ${name}: the file exports no function named ${name} (or default)` }]);
  }
  const inputs = Object.keys(result.metafile.inputs).map((file): [string, string] => [resolve(root, file), hashOf(resolve(root, file))]);
  return { inputs, component: guarded(component, name, display(entry)) };
}

/**
 * A component of the site that reports its failure as a problem of its file:
 * what it throws, or a promise (an async component, which server rendering
 * cannot wait for), is the writer's to fix, not a bug of the tool. (A class
 * component is left as it is: it cannot be called as a function.)
 */
function guarded(component: ComponentType<any>, name: ComponentName, file: string): ComponentType<any> {
  if ((component as { prototype?: { isReactComponent?: unknown } }).prototype?.isReactComponent) return component;
  const render = component as (props: unknown) => React.ReactNode;
  const fail = (message: string) => new InputError([{ file, line: 1, column: 1, message: `component ${name}: ${message}` }]);
  const Guarded = (props: unknown) => {
    let out: React.ReactNode;
    try {
      out = render(props);
    } catch (e) {
      if (e instanceof InputError) throw e;
      throw fail(`it failed while rendering: ${e instanceof Error ? e.message : String(e)}`);
    }
    if (out && typeof (out as { then?: unknown }).then === 'function') {
      throw fail('it returned a promise (an async function?): a component returns its markup at once');
    }
    return out;
  };
  Guarded.displayName = name;
  return Guarded;
}
