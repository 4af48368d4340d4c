import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Configuration, Stats } from 'webpack';
import { describe, expect, it } from 'vitest';
import { readPage, removeDir, scratchDir, writeFiles, type CodeBlock, type PageSource } from '../helpers/content.js';
import { fakeBrowser } from '../helpers/guides.js';
import { compile, evaluateConfig, validate, webpack } from '../helpers/webpack.js';

/*
 * The guides added for the addresses of webpack.js.org that had none here: advanced entry points, native CSS and
 * the modern web platform. Every webpack.config.js block of these pages is built with the installed webpack in a
 * project made of the page's own titled files, and what the page says the build writes or does is checked.
 */

const PAGES = ['guides/entry-advanced', 'guides/native-css', 'guides/modern-web-platform'] as const;

/** The scratch projects are CommonJS, like a reader's (this repository's package.json says "type": "module"). */
const PACKAGE_JSON = `${JSON.stringify({ name: 'guide-example', private: true }, null, 2)}\n`;

function configs(page: PageSource): CodeBlock[] {
  return page.blocks.filter((b) => b.title === 'webpack.config.js');
}

/** The one webpack.config.js block of the page containing `marker`. */
function configWith(page: PageSource, marker: string): CodeBlock {
  const found = configs(page).filter((b) => b.code.includes(marker));
  if (found.length !== 1) throw new Error(`${page.file}: ${found.length} configurations contain ${marker}`);
  return found[0]!;
}

/** Every titled file of the page except configurations (and package.json unless asked), as a project. */
function projectFiles(page: PageSource, extra: Record<string, string> = {}): Record<string, string> {
  const files: Record<string, string> = { 'package.json': PACKAGE_JSON };
  for (const b of page.blocks) if (b.title && b.title !== 'webpack.config.js') files[b.title] = `${b.code}\n`;
  return { ...files, ...extra };
}

function configFrom(block: CodeBlock): (dir: string) => Configuration {
  return (dir) => evaluateConfig(block.code, dir) as Configuration;
}

async function build(page: PageSource, block: CodeBlock, extra: Record<string, string> = {}) {
  return compile(`guide-${page.file.replace(/\W+/g, '-')}-${block.line}`, projectFiles(page, extra), configFrom(block));
}

function entryAssets(stats: Stats, name: string): string[] {
  return (stats.toJson({ all: false, entrypoints: true }).entrypoints?.[name]?.assets ?? []).map((a) => a.name);
}

