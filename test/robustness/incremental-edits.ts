import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { parse, stringify } from 'yaml';
import { ROOT } from '../helpers/content.js';
import { random, type Random } from './harness.js';
import { addTheme, THEME_EDITS, THEME_MISTAKES } from './incremental-theme-edits.js';

/*
 * The site and the writer's edits of test/robustness/incremental.test.ts: a copy of
 * test/fixtures/trees (three languages, two versions) with the pages of test/fixtures/components
 * and test/fixtures/diagrams and the first guide of test/fixtures/site (code blocks, tabs, an
 * aside) added to it, a blog, a redirect, a static file and the theme of test/fixtures/themed
 * (incremental-theme-edits.ts: a stylesheet, a logo, colours, a Footer component); and seeded edits of it, each the kind
 * of change a writer makes, a few of them mistakes that make the site invalid.
 */

const post = (title: string, text: string) => `---\ntitle: ${title}\ndescription: ${title}, in short.\n---\n\n${text}\n\n## Details\n\nMore on ${title}.\n`;

/** A page of the default language (no index page) to remove or rename: mostly one the sequence added, which no other page links to. */
function pageToMove(ctx: Ctx): string | undefined {
  const candidates = defaultPages(ctx.site).filter((f) => !/(^|\/)index\.md$/.test(f));
  const added = candidates.filter((f) => /page-\d+|renamed-\d+/.test(f));
  return added.length && ctx.r.next() < 0.75 ? ctx.r.pick(added) : ctx.r.pick(candidates);
}

/** Writes the site into `site` (a folder that does not exist yet). */
export function makeSite(site: string): void {
  const fixtures = join(ROOT, 'test/fixtures');
  cpSync(join(fixtures, 'trees'), site, { recursive: true });
  cpSync(join(fixtures, 'components/content/guide'), join(site, 'content/guide'), { recursive: true });
  cpSync(join(fixtures, 'diagrams/content/guide/diagrams.md'), join(site, 'content/guide/diagrams.md'));
  const first = readFileSync(join(fixtures, 'site/content/guides/first.md'), 'utf8');
  // (A block in a language whose colours no other block of the site has.)
  writeFileSync(join(site, 'content/guides/config.md'), `${readFileSync(join(site, 'content/guides/config.md'), 'utf8')}\n\`\`\`yaml title="tides.yaml"\n# the table\nhigh: 5.2\n\`\`\`\n`);
  writeFileSync(join(site, 'content/guides/first.md'), first.replace('/guides/second/', '/guides/config/').replace('Second guide', 'Configuration'));
  mkdirSync(join(site, 'content/blog'));
  writeFileSync(join(site, 'content/blog/2026-01-05-first.md'), post('First release', 'The first release is out.'));
  writeFileSync(join(site, 'content/blog/2026-02-10-second.md'), post('Second release', 'The second release follows [the first](/blog/first/).'));
  mkdirSync(join(site, 'static'));
  writeFileSync(join(site, 'static/notes.txt'), 'Static notes.\n');
  const config = parse(readFileSync(join(site, 'site.config.yaml'), 'utf8')) as Config;
  config.navigation.push({ title: 'Guide', url: '/guide/' }, { title: 'Blog', url: '/blog/' });
  // (The old version has neither: its own navigation.)
  config.versions[1]!.navigation = [{ title: 'Guides', url: '/guides/' }];
  config.sections[1]!.pages!.push('guides/first');
  config.sections.push({ title: 'Guide', url: 'guide', pages: ['guide/components', 'guide/next', 'guide/diagrams'] });
  config.blog = { path: 'blog', title: 'Blog', postsPerPage: 2 };
  config.redirects = { '/old-tides/': '/guides/tides/' };
  writeConfig(site, config);
  addTheme(site);
}

interface Section {
  title: string;
  url: string;
  pages?: string[];
}
interface Config {
  site: { title: string };
  navigation: Array<{ title: string; url: string }>;
  versions: Array<{ name: string; navigation?: Array<{ title: string; url: string }> }>;
  sections: Section[];
  blog?: unknown;
  redirects?: Record<string, string>;
}

const readConfig = (site: string) => parse(readFileSync(join(site, 'site.config.yaml'), 'utf8')) as Config;
const writeConfig = (site: string, config: Config) => writeFileSync(join(site, 'site.config.yaml'), stringify(config));

/** Every file of the site (config, content, static), relative to it, sorted. */
export function siteFiles(site: string): string[] {
  return readdirSync(site, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(site, join(e.parentPath, e.name)).split('\\').join('/'))
    .sort();
}

