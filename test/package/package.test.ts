import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/*
 * The package as a user gets it: `npm pack` of this repository, installed into an empty project in a
 * temporary folder outside it, and used only through what the package offers (`npx docs`, the JSON
 * Schema under node_modules/, the public entry imported by the package's name). The commands `docs init`
 * prints are run exactly as printed.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const NAME = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string }).name;

/** npm's own settings of the run that started the tests (npm test) would change what a nested npm does: only these are kept. */
const KEPT_NPM = new Set(['npm_config_cache', 'npm_config_registry', 'npm_config_userconfig']);
const ENV = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_') || KEPT_NPM.has(key.toLowerCase())));

interface Run {
  code: number | null;
  out: string;
  err: string;
}

function run(command: string, args: string[], cwd: string): Run {
  const result = spawnSync(command, args, { cwd, env: ENV, encoding: 'utf8', timeout: 150_000 });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

/** A command line as `docs init` printed it, run by the shell in the project. */
const shell = (line: string, cwd: string) => run('sh', ['-c', line], cwd);

let temp: string;
let project: string;
let files: string[];
let manifest: { name: string; bin: Record<string, string>; dependencies?: Record<string, string>; scripts?: Record<string, string>; exports: Record<string, unknown> };
let init: Run;
let next: { serve: string; build: string };

beforeAll(() => {
  temp = mkdtempSync(join(tmpdir(), 'docs-package-'));
  const packed = run('npm', ['pack', '--json', '--pack-destination', temp], ROOT);
  expect(packed.code, packed.err).toBe(0);
  const [info] = JSON.parse(packed.out.slice(packed.out.indexOf('['))) as Array<{ filename: string; files: Array<{ path: string }> }>;
  files = info!.files.map((f) => f.path).sort();
  const tarball = join(temp, info!.filename);

  project = join(temp, 'my-project');
  mkdirSync(project);
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-project', private: true }, null, 2));
  const installed = run('npm', ['install', '-D', tarball, '--prefer-offline', '--no-audit', '--no-fund'], project);
  expect(installed.code, installed.err).toBe(0);
  manifest = JSON.parse(readFileSync(join(project, 'node_modules', NAME, 'package.json'), 'utf8'));

  init = run('npx', ['docs', 'init', 'docs-site'], project);
  const lines = init.out.split('\n').map((line) => line.trim());
  next = { serve: lines.find((line) => / serve /.test(line)) ?? '', build: lines.find((line) => / build /.test(line)) ?? '' };
}, 240_000);

afterAll(() => {
  if (temp) rmSync(temp, { recursive: true, force: true });
});

describe('the package', () => {
  it('is the tool alone: a neutral name, the docs command, compiled JavaScript, and esbuild as its one dependency', () => {
    expect(NAME).not.toMatch(/webpack/i);
    expect(manifest.bin).toEqual({ docs: 'bin/installed.js' });
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(['esbuild']);
    // Nothing runs where it is installed (the repository's own prepare applies its patches there only).
    for (const script of ['preinstall', 'install', 'postinstall']) expect(manifest.scripts?.[script], script).toBeUndefined();
    for (const file of ['bin/installed.js', 'lib/cli.mjs', 'lib/pool-worker.mjs', 'lib/serve-worker.mjs', 'lib/index.js', 'lib/THIRD-PARTY-NOTICES.txt', 'lib/types/templates/types.d.ts', 'site.config.schema.json', 'templates/favicon.svg', 'templates/styles/00-base.css', 'templates/starter/site.config.yaml', 'package.json', 'README.md', 'docs/manual.md']) {
      expect(files, file).toContain(file);
    }
    const outside = files.filter((file) => !/^(bin\/installed\.js|lib\/|templates\/(favicon\.svg|styles\/[^/]+\.css)$|templates\/starter\/|site\.config\.schema\.json$|package\.json$|README\.md$|docs\/manual\.md$)/.test(file));
    expect(outside).toEqual([]);
    // TypeScript only as declarations (for a component's editor): nothing compiles TypeScript where the tool runs.
    expect(files.filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'))).toEqual([]);
    expect(files.filter((file) => /webpack/i.test(file))).toEqual([]);
    // Packing leaves the repository as it was (the bundle is made into lib/ and removed again).
    expect(existsSync(join(ROOT, 'lib'))).toBe(false);
  });

  it('carries the licence of every package its bundle holds code of', () => {
    const notices = readFileSync(join(project, 'node_modules', NAME, 'lib', 'THIRD-PARTY-NOTICES.txt'), 'utf8');
    for (const pkg of ['react', 'react-dom', 'shiki', 'unified', 'remark-parse', 'zod', 'yaml', 'commander', 'chokidar', 'beautiful-mermaid', 'elkjs']) {
      const version = (JSON.parse(readFileSync(join(ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
      expect(notices, pkg).toContain(`\n${pkg}@${version} (`);
    }
    expect(notices).toContain('Eclipse Public License - v 2.0');
    expect(notices).toContain('Permission is hereby granted, free of charge');
  });

  it('docs init prints the commands as they run in the project, and names the schema under node_modules', () => {
    expect(init.err).toBe('');
    expect(init.code).toBe(0);
    expect(next).toEqual({ serve: 'npx docs serve --root docs-site', build: 'npx docs build --root docs-site' });
    const config = readFileSync(join(project, 'docs-site', 'site.config.yaml'), 'utf8');
    const schema = /^\$schema: (.+)$/m.exec(config)?.[1];
    expect(schema).toBe(`../node_modules/${NAME}/site.config.schema.json`);
    expect(config).toContain(`# yaml-language-server: $schema=${schema}\n`);
    expect(JSON.parse(readFileSync(join(project, 'docs-site', schema!), 'utf8'))).toHaveProperty('properties.site');
  });

  it('builds with the printed command, a component importing the package by its name, its cache in the project', () => {
    const site = join(project, 'docs-site');
    mkdirSync(join(site, 'components'));
    writeFileSync(
      join(site, 'components', 'Footer.tsx'),
      `import { href, isExternal, type FooterProps } from '${NAME}';\n\n` +
        'export function Footer({ ctx }: FooterProps) {\n' +
        '  return <footer className="own-footer"><a href={href(ctx, "/guide/")} data-external={String(isExternal("https://example.org/"))}>{ctx.site.config.site.title}</a></footer>;\n' +
        '}\n',
    );
    writeFileSync(join(site, 'site.config.yaml'), readFileSync(join(site, 'site.config.yaml'), 'utf8') + '\ncomponents:\n  Footer: components/Footer.tsx\n');
    const built = shell(next.build, project);
    expect(built.err).toBe('');
    expect(built.code).toBe(0);
    const home = readFileSync(join(site, 'dist', 'index.html'), 'utf8');
    expect(home).toContain('<footer class="own-footer"><a href="/guide/" data-external="true">My Project</a></footer>');
    expect(readdirSync(join(site, 'dist', 'assets')).some((file) => /^main\.[0-9a-f]{10}\.js$/.test(file))).toBe(true);
    expect(existsSync(join(site, 'dist', 'guide', 'markdown', 'index.html'))).toBe(true);
    const written = readdirSync(join(site, 'dist'), { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile());
    expect(written.filter((entry) => /webpack/i.test(readFileSync(join(entry.parentPath, entry.name), 'latin1'))).map((entry) => entry.name)).toEqual([]);
    expect(existsSync(join(project, 'node_modules', '.cache', 'docs'))).toBe(true);
  });

  it("declares the public entry's types: an editor resolves them from the package's name", () => {
    const file = join(project, 'docs-site', 'components', 'links.ts');
    writeFileSync(file, `import { href, type FooterProps } from '${NAME}';\n\nexport const guide = (props: FooterProps): string => href(props.ctx, '/guide/') + props.ctx.site.config.site.title;\n`);
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const options = ['--noEmit', '--strict', '--module', 'nodenext', '--moduleResolution', 'nodenext', '--skipLibCheck'];
    const good = run(process.execPath, [tsc, ...options, file], project);
    expect(good.out + good.err).toBe('');
    expect(good.code).toBe(0);
    // The check can fail: a property the context or the site's config (inferred by zod, which is not installed) does not have is an error.
    writeFileSync(file, `import type { FooterProps } from '${NAME}';\n\nexport const wrong = (props: FooterProps): string[] => [props.ctx.bse, props.ctx.site.config.site.titel];\n`);
    const bad = run(process.execPath, [tsc, ...options, file], project);
    expect(bad.out).toMatch(/Property 'bse' does not exist on type 'RenderContext'/);
    expect(bad.out).toMatch(/Property 'titel' does not exist on type '\{ title: string;/);
    rmSync(file);
  });

  it('serves with the printed command (on a free port)', async () => {
    const port = await freePort();
    const server = spawn('sh', ['-c', `${next.serve} --port ${port}`], { cwd: project, env: ENV, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    server.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
    try {
      await until(() => out.includes('Ready in'), 60_000, () => `no "Ready in" from ${next.serve}:\n${out}\n${err}`);
      const page = await fetch(`http://127.0.0.1:${port}/guide/markdown/`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<footer class="own-footer">');
      const script = /<script src="(\/__docs\/[^"]+)"/.exec(html)?.[1];
      expect(script).toBeDefined();
      expect((await fetch(`http://127.0.0.1:${port}${script}`)).status).toBe(200);
      expect(err).toBe('');
    } finally {
      await stop(server);
    }
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}

async function until(test: () => boolean, ms: number, message: () => string): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(message());
    await new Promise((done) => setTimeout(done, 100));
  }
}

/** Ctrl+C for the shell, npx and docs (one process group), then a kill if they are still there after 10 s. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((done) => child.once('exit', done));
  process.kill(-child.pid!, 'SIGINT');
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // Gone meanwhile.
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}
