import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import type { Configuration } from 'webpack';
import { configBlocks, readPage, removeDir, scratchDir, writeFiles } from '../helpers/content.js';
import { evaluateConfig, validate, webpack } from '../helpers/webpack.js';

/* /api/webpack-dev-server/: the methods the page names exist on the installed server, and the example runs. */

const require = createRequire(import.meta.url);
const PAGE = 'api/webpack-dev-server';
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => removeDir(d)));

type ServerClass = (new (options: Record<string, unknown>, compiler: unknown) => Record<string, unknown>) & Record<string, unknown>;
const Server = require('webpack-dev-server') as ServerClass;

describe('/api/webpack-dev-server/', () => {
  it('is about the installed major version', () => {
    const { version } = require('webpack-dev-server/package.json') as { version: string };
    expect(readPage(PAGE).body).toContain(`webpack-dev-server ${version.split('.')[0]}`);
  });

  it('every method and static helper the page names exists; listen and close do not', () => {
    const compiler = webpack({ mode: 'development', entry: {} });
    const server = new Server({}, compiler);
    for (const m of ['start', 'startCallback', 'stop', 'stopCallback', 'invalidate']) {
      expect(typeof server[m], m).toBe('function');
      expect(readPage(PAGE).body).toContain(`## server.${m}(`);
    }
    for (const m of ['listen', 'close']) expect(server[m], m).toBeUndefined();
    for (const h of ['getFreePort', 'internalIP', 'internalIPSync']) expect(typeof Server[h], h).toBe('function');
    expect(typeof Server.schema).toBe('object');
  });

  it('a wrong option throws in the constructor', () => {
    const compiler = webpack({ mode: 'development', entry: {} });
    expect(() => new Server({ prot: 8080 }, compiler)).toThrow(/Invalid options object/);
  });

  it('getFreePort returns a given port unchecked', async () => {
    expect(await (Server.getFreePort as (p: unknown, h: string) => Promise<unknown>)(1234, '127.0.0.1')).toBe(1234);
  });

  it('the example: the configuration is valid, and smoke-test.js prints the short report and "200 bundle served", and exits', () => {
    const dir = scratchDir('api-dev-server');
    dirs.push(dir);
    const smoke = readPage(PAGE).blocks.find((b) => b.title === 'smoke-test.js')!.code;
    const config = configBlocks(PAGE)[0]!.code;
    writeFiles(dir, {
      'package.json': '{ "private": true }\n',
      'webpack.config.js': config,
      'smoke-test.js': smoke,
      'src/index.js': "document.title = 'Hello from the dev server';\n",
    });
    const { devServer, ...rest } = evaluateConfig(config, dir) as Configuration & { devServer: unknown };
    validate(rest);
    const result = spawnSync(process.execPath, [join(dir, 'smoke-test.js')], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n')).toEqual(['webpack compiled successfully', '200 bundle served']);
    expect(result.status).toBe(0);
    expect(devServer).toBeTruthy();
  });
});
