#!/usr/bin/env node
// Makes what the package holds besides its files as they are (package.json's `files`), before `npm pack`
// or `npm publish` (the prepack script); the postpack script removes it again (`--clean`):
//
// - lib/cli.mjs and the workers' scripts: the tool bundled with the packages it uses (as installed here,
//   with their patches), so that nothing is compiled where the package is installed and only esbuild,
//   which the tool runs for a site's components, is a dependency;
// - lib/browser/: the tool's browser scripts, bundled as a build would bundle them;
// - lib/index.js and lib/types/: the public entry (`import { href, type FooterProps } from '<package>'`),
//   the helpers of templates/types.ts compiled and the types declared;
// - lib/THIRD-PARTY-NOTICES.txt: the name, version, licence and licence text of every package the bundle
//   holds code of (their licences ask that it go with every copy).
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import ts from 'typescript';
import { cliBundleOptions } from './cli-bundle.mjs';
import { missingPatchesLine } from './patches.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const lib = join(root, 'lib');

rmSync(lib, { recursive: true, force: true });
if (process.argv.includes('--clean')) process.exit(0);

// The bundle carries the packages as installed here, and npm runs prepack before prepare (patch-package):
// packed from an install made without scripts, every user's builds would be slower without a word.
const missingPatches = missingPatchesLine();
if (missingPatches) {
  console.error(`${missingPatches}\nnpm pack stops here: the bundle would carry these packages unpatched.`);
  process.exit(1);
}

/** The tool's own browser scripts, each with the module format the build bundles it in. */
const BROWSER_SCRIPTS = [
  ['templates/client/main.ts', 'iife'],
  ['templates/client/search-engine.ts', 'esm'],
  ['src/serve/client/reload.ts', 'iife'],
];

const bundled = await build({ ...cliBundleOptions(root, lib, { __DOCS_PACKAGED__: 'true' }), metafile: true });
writeNotices(Object.keys(bundled.metafile.inputs));
await build({
  entryPoints: { index: join(root, 'templates', 'types.ts') },
  outdir: lib,
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'node20',
  logLevel: 'warning',
});
declareTypes();

// The browser scripts, made by the very function a build of the sources makes them with (no cache).
process.env.DOCS_CACHE = '0';
const { register } = await import('tsx/esm/api');
register({ tsconfig: join(root, 'tsconfig.json') });
const { bundleBrowserScript, prebuiltScriptName } = await import('../src/build/assets.ts');
mkdirSync(join(lib, 'browser'));
for (const [file, format] of BROWSER_SCRIPTS) {
  const entry = join(root, file);
  writeFileSync(join(lib, 'browser', prebuiltScriptName(entry, format)), await bundleBrowserScript(entry, format));
}

/** lib/THIRD-PARTY-NOTICES.txt for the packages whose files are among the bundle's inputs (paths relative to the root). */
function writeNotices(inputs) {
  const folders = new Set();
  for (const input of inputs) {
    const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.split('\\').join('/'));
    if (m) folders.add(m[1]);
  }
  const notices = [...folders]
    .map((folder) => {
      const manifest = JSON.parse(readFileSync(join(root, folder, 'package.json'), 'utf8'));
      const file = readdirSync(join(root, folder)).find((name) => /^(licen[cs]e|copying)(\.(md|txt))?$/i.test(name));
      const text = file ? readFileSync(join(root, folder, file), 'utf8').trim() : `(no licence file in the package; its package.json says: ${manifest.license ?? 'nothing'})`;
      return { id: `${manifest.name}@${manifest.version}`, license: manifest.license ?? 'unknown', text };
    })
    .filter((notice, i, all) => all.findIndex((other) => other.id === notice.id) === i)
    .sort((a, b) => (a.id < b.id ? -1 : 1));
  const intro = 'The files of lib/ hold code of these packages, bundled with the tool. Each is listed with its licence.\n';
  writeFileSync(join(lib, 'THIRD-PARTY-NOTICES.txt'), [intro, ...notices.map((n) => `${'='.repeat(72)}\n${n.id} (${n.license})\n\n${n.text}\n`)].join('\n'));
}

/**
 * The declarations of the public entry (tsconfig.types.json), with the types the config's zod schemas
 * infer (SiteConfig, Frontmatter…) written out in full: zod is bundled, not installed with the package,
 * so `z.infer<…>` would leave a component's `ctx.site.config` untyped in the user's editor. Declarations
 * only: checking the types is the typecheck's work (npm test).
 */
function declareTypes() {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.types.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  const program = ts.createProgram(config.fileNames, { ...config.options, noCheck: true });
  const emitted = program.emit();
  // (Not emitSkipped: a declaration-only emit sets it for the JSON files the sources import, the interface strings, which it does not write.)
  if (emitted.diagnostics.length) throw new Error(ts.formatDiagnostics(emitted.diagnostics, { getCanonicalFileName: (f) => f, getCurrentDirectory: () => root, getNewLine: () => '\n' }));
  const checker = program.getTypeChecker();
  for (const source of program.getSourceFiles()) {
    if (source.isDeclarationFile || !source.fileName.startsWith(root)) continue;
    const declared = join(lib, 'types', relative(root, source.fileName).replace(/\.tsx?$/, '.d.ts'));
    let text;
    for (const statement of source.statements) {
      if (!ts.isTypeAliasDeclaration(statement) || !/^z\.(infer|input|output)</.test(statement.type.getText(source))) continue;
      text ??= readFileSync(declared, 'utf8');
      const line = new RegExp(`^export type ${statement.name.text} = z\\.(infer|input|output)<typeof \\w+>;$`, 'm');
      if (!line.test(text)) throw new Error(`${relative(root, declared)}: no declaration of ${statement.name.text} as zod infers it`);
      const full = checker.typeToString(checker.getTypeAtLocation(statement.name), undefined, ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.InTypeAlias | ts.TypeFormatFlags.MultilineObjectLiterals);
      text = text.replace(line, `export type ${statement.name.text} = ${full};`);
    }
    if (text !== undefined) writeFileSync(declared, text);
  }
}