describe('the new guides follow the conventions of the guides', () => {
  it.each(PAGES)('%s: group, description, common mistakes, next steps with links, no placeholders', (id) => {
    const page = readPage(id);
    expect(page.frontmatter.group).toBe('Further topics');
    expect(page.frontmatter.description?.length ?? 0).toBeGreaterThan(40);
    const h2 = [...page.body.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(h2).toContain('Common mistakes');
    expect(h2.at(-1)).toBe('Next steps');
    expect((page.body.split(/^## Next steps$/m)[1] ?? '').match(/\]\(\/[^)]*\)/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
    expect(page.body).not.toMatch(/\b(TODO|TBD|coming soon|lorem ipsum)\b/i);
  });

  it.each(PAGES.flatMap((id) => configs(readPage(id)).map((block) => ({ id, line: block.line, block }))))(
    '$id:$line is a valid configuration in production and development',
    ({ id, block }) => {
      const config = evaluateConfig(block.code, join(process.cwd(), 'test', '.tmp')) as Configuration;
      validate({ ...config, mode: 'development' });
      validate(config);
    },
  );
});

describe('advanced entry points', () => {
  const page = readPage('guides/entry-advanced');

  it('an array entry with a script and a stylesheet writes home.js and home.css, as shown', async () => {
    const block = configWith(page, "    about: ['./src/about.js', './src/about.css'],\n  },\n};");
    const result = await build(page, block);
    try {
      expect(Object.keys(result.outputs).sort()).toEqual(['about.css', 'about.js', 'home.css', 'home.js']);
      expect(entryAssets(result.stats, 'home').sort()).toEqual(['home.css', 'home.js']);
      expect(result.outputs['home.css']).toContain('#1d78c1');
      expect(result.outputs['home.js']).not.toContain('#1d78c1');
      expect(result.outputs['home.js']).toContain('Today only: ');
      // The output the page shows is the real one, sizes included.
      const shown = page.blocks.find((b) => b.lang === 'shellsession' && b.code.startsWith('$ npx webpack'))!;
      const real = result.stats.toString({ colors: false }).split('\n');
      for (const line of shown.code.split('\n').slice(1)) expect(real, line).toContain(line);
      expect(shown.code.split('\n').length).toBeGreaterThan(6);
    } finally {
      result.cleanup();
    }
  });

  it('a shared runtime: runtime.js holds the runtime, and both pages run on it', async () => {
    const result = await build(page, configWith(page, "runtime: 'runtime'"));
    try {
      expect(Object.keys(result.outputs).sort()).toEqual(['about.css', 'about.js', 'home.css', 'home.js', 'runtime.js']);
      expect(entryAssets(result.stats, 'home')).toEqual(['runtime.js', 'home.js', 'home.css']);
      expect(result.outputs['runtime.js']).not.toContain('Today only');
      // The two pages run on one runtime: loading both runs format.js once.
      const browser = fakeBrowser(join(result.dir, 'dist'));
      const offer = browser.document.createElement('p');
      const shipping = browser.document.createElement('p');
      (browser.document as unknown as { querySelector: (s: string) => unknown }).querySelector = (s: string) => (s === '#offer' ? offer : shipping);
      for (const file of ['runtime.js', 'home.js', 'about.js']) browser.runScript(file);
      expect(offer.textContent).toBe('Today only: 19.99 €');
      expect(shipping.textContent).toBe('Shipping from 4.90 €');
    } finally {
      result.cleanup();
    }
  });

  it('dependOn and runtime on one entry stop the build with the message the page quotes', async () => {
    const dir = join(process.cwd(), 'test', '.tmp');
    const compiler = webpack({
      mode: 'production',
      context: dir,
      entry: { home: './x.js', about: { import: './y.js', dependOn: 'home', runtime: 'runtime' } },
      output: { path: join(dir, 'never-written') },
    });
    const stats = await new Promise<Stats>((resolve, reject) => compiler.run((err, s) => (err ? reject(err) : resolve(s!))));
    await new Promise((r) => compiler.close(r));
    const message = "Entrypoint 'about' has 'dependOn' and 'runtime' specified. This is not valid.";
    expect(stats.toJson({ all: false, errors: true }).errors!.map((e) => e.message).join('\n')).toContain(message);
    expect(page.body).toContain(message);
  });

  it('the service worker keeps its name and has precache.js inside; the pages get content hashes', async () => {
    const result = await build(page, configWith(page, "filename: 'sw.js'"));
    try {
      const js = Object.keys(result.outputs).filter((f) => f.endsWith('.js')).sort();
      expect(js).toHaveLength(3);
      expect(js).toContain('sw.js');
      expect(js.filter((f) => /^home\.[0-9a-f]{20}\.js$/.test(f))).toHaveLength(1);
      expect(js.filter((f) => /^about\.[0-9a-f]{20}\.js$/.test(f))).toHaveLength(1);
      expect(result.outputs['sw.js']).toContain('pages-v1');
    } finally {
      result.cleanup();
    }
  });

  it('the worker entry loads its chunk with importScripts, the page entry does not', async () => {
    const result = await build(page, configWith(page, "chunkLoading: 'import-scripts'"));
    try {
      const chunks = Object.keys(result.outputs).filter((f) => f.endsWith('.js') && !['home.js', 'worker.js'].includes(f));
      expect(chunks).toHaveLength(1);
      expect(result.outputs[chunks[0]!]).toContain('mean:');
      expect(result.outputs['worker.js']).toContain('importScripts');
      expect(result.outputs['worker.js']).not.toContain('createElement("script")');
      // Run it as a worker would: importScripts loads the chunk, the message gets its answer.
      const dist = join(result.dir, 'dist');
      const posted: unknown[] = [];
      const browser = fakeBrowser(dist, {
        globals: {
          postMessage: (data: unknown) => posted.push(data),
          importScripts: (...urls: string[]) => {
            for (const url of urls) browser.runScript(new URL(url).pathname.slice(1));
          },
        },
      });
      browser.window.location = new URL('http://localhost/worker.js');
      browser.runScript('worker.js');
      await (browser.window.onmessage as (e: { data: number[] }) => Promise<void>)({ data: [2, 4, 9] });
      expect(posted).toEqual([{ count: 3, mean: 5 }]);
    } finally {
      result.cleanup();
    }
  });

  it('the widget is a UMD library whose chunk comes from its own public path', async () => {
    const result = await build(page, configWith(page, "name: 'ReviewWidget'"));
    try {
      const widget = result.outputs['widget.js']!;
      expect(widget).toContain('https://cdn.example.com/widget/');
      expect(widget).toContain('ReviewWidget');
      expect(result.outputs['home.js']).not.toContain('cdn.example.com');
      expect(result.outputs['home.js']).not.toContain('ReviewWidget');
      const browser = fakeBrowser(join(result.dir, 'dist'));
      browser.runScript('widget.js');
      const mount = (browser.window.ReviewWidget as { mount: (e: unknown) => Promise<void> }).mount;
      expect(typeof mount).toBe('function');
      void mount({}).catch(() => undefined);
      await new Promise((r) => setTimeout(r, 20));
      expect(browser.requestedScripts).toHaveLength(1);
      expect(browser.requestedScripts[0]).toMatch(/^https:\/\/cdn\.example\.com\/widget\/\d+\.js$/);
    } finally {
      result.cleanup();
    }
  });

  it('the email layer inlines the SVG while the page gets it as a file', async () => {
    const result = await build(page, configWith(page, "layer: 'email'"));
    try {
      const svgFiles = Object.keys(result.outputs).filter((f) => f.endsWith('.svg'));
      expect(svgFiles).toHaveLength(1);
      expect(result.outputs['home.js']).toContain(svgFiles[0]);
      expect(result.outputs['email.js']).toContain('data:image/svg+xml');
      expect(result.outputs['email.js']).not.toContain(svgFiles[0]);
      const modules = (result.stats.toJson({ all: false, modules: true, nestedModules: true }).modules ?? []).flatMap((m) => [m, ...(m.modules ?? [])]);
      // logo.js is built twice: once in the email layer, once outside any layer.
      const logo = modules.filter((m) => m.name?.endsWith('src/logo.js'));
      expect(logo.map((m) => m.layer ?? null).sort()).toEqual(['email', null]);
      // email.js is a CommonJS library whose header holds the inlined logo.
      const module = { exports: {} as { header?: string } };
      new Function('module', 'exports', result.outputs['email.js']!)(module, module.exports);
      expect(module.exports.header).toMatch(/^<header><img src="data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+" alt="Shop" width="120"><\/header>$/);
    } finally {
      result.cleanup();
    }
  });

  it('the entry function finds contact.js and faq.js', async () => {
    const result = await build(page, configWith(page, 'readdirSync'));
    try {
      expect(Object.keys(result.outputs).sort()).toEqual(['contact.js', 'faq.js']);
      expect(result.outputs['faq.js']).toContain('Questions and answers');
    } finally {
      result.cleanup();
    }
  });

  it('every configuration of the page is built by a test above', () => {
    expect(configs(page)).toHaveLength(7);
  });
});

describe('native CSS', () => {
  const page = readPage('guides/native-css');
  /** The package name gives the development class names their "shop-" prefix, as the page says. */
  const shop = { 'package.json': `${JSON.stringify({ name: 'shop', private: true }, null, 2)}\n` };
  const basic = configWith(page, "  experiments: {\n    css: true,\n  },\n};");

  function cssRule(css: string, selector: string): boolean {
    return css.includes(`${selector}{`);
  }

  it('writes main.css and a CSS file for the lazy chunk, inlines @import first and emits url() as an asset', async () => {
    const result = await build(page, basic, shop);
    try {
      const files = Object.keys(result.outputs).sort();
      const svg = files.find((f) => f.endsWith('.svg'))!;
      expect(svg).toMatch(/^[0-9a-f]{20}\.svg$/);
      const lazy = files.find((f) => /^\d+\.js$/.test(f))!;
      expect(files).toEqual([lazy.replace('.js', '.css'), lazy, svg, 'main.css', 'main.js'].sort());
      const css = result.outputs['main.css']!;
      expect(css.startsWith('*{box-sizing:border-box;margin:0}body{')).toBe(true);
      expect(css).toContain(`url(${svg})`);
      expect(css).toContain('.dark .');
      expect(result.outputs['main.js']).not.toContain('#1d78c1');
      expect(result.outputs[lazy.replace('.js', '.css')]).toContain('border:1px solid #ccc');
      expect(entryAssets(result.stats, 'main')).toEqual(['main.js', 'main.css']);
      expect(result.stats.hasWarnings()).toBe(false);
      const shown = page.blocks.find((b) => b.lang === 'shellsession' && b.code.startsWith('$ npx webpack'))!;
      const real = result.stats.toString({ colors: false }).split('\n');
      for (const line of shown.code.split('\n').slice(1)) expect(real, line).toContain(line);
      expect(page.body).toContain(`url(${svg})`);
      expect(page.body).toContain(`\`${lazy}\` has \`${lazy.replace('.js', '.css')}\``);

      // In a page: the button gets both names (composes), and the settings chunk's CSS is linked before its code runs.
      const browser = fakeBrowser(join(result.dir, 'dist'));
      const doc = browser.document as unknown as { querySelector: (s: string) => unknown; onConnect: (n: { tagName: string; href?: string; dispatchEvent: (e: object) => void }) => void };
      let open: (() => void) | undefined;
      doc.querySelector = (selector: string) => (selector === '#settings' ? { addEventListener: (_: string, fn: () => void) => (open = fn) } : null);
      const links: string[] = [];
      const scripts = doc.onConnect;
      doc.onConnect = (node) => {
        if (node.tagName === 'LINK') {
          links.push(String(node.href));
          setTimeout(() => node.dispatchEvent({ type: 'load', target: node }), 0);
        } else scripts(node);
      };
      browser.runScript('main.js');
      const [buy] = browser.document.body.getElementsByTagName('button');
      const names = String(buy!.className).split(' ');
      expect(names).toHaveLength(3);
      for (const name of names) expect(css).toContain(`.${name}`);
      expect(new Set(names).size).toBe(2);
      // The entry's own CSS is not added by the script.
      expect(links).toEqual([]);
      open!();
      await new Promise((r) => setTimeout(r, 50));
      expect(links).toEqual([`http://localhost/${lazy.replace('.js', '.css')}`]);
      const [section] = browser.document.body.getElementsByTagName('section');
      expect(section, 'settings.js ran').toBeDefined();
      expect(result.outputs[lazy.replace('.js', '.css')]).toContain(`.${String(section!.className)}{`);
    } finally {
      result.cleanup();
    }
  });

  it('development names follow [uniqueName]-[id]-[local], production names are six characters', async () => {
    const result = await build(page, { ...basic, code: basic.code.replace("mode: 'production'", "mode: 'development'") }, shop);
    try {
      expect(result.outputs['main.css']).toContain('.shop-src_button_module_css-primary {');
      expect(page.body).toContain('`.shop-src_button_module_css-primary`');
    } finally {
      result.cleanup();
    }
    const production = await build(page, basic, shop);
    try {
      const css = production.outputs['main.css']!;
      const shown = /\(`\.([\w-]{6})`\)/.exec(page.body)![1]!;
      expect(cssRule(css, `.${shown}`)).toBe(true);
    } finally {
      production.cleanup();
    }
  });

  it('the generator options give [local]-[hash] names and camel-cased exports, as the page shows them', async () => {
    const result = await build(page, configWith(page, "exportsConvention: 'camel-case-only'"), shop);
    try {
      const css = result.outputs['main.css']!;
      const shown = [...page.body.matchAll(/`\.((?:button|primary|is-busy)-[\w-]{6})`/g)].map((m) => m[1]!);
      expect(shown).toHaveLength(3);
      for (const name of shown) {
        expect(css, name).toContain(`.${name}{`);
      }
      // Since webpack 5.113 camel-case-only renames the export only; the CSS keeps the source's dashes.
      expect(css).not.toContain('isBusy');
    } finally {
      result.cleanup();
    }
    // The export: a development build for Node.js prints what the CSS module exports.
    const exported = await compile(
      'guide-native-css-exports',
      { 'package.json': PACKAGE_JSON, 'src/a.module.css': '.is-busy { opacity: .6 }\n', 'src/index.js': "import * as names from './a.module.css';\nconsole.log(JSON.stringify(names));\n" },
      {
        mode: 'development',
        devtool: false,
        target: 'node',
        entry: './src/index.js',
        experiments: { css: true },
        module: { generator: { 'css/auto': { localIdentName: '[local]-[hash:6]', exportsConvention: 'camel-case-only' } } },
      },
    );
    try {
      const printed = execFileSync(process.execPath, [join(exported.dir, 'dist', 'main.js')], { encoding: 'utf8' });
      expect(Object.keys(JSON.parse(printed) as object)).toEqual(['isBusy']);
      expect((JSON.parse(printed) as { isBusy: string }).isBusy).toMatch(/^is-busy-[\w-]{6}$/);
      expect(page.body).toContain('your JavaScript imports the class as `isBusy`, while the CSS keeps the dashes of the source');
    } finally {
      exported.cleanup();
    }
  });

  it("exportType: 'style' writes no CSS file and adds a <style> element when the module runs", async () => {
    const result = await build(page, configWith(page, "exportType: 'style'"), shop);
    try {
      expect(Object.keys(result.outputs).filter((f) => f.endsWith('.css'))).toEqual([]);
      const browser = fakeBrowser(join(result.dir, 'dist'));
      (browser.document as unknown as { querySelector: (s: string) => unknown }).querySelector = () => ({ addEventListener() {} });
      browser.runScript('main.js');
      const styles = browser.document.documentElement.getElementsByTagName('style');
      expect(styles.map((s) => s.textContent).join('')).toContain('box-sizing:border-box');
    } finally {
      result.cleanup();
    }
  });

  it("an import with { type: 'css' } becomes a CSSStyleSheet filled with replaceSync", async () => {
    const result = await compile('guide-native-css-sheet', projectFiles(page), { mode: 'production', entry: './src/price-tag.js' });
    try {
      expect(result.outputs['main.js']).toContain('new CSSStyleSheet');
      expect(result.outputs['main.js']).toContain('replaceSync(":host{');
      expect(Object.keys(result.outputs)).toEqual(['main.js']);
    } finally {
      result.cleanup();
    }
  });

  it('sass-loader in front of a css/auto rule: the .module.scss file is a CSS module', async () => {
    const result = await build(page, configWith(page, "use: ['sass-loader']"), shop);
    try {
      const css = result.outputs['main.css']!;
      expect(css).toMatch(/^\.[\w-]{6}\{border-bottom:2px solid #1d78c1\}\.[\w-]{6} h2\{color:#1d78c1\}$/);
      expect(result.stats.hasWarnings()).toBe(false);
    } finally {
      result.cleanup();
    }
  });

  it('a root-relative url() fails with the quoted message, and webpackIgnore leaves it alone', async () => {
    const ignored = page.blocks.find((b) => b.lang === 'css' && !b.title && b.code.includes('webpackIgnore'))!.code;
    const withoutComment = ignored.replace('/* webpackIgnore: true */ ', '');
    await expect(compile('guide-native-css-root-url', { 'src/index.js': "import './fonts.css';\n", 'src/fonts.css': withoutComment }, { entry: './src/index.js' }))
      .rejects.toThrow("Module not found: Error: Can't resolve '/fonts/shop-sans.woff2'");
    expect(page.body).toContain("`Module not found: Error: Can't resolve '/fonts/shop-sans.woff2'`");
    const result = await compile('guide-native-css-ignore', { 'src/index.js': "import './fonts.css';\n", 'src/fonts.css': ignored }, { entry: './src/index.js' });
    try {
      expect(result.outputs['main.css']).toContain('url(/fonts/shop-sans.woff2)');
    } finally {
      result.cleanup();
    }
  });

  it('css-loader and style-loader next to experiments.css: true warn with the quoted message and do nothing', async () => {
    const result = await compile('guide-native-css-loaders', projectFiles(page, shop), {
      mode: 'production',
      entry: './src/index.js',
      experiments: { css: true },
      module: { rules: [{ test: /\.css$/i, use: ['style-loader', 'css-loader'] }] },
    });
    try {
      const warnings = (result.stats.toJson({ all: false, warnings: true }).warnings ?? []).map((w) => w.message);
      const quoted = /``(You can't use[^`]*`experiments\.css` )\(…\)( and `css-loader` together[^]*?nothing\)\.)``/.exec(page.body)!;
      expect(warnings.some((w) => w.includes(quoted[1]!) && w.includes(quoted[2]!))).toBe(true);
      expect(result.outputs['main.css']).toContain('box-sizing:border-box');
    } finally {
      result.cleanup();
    }
  });

  it('a default import of a CSS module finds nothing and warns; namedExports: false gives a default export', async () => {
    const files = projectFiles(page, { ...shop, 'src/index.js': "import styles from './button.module.css';\nconsole.log(styles.primary);\n" });
    const named = await compile('guide-native-css-default', files, { mode: 'production', entry: './src/index.js' });
    try {
      const warnings = (named.stats.toJson({ all: false, warnings: true }).warnings ?? []).map((w) => w.message).join('\n');
      expect(warnings).toContain("export 'default' (imported as 'styles') was not found");
      expect(page.body).toContain("`export 'default' (imported as 'styles') was not found`");
    } finally {
      named.cleanup();
    }
    const object = await compile('guide-native-css-default-object', files, {
      mode: 'production',
      entry: './src/index.js',
      module: { parser: { 'css/auto': { namedExports: false } } },
    });
    try {
      expect(object.stats.hasWarnings()).toBe(false);
      const logs: string[] = [];
      const browser = fakeBrowser(join(object.dir, 'dist'));
      browser.runScript('main.js');
      logs.push(...browser.logs);
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatch(/^[\w-]{6} [\w-]{6}$/);
    } finally {
      object.cleanup();
    }
  });

  it('every configuration of the page is built by a test above', () => {
    expect(configs(page)).toHaveLength(4);
  });
});

describe('modern web platform', () => {
  const page = readPage('guides/modern-web-platform');
  const esm = configWith(page, 'module: true');
  /** The page's package.json (with its browserslist) is part of the project. */
  const own = () => projectFiles(page, { 'package.json': `${pick(page, 'package.json')}\n` });
  function pick(p: PageSource, title: string): string {
    return p.blocks.find((b) => b.title === title)!.code;
  }
  const kib = (text: string) => `${(Buffer.byteLength(text) / 1024).toFixed(2)} KiB`;

  it('the browserslist makes the target and turns on the environment features the page lists', () => {
    const scratch = compileOptions(own(), esm);
    try {
      expect(scratch.options.target).toBe('browserslist');
      const environment = scratch.options.output.environment as Record<string, boolean>;
      const listed = /for the three browsers above, (.+?) and the others are all `true`/.exec(page.body)![1]!.match(/`(\w+)`/g)!.map((w) => w.slice(1, -1));
      expect(listed.length).toBeGreaterThan(5);
      for (const feature of listed) expect(environment[feature], feature).toBe(true);
      expect(scratch.options.output.filename).toBe('[name].mjs');
    } finally {
      scratch.cleanup();
    }
  });

  it('ES module output: the files and names shown, native import(), import.meta.url kept, a module worker, a real top-level await', async () => {
    const result = await build(page, esm, { 'package.json': `${pick(page, 'package.json')}\n` });
    try {
      const real = result.stats.toString({ colors: false }).split('\n');
      const shown = page.blocks.find((b) => b.lang === 'shellsession' && b.code.startsWith('$ npx webpack'))!;
      for (const line of shown.code.split('\n').slice(1)) expect(real, line).toContain(line);
      const main = result.outputs['main.mjs']!;
      const svg = Object.keys(result.outputs).find((f) => f.endsWith('.svg'))!;
      const json = Object.keys(result.outputs).find((f) => f.endsWith('.json'))!;
      expect(JSON.parse(result.outputs[json]!)).toEqual({ currency: 'EUR', prices: [4.5, 12, 7.25] });
      expect(main).toContain(`new URL("./${svg}",import.meta.url)`);
      expect(page.body).toContain(`\`new URL("./${svg}", import.meta.url)\``);
      expect(main).toContain(`fetch(new URL("./${json}",import.meta.url))`);
      expect(main).toContain('new Worker(new URL("./809.mjs",import.meta.url),{type:"module"})');
      expect(main).toContain('import("./764.mjs")');
      expect(main).toMatch(/=await \w+;\s*$/);
      expect(result.outputs['764.mjs']).toContain('fillRect');
      expect(result.outputs['809.mjs']).toContain('postMessage');
      expect(page.body).toContain(`A module, \`main.mjs\`, ${kib(main)} here`);
    } finally {
      result.cleanup();
    }
  });

  it('script output of the same project: a bigger main.js, a classic worker, import.meta.url replaced', async () => {
    const classic = { ...esm, code: esm.code.replace('    module: true,\n', '') };
    expect(classic.code).not.toContain('module: true');
    const result = await build(page, classic, { 'package.json': `${pick(page, 'package.json')}\n` });
    try {
      const main = result.outputs['main.js']!;
      expect(page.body).toContain(`An immediately invoked function in \`main.js\`, ${kib(main)} here`);
      expect(main.startsWith('(()=>{')).toBe(true);
      expect(main).not.toContain('import.meta');
      expect(main).toContain('{type:void 0}');
      expect(main).toContain('createElement("script")');
    } finally {
      result.cleanup();
    }
    const meta = await compile('guide-modern-meta', { 'package.json': PACKAGE_JSON, 'src/index.js': 'console.log(import.meta.url);\n' }, { entry: './src/index.js' });
    try {
      expect(meta.outputs['main.js']).toMatch(/console\.log\("file:\/\/\/[^"]+\/src\/index\.js"\)/);
    } finally {
      meta.cleanup();
    }
  });

  it('an old browser in the list gives the warning the page quotes', async () => {
    const pkg = JSON.parse(pick(page, 'package.json')) as { browserslist: string[] };
    pkg.browserslist.unshift('ie 11');
    const result = await build(page, esm, { 'package.json': JSON.stringify(pkg) });
    try {
      const warnings = (result.stats.toJson({ all: false, warnings: true }).warnings ?? []).map((w) => w.message.replace(/\s+/g, ' '));
      const quoted = /webpack warns: `([^`]+)`/.exec(page.body)![1]!;
      expect(warnings.some((w) => w.includes(quoted))).toBe(true);
    } finally {
      result.cleanup();
    }
  });

  it('new URL() with a template literal emits the files of the folder; with a variable it warns and fails at run time', async () => {
    const template = /``(new URL\(`\.\/icons\/\$\{name\}\.svg`, import\.meta\.url\))``/.exec(page.body)![1]!;
    const result = await compile(
      'guide-modern-variable',
      {
        'package.json': PACKAGE_JSON,
        'src/index.js': `const name = location.hash.slice(1);\nconsole.log(${template});\nconst file = './icons/' + name + '.svg';\nconsole.log(new URL(file, import.meta.url));\n`,
        'src/icons/logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>\n',
        'src/icons/cart.svg': '<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>\n',
      },
      { entry: './src/index.js', output: { module: true } },
    );
    try {
      expect(Object.keys(result.outputs).filter((f) => f.endsWith('.svg'))).toHaveLength(2);
      expect(result.outputs['main.mjs']).toContain('"./cart.svg"');
      expect(result.outputs['main.mjs']).toContain('"./logo.svg"');
      const warnings = (result.stats.toJson({ all: false, warnings: true }).warnings ?? []).map((w) => w.message);
      expect(warnings).toHaveLength(1);
      const quoted = /builds with the warning `([^`]+)`/.exec(page.body)![1]!;
      expect(warnings[0]).toContain(quoted);
      expect(result.outputs['main.mjs']).toContain('"Cannot find module \'"');
    } finally {
      result.cleanup();
    }
  });

  it('every configuration of the page is built by a test above', () => {
    expect(configs(page)).toHaveLength(1);
  });
});

/** The normalized options of a configuration evaluated in a scratch project with `files`, without building. */
function compileOptions(files: Record<string, string>, block: CodeBlock) {
  const dir = scratchDir('guide-options');
  writeFiles(dir, files);
  const config = evaluateConfig(block.code, dir) as Configuration;
  const compiler = webpack({ ...config, context: dir, output: { ...config.output, path: join(dir, 'dist') } });
  return { options: compiler.options, cleanup: () => removeDir(dir) };
}
