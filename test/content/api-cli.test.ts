import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { removeDir, ROOT, scratchDir, writeFiles } from '../helpers/content.js';
import { webpack as webpackLib } from '../helpers/webpack.js';
import { exampleTracker, fixtureFiles, h3sUnder, readPage, reportCount, sectionsOf } from './api-helpers.js';

const devServerSchema = createRequire(import.meta.url)('webpack-dev-server/lib/options.json') as object;

const PAGE = 'api/cli';
const CLI = join(ROOT, 'node_modules', 'webpack-cli', 'bin', 'cli.js');
const COMMANDS_WITH_HELP = ['build', 'watch', 'serve', 'info', 'configtest', 'version', 'help'];
/** Its help needs the optional package @bomb.sh/tab, which the project does not install. */
const COMMANDS = [...COMMANDS_WITH_HELP, 'complete'];
const REMOVED_COMMANDS = ['init', 'loader', 'plugin'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs the installed webpack-cli in `cwd`. Standard output goes to a file: the CLI
 * exits right after printing, and a pipe would lose the end of long help texts.
 */
function cli(cwd: string, args: string[]): Promise<Run> {
  const out = join(cwd, `.cli-${Math.random().toString(36).slice(2)}.txt`);
  const fd = openSync(out, 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', fd, 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      closeSync(fd);
      const stdout = readFileSync(out, 'utf8');
      rmSync(out, { force: true });
      resolve({ code, stdout, stderr });
    });
  });
}

/** Long option → usage as printed, e.g. '--output-path' → '-o, --output-path <value>'. */
function usages(help: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of help.split('\n')) {
    const m = /^ {2}((?:-[a-zA-Z], )?(--[a-z0-9-]+)(?: [<[][^>\]]*[>\]])?)/.exec(line);
    if (m) map.set(m[2]!, m[1]!);
  }
  return map;
}

