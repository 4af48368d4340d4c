import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Command, CommanderError } from 'commander';
import { formatProblem, InputError, systemErrorMessage } from '../shared/errors.js';
import { UsageError } from '../build/out-guard.js';
import type { Io } from '../serve/serve.js';
import { TOOL_ROOT } from '../shared/paths.js';
import { POOL_STAGES, stageTimes, SUBSTAGES } from '../shared/stages.js';

const EXIT = { ok: 0, input: 1, usage: 2 } as const;

const pkg = JSON.parse(readFileSync(join(TOOL_ROOT, 'package.json'), 'utf8')) as { version: string };

/** Runs the CLI; resolves to the process exit code. */
export async function main(argv: string[], io: Io = { out: process.stdout, err: process.stderr }): Promise<number> {
  let code: number = EXIT.ok;
  const program = new Command()
    .name('docs')
    .description('Builds and previews the documentation website from site.config.yaml and content/**/*.md.')
    .version(pkg.version, '-v, --version')
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out.write(s), writeErr: (s) => io.err.write(s) })
    .showHelpAfterError('(run docs --help for usage)');

  const common = (cmd: Command) =>
    cmd
      .option('-c, --config <file>', 'the site configuration', 'site.config.yaml')
      .option('--root <dir>', 'the site folder (holds site.config.yaml, content/ and static/)', '.');

  common(program.command('build').description('Build the static site into the output folder.'))
    .option('-o, --out <dir>', 'output folder', 'dist')
    .option('-b, --base <path>', 'base path the site is served under', '/')
    .option('-q, --quiet', 'print only errors')
    .action(async (opts: { config: string; root: string; out: string; base: string; quiet?: boolean }) => {
      code = await runBuild(opts, io, false);
    });

  common(program.command('check').description('Validate config, content and links without writing anything.'))
    .option('--only <prefix>', 'report only problems in files starting with this path (e.g. content/guides/)')
    .option('--strict', 'treat warnings (a page listed in no section) as problems')
    .action(async (opts: { config: string; root: string; only?: string; strict?: boolean }) => {
      code = await runBuild({ ...opts, out: 'dist', base: '/', quiet: false }, io, true);
    });

  common(program.command('serve').description('Build, serve on localhost, rebuild and reload on save.'))
    .option('-p, --port <port>', 'port to listen on', '4000')
    .option('-H, --host <host>', 'interface to listen on (loopback unless told otherwise)', '127.0.0.1')
    .option('--open', 'open the site in the default browser')
    .action(async (opts: { config: string; root: string; port: string; host: string; open?: boolean }) => {
      const { serve } = await import('../serve/command.js');
      const port = /^\d+$/.test(opts.port.trim()) ? Number(opts.port) : Number.NaN;
      code = await serve({ root: opts.root, config: opts.config, port, portText: opts.port, host: opts.host, open: !!opts.open }, io);
    });

  program
    .command('init')
    .description('Write a starter site (config, home page, two sections, a logo) into an empty or new folder.')
    .argument('[dir]', 'the folder to write into', '.')
    .addHelpText('after', INIT_HELP)
    .action(async (dir: string) => {
      const { docsCommand, initSite, shellWord } = await import('../init/init.js');
      try {
        const { root, files } = initSite(dir);
        const where = shellWord(relative(process.cwd(), root) || '.');
        const docs = docsCommand(process.cwd());
        io.out.write(`Wrote ${files.length} files into ${where}. Next:\n  ${docs} serve --root ${where}\n  ${docs} build --root ${where}\n`);
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        io.err.write(`error: ${e.message}\n`);
        code = EXIT.usage;
      }
    });

  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage;
    return reportUnexpected(e, io);
  }
  return code;
}

/**
 * A failure that is not a problem in the writer's files: a file-system
 * error (full disk, no permission) is one line naming the path; anything
 * else is a bug of docs, said in one line, with the stack under DOCS_DEBUG=1.
 */
export function reportUnexpected(e: unknown, io: Io): number {
  const system = systemErrorMessage(e);
  const message = e instanceof Error ? e.message : String(e);
  io.err.write(system ? `docs: ${system}\n` : `docs: unexpected error (a bug in docs, not in your files; please report it): ${message.split('\n')[0]}\n`);
  if (process.env.DOCS_DEBUG === '1') io.err.write(`${e instanceof Error ? e.stack : ''}\n`);
  else if (!system) io.err.write('Run again with DOCS_DEBUG=1 to see where it happened.\n');
  return EXIT.input;
}

/**
 * With DOCS_PROFILE set, one line of the build's stage times (ms) and peak memory, for scripts; with
 * DOCS_PROFILE=table, also a table of each stage's share of the wall time, and of the part that runs
 * on one thread whatever the number of cores: all but the stages the worker pool shares out (POOL_STAGES).
 */
