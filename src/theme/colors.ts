/*
 * The colours of the chrome: one CSS custom property per role, each a
 * light-dark() pair. A site sets them under `theme.colors`; what it leaves
 * out takes the neutral defaults below. The generated block follows the
 * stylesheets of the templates (which only ever use the properties), and the
 * contrast of every text colour on its background is checked when the config
 * is read (WCAG 2 AA: 4.5:1 for text, 3:1 for icons).
 */

/** Each colour of `theme.colors`: its default, and what it colours (the description of its config key). */
const COLORS = {
  accent: ['#3b5bdb', 'Accent in the light scheme: the chat button, highlighted code lines, search matches.'],
  accentDark: ['#91a7ff', 'Accent in the dark scheme.'],
  accentText: ['#ffffff', 'Icon colour on the accent (the chat button), light scheme; needs 3:1 against accent.'],
  accentTextDark: ['#10141a', 'Icon colour on the dark accent; needs 3:1 against accentDark.'],
  link: ['#2f4ac0', 'Links, the focus ring and note asides in the light scheme; needs 4.5:1 on the page background (#ffffff).'],
  linkDark: ['#a5b4fc', 'Links, the focus ring and note asides in the dark scheme; needs 4.5:1 on the dark page background (#12181c).'],
  linkHover: ['#1e3183', 'Links under the pointer, light scheme.'],
  linkHoverDark: ['#c7d2fe', 'Links under the pointer, dark scheme.'],
  header: ['#23272f', 'Header background, light scheme.'],
  headerDark: ['#171a20', 'Header background, dark scheme.'],
  headerText: ['#ffffff', 'Header and footer text and icons, light scheme; needs 4.5:1 on header.'],
  headerTextDark: ['#ffffff', 'Header and footer text and icons, dark scheme; needs 4.5:1 on headerDark. Without it, headerText.'],
  headerTextSoft: ['#d4d8de', 'Header navigation and footer text that is not current, light scheme; needs 4.5:1 on header.'],
  headerTextSoftDark: ['#d4d8de', 'Header navigation and footer text that is not current, dark scheme; needs 4.5:1 on headerDark. Without it, headerTextSoft.'],
  headerAccent: ['#91a7ff', 'Underline of the current header entry and focus ring inside the header, light scheme; needs 3:1 on header.'],
  headerAccentDark: ['#91a7ff', 'Underline of the current header entry and focus ring inside the header, dark scheme; needs 3:1 on headerDark. Without it, headerAccent.'],
  banner: ['#e6e9ef', 'Banner background (both schemes).'],
  bannerText: ['#1b1f27', 'Banner text and links; needs 4.5:1 on banner.'],
} as const satisfies Record<string, readonly [string, string]>;

export type ColorKey = keyof typeof COLORS;
export type ThemeColors = Record<ColorKey, string>;
const colorTable = (column: 0 | 1) => Object.fromEntries(Object.entries(COLORS).map(([key, entry]) => [key, entry[column]])) as ThemeColors;
export const COLOR_DEFAULTS = colorTable(0);
export const COLOR_DESCRIPTIONS = colorTable(1);

/** The page backgrounds of the two schemes (templates/styles/00-base.css), against which links are checked. */
const PAGE_BACKGROUND = { light: '#ffffff', dark: '#12181c' } as const;

const TOKENS: Array<[property: string, light: ColorKey, dark: ColorKey]> = [
  ['--accent', 'accent', 'accentDark'],
  ['--accent-fg', 'accentText', 'accentTextDark'],
  ['--link', 'link', 'linkDark'],
  ['--link-hover', 'linkHover', 'linkHoverDark'],
  ['--header-bg', 'header', 'headerDark'],
  ['--header-fg', 'headerText', 'headerTextDark'],
  ['--header-fg-soft', 'headerTextSoft', 'headerTextSoftDark'],
  ['--header-accent', 'headerAccent', 'headerAccentDark'],
  ['--banner-bg', 'banner', 'banner'],
  ['--banner-fg', 'bannerText', 'bannerText'],
];

/**
 * The dark-scheme header colours a site may leave out: each then follows its light-scheme key, so that a
 * config written when the header text was one colour for both schemes keeps its look.
 */
const FOLLOWS: Partial<Record<ColorKey, ColorKey>> = {
  headerTextDark: 'headerText',
  headerTextSoftDark: 'headerTextSoft',
  headerAccentDark: 'headerAccent',
};

export function themeColors(configured: Partial<Record<ColorKey, string>> = {}): ThemeColors {
  const colors = { ...COLOR_DEFAULTS } as ThemeColors;
  for (const [key, value] of Object.entries(configured)) if (value) colors[key as ColorKey] = value.toLowerCase();
  for (const [dark, light] of Object.entries(FOLLOWS) as Array<[ColorKey, ColorKey]>) {
    if (!configured[dark] && configured[light]) colors[dark] = colors[light];
  }
  return colors;
}

