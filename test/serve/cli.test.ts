import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serve } from '../../src/serve/command.js';
import { capture, freePort, get, makeFixture, openPage, portInUse, ROOT, type Fixture } from './helpers.js';

let fixture: Fixture;
const children: ChildProcess[] = [];

beforeAll(() => {
  fixture = makeFixture();
});

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

afterAll(() => fixture?.cleanup());

interface Running {
  child: ChildProcess;
  url: string;
  output: () => string;
  exit: Promise<number | null>;
}

/** Starts `docs serve` in a child process; resolves once it prints its URL. */
async function start(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Running> {
  const child = spawn(process.execPath, [join(ROOT, 'bin/docs.js'), 'serve', '--root', fixture.site, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`docs serve did not start:\n${output}`)), 90_000);
    const check = () => {
      const m = /Serving (http:\/\/\S+\/) /.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child.stdout!.on('data', check);
    child.stderr!.on('data', check);
    void exit.then(() => reject(new Error(`docs serve exited early:\n${output}`)));
  });
  return { child, url, output: () => output, exit };
}

describe('docs serve on the command line', () => {
  it('stops cleanly on SIGINT (Ctrl+C) with exit code 0 and frees the port', async () => {
    const port = await freePort();
    const run = await start(['--port', String(port)]);
    expect(run.url).toBe(`http://127.0.0.1:${port}/`);
    expect((await get(run.url, '/guides/alpha/')).status).toBe(200);
    const events = await openPage(run.url, '/');
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
    await events.closed;
    expect(run.output()).toContain('Stopping the preview server');
    expect(await portInUse(port)).toBe(false);
  });

  it('a Ctrl+C during the first build stops it there, with exit code 0 (not once the build is done)', async () => {
    // A page of 5 MB: its first build takes seconds, and the stop comes as soon as the server listens.
    const body = Array.from({ length: 80_000 }, (_, i) => `## Section ${i}\n\nText of section ${i}, with *emphasis* and \`code\`.\n`).join('\n');
    fixture.write('content/guides/huge.md', `---\ntitle: Huge\n---\n\n${body}`);
    try {
      const cache = mkdtempSync(join(tmpdir(), 'docs-serve-cache-'));
      const run = await start(['--port', '0'], { DOCS_CACHE_DIR: cache });
      run.child.kill('SIGINT');
      expect(await run.exit).toBe(0);
      expect(run.output()).toContain('Stopping the preview server');
      // The build was left, not waited for.
      expect(run.output()).not.toContain('Ready in');
      rmSync(cache, { recursive: true, force: true });
    } finally {
      fixture.remove('content/guides/huge.md');
    }
  });

  it('stops cleanly on SIGTERM with exit code 0', async () => {
    const port = await freePort();
    const run = await start(['--port', String(port)]);
    run.child.kill('SIGTERM');
    expect(await run.exit).toBe(0);
    expect(await portInUse(port)).toBe(false);
  });

  it('says when the port is taken and uses the next free one', async () => {
    const port = await freePort();
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(port, '127.0.0.1', () => r()));
    try {
      const run = await start(['--port', String(port)]);
      expect(run.output()).toContain(`Port ${port} is already in use; trying ${port + 1}.`);
      const used = Number(new URL(run.url).port);
      expect(used).toBeGreaterThan(port);
      expect(run.output()).toContain(`Port ${port} was in use, so the preview uses port ${used} instead.`);
      expect((await get(run.url, '/')).status).toBe(200);
      run.child.kill('SIGINT');
      expect(await run.exit).toBe(0);
    } finally {
      await new Promise<void>((r) => blocker.close(() => r()));
    }
  });

  it('--open starts the browser with the URL', async () => {
    const opened = join(fixture.site, '..', 'opened.txt');
    const opener = join(fixture.site, '..', 'opener.sh');
    writeFileSync(opener, `#!/bin/sh\necho "$1" > "${opened}"\n`);
    chmodSync(opener, 0o755);
    const run = await start(['--port', String(await freePort()), '--open'], { BROWSER: opener });
    for (let i = 0; i < 100 && !existsSync(opened); i++) await new Promise((r) => setTimeout(r, 50));
    expect(readFileSync(opened, 'utf8').trim()).toBe(run.url);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
  });

  it('--open without a browser says so and keeps serving', async () => {
    const run = await start(['--port', String(await freePort()), '--open'], { BROWSER: join(fixture.site, 'no-such-browser') });
    for (let i = 0; i < 100 && !run.output().includes('Could not open a browser'); i++) await new Promise((r) => setTimeout(r, 50));
    expect(run.output()).toContain(`Could not open a browser (${join(fixture.site, 'no-such-browser')} was not found); open ${run.url} yourself.`);
    expect((await get(run.url, '/')).status).toBe(200);
    run.child.kill('SIGINT');
    expect(await run.exit).toBe(0);
  });

  it('rejects a port that is not a port', async () => {
    const captured = capture();
    const code = await serve({ root: fixture.site, config: 'site.config.yaml', port: Number('abc'), host: '127.0.0.1', open: false }, captured.io);
    expect(code).toBe(2);
    expect(captured.err).toContain('--port must be a number from 0 to 65535');
  });
});