/** The site's files and their text: what `restore` puts back. */
export function snapshot(site: string): Map<string, string> {
  return new Map(siteFiles(site).map((f) => [f, readFileSync(join(site, f), 'utf8')]));
}

/** Makes the site's files those of `saved` again, writing only the files that differ. Returns the files it changed. */
export function restore(site: string, saved: Map<string, string>): string[] {
  const changed: string[] = [];
  for (const file of siteFiles(site)) {
    if (!saved.has(file)) {
      rmSync(join(site, file));
      changed.push(file);
    }
  }
  for (const [file, text] of saved) {
    const path = join(site, file);
    if (existsSync(path) && readFileSync(path, 'utf8') === text) continue;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
    changed.push(file);
  }
  return changed;
}

/** Where an edit is made: the site, the seeded random source and a counter for new names. */
export interface Ctx {
  site: string;
  r: Random;
  /** A number not used before in this sequence (for names, words and titles). */
  n: () => number;
}

/** An edit: its name, how often it is drawn, whether it makes the site invalid, and what it does (a description, or null when it cannot apply now). */
export interface Edit {
  name: string;
  weight: number;
  /** A mistake: the site is invalid until it is undone. */
  invalid?: boolean;
  /** Edits the config (not drawn while a mistake in the config waits to be undone). */
  config?: boolean;
  apply(ctx: Ctx): string | null;
}

