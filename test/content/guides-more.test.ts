import { join } from 'node:path';
import type { Configuration, Stats } from 'webpack';
import { describe, expect, it } from 'vitest';
import { readPage, type CodeBlock, type PageSource } from '../helpers/content.js';
import { fakeBrowser } from '../helpers/guides.js';
import { compile, evaluateConfig, validate, webpack } from '../helpers/webpack.js';

/*
 * The guides added for the addresses of webpack.js.org that had none here: advanced entry points, native CSS and
 * the modern web platform. Every webpack.config.js block of these pages is built with the installed webpack in a
 * project made of the page's own titled files, and what the page says the build writes or does is checked.
 */

const PAGES = ['guides/entry-advanced'] as const;

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
