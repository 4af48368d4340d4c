import { createHash } from 'node:crypto';
import { bundledLanguagesInfo, createHighlighter, createOnigurumaEngine, type Highlighter, type ThemeRegistration } from 'shiki';
import githubDark from 'shiki/themes/github-dark.mjs';
import githubLight from 'shiki/themes/github-light.mjs';
import { contrastRatio, parseHex } from '../theme/colors.js';

/*
 * Build-time syntax highlighting. One highlighter per process with a fixed
 * language list. Colours become classes, not style attributes, so pages run
 * under a Content-Security-Policy without 'unsafe-inline' for styles; each
 * (light colour, dark colour, font style) combination gets a class named by
 * a hash of the combination, and the stylesheet lists the combinations used.
 */

const LANGS = [
  'javascript', 'typescript', 'jsx', 'tsx', 'json', 'jsonc', 'json5', 'bash', 'shellsession',
  'css', 'scss', 'sass', 'less', 'html', 'xml', 'yaml', 'markdown', 'diff', 'ini', 'dockerfile',
  'vue', 'svelte', 'handlebars', 'pug', 'toml', 'sql', 'graphql', 'coffeescript', 'rust', 'wasm',
  'nginx', 'python', 'go', 'java', 'c', 'cpp', 'csharp', 'php', 'ruby', 'kotlin', 'swift', 'powershell',
  'lua', 'scala',
] as const;

/** The names a writer may put after a fence, for messages: the languages' ids, `mermaid` (a diagram: plugins/diagrams.ts), then `text`. */
export const LANGUAGE_NAMES = [...LANGS, 'mermaid', 'text'].join(', ');
const PLAIN = new Set(['text', 'txt', 'plain', 'plaintext', '']);
const THEMES = { light: 'github-light', dark: 'github-dark' } as const;

/** Every name a writer may put after the fence (ids and their aliases), mapped to the language id. */
const KNOWN = new Map<string, string>();
for (const info of bundledLanguagesInfo) {
  const names = [info.id, ...(info.aliases ?? [])];
  if (!names.some((name) => (LANGS as readonly string[]).includes(name))) continue;
  for (const name of names) KNOWN.set(name, info.id);
}

/*
 * Tokenizing is most of the cost of highlighting, and asking for two themes
 * tokenizes every block twice. The light and dark GitHub themes have the same
 * rules (same scopes, same font styles, same order), only other colours, so
 * one pass with a theme of the same rules whose colours stand for (light,
 * dark) pairs gives exactly the colours of both. Should a future version of
 * the themes differ in their rules, the two passes are used instead.
 */
const COMBINED = 'docs-light-dark';
type Theme = ThemeRegistration & { tokenColors?: Array<{ scope?: unknown; settings: { foreground?: string; fontStyle?: string } }> };

function combineThemes(light: Theme, dark: Theme): { theme: ThemeRegistration; pairs: Map<string, [string, string]> } | null {
  const [l, d] = [light.tokenColors ?? [], dark.tokenColors ?? []];
  const same = l.length === d.length && l.every((rule, i) => {
    const other = d[i]!;
    return JSON.stringify(rule.scope) === JSON.stringify(other.scope) && rule.settings.fontStyle === other.settings.fontStyle && !rule.settings.foreground === !other.settings.foreground;
  });
  const fg = (t: Theme) => t.fg ?? t.colors?.['editor.foreground'];
  if (!same || !fg(light) || !fg(dark)) return null;
  const pairs = new Map<string, [string, string]>();
  const byPair = new Map<string, string>();
  const pair = (a: string, b: string) => {
    // As the highlighter reports theme colours: upper case. One colour per pair, so that
    // neighbouring tokens of the same pair merge as they do with two passes.
    const [light, dark] = [a.toUpperCase(), b.toUpperCase()];
    let color = byPair.get(`${light}|${dark}`);
    if (!color) {
      color = '#' + pairs.size.toString(16).padStart(6, '0');
      pairs.set(color, [light, dark]);
      byPair.set(`${light}|${dark}`, color);
    }
    return color;
  };
  const foreground = pair(fg(light)!, fg(dark)!);
  const theme: Theme = {
    name: COMBINED,
    type: 'light',
    fg: foreground,
    bg: light.bg ?? light.colors?.['editor.background'] ?? '#ffffff',
    colors: { 'editor.foreground': foreground, 'editor.background': light.colors?.['editor.background'] ?? '#ffffff' },
    tokenColors: l.map((rule, i) => ({
      ...rule,
      settings: { ...rule.settings, ...(rule.settings.foreground ? { foreground: pair(rule.settings.foreground, d[i]!.settings.foreground!) } : {}) },
    })),
  };
  return { theme, pairs };
}