const TREES = ['zh-cn/', 'fr/', '4.x/'];
const markdown = (site: string) => siteFiles(site).filter((f) => f.startsWith('content/') && f.endsWith('.md'));
/** Pages of the current version's default language that are not blog posts (content/…). */
const defaultPages = (site: string) => markdown(site).filter((f) => !TREES.some((t) => f.startsWith(`content/${t}`)) && !f.startsWith('content/blog/') && f !== 'content/404.md');
const posts = (site: string) => markdown(site).filter((f) => f.startsWith('content/blog/'));
const pageId = (file: string) => file.replace(/^content\//, '').replace(/\.md$/, '');

const read = (ctx: Ctx, file: string) => readFileSync(join(ctx.site, file), 'utf8');
const write = (ctx: Ctx, file: string, text: string) => {
  mkdirSync(dirname(join(ctx.site, file)), { recursive: true });
  writeFileSync(join(ctx.site, file), text);
};

/** A page's frontmatter (with its fences) and body. */
function split(text: string): { fm: string; body: string } {
  const m = /^---\n[\s\S]*?\n---\n/.exec(text);
  return m ? { fm: m[0], body: text.slice(m[0].length) } : { fm: '', body: text };
}

/** The lines of a body with, for each, whether it is inside a fenced code block (fences included). */
function lines(body: string): Array<{ text: string; code: boolean; open?: string }> {
  let fence = '';
  return body.split('\n').map((text) => {
    const m = /^\s*(`{3,})(.*)$/.exec(text);
    if (fence) {
      if (m && m[1] === fence && !m[2]!.trim()) fence = '';
      return { text, code: true };
    }
    if (m) {
      fence = m[1]!;
      return { text, code: true, open: m[2] };
    }
    return { text, code: false };
  });
}

/** Edits one page's body line by line: `change` gets the lines and returns a description, or null. */
function editBody(ctx: Ctx, file: string, change: (ls: ReturnType<typeof lines>) => string | null): string | null {
  const { fm, body } = split(read(ctx, file));
  const ls = lines(body);
  const what = change(ls);
  if (what === null) return null;
  write(ctx, file, fm + ls.map((l) => l.text).join('\n'));
  return `${file}: ${what}`;
}

const WORDS = ['tide', 'moon', 'harbour', 'current', 'shore', 'wave', 'reef', 'estuary'];
const LANGS = ['ini', 'bash', 'json', 'yaml', 'css', 'js', 'diff', 'text'];
const codeLine = (lang: string, n: number) =>
  ({ ini: `key${n} = ${n}`, bash: `npm install tide-${n}`, json: `{ "tide": ${n} }`, yaml: `tide: ${n}`, css: `.tide-${n} { color: red; }`, js: `const tide${n} = ${n};`, diff: `+added line ${n}` })[lang] ??
  `plain line ${n}`;

/** Links a new page may hold (they all resolve from any page of the default tree). */
const SAFE_LINKS = ['/guides/tides/', '/guides/config/#options', '/guide/next/#done', '/', '/blog/'];

const blogDate = (r: Random) => `${r.pick(['2025', '2026'])}-${String(r.int(1, 12)).padStart(2, '0')}-${String(r.int(1, 28)).padStart(2, '0')}`;

/** Every kind of edit. */
export const EDITS: Edit[] = [
  {
    name: 'body text',
    weight: 6,
    apply(ctx) {
      const file = ctx.r.pick(markdown(ctx.site));
      return editBody(ctx, file, (ls) => {
        const prose = ls.map((l, i) => [l, i] as const).filter(([l]) => !l.code && /^[A-Za-z\u4e00-\u9fff]/.test(l.text));
        if (prose.length && ctx.r.next() < 0.5) {
          const [l] = ctx.r.pick(prose);
          l.text = `${l.text} And a ${ctx.r.pick(WORDS)} ${ctx.n()}.`;
          return 'a sentence added to a paragraph';
        }
        ls.push({ text: `A new paragraph about the ${ctx.r.pick(WORDS)} ${ctx.n()}.`, code: false }, { text: '', code: false });
        return 'a paragraph added';
      });
    },
  },
  {
    name: 'code',
    weight: 5,
    apply(ctx) {
      // (Mostly a page that has code already: its blocks change.)
      const all = markdown(ctx.site);
      const withCode = all.filter((f) => lines(split(read(ctx, f)).body).some((l) => l.open !== undefined && !l.open.startsWith('mermaid')));
      const file = ctx.r.pick(withCode.length && ctx.r.next() < 0.7 ? withCode : all);
      return editBody(ctx, file, (ls) => {
        const blocks = ls.map((l, i) => [l, i] as const).filter(([l]) => l.open !== undefined && !l.open.startsWith('mermaid'));
        const n = ctx.n();
        if (blocks.length && ctx.r.next() < 0.15) {
          // The block and its closing fence (the next line inside code that is a bare fence).
          const [open, at] = ctx.r.pick(blocks);
          let end = at + 1;
          while (end < ls.length && !(ls[end]!.code && /^\s*`{3,}\s*$/.test(ls[end]!.text))) end++;
          ls.splice(at, end - at + 1);
          return `a ${open.open || 'plain'} code block removed`;
        }
        if (!blocks.length || ctx.r.next() < 0.3) {
          const lang = ctx.r.pick(LANGS);
          ls.push({ text: '```' + lang, code: true }, { text: codeLine(lang, n), code: true }, { text: '```', code: true }, { text: '', code: false });
          return `a ${lang} code block added`;
        }
        const [open, at] = ctx.r.pick(blocks);
        const [lang, ...rest] = open.open!.split(' ');
        if (ctx.r.next() < 0.5) {
          const to = ctx.r.pick(LANGS.filter((l) => l !== lang));
          open.text = open.text.replace('```' + open.open, '```' + [to, ...rest].join(' '));
          return `a code block's language ${lang || '(none)'} → ${to}`;
        }
        const indent = /^\s*/.exec(open.text)![0];
        ls.splice(at + 1, 0, { text: indent + codeLine(lang ?? '', n), code: true });
        return `a line of ${lang || 'plain'} code added`;
      });
    },
  },
  {
    name: 'heading',
    weight: 4,
    apply(ctx) {
      const file = ctx.r.pick(markdown(ctx.site));
      return editBody(ctx, file, (ls) => {
        const headings = ls.filter((l) => !l.code && /^#{2,4} /.test(l.text));
        const kind = headings.length ? ctx.r.int(0, 2) : 0;
        if (kind === 0) {
          ls.push({ text: `## About the ${ctx.r.pick(WORDS)} ${ctx.n()}`, code: false }, { text: '', code: false }, { text: 'Text under it.', code: false }, { text: '', code: false });
          return 'a heading added';
        }
        const h = ctx.r.pick(headings);
        if (kind === 1) {
          const was = h.text;
          h.text = `${h.text} ${ctx.n()}`;
          return `a heading renamed: ${was} → ${h.text}`;
        }
        ls.splice(ls.indexOf(h), 1);
        return `a heading removed: ${h.text}`;
      });
    },
  },
  {
    name: 'frontmatter',
    weight: 4,
    apply(ctx) {
      const file = ctx.r.pick(markdown(ctx.site));
      const { fm, body } = split(read(ctx, file));
      if (!fm) return null;
      const n = ctx.n();
      const field = ctx.r.pick(['title', 'description', 'group']);
      const line = new RegExp(`^${field}: .*$`, 'm');
      const value = `${{ title: 'Title', description: 'A description', group: 'Group' }[field]} ${n % 3 ? n : 1}`;
      const next = line.test(fm) ? fm.replace(line, `${field}: ${value}`) : fm.replace(/\n---\n$/, `\n${field}: ${value}\n---\n`);
      write(ctx, file, next + body);
      return `${file}: ${field} → ${value}`;
    },
  },
  {
    name: 'page added',
    weight: 3,
    config: true,
    apply(ctx) {
      const config = readConfig(ctx.site);
      const sections = config.sections.filter((s) => s.url);
      const section = ctx.r.pick(sections);
      const n = ctx.n();
      const id = `${section.url}/page-${n}`;
      const code = ctx.r.next() < 0.5 ? `\n\`\`\`${ctx.r.pick(LANGS)}\nvalue = ${n}\n\`\`\`\n` : '';
      write(ctx, `content/${id}.md`, `---\ntitle: Page ${n}\ndescription: A page added.\n---\n\nSee [a page](${ctx.r.pick(SAFE_LINKS)}).\n\n## Part ${n}\n\nText of page ${n}.\n${code}`);
      // (Now and then not listed in a section: a warning, not a problem.)
      if (ctx.r.next() < 0.85) {
        const pages = (section.pages ??= []);
        pages.splice(ctx.r.int(0, pages.length), 0, id);
        writeConfig(ctx.site, config);
        return `content/${id}.md added to section ${section.url}`;
      }
      return `content/${id}.md added, in no section`;
    },
  },
  {
    name: 'page removed',
    weight: 2,
    config: true,
    apply(ctx) {
      const config = readConfig(ctx.site);
      const file = pageToMove(ctx);
      if (!file) return null;
      rmSync(join(ctx.site, file));
      for (const s of config.sections) if (s.pages) s.pages = s.pages.filter((p) => p !== pageId(file));
      writeConfig(ctx.site, config);
      return `${file} removed`;
    },
  },
  {
    name: 'page renamed',
    weight: 2,
    config: true,
    apply(ctx) {
      const config = readConfig(ctx.site);
      const file = pageToMove(ctx);
      if (!file) return null;
      const to = file.replace(/[^/]+\.md$/, `renamed-${ctx.n()}.md`);
      write(ctx, to, read(ctx, file));
      rmSync(join(ctx.site, file));
      for (const s of config.sections) if (s.pages) s.pages = s.pages.map((p) => (p === pageId(file) ? pageId(to) : p));
      writeConfig(ctx.site, config);
      return `${file} renamed ${to}`;
    },
  },
  {
    name: 'blog post',
    weight: 3,
    apply(ctx) {
      const all = posts(ctx.site);
      if (all.length && ctx.r.next() < 0.4) {
        const file = ctx.r.pick(all);
        rmSync(join(ctx.site, file));
        return `${file} removed`;
      }
      const n = ctx.n();
      const file = `content/blog/${blogDate(ctx.r)}-post-${n}.md`;
      write(ctx, file, post(`Post ${n}`, `News number ${n}, after [the first post](/blog/first/).`));
      return `${file} added`;
    },
  },
  {
    name: 'translation',
    weight: 3,
    apply(ctx) {
      const translated = markdown(ctx.site).filter((f) => /^content\/(zh-cn|fr|4\.x\/zh-cn)\//.test(f));
      if (translated.length && ctx.r.next() < 0.4) {
        const file = ctx.r.pick(translated);
        rmSync(join(ctx.site, file));
        return `${file} removed`;
      }
      const tree = ctx.r.pick(['zh-cn', 'fr', '4.x/zh-cn']);
      const version = tree.startsWith('4.x/') ? '4.x/' : '';
      const originals = markdown(ctx.site).filter((f) =>
        version ? f.startsWith('content/4.x/') && !f.startsWith('content/4.x/zh-cn/') : defaultPages(ctx.site).includes(f),
      );
      const original = ctx.r.pick(originals);
      const target = `content/${tree}/${original.slice(`content/${version}`.length)}`;
      if (existsSync(join(ctx.site, target))) return null;
      const n = ctx.n();
      write(ctx, target, read(ctx, original).replace(/^title: (.*)$/m, `title: $1 (${tree} ${n})`));
      return `${target} added (a translation of ${original})`;
    },
  },
  {
    name: 'site title',
    weight: 1,
    config: true,
    apply(ctx) {
      const config = readConfig(ctx.site);
      config.site.title = `Tides ${ctx.n()}`;
      writeConfig(ctx.site, config);
      return `the site's title → ${config.site.title}`;
    },
  },
  {
    name: 'order',
    weight: 2,
    config: true,
    apply(ctx) {
      const config = readConfig(ctx.site);
      const shuffle = <T>(list: T[]) => {
        for (let i = list.length - 1; i > 0; i--) {
          const j = ctx.r.int(0, i);
          [list[i], list[j]] = [list[j]!, list[i]!];
        }
      };
      const kind = ctx.r.pick(['navigation', 'sections', 'pages'] as const);
      if (kind === 'navigation') shuffle(config.navigation);
      else if (kind === 'sections') shuffle(config.sections);
      else shuffle(ctx.r.pick(config.sections.filter((s) => s.pages?.length)).pages!);
      writeConfig(ctx.site, config);
      return `the order of the ${kind} shuffled`;
    },
  },
  {
    name: 'redirect',
    weight: 1,
    config: true,
    apply(ctx) {
      const config = readConfig(ctx.site);
      const redirects = (config.redirects ??= {});
      const keys = Object.keys(redirects);
      if (keys.length && ctx.r.next() < 0.4) {
        const key = ctx.r.pick(keys);
        delete redirects[key];
        writeConfig(ctx.site, config);
        return `the redirect ${key} removed`;
      }
      const target = `/${pageId(ctx.r.pick(defaultPages(ctx.site))).replace(/(^|\/)index$/, '')}/`.replace('//', '/');
      const key = `/old-${ctx.n()}/`;
      redirects[key] = target;
      writeConfig(ctx.site, config);
      return `a redirect ${key} → ${target}`;
    },
  },
  {
    name: '404 page',
    weight: 1,
    apply(ctx) {
      const file = 'content/404.md';
      if (existsSync(join(ctx.site, file))) {
        rmSync(join(ctx.site, file));
        return `${file} removed (the default page again)`;
      }
      write(ctx, file, `---\ntitle: Lost at sea ${ctx.n()}\n---\n\nGo back to [the shore](/).\n`);
      return `${file} added`;
    },
  },
  {
    name: 'blog settings',
    weight: 1,
    config: true,
    apply(ctx) {
      const config = readConfig(ctx.site) as Config & { blog: { postsPerPage?: number; feed?: boolean; description?: string } };
      const kind = ctx.r.pick(['postsPerPage', 'feed', 'description'] as const);
      if (kind === 'postsPerPage') config.blog.postsPerPage = ctx.r.int(1, 3);
      else if (kind === 'feed') config.blog.feed = config.blog.feed === false;
      else config.blog.description = `News of the tides ${ctx.n()}.`;
      writeConfig(ctx.site, config);
      return `the blog's ${kind} → ${String(config.blog[kind])}`;
    },
  },
  {
    name: 'static file',
    weight: 2,
    apply(ctx) {
      const files = siteFiles(ctx.site).filter((f) => f.startsWith('static/'));
      if (files.length && ctx.r.next() < 0.4) {
        const file = ctx.r.pick(files);
        rmSync(join(ctx.site, file));
        return `${file} removed`;
      }
      const n = ctx.n();
      const file = ctx.r.pick([`static/file-${n}.txt`, `static/images/image-${n}.svg`]);
      write(ctx, file, file.endsWith('.svg') ? `<svg xmlns="http://www.w3.org/2000/svg" width="${n}" height="8"></svg>\n` : `Static file ${n}.\n`);
      return `${file} added`;
    },
  },
  {
    name: 'diagram',
    weight: 1,
    apply(ctx) {
      const file = 'content/guide/diagrams.md';
      if (!existsSync(join(ctx.site, file))) return null;
      const text = read(ctx, file);
      const label = ctx.r.pick(['Entry', 'Loaders', 'Output files', 'Browser', 'Sealed']);
      if (!text.includes(label)) return null;
      write(ctx, file, text.replace(label, `${label} ${ctx.n()}`));
      return `${file}: a diagram's label ${label} changed`;
    },
  },
  ...THEME_EDITS,
  // Mistakes: each makes the site invalid until it is undone.
  ...THEME_MISTAKES,
  {
    name: 'broken link',
    weight: 1,
    invalid: true,
    apply(ctx) {
      const file = ctx.r.pick(markdown(ctx.site));
      const n = ctx.n();
      const link = ctx.r.pick([`/no-such-page-${n}/`, `/guides/tides/#no-such-heading-${n}`, `#nowhere-${n}`]);
      write(ctx, file, `${read(ctx, file)}\nA [broken link](${link}).\n`);
      return `${file}: a broken link to ${link}`;
    },
  },
  {
    name: 'bad frontmatter',
    weight: 1,
    invalid: true,
    apply(ctx) {
      const file = ctx.r.pick(markdown(ctx.site));
      const text = read(ctx, file);
      if (!/^title: /m.test(text)) return null;
      write(ctx, file, text.replace(/^title: .*$/m, 'title: [unclosed'));
      return `${file}: frontmatter that is not YAML`;
    },
  },
  {
    name: 'bad config',
    weight: 1,
    invalid: true,
    config: true,
    apply(ctx) {
      const path = join(ctx.site, 'site.config.yaml');
      const kind = ctx.r.pick(['yaml', 'key', 'page']);
      const text = readFileSync(path, 'utf8');
      if (kind === 'yaml') writeFileSync(path, text.replace(/^site:\n/m, 'site: [\n'));
      else if (kind === 'key') writeFileSync(path, `${text}unknownKey: ${ctx.n()}\n`);
      else {
        const config = readConfig(ctx.site);
        config.sections.find((s) => s.pages)!.pages!.push(`guides/missing-${ctx.n()}`);
        writeConfig(ctx.site, config);
      }
      return `site.config.yaml: a mistake (${kind})`;
    },
  },
  {
    name: 'bad code block',
    weight: 1,
    invalid: true,
    apply(ctx) {
      const file = ctx.r.pick(markdown(ctx.site));
      write(ctx, file, `${read(ctx, file)}\n\`\`\`nosuchlanguage\ncode\n\`\`\`\n`);
      return `${file}: a code block in an unknown language`;
    },
  },
  {
    name: 'bad post name',
    weight: 1,
    invalid: true,
    apply(ctx) {
      const file = `content/blog/post-${ctx.n()}.md`;
      write(ctx, file, post('Undated', 'A post without a date in its name.'));
      return `${file}: a post named without its date`;
    },
  },
];

/** Chance that a step is a mistake. */
const MISTAKES = 0.15;

/**
 * The writer: each step makes one edit of the site, drawn from the seed. After a mistake the
 * writer makes up to two more edits (of pages) and then undoes the mistake; when a step left the
 * site invalid otherwise (an edit that broke a link), the next step puts back the last valid state.
 */
export class Writer {
  private readonly r: ReturnType<typeof random>;
  private readonly ctx: Ctx;
  private count = 0;
  private lastGood: Map<string, string>;
  private mistake?: { before: Map<string, string>; files: string[]; after: number };

  constructor(private readonly site: string, seed: number) {
    this.r = random(seed);
    this.ctx = { site, r: this.r, n: () => ++this.count };
    this.lastGood = snapshot(site);
  }

  /** Makes the next edit, knowing whether the site was valid after the last one; describes it. */
  step(wasValid: boolean): string {
    if (wasValid) this.lastGood = snapshot(this.site);
    const mistake = this.mistake;
    if (mistake) {
      if (mistake.after-- > 0) return this.edit((e) => !e.invalid && !e.config);
      this.mistake = undefined;
      const now = snapshot(this.site);
      const back = new Map([...now].filter(([file]) => !mistake.files.includes(file)));
      for (const file of mistake.files) if (mistake.before.has(file)) back.set(file, mistake.before.get(file)!);
      return `the mistake undone (${restore(this.site, back).join(', ')})`;
    }
    if (!wasValid) return `the last valid state put back (${restore(this.site, this.lastGood).join(', ')})`;
    if (this.r.next() < MISTAKES) {
      const before = snapshot(this.site);
      const what = this.edit((e) => !!e.invalid);
      const after = snapshot(this.site);
      const files = [...new Set([...before.keys(), ...after.keys()])].filter((f) => before.get(f) !== after.get(f));
      this.mistake = { before, files, after: this.r.pick([0, 0, 1, 2]) };
      return `a mistake: ${what}`;
    }
    return this.edit((e) => !e.invalid);
  }

  private edit(allowed: (e: Edit) => boolean): string {
    const edits = EDITS.filter(allowed);
    const total = edits.reduce((sum, e) => sum + e.weight, 0);
    for (let attempt = 0; attempt < 50; attempt++) {
      let x = this.r.next() * total;
      const edit = edits.find((e) => (x -= e.weight) < 0) ?? edits[edits.length - 1]!;
      const what = edit.apply(this.ctx);
      if (what !== null) return `${edit.name}: ${what}`;
    }
    throw new Error('no edit applies');
  }
}
