import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { BuildRecord, currentRecord } from '../io/record.js';
import { BUNDLE_DIR, PACKAGED, TOOL_ROOT } from '../shared/paths.js';
import { hashOf, toolVersion } from '../shared/tool-version.js';

export interface Asset {
  /** URL path, e.g. /assets/main.3f2a1c9b0d.js */
  url: string;
  contents: string;
}

export function contentHash(contents: string | Buffer): string {
  return createHash('sha256').update(contents).digest('hex').slice(0, 10);
}

/**
 * Bundles and minifies one browser script (plain TypeScript, no framework) into a self-contained file:
 * a classic script, or a module whose exports another script imports.
 *
 * The result is kept in the record of the last build (src/io/record.ts) with
 * the files it was made from and their hashes (from esbuild's metafile):
 * while none of them changed, the next build takes it from there instead of
 * starting esbuild.
 */
export async function bundleBrowserScript(entry: string, format: 'iife' | 'esm' = 'iife'): Promise<string> {
  // Installed from the package, the tool's own browser scripts were bundled when it was packed.
  if (PACKAGED && BUNDLE_DIR !== undefined) {
    try {
      return readFileSync(join(BUNDLE_DIR, 'browser', prebuiltScriptName(entry, format)), 'utf8');
    } catch {
      // Not one of the tool's scripts: bundled below.
    }
  }
  const part = `assets ${JSON.stringify([entry, format])}`;
  // Outside a build (the preview server's own script), in a record of its own.
  const record = currentRecord() ?? new BuildRecord(part);
  const cached = record.get<BundledScript>(part, toolVersion());
  if (cached && cached.inputs.every(([file, hash]) => hashOf(file) === hash)) return cached.contents;
  // Loaded only when a bundle must be made (Node reads its CommonJS exports at every load).
  const { build: esbuild } = await import('esbuild');
  const result = await esbuild({
    entryPoints: [entry],
    bundle: true,
    minify: true,
    format,
    target: ['es2020'],
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
    metafile: true,
  });
  const contents = result.outputFiles[0]!.text;
  const inputs = Object.keys(result.metafile.inputs).map((file) => resolve(file)).map((path): [string, string] => [path, hashOf(path)]);
  record.set(part, toolVersion(), { inputs, contents } satisfies BundledScript);
  if (record !== currentRecord()) await record.save();
  return contents;
}

/** The file name of one of the tool's browser scripts as bundled into the package (scripts/pack.mjs writes them). */
export function prebuiltScriptName(entry: string, format: 'iife' | 'esm'): string {
  return `${relative(TOOL_ROOT, entry).split(/[\\/]/).join('-').replace(/\.ts$/, '')}.${format}.js`;
}

interface BundledScript {
  /** The files the bundle was made from, with a hash of each. */
  inputs: Array<[path: string, hash: string]>;
  contents: string;
}

/** The interaction script of the pages, and the search engine it loads when the search box is first used. */
export type ClientAsset = Asset & { engine: Asset };

export async function bundleClient(templatesDir: string): Promise<ClientAsset> {
  const [contents, engine] = await Promise.all([
    bundleBrowserScript(join(templatesDir, 'client', 'main.ts')),
    bundleBrowserScript(join(templatesDir, 'client', 'search-engine.ts'), 'esm'),
  ]);
  return {
    url: `/assets/main.${contentHash(contents)}.js`,
    contents,
    engine: { url: `/assets/search.${contentHash(engine)}.js`, contents: engine },
  };
}

/** Concatenates the stylesheets (in name order) and the highlighting classes (`tokenCss`: see tokenStylesheet), minified. */
export async function bundleCss(templatesDir: string, tokenCss: string): Promise<Asset> {
  const dir = join(templatesDir, 'styles');
  const files = readdirSync(dir).filter((f) => f.endsWith('.css')).sort();
  const source = files.map((f) => readFileSync(join(dir, f), 'utf8')).join('\n') + '\n' + tokenCss;
  const code = await minifyCss(source, `assets ${dir}`);
  return { url: `/assets/style.${contentHash(code)}.css`, contents: code };
}

const themedCss = new Map<string, string>();

/** A stylesheet minified by esbuild, kept in the record of the last build under `part` (keyed by the tool and the source). */
async function minifyCss(source: string, part: string): Promise<string> {
  const key = createHash('sha256').update(toolVersion()).update('\0').update(source).digest('hex');
  let code = currentRecord()?.get<string>(part, key);
  if (code === undefined) {
    const { transform } = await import('esbuild');
    ({ code } = await transform(source, { loader: 'css', minify: true, target: ['chrome123', 'firefox120', 'safari17.5'] }));
    currentRecord()?.set(part, key, code);
  }
  return code;
}

/**
 * The built-in stylesheet followed by the theme's (colours and the site's own
 * files), minified like it, in one file named by its hash. The minified theme
 * is kept in the record of the last build, as the built-in stylesheet is (see
 * bundleCss): a warm start never starts esbuild.
 */
export async function withThemeCss(css: Asset, extra: string): Promise<Asset> {
  if (!themedCss.has(extra)) themedCss.set(extra, await minifyCss(extra, 'assets theme'));
  const contents = css.contents + themedCss.get(extra)!;
  return { url: `/assets/style.${contentHash(contents)}.css`, contents };
}