/** The `:root` block that sets every colour property. */
export function colorStylesheet(colors: ThemeColors): string {
  const lines = TOKENS.map(([property, light, dark]) => `  ${property}: ${colors[light] === colors[dark] ? colors[light] : `light-dark(${colors[light]}, ${colors[dark]})`};`);
  // Tints of the accent, light enough in the light scheme that highlighted code keeps its token colours readable (4.5:1).
  const mix = (light: number, dark: number, other: string) =>
    `light-dark(color-mix(in srgb, ${colors.accent} ${light}%, ${other}), color-mix(in srgb, ${colors.accentDark} ${dark}%, ${other}))`;
  // Search matches: text and links on them keep 4.5:1 for accents that pass their own checks.
  const mark = `light-dark(color-mix(in srgb, ${colors.accent} 15%, ${PAGE_BACKGROUND.light}), color-mix(in srgb, ${colors.accentDark} 20%, ${PAGE_BACKGROUND.dark}))`;
  lines.push(`  --hl-line: ${mix(6, 12, 'transparent')};`, `  --mark: ${mark};`, `  --accent-hover: ${mix(80, 80, '#000')};`);
  return `/* Theme colours (theme.colors of the site config, or the defaults). */\n:root {\n${lines.join('\n')}\n}\n`;
}

/** Text (or icon) on background, the minimum ratio, and the config keys involved. */
const PAIRS: Array<{ fg: ColorKey; bg: ColorKey | keyof typeof PAGE_BACKGROUND; min: number; what: string }> = [
  { fg: 'headerText', bg: 'header', min: 4.5, what: 'header text' },
  { fg: 'headerTextDark', bg: 'headerDark', min: 4.5, what: 'header text (dark scheme)' },
  { fg: 'headerTextSoft', bg: 'header', min: 4.5, what: 'header navigation text' },
  { fg: 'headerTextSoftDark', bg: 'headerDark', min: 4.5, what: 'header navigation text (dark scheme)' },
  { fg: 'headerAccent', bg: 'header', min: 3, what: 'the focus ring in the header' },
  { fg: 'headerAccentDark', bg: 'headerDark', min: 3, what: 'the focus ring in the header (dark scheme)' },
  { fg: 'bannerText', bg: 'banner', min: 4.5, what: 'banner text' },
  { fg: 'link', bg: 'light', min: 4.5, what: 'links on the page' },
  { fg: 'linkDark', bg: 'dark', min: 4.5, what: 'links on the page (dark scheme)' },
  { fg: 'linkHover', bg: 'light', min: 4.5, what: 'links under the pointer' },
  { fg: 'linkHoverDark', bg: 'dark', min: 4.5, what: 'links under the pointer (dark scheme)' },
  { fg: 'accentText', bg: 'accent', min: 3, what: 'the chat icon' },
  { fg: 'accentTextDark', bg: 'accentDark', min: 3, what: 'the chat icon (dark scheme)' },
];

/** Every text/background pair below its WCAG AA minimum, with the configured key to point at (the foreground when both or neither are configured). */
export function contrastProblems(colors: ThemeColors, configured: Partial<Record<ColorKey, string>> = {}) {
  return PAIRS.flatMap((pair) => {
    const fg = colors[pair.fg];
    const bgIsPage = pair.bg === 'light' || pair.bg === 'dark';
    const bg = bgIsPage ? PAGE_BACKGROUND[pair.bg as 'light' | 'dark'] : colors[pair.bg as ColorKey];
    const ratio = contrastRatio(fg, bg);
    if (ratio >= pair.min) return [];
    const bgName = bgIsPage ? `the ${pair.bg} page background ${bg}` : `${pair.bg} ${bg}`;
    // A dark-scheme colour left out takes its light-scheme key's value: then that key is the one to point at (unless the background is set).
    const followed = FOLLOWS[pair.fg];
    const inherited = !configured[pair.fg] && followed && configured[followed] ? followed : undefined;
    const key = configured[pair.fg] || bgIsPage ? pair.fg : inherited && !configured[pair.bg as ColorKey] ? inherited : (pair.bg as ColorKey);
    const fgName = inherited ? `${pair.fg} (not set, so ${inherited})` : pair.fg;
    const message = `${fgName} ${fg} on ${bgName} has a contrast of ${ratio.toFixed(2)}:1; ${pair.what} needs at least ${pair.min}:1 (WCAG AA)${inherited ? `: set ${pair.fg}` : ''}`;
    return [{ key, message }];
  });
}

/** WCAG 2 contrast ratio of two #rrggbb colours. */
export function contrastRatio(a: string, b: string): number {
  const [la, lb] = [luminance(a), luminance(b)];
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

function luminance(hex: string): number {
  const [r, g, b] = parseHex(hex).map((c) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

/** [r, g, b] of #rgb or #rrggbb. */
export function parseHex(hex: string): [number, number, number] {
  let h = hex.replace(/^#/, '');
  if (h.length === 3) h = [...h].map((c) => c + c).join('');
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

export const HEX_COLOR = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;