const combined = combineThemes(githubLight as Theme, githubDark as Theme);

let highlighterPromise: Promise<Highlighter> | undefined;

/** The process's highlighter; grammars are loaded when a page first uses their language. */
export function loadHighlighter(): Promise<Highlighter> {
  return (highlighterPromise ??= createHighlighter({
    themes: combined ? [combined.theme] : [THEMES.light, THEMES.dark],
    langs: [],
    engine: createOnigurumaEngine(import('shiki/wasm')),
  }));
}

/** A code block to highlight: its codeBlockKey, language and code as highlighted. */
export interface CodeToHighlight {
  key: string;
  lang: string;
  code: string;
}

/** Tokens highlighted elsewhere (another thread, see HighlightThread): those of a page's blocks, by codeBlockKey. */
export interface TokenSource {
  tokens(blocks: CodeToHighlight[]): Promise<Map<string, TokenLine[]>>;
}

/**
 * A function that loads the highlighter when first needed (a page whose code
 * blocks all come from the cache never does), or a source of tokens
 * highlighted by another thread.
 */
export type HighlighterSource = (() => Promise<Highlighter>) | TokenSource;

export interface TokenClass {
  light: string;
  dark: string;
  fontStyle: number;
}

/** Combinations met so far in this thread, by class name: the colours a name stands for (the stylesheet lists the names the site's pages use). */
const usedClasses = new Map<string, TokenClass>();

/** Class names by combination: a page has thousands of tokens and only a few dozen combinations. */
const classNames = new Map<string, string>();

function classFor(light: string, dark: string, fontStyle: number): string {
  const key = `${light}|${dark}|${fontStyle}`;
  let name = classNames.get(key);
  if (!name) {
    name = 't' + createHash('sha1').update(key).digest('base64url').slice(0, 5).replace(/[-_]/g, 'x');
    classNames.set(key, name);
  }
  if (!usedClasses.has(name)) usedClasses.set(name, { light, dark, fontStyle });
  return name;
}

/** Whether `lang` is one of the site's languages (an alias such as `js` or `sh` counts). */
export function isKnownLanguage(lang: string): boolean {
  return PLAIN.has(lang) || KNOWN.has(lang);
}

/** One highlighted line: its tokens as [class, text]; an empty class is plain text. */
export type TokenLine = Array<[className: string, text: string]>;

/** Highlights `code` into lines of tokens; `lang` is never plain text (see needsHighlighter, which every caller asks first). */
function highlightTokens(highlighter: Highlighter, code: string, lang: string): TokenLine[] {
  // No time limit per line: a slow (loaded) machine must not give different output.
  const tokens = combined
    ? highlighter.codeToTokensBase(code, { lang: KNOWN.get(lang) as never, theme: COMBINED as never, tokenizeTimeLimit: 0 }).map((line) =>
        line.map((token) => {
          const [light, dark] = combined.pairs.get(token.color!.toLowerCase()) ?? [token.color, token.color];
          return { content: token.content, variants: { light: { color: light, fontStyle: token.fontStyle }, dark: { color: dark } } };
        }),
      )
    : highlighter.codeToTokensWithThemes(code, { lang: KNOWN.get(lang) as never, themes: THEMES, tokenizeTimeLimit: 0 });
  return tokens.map((line) =>
    line.map((token): [string, string] => {
      const light = token.variants.light!;
      const dark = token.variants.dark!;
      return [classFor(light.color ?? '', dark.color ?? '', Math.max(light.fontStyle ?? 0, 0)), token.content];
    }),
  );
}

/** Plain text as lines of tokens: one unstyled token per non-empty line. */
export function plainTokens(code: string): TokenLine[] {
  return code.split('\n').map((line) => (line ? [['', line]] : []));
}