describe('/api/cli/', () => {
  const examples = exampleTracker(PAGE);
  let dir: string;
  const helps = new Map<string, string>();

  beforeAll(async () => {
    dir = scratchDir('api-cli');
    writeFiles(dir, { 'package.json': '{ "private": true }\n', ...fixtureFiles('app') });
    const runs = await Promise.all([
      cli(dir, ['--help=verbose']).then((r) => ['(root)', r] as const),
      ...COMMANDS_WITH_HELP.map((c) => cli(dir, [c, '--help=verbose']).then((r) => [c, r] as const)),
    ]);
    for (const [name, run] of runs) {
      expect(run.code, `help of ${name}: ${run.stderr}`).toBe(0);
      helps.set(name, run.stdout);
    }
  });
  afterAll(() => removeDir(dir));

  it('has a heading for every command, showing its aliases and arguments as the CLI prints them', () => {
    const root = helps.get('(root)')!;
    // webpack-cli 7 prints the heading without a colon, followed by a rule line.
    const list = root.slice(root.indexOf('\nCommands\n'), root.indexOf('\n\n', root.indexOf('\nCommands\n') + 2));
    const commands = [...list.matchAll(/^ {2}((\w+)(?:\|\w+)* [^\n]*?)\s{2,}/gm)].map((m) => ({ name: m[2]!, usage: m[1]!.trim() }));
    reportCount('CLI commands', commands.length);
    expect(commands.map((c) => c.name).sort()).toEqual([...COMMANDS].sort());
    const documented = new Map(h3sUnder(PAGE, 'Commands').map((s) => [s.text, s]));
    expect([...documented.keys()].sort()).toEqual(commands.map((c) => c.name).sort());
    for (const command of commands) {
      expect(/`([^`]+)`/.exec(documented.get(command.name)!.body)?.[1], `usage of ${command.name}`).toBe(command.usage);
    }
  });

  it('complete needs @bomb.sh/tab for a script, and stays silent when the shell asks without it', async () => {
    const [script, words] = await Promise.all([cli(dir, ['complete', 'bash']), cli(dir, ['complete', '--', 'b', '--mo'])]);
    expect(script.code).toBe(2);
    expect(script.stderr).toContain("you need to install: '@bomb.sh/tab' package");
    expect(words.code).toBe(0);
    expect(words.stdout).toBe('');
    expect(readPage(PAGE).body).toContain('without it, asking for a script stops with exit code `2` and a message that names the package');
  });

  it('documents that init, loader and plugin are not commands of this webpack-cli', async () => {
    const runs = await Promise.all(REMOVED_COMMANDS.map((command) => cli(dir, [command, '--help'])));
    REMOVED_COMMANDS.forEach((command, i) => {
      expect(runs[i]!.code, command).toBe(2);
      expect(runs[i]!.stderr).toContain(`Can't find and load command '${command}'`);
    });
    expect(readPage(PAGE).body).toContain('has no `init`, `loader` or `plugin` commands');
  });

  it('has a heading for every option of every command, with the usage the CLI prints', () => {
    const all = new Map<string, Set<string>>();
    for (const help of helps.values()) {
      for (const [flag, usage] of usages(help)) all.set(flag, (all.get(flag) ?? new Set()).add(usage));
    }
    const sections = sectionsOf(PAGE).filter((s) => s.depth === 3 && s.text.startsWith('-'));
    const byFlag = new Map(sections.map((s) => [s.text, s]));
    const missing: string[] = [];
    for (const flag of all.keys()) {
      if (byFlag.has(flag)) continue;
      const positive = flag.replace(/^--no-/, '--');
      if (flag.startsWith('--no-') && byFlag.get(positive)?.body.includes(`\`${flag}\``)) continue;
      missing.push(flag);
    }
    const positives = [...all.keys()].filter((f) => !f.startsWith('--no-')).length;
    reportCount('CLI options, all commands (including --no- forms)', all.size);
    reportCount('CLI options without the --no- forms', positives);
    reportCount('CLI option headings', sections.length);
    expect(missing, 'options without a heading').toEqual([]);
    expect(sections.filter((s) => !all.has(s.text)).map((s) => s.text), 'headings for options the CLI does not have').toEqual([]);
    const wrongUsage = sections
      .filter((s) => !all.get(s.text)!.has(/`([^`]+)`/.exec(s.body)?.[1] ?? ''))
      .map((s) => `${s.text}: page shows ${/`([^`]+)`/.exec(s.body)?.[1]}, CLI prints ${[...all.get(s.text)!].join(' / ')}`);
    expect(wrongUsage, 'usage lines that differ from the help output').toEqual([]);
  });

  it('runs the build commands shown on the page against a fixture', async () => {
    const body = readPage(PAGE).body;
    const commands = [
      'npx webpack ./src/index.js --mode production',
      'npx webpack --mode production --output-path build --output-filename "[name].[contenthash].js"',
      'npx webpack help --mode',
      'npx webpack --json=stats.json',
    ];
    for (const command of commands) expect(body, command).toContain(command);
    const args = (command: string) => [...command.slice('npx webpack '.length).matchAll(/"([^"]*)"|(\S+)/g)].map((m) => m[1] ?? m[2]!);

    const [first, second, third, fourth] = await Promise.all(commands.map(async (command, index) => {
      const cwd = scratchDir(`api-cli-run-${index}`);
      writeFiles(cwd, { 'package.json': '{ "private": true }\n', ...fixtureFiles('app') });
      return { cwd, run: await cli(cwd, args(command)) };
    }));
    try {
      expect(first!.run.code, first!.run.stderr).toBe(0);
      expect(existsSync(join(first!.cwd, 'dist', 'main.js'))).toBe(true);
      expect(second!.run.code, second!.run.stderr).toBe(0);
      expect(readdirSync(join(second!.cwd, 'build')).some((f) => /^main\.[0-9a-f]{20}\.js$/.test(f))).toBe(true);
      expect(third!.run.stdout).toContain("Possible values: 'development' | 'production' | 'none'");
      expect(fourth!.run.code, fourth!.run.stderr).toBe(0);
      const stats = JSON.parse(readFileSync(join(fourth!.cwd, 'stats.json'), 'utf8')) as { assets: { name: string }[] };
      expect(stats.assets.map((a) => a.name)).toContain('main.js');
    } finally {
      for (const entry of [first, second, third, fourth]) removeDir(entry!.cwd);
    }
  });

  it('passes --env values to the configuration function shown', async () => {
    const cwd = scratchDir('api-cli-env');
    try {
      writeFiles(cwd, { 'package.json': '{ "private": true }\n', ...fixtureFiles('app'), 'webpack.config.js': examples.code('webpack.config.js') });
      expect(readPage(PAGE).body).toContain('npx webpack --env production --env platform=node');
      const run = await cli(cwd, ['--env', 'production', '--env', 'platform=node']);
      expect(run.code, run.stderr).toBe(0);
      const out = readFileSync(join(cwd, 'dist', 'main.node.js'), 'utf8');
      // production mode minimizes; the node target loads chunks with require()
      expect(out.split('\n').length).toBeLessThan(5);
      expect(out).toContain('require(');
    } finally {
      removeDir(cwd);
    }
  });

  it('describes every enumerated value of a flag, and offers a string only where the CLI accepts one', () => {
    // The flags are generated from webpack's schema and from webpack-dev-server's: a flag can have
    // several configs (an enum, a string, a boolean, …); the page lists the enum values in code spans.
    const sections = new Map(sectionsOf(PAGE).filter((s) => s.depth === 3 && s.text.startsWith('-')).map((s) => [s.text, s]));
    const schemas = [webpackLib.cli.getArguments(), webpackLib.cli.getArguments(devServerSchema as never)];
    const problems: string[] = [];
    let values = 0;
    for (const args of schemas) {
      for (const [name, arg] of Object.entries(args)) {
        // Flags that only exist in their --no- form are documented under that heading.
        const section = sections.get(`--${name}`) ?? sections.get(`--no-${name}`);
        if (!section) {
          problems.push(`--${name}: no heading`);
          continue;
        }
        const description = section.body.split('\n\n').slice(0, 3).join('\n\n');
        const enums = arg.configs.flatMap((c) => (c.type === 'enum' ? (c.values ?? []) : []));
        const acceptsString = arg.configs.some((c) => c.type === 'string' || c.type === 'path');
        for (const value of enums) {
          values++;
          if (!description.includes(`\`${String(value)}\``)) problems.push(`--${name}: value ${String(value)} not named`);
        }
        if (/\b(?:or|to) a string\b/.test(description) && !acceptsString) problems.push(`--${name}: the page offers a string, the CLI accepts only ${arg.configs.map((c) => c.type).join(', ')}`);
      }
    }
    reportCount('enumerated flag values checked', values);
    expect(problems).toEqual([]);
  });

  it('adds positional entries to the configured entry instead of replacing it', async () => {
    const cwd = scratchDir('api-cli-positional');
    try {
      writeFiles(cwd, {
        'package.json': '{ "private": true }\n',
        'webpack.config.js': "module.exports = { mode: 'development', devtool: false, entry: './src/a.js' };\n",
        'src/a.js': "console.log('from-config-entry');\n",
        'src/b.js': "console.log('from-positional-entry');\n",
      });
      const run = await cli(cwd, ['./src/b.js']);
      expect(run.code, run.stderr).toBe(0);
      const out = readFileSync(join(cwd, 'dist', 'main.js'), 'utf8');
      expect(out).toContain('from-config-entry');
      expect(out).toContain('from-positional-entry');
      expect(readPage(PAGE).body).toContain('They are added to the `entry` of the configuration');
    } finally {
      removeDir(cwd);
    }
  });

  it('sets WEBPACK_BUNDLE and WEBPACK_BUILD for a one-off build and only WEBPACK_WATCH with --watch or watch', async () => {
    const cwd = scratchDir('api-cli-env-flags');
    try {
      writeFiles(cwd, {
        'package.json': '{ "private": true }\n',
        ...fixtureFiles('app'),
        // Records the env it receives; a watch run stops here instead of watching.
        'webpack.config.js': [
          "const fs = require('node:fs');",
          'module.exports = (env) => {',
          "  const keys = Object.keys(env).filter((k) => k.startsWith('WEBPACK_')).sort();",
          "  fs.appendFileSync('env.txt', keys.join(',') + '\\n');",
          '  if (env.WEBPACK_WATCH) process.exit(0);',
          "  return { mode: 'development' };",
          '};',
          '',
        ].join('\n'),
      });
      for (const args of [[], ['--watch'], ['watch']]) {
        const run = await cli(cwd, args);
        expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(0);
      }
      expect(readFileSync(join(cwd, 'env.txt'), 'utf8').trim().split('\n')).toEqual(['WEBPACK_BUILD,WEBPACK_BUNDLE', 'WEBPACK_WATCH', 'WEBPACK_WATCH']);
      expect(readPage(PAGE).body).toContain('`WEBPACK_WATCH` (and neither of the other two) for the `watch` command or a build with `--watch`');
    } finally {
      removeDir(cwd);
    }
  });

  it('merges two configurations from one file with --merge, and refuses a single configuration', async () => {
    const cwd = scratchDir('api-cli-merge');
    try {
      writeFiles(cwd, {
        'package.json': '{ "private": true }\n',
        ...fixtureFiles('app'),
        'pair.config.js': "module.exports = [{ mode: 'development', devtool: false }, { output: { filename: 'merged.js' } }];\n",
        'single.config.js': "module.exports = { mode: 'development' };\n",
      });
      const pair = await cli(cwd, ['-c', 'pair.config.js', '--merge']);
      expect(pair.code, pair.stderr).toBe(0);
      expect(existsSync(join(cwd, 'dist', 'merged.js'))).toBe(true);
      const single = await cli(cwd, ['-c', 'single.config.js', '--merge']);
      expect(single.code).toBe(2);
      expect(single.stderr).toContain('At least two configurations are required for merge');
      expect(readPage(PAGE).body).toContain('Needs at least two configurations, which can come from two files or from one file that exports an array');
    } finally {
      removeDir(cwd);
    }
  });

  it('version and -v print the package list, info adds the system report', async () => {
    const [version, short, info] = await Promise.all([cli(ROOT, ['version', '--output', 'json']), cli(ROOT, ['-v']), cli(ROOT, ['info', '--output', 'json'])]);
    expect(version.code, version.stderr).toBe(0);
    const report = JSON.parse(version.stdout) as Record<string, Record<string, unknown>>;
    expect(Object.keys(report)).toEqual(['Packages']);
    // Packages whose names contain webpack or loader, not only webpack, webpack-cli and webpack-dev-server.
    expect(Object.keys(report['Packages']!)).toEqual(expect.arrayContaining(['webpack', 'webpack-cli', 'css-loader']));
    expect(short.code, short.stderr).toBe(0);
    expect(short.stdout).toMatch(/^⬡ Packages:$/m);
    expect(short.stdout).not.toMatch(/System:/);
    expect(info.code, info.stderr).toBe(0);
    expect(Object.keys(JSON.parse(info.stdout) as object)).toEqual(expect.arrayContaining(['System', 'Binaries', 'Packages']));
    const versionOnlyOutput = await cli(ROOT, ['version', '--additional-package', 'postcss']);
    expect(versionOnlyOutput.code).toBe(2);
    const body = readPage(PAGE).body;
    expect(body).toContain('Only `--output` is accepted. For the report with the operating system');
    expect(body).not.toContain('Prints the same report as `info`');
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
