import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { ROOT } from '../helpers/content.js';
import type { Ctx, Edit } from './incremental-edits.js';

/*
 * The theme of the site of test/robustness/incremental.test.ts and the writer's edits of it: the
 * pieces of test/fixtures/themed (a stylesheet of `theme.css`, a logo, colours, and a Footer
 * component that imports another file of the site), and edits of each.
 */

/** Adds the themed fixture's stylesheet, logo, colours and Footer component to the site. */
export function addTheme(site: string): void {
  const themed = join(ROOT, 'test/fixtures/themed');
  for (const file of ['components/Footer.tsx', 'components/year.ts', 'theme/extra.css', 'static/brand.svg']) {
    mkdirSync(dirname(join(site, file)), { recursive: true });
    cpSync(join(themed, file), join(site, file));
  }
  const config = readConfig(site);
  config.theme = { logo: { src: 'static/brand.svg' }, colors: { accent: '#0f6e5c', link: '#8a2c6d' }, css: ['theme/extra.css'] };
  config.components = { Footer: 'components/Footer.tsx' };
  writeConfig(site, config);
}

interface ThemeConfig {
  theme: { logo: { src: string }; colors: Record<string, string>; css: string[] };
  components?: Record<string, string>;
}
const readConfig = (site: string) => parse(readFileSync(join(site, 'site.config.yaml'), 'utf8')) as ThemeConfig;
const writeConfig = (site: string, config: ThemeConfig) => writeFileSync(join(site, 'site.config.yaml'), stringify(config));
const read = (ctx: Ctx, file: string) => readFileSync(join(ctx.site, file), 'utf8');
const write = (ctx: Ctx, file: string, text: string) => writeFileSync(join(ctx.site, file), text);

/** Colours that keep their contrast on the page's background (the build checks it). */
const COLOURS = ['#0f6e5c', '#3b5bdb', '#8a2c6d', '#1d4ed8', '#9a3412', '#5e1d4a'];
const svg = (n: number, fill: string) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="${48 + (n % 5) * 8}" height="32" viewBox="0 0 64 32"><rect width="64" height="32" rx="8" fill="${fill}"/><text x="32" y="22" font-size="16" text-anchor="middle" fill="#2b1d00">T${n}</text></svg>\n`;

export const THEME_EDITS: Edit[] = [
  {
    name: 'theme stylesheet',
    weight: 2,
    apply(ctx) {
      const file = 'theme/extra.css';
      const n = ctx.n();
      const kind = ctx.r.next();
      if (kind < 0.4) {
        write(ctx, file, read(ctx, file).replace(/letter-spacing: [^;]+;/, `letter-spacing: 0.0${n % 10}em;`));
        return `${file}: the hero's letter spacing → 0.0${n % 10}em`;
      }
      if (kind < 0.7) {
        // (A url() names a file of static/: checked, and written with the base path. The file may be removed later: a problem then.)
        const images = (readdirSync(join(ctx.site, 'static'), { recursive: true }) as string[]).filter((f) => f.endsWith('.svg')).sort();
        if (!images.length) return null;
        const image = `/${ctx.r.pick(images).split('\\').join('/')}`;
        write(ctx, file, `${read(ctx, file)}.tide-${n} { background: url(${image}) no-repeat; }\n`);
        return `${file}: a rule with url(${image}) added`;
      }
      write(ctx, file, `${read(ctx, file)}.tide-${n} { margin-top: ${n}px; }\n`);
      return `${file}: a rule added`;
    },
  },
  {
    name: 'component',
    weight: 1,
    apply(ctx) {
      const file = 'components/Footer.tsx';
      const n = ctx.n();
      write(ctx, file, read(ctx, file).replace(/(© \{year\} \{ctx\.site\.config\.site\.title\}).*$/m, `$1 · tides ${n}`));
      return `${file}: the footer's text → tides ${n}`;
    },
  },
  {
    name: 'component import',
    weight: 1,
    apply(ctx) {
      const year = 2000 + ctx.n();
      write(ctx, 'components/year.ts', `export const year = ${year};\n`);
      return `components/year.ts (imported by the Footer): the year → ${year}`;
    },
  },
  {
    name: 'components entry',
    weight: 1,
    config: true,
    apply(ctx) {
      const config = readConfig(ctx.site);
      if (config.components) delete config.components;
      else config.components = { Footer: 'components/Footer.tsx' };
      writeConfig(ctx.site, config);
      return `site.config.yaml: components ${config.components ? 'added (the Footer)' : 'removed'}`;
    },
  },
  {
    name: 'theme colour',
    weight: 1,
    config: true,
    apply(ctx) {
      const config = readConfig(ctx.site);
      const key = ctx.r.pick(['accent', 'link']);
      const colour = ctx.r.pick(COLOURS.filter((c) => c !== config.theme.colors[key]));
      config.theme.colors[key] = colour;
      writeConfig(ctx.site, config);
      return `site.config.yaml: theme.colors.${key} → ${colour}`;
    },
  },
  {
    name: 'logo and favicon',
    weight: 1,
    config: true,
    apply(ctx) {
      const config = readConfig(ctx.site);
      const n = ctx.n();
      const kind = ctx.r.next();
      if (kind < 0.25) {
        // (No theme.favicon: static/favicon.svg is the favicon, else the build writes a neutral one.)
        const favicon = 'static/favicon.svg';
        if (existsSync(join(ctx.site, favicon))) {
          rmSync(join(ctx.site, favicon));
          return `${favicon} removed (the neutral favicon again)`;
        }
        write(ctx, favicon, svg(n, '#a5d8ff'));
        return `${favicon} added`;
      }
      if (kind < 0.5) {
        // (Another file: the config names it.)
        const to = `static/logo-${n}.svg`;
        write(ctx, to, svg(n, ctx.r.pick(['#ffd166', '#a5d8ff'])));
        config.theme.logo.src = to;
        writeConfig(ctx.site, config);
        return `the logo → ${to} (a new file)`;
      }
      const file = config.theme.logo.src;
      if (!existsSync(join(ctx.site, file))) return null;
      write(ctx, file, svg(n, ctx.r.pick(['#ffd166', '#a5d8ff'])));
      return `${file}: the logo redrawn`;
    },
  },
];

/** Mistakes in the theme: each makes the site invalid until it is undone. */
export const THEME_MISTAKES: Edit[] = [
  {
    name: 'bad component',
    weight: 1,
    invalid: true,
    apply(ctx) {
      // (Only while the config names the component: else its files are not read.)
      if (!readConfig(ctx.site).components) return null;
      const file = ctx.r.pick(['components/Footer.tsx', 'components/year.ts']);
      write(ctx, file, read(ctx, file).replace(/\}\s*$/, '').replace(/= (\d)/, '= ($1'));
      return `${file}: a syntax error`;
    },
  },
];
