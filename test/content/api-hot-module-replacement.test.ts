import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPage } from './api-helpers.js';
import { webpack } from '../helpers/webpack.js';
import { buildWith, exampleTracker, h3sUnder, reportCount } from './api-helpers.js';

const require = createRequire(import.meta.url);
const PAGE = 'api/hot-module-replacement';
const HMR_DIR = join(dirname(require.resolve('webpack/package.json')), 'lib', 'hmr');

/** First-column code values of the table that follows a heading. */
function tableKeys(heading: string): string[] {
  const body = readPage(PAGE).body;
  const start = body.indexOf(`\n## ${heading}\n`);
  expect(start, `section ${heading}`).toBeGreaterThan(-1);
  const section = body.slice(start + heading.length + 5).split('\n## ')[0]!;
  return [...section.matchAll(/^\| `(\w+)(?:\([^`]*\))?` \|/gm)].map((m) => m[1]!);
}

describe('/api/hot-module-replacement/', () => {
  const examples = exampleTracker(PAGE);

  it('documents every member of the real module.hot object, as a method or a property', async () => {
    const files = {
      'src/index.js': [
        'const hot = module.hot;',
        'console.log(JSON.stringify(Object.keys(hot).filter((k) => !k.startsWith("_")).map((k) => [k, typeof hot[k]])));',
        'console.log(module.hot === require("./esm.js").default);',
      ].join('\n'),
      'src/esm.js': 'export default import.meta.webpackHot;\n',
    };
    const build = await buildWith('api-hmr-members', files, { target: 'node', plugins: [new webpack.HotModuleReplacementPlugin()] });
    let members: [string, string][];
    let sameObjectKind: string;
    try {
      const [json, same] = execFileSync(process.execPath, [join(build.dir, 'dist', 'main.js')], { encoding: 'utf8' }).trim().split('\n');
      members = JSON.parse(json!) as [string, string][];
      sameObjectKind = same!;
    } finally {
      build.cleanup();
    }
    // module.hot and import.meta.webpackHot are each module's own object: an ES module has its own.
    expect(sameObjectKind).toBe('false');
    const documented = [...h3sUnder(PAGE, 'Module API'), ...h3sUnder(PAGE, 'Management API')].map((s) => s.text);
    const expected = members.map(([name, type]) => (type === 'function' ? `${name}()` : name));
    reportCount('HMR API members', members.length);
    expect(expected.filter((m) => !documented.includes(m)), 'members without a heading (methods written name())').toEqual([]);
    expect(documented.filter((d) => !expected.includes(d)), 'headings for members that do not exist').toEqual([]);
  });

  it('lists every status the runtime sets and every apply option it reads', () => {
    const runtime = readFileSync(join(HMR_DIR, 'HotModuleReplacement.runtime.js'), 'utf8');
    const statuses = new Set([...runtime.matchAll(/setStatus\("(\w+)"\)/g)].map((m) => m[1]!));
    expect(tableKeys('Statuses').sort()).toEqual([...statuses].sort());
    const jsRuntime = readFileSync(join(HMR_DIR, 'JavascriptHotModuleReplacement.runtime.js'), 'utf8');
    const typedef = jsRuntime.slice(jsRuntime.indexOf('@typedef {object} ApplyOptions'), jsRuntime.indexOf('*/', jsRuntime.indexOf('@typedef {object} ApplyOptions')));
    const options = [...typedef.matchAll(/@property \{[^}]+\} (\w+)/g)].map((m) => m[1]!);
    reportCount('HMR statuses', statuses.size);
    reportCount('HMR apply options', options.length);
    expect(tableKeys('Apply options').sort()).toEqual(options.sort());
  });

  it('compiles the examples with HotModuleReplacementPlugin: the runtime has the hot handlers', async () => {
    const files = {
      'src/index.js': examples.code('src/index.js'),
      'src/counter.js': examples.code('src/counter.js'),
      'src/view.js': "import { increment } from './counter.js';\nexport function render() {\n  return { text: `clicked ${increment()}`, remove() {} };\n}\n",
    };
    const hot = await buildWith('api-hmr-examples', files, { plugins: [new webpack.HotModuleReplacementPlugin()] });
    const cold = await buildWith('api-hmr-cold', files, { target: 'node' });
    try {
      const code = hot.outputs['main.js']!;
      for (const handler of ['webpack/runtime/hot module replacement', 'function hotCheck(', 'function hotApply(', 'addStatusHandler', 'addDisposeHandler']) {
        expect(code, handler).toContain(handler);
      }
      // import.meta.webpackHot becomes the module's hot object; the accept call names the dependency
      // by its module id and re-binds the imported names before the callback runs.
      expect(code).toMatch(
        /module\.hot\.accept\(\/\*! \.\/view\.js \*\/ "\.\/src\/view\.js", __WEBPACK_OUTDATED_DEPENDENCIES__ => \{ \/\* harmony import \*\/ _view_js__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__/,
      );
      expect(code).toContain('module.hot.dispose((data) =>');
      // Without HMR the guards are `if (undefined)`: no runtime, and the modules still run.
      expect(cold.outputs['main.js']).not.toContain('hotCheck');
      expect(cold.outputs['main.js']).toContain('if (/* unsupported import.meta.webpackHot */ undefined)');
      execFileSync(process.execPath, [join(cold.dir, 'dist', 'main.js')], { encoding: 'utf8' });
    } finally {
      hot.cleanup();
      cold.cleanup();
    }
  });

  it('used every titled example of the page', () => {
    expect(examples.unused()).toEqual([]);
  });
});
