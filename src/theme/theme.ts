import { lstatSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import type { LoadedConfig } from '../config/load.js';
import { COMPONENT_NAMES, type SiteConfig } from '../config/schema.js';
import type { SourceProblem } from '../shared/errors.js';
import { isWithin } from '../shared/paths.js';
import { colorStylesheet, contrastProblems, themeColors, type ColorKey, type ThemeColors } from './colors.js';
import { SOCIAL_ICON_NAMES, SOCIAL_ICONS, type SocialIcon } from './social-icons.js';
import { format, uiStrings, type UiStrings } from './ui.js';
import { hasTrees, TREES_CSS } from './trees-css.js';
import { imageSize, type ImageSize } from './image-size.js';

/*
 * What the config says about the look of the site, resolved once per build:
 * the interface strings, the colours, the icon links, the logo and favicon
 * URLs. Pure: it needs only the config (files are checked by
 * themeProblems, read by themeStylesheet and loadComponents).
 */

export interface ResolvedTheme {
  ui: UiStrings;
  colors: ThemeColors;
  social: SiteConfig['social'];
  /** URL path of the logo file; undefined for the built-in neutral mark. */
  logo?: string;
  /** URL path of the logo file of the dark scheme, when it has its own. */
  logoDark?: string;
  /** Text of the logo image (theme.logo.alt); empty when the logo is decorative. */
  logoAlt: string;
  /** Whether the logo stands for the site title, which is then only read out (theme.logo.replacesTitle). */
  logoReplacesTitle: boolean;
  /** The URL of the link-preview picture of pages without their own (site.image): a site path or an absolute URL. */
  image?: string;
  /** Whether the printable section documents are built and linked (site.printable). */
  printable: boolean;
  /** Width over height of the logo file (1 until loadComponents reads it). */
  logoRatio: number;
  favicon: { url: string; type: string };
  home: 'docs' | 'landing';
}

/** The logo of the config, whichever form it is written in. */
export function logoFiles(config: SiteConfig) {
  const logo = config.theme.logo;
  if (logo === undefined) return undefined;
  if (typeof logo === 'string') return { light: logo, lightPath: ['theme', 'logo'], replacesTitle: false };
  const light = (logo.light ?? logo.src)!;
  return { light, lightPath: ['theme', 'logo', logo.light !== undefined ? 'light' : 'src'], dark: logo.dark, alt: logo.alt, replacesTitle: logo.replacesTitle };
}

/** The URL path a file under static/ is published at. */
const staticUrl = (path: string) => '/' + path.replace(/^static\//, '');

const TYPES: Record<string, string> = { '.svg': 'image/svg+xml', '.png': 'image/png', '.ico': 'image/x-icon' };

export function resolveTheme(config: SiteConfig): ResolvedTheme {
  const ui = uiStrings(config.site.language, config.ui);
  // A "#" inside a fragment (matrix.to/#/#room:server) is not valid in an href: it is written %23, which such sites read the same.
  const href = (url: string) => url.replace(/#(.*)$/, (_, fragment: string) => '#' + fragment.replace(/#/g, '%23'));
  const social: SiteConfig['social'] = config.social.map((link) => ({ ...link, url: href(link.url) }));
  // A link of the older `links:` key: the icon of its host, else the plain link mark named by the host.
  const legacy = (url: string | undefined, text: string) => {
    if (!url) return;
    const host = new URL(url.startsWith('//') ? `https:${url}` : url).hostname;
    const hostIcon = (icon: SocialIcon) => (SOCIAL_ICONS[icon] as { hosts?: readonly string[] }).hosts?.includes(host.replace(/^www\./, ''));
    const icon = SOCIAL_ICON_NAMES.find(hostIcon) ?? 'link';
    social.push({ icon, url, label: format(text, { name: icon === 'link' ? host : SOCIAL_ICONS[icon].name }) });
  };
  legacy(config.links?.repository, ui.sourceCodeOn);
  legacy(config.links?.questions, ui.questionsOn);
  const logo = logoFiles(config);
  const faviconFile = config.theme.favicon ?? logo?.light;
  const image = config.site.image;
  return {
    ui,
    colors: themeColors(config.theme.colors),
    social,
    logo: logo && staticUrl(logo.light),
    logoDark: logo?.dark && staticUrl(logo.dark),
    logoAlt: logo?.alt ?? '',
    logoReplacesTitle: logo?.replacesTitle ?? false,
    image: image && (/^https?:/.test(image) ? image : staticUrl(image)),
    printable: config.site.printable !== false,
    logoRatio: 1,
    favicon: faviconFile ? { url: staticUrl(faviconFile), type: TYPES[extname(faviconFile).toLowerCase()]! } : { url: '/favicon.svg', type: 'image/svg+xml' },
    home: config.theme.home,
  };
}

/**
 * Problems of the theme: colours whose text fails WCAG AA contrast on its
 * background (see src/theme/colors.ts), files named by the theme and the
 * components that are not in the site folder, a landing home that lists pages.
 */
export function themeProblems(root: string, loaded: LoadedConfig): SourceProblem[] {
  const { config } = loaded;
  const configured = config.theme.colors as Partial<Record<ColorKey, string>>;
  const problems: SourceProblem[] = contrastProblems(themeColors(configured), configured).map((p) =>
    loaded.problemAt(configured[p.key] ? ['theme', 'colors', p.key] : ['theme', 'colors'], p.message),
  );
  const check = (path: readonly PropertyKey[], file: string | undefined, image = false) => {
    if (!file) return;
    const full = resolve(root, file);
    if (!isFile(full) || relative(root, full).startsWith('..')) return problems.push(loaded.problemAt(path, `there is no file ${file} in the site folder`));
    // Read through a symbolic link, a file outside the site would be published (the stylesheets and components
    // are built into the site); and static/ does not copy links, so a logo behind one would be missing.
    if (!isWithin(realpathSync(full), realpathSync(root))) problems.push(loaded.problemAt(path, `${file} is a symbolic link to a file outside the site folder; copy the file into the site`));
    else if (image && lstatSync(full).isSymbolicLink()) problems.push(loaded.problemAt(path, `${file} is a symbolic link, and links in static/ are not copied; put the file itself there`));
    else if (image) {
      const bad = imageProblem(full);
      if (bad) problems.push(loaded.problemAt(path, `${file} ${bad}`));
    }
  };
  const logo = logoFiles(config);
  check(logo?.lightPath ?? [], logo?.light, true);
  check(['theme', 'logo', 'dark'], logo?.dark, true);
  if (config.site.image && !/^https?:/.test(config.site.image)) check(['site', 'image'], config.site.image, true);
  check(['theme', 'favicon'], config.theme.favicon, true);
  for (const name of COMPONENT_NAMES) check(['components', name], config.components[name]);
  // The files the site's stylesheets name (of those that are there to read).
  config.theme.css.forEach((file, i) => {
    const count = problems.length;
    check(['theme', 'css', i], file);
    if (problems.length === count) problems.push(...cssUrls(root, file, readFileSync(resolve(root, file), 'utf8')).problems);
  });
  if (config.theme.home === 'landing' && config.sections.some((s) => s.url === '' && (s.pages.length || s.autogenerate))) {
    const s = config.sections.findIndex((section) => section.url === '');
    problems.push(loaded.problemAt(['sections', s, config.sections[s]!.autogenerate ? 'autogenerate' : 'pages'], 'with theme.home: landing the home page has no sidebar, so its section cannot list pages: move them to another section'));
  }
  return problems;
}

/** The colour block and the site's own stylesheets, appended to the built-in stylesheet (their urls given the base path). */
export function themeStylesheet(root: string, config: SiteConfig, base = '/'): string {
  const own = config.theme.css.map((file) => `/* ${file} */\n` + cssUrls(root, file, readFileSync(resolve(root, file), 'utf8'), base).css);
  return [colorStylesheet(themeColors(config.theme.colors)), ...(hasTrees(config) ? [TREES_CSS] : []), ...own].join('\n');
}

/**
 * The url()s of a stylesheet of the site, which is published inside the
 * built stylesheet (in /assets/): each must name a file of static/, written
 * from static/ (/images/x.png) or relative to the stylesheet's own file
 * (../static/images/x.png), and is written as its published path with the
 * base path. Other hosts and data: are left as they are. Returns the
 * stylesheet so written, and the problems of the url()s that name nothing
 * published (with their line and column in the file).
 */
function cssUrls(root: string, file: string, css: string, base = '/'): { css: string; problems: SourceProblem[] } {
  const problems: SourceProblem[] = [];
  const staticDir = join(root, 'static');
  const out = css.replace(/url\(\s*(["']?)([^"')\s]*)\1\s*\)/g, (whole, quote: string, url: string, offset: number) => {
    if (url === '' || /^([a-z][a-z0-9+.-]*:|\/\/|#)/i.test(url)) return whole;
    const [path = '', rest = ''] = /^([^?#]*)(.*)$/.exec(url)!.slice(1);
    const target = path.startsWith('/') ? join(staticDir, path) : resolve(dirname(resolve(root, file)), path);
    const published = relative(staticDir, target);
    if (published.startsWith('..') || published.startsWith(sep) || published === '' || !isFile(target)) {
      const before = css.slice(0, offset).split('\n');
      const message = `url(${url}) names no file of static/ (the stylesheet is published in /assets/: put the file in static/ and write its path from there, such as url(/images/background.png))`;
      problems.push({ file, line: before.length, column: before.at(-1)!.length + 1, message });
      return whole;
    }
    return `url(${quote}${base}${published.split(sep).join('/')}${rest}${quote})`;
  });
  return { css: out, problems };
}

/** Extra sources of each CSP directive: the configured ones, the badge's image host, contributors' avatars. */
export function cspSources(config: SiteConfig, hasContributors: boolean): SiteConfig['csp'] {
  const img: string[] = [];
  if (config.badge) img.push('https://img.shields.io');
  if (hasContributors) img.push('https://github.com', 'https://avatars.githubusercontent.com');
  const sources = Object.entries({ ...config.csp, img: [...img, ...config.csp.img] });
  return Object.fromEntries(sources.map(([directive, list]) => [directive, [...new Set(list)]])) as SiteConfig['csp'];
}

/** Whether `path` is a file (false when it cannot be read). */
function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** What is wrong with a logo or favicon file, as the end of a sentence that starts with its name; undefined when nothing. */
export function imageProblem(path: string): string | undefined {
  const bytes = readFileSync(path);
  const ext = extname(path).toLowerCase();
  if (ext === '.png') {
    const png = bytes.length >= 24 && bytes.subarray(0, 8).equals(PNG_SIGNATURE) && bytes.subarray(12, 16).toString('latin1') === 'IHDR';
    return png ? undefined : 'is not a PNG image (it does not start with the PNG signature and header)';
  }
  if (ext === '.jpg' || ext === '.jpeg') return bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff ? undefined : 'is not a JPEG image (it does not start with the JPEG signature)';
  if (ext === '.webp') return bytes.length >= 12 && bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP' ? undefined : 'is not a WebP image (it does not start with the WebP signature)';
  if (ext === '.gif') return /^GIF8[79]a/.test(bytes.subarray(0, 6).toString('latin1')) ? undefined : 'is not a GIF image (it does not start with the GIF signature)';
  if (ext === '.ico') return undefined;
  return /<svg\b/.test(bytes.toString('utf8')) ? undefined : 'is not an SVG image (it has no <svg> element)';
}

/** Width over height of the logo file, as imageSize reads it (three decimals); 1 when it cannot be read or does not say. */
export function imageRatio(path: string): number {
  let size: ImageSize | undefined;
  try {
    size = imageSize(readFileSync(path));
  } catch {
    return 1;
  }
  return size ? Math.round((size.width / size.height) * 1000) / 1000 : 1;
}