function profile(io: Io, stageTimes: Record<string, number>): void {
  if (!process.env.DOCS_PROFILE) return;
  const stages = Object.fromEntries(Object.entries(stageTimes).map(([k, v]) => [k, Math.round(v)]));
  io.err.write(`DOCS_PROFILE ${JSON.stringify({ stages, maxRssMB: Math.round(process.resourceUsage().maxRSS / 1024) })}\n`);
  if (process.env.DOCS_PROFILE !== 'table') return;
  const wall = performance.now();
  const row = (name: string, ms: number) => `  ${name.padEnd(15)} ${String(Math.round(ms)).padStart(7)} ms ${((100 * ms) / wall).toFixed(1).padStart(5)} %\n`;
  const timedMs = Object.entries(stageTimes).reduce((sum, [stage, ms]) => (SUBSTAGES.has(stage) ? sum : sum + ms), 0);
  const rows = Object.entries(stageTimes).sort((a, b) => b[1] - a[1]).map(([stage, ms]) => row(SUBSTAGES.has(stage) ? ` ${stage}` : stage, ms));
  io.err.write([...rows, row('(untimed)', Math.max(0, wall - timedMs)), row('wall', wall), row('one thread', POOL_STAGES.reduce((rest, stage) => rest - (stageTimes[stage] ?? 0), wall))].join(''));
}

async function runBuild(opts: { config: string; root: string; out: string; base: string; quiet?: boolean; only?: string; strict?: boolean }, io: Io, checkOnly: boolean): Promise<number> {
  const live = !opts.quiet && io.out.isTTY === true;
  let lastPlain = 0;
  try {
    // Loaded here, not on start: `docs serve` leaves the building to its worker and starts quicker without it.
    const { build } = await import('../engine/build.js');
    const result = await build({
      ...opts,
      checkOnly,
      onWait: (pid) => io.err.write(`Waiting for another build (process ${pid}) into ${opts.out}/ to finish…\n`),
      onProgress: opts.quiet
        ? undefined
        : (done, total) => {
            if (live) io.out.write(`\r\x1b[2KRendering pages ${done}/${total}`);
            else if (done === total || done - lastPlain >= 500) {
              lastPlain = done;
              io.out.write(`Rendered ${done}/${total} pages\n`);
            }
          },
    });
    if (live) io.out.write('\r\x1b[2K');
    profile(io, stageTimes);
    if (!opts.quiet) for (const warning of result.warnings) io.err.write(`${formatProblem(warning)} (warning)\n`);
    const seconds = (result.ms / 1000).toFixed(1);
    if (checkOnly) io.out.write(`Checked ${result.pages} pages in ${seconds} s: no problems found.\n`);
    else if (!opts.quiet) {
      const dest = relative(process.cwd(), result.outDir!) || '.';
      io.out.write(`Built ${result.pages} pages in ${seconds} s → ${dest}/\n`);
    }
    return EXIT.ok;
  } catch (e) {
    if (live) io.out.write('\r\x1b[2K');
    // (A failed build's peak memory too: the fuzz tests read it.)
    profile(io, {});
    if (e instanceof InputError) {
      io.err.write(`${e.message}\n${e.problems.length} problem${e.problems.length === 1 ? '' : 's'} found; ${checkOnly ? 'fix them and run docs check again' : 'the previous output was left untouched'}.\n`);
      return EXIT.input;
    }
    if (e instanceof UsageError) {
      io.err.write(`${e.message}\n`);
      return EXIT.usage;
    }
    const code = reportUnexpected(e, io);
    if (!checkOnly) io.err.write('The previous output was left untouched.\n');
    return code;
  }
}

/** What `docs init --help` adds: the config's schema, the commands to run next, and how the starter becomes a site in several languages or versions. */
const INIT_HELP = `
The config names its JSON Schema (editors complete and explain every key) through
node_modules/ of the project that has the tool installed. init prints the two commands
to run next, as they run from the current folder: in a project, for example,
  npx docs serve --root docs-site   (preview with live reload)
  npx docs build --root docs-site   (write the site into docs-site/dist)

The starter is in one language and one version. For more, add to its site.config.yaml:

  languages:                 # the first is the default: content/, served at /
    - code: en
      label: English
    - code: zh-CN            # its pages in content/zh-cn/, served under /zh-cn/
      label: 简体中文
      titles: { Guide: 指南 }  # section and navigation titles in this language
  versions:                  # the first is the current one: content/, at /
    - name: '2.x'
    - name: '1.x'            # its pages in content/1.x/, served under /1.x/, not indexed
      sections: [...]        # its own sidebar and navigation (default: the current ones)

A page a language lacks shows the default language's with a notice; the language and
version menus lead to the same page; each language and version has its own search index.
Interface strings are built in for en, zh, ja, ko, es, fr, de, pt-BR and ru (ui: replaces
single ones). Details: docs/manual.md, "Languages and versions".
`;