/** Highlights blocks, once the grammars of their languages are loaded (the others stay unloaded): their tokens by codeBlockKey. */
export async function highlightBlocks(highlighter: Highlighter, blocks: readonly CodeToHighlight[]): Promise<Map<string, TokenLine[]>> {
  const loaded = new Set(highlighter.getLoadedLanguages());
  const missing = new Set(blocks.map((b) => KNOWN.get(b.lang.toLowerCase())).filter((id) => id !== undefined && !loaded.has(id)));
  if (missing.size) await highlighter.loadLanguage(...([...missing] as never[]));
  return new Map(blocks.map((b) => [b.key, highlightTokens(highlighter, b.code, b.lang)]));
}

/** Whether highlighting `lang` needs the highlighter (plain text does not). */
export function needsHighlighter(lang: string): boolean {
  return !PLAIN.has(lang);
}

/*
 * Code the highlighter is not given, as editors do with minified files: a line over 5,000
 * characters, or a block over 256 KB. Its grammar engine holds every token of a line at once (a
 * line of a megabyte took over a gigabyte and 14 s); such code is shown as it is, uncoloured.
 */
const LONGEST_LINE = 5_000;
const LARGEST_BLOCK = 256 * 1024;

/** Whether a block's code is highlighted (see above). */
export function colourable(code: string): boolean {
  if (code.length > LARGEST_BLOCK) return false;
  if (code.length <= LONGEST_LINE) return true;
  for (let start = 0; start < code.length; ) {
    let end = code.indexOf('\n', start);
    if (end < 0) end = code.length;
    if (end - start > LONGEST_LINE) return false;
    start = end + 1;
  }
  return true;
}

/** The token classes of `names` with their colours (to restore with registerTokenClasses); other names are left out. */
export function tokenClassesOf(names: Iterable<string>): Record<string, TokenClass> {
  const classes: Record<string, TokenClass> = {};
  for (const name of names) {
    const entry = usedClasses.get(name);
    if (entry) classes[name] = entry;
  }
  return classes;
}

/** The token classes a rendered body uses, with their colours (so a cached body can restore them). */
export function tokenClassesIn(html: string): Record<string, TokenClass> {
  return tokenClassesOf([...html.matchAll(/<span class="(t[\w]{5})">/g)].map((m) => m[1]!));
}

/** Registers token classes of a body that was not highlighted in this process (it came from the cache). */
export function registerTokenClasses(classes: Record<string, TokenClass>): void {
  for (const [name, entry] of Object.entries(classes)) if (!usedClasses.has(name)) usedClasses.set(name, entry);
}

/* The code block backgrounds of the stylesheet (--bg-code), light and dark. */
const CODE_BG = { light: '#f6f8fa', dark: '#161b22' };
const MIN_CONTRAST = 4.6; // WCAG AA asks 4.5 for text; a little margin for rounding

/**
 * The theme colour, moved towards black (light) or white (dark) just enough
 * to reach AA contrast on the code background: a few of the themes' colours
 * (comments, keywords) fall slightly short.
 */
function readable(color: string, scheme: 'light' | 'dark'): string {
  let hex = color.toLowerCase().slice(0, 7);
  if (!/^#[0-9a-f]{6}$/.test(hex)) return hex;
  const target = scheme === 'light' ? 0 : 255;
  for (let step = 0; step < 40 && contrastRatio(hex, CODE_BG[scheme]) < MIN_CONTRAST; step++) {
    hex = '#' + parseHex(hex).map((c) => Math.round(c + (target - c) * 0.08).toString(16).padStart(2, '0')).join('');
  }
  return hex;
}

/** CSS for the token classes `names` (those the site's pages use now), in a stable order; each colour is a light-dark() pair. */
export function tokenStylesheet(names: Iterable<string>): string {
  return [...new Set(names)]
    .sort()
    .map((name) => {
      const c = usedClasses.get(name)!;
      const style = [c.fontStyle & 1 ? ';font-style:italic' : '', c.fontStyle & 2 ? ';font-weight:600' : ''].join('');
      return `.${name}{color:light-dark(${readable(c.light, 'light')},${readable(c.dark, 'dark')})${style}}`;
    })
    .join('\n');
}
