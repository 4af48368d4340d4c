import { UI_DE } from './ui-de.js';
import { UI_ES } from './ui-es.js';
import { UI_FR } from './ui-fr.js';
import { UI_JA } from './ui-ja.js';
import { UI_KO } from './ui-ko.js';
import { UI_PT_BR } from './ui-pt.js';
import { UI_RU } from './ui-ru.js';
/*
 * Every piece of interface text of the pages and of the client script, in
 * one table: a set per language (English here, Chinese below, the others in
 * ui-<language>.ts), chosen by the page's language, and
 * single strings replaced through the config's `ui:` key. Components and the
 * client script never hold words of their own: they read them from here (the
 * client through the `data-ui` attribute of <body>, see clientStrings).
 *
 * Placeholders in braces ({title}, {count}) are filled by `format`.
 */

export const UI_EN = {
  skipToContent: 'Skip to content',
  asideNote: 'Note',
  asideTip: 'Tip',
  asideWarning: 'Warning',
  asideDanger: 'Danger',
  asideImportant: 'Important',
  asideCaution: 'Caution',
  footnotes: 'Footnotes',
  footnoteBack: 'Back to reference {n}',
  diagramSource: 'Diagram source',
  sectionTitled: 'Section titled',
  siteHeader: 'Site header',
  menu: 'Menu',
  home: '{title} home',
  mainNavigation: 'Main',
  subnavigation: '{title} sections',
  language: 'Language',
  languages: 'Languages',
  themeToggle: 'Colour theme: {theme}',
  themeSystem: 'system',
  themeLight: 'light',
  themeDark: 'dark',
  newTab: '(opens in a new tab)',
  searchLabel: 'Search documentation',
  searchPlaceholder: 'Search documentation…',
  searchButton: 'Search',
  searchResults: 'Search results',
  searchNone: 'No results for “{query}”',
  searchOne: '1 result',
  searchMany: '{count} results',
  searchCorrected: '{count} for “{corrected}” (no results for “{query}”)',
  searchUnavailable: 'Search is not available right now.',
  searchBuilding: 'The search index is still being built; searching again in a moment…',
  bannerLabel: 'Banner',
  bannerClose: 'Close banner',
  notificationLabel: 'Announcement',
  notificationClose: 'Dismiss announcement',
  footerLabel: 'Site footer',
  footerNavigation: 'Footer',
  editPage: 'Edit this page',
  printableSection: 'Printable section',
  jumpToRepository: 'Jump to repository',
  furtherReading: 'Further reading',
  contributors: 'Contributors',
  pagination: 'Previous and next pages',
  previous: 'Previous',
  next: 'Next',
  blogFeed: 'Atom feed',
  lastUpdated: 'Last updated',
  date: '{day} {month} {year}',
  months: 'January February March April May June July August September October November December',
  sidebar: 'Sidebar',
  sidebarPages: '{title} pages',
  anchorsOf: 'Sections of {title}',
  moreOne: '1 more page in {section}',
  moreMany: '{count} more pages in {section}',
  siteMenu: 'Site',
  moreLinks: 'More links',
  badgeAlt: '{label} version',
  badgeLink: '(release notes, opens in a new tab)',
  notFoundTitle: 'Page not found',
  notFoundText: 'There is no page at this address. Search the documentation with the search box at the top of the page, or start from one of its sections:',
  printableTitle: '{title} (printable)',
  backTo: 'Back to {title}',
  contents: 'Contents',
  onThisPage: 'On this page',
  breadcrumb: 'Breadcrumb',
  copy: 'Copy',
  copied: 'Copied',
  copiedAnnouncement: 'Copied to clipboard',
  copyFailed: 'Copying is not allowed here',
  sourceCodeOn: 'Source code on {name}',
  questionsOn: 'Questions on {name}',
  features: 'Features',
  movedTitle: 'Moved to {url}',
  movedText: 'This page has moved to {link}.',
  fallbackNotice: 'This page has not been translated yet: it is shown in its original language ({original}).',
  version: 'Version',
  versions: 'Versions',
  versionOld: 'This is the documentation of {version}, an older version.',
  versionLatest: 'Read the latest version ({version})',
} as const;

export type UiKey = keyof typeof UI_EN;
export type UiStrings = Record<UiKey, string>;

export const UI_ZH: UiStrings = {
  skipToContent: '跳到正文',
  asideNote: '注意',
  asideTip: '提示',
  asideWarning: '警告',
  asideDanger: '危险',
  asideImportant: '重要',
  asideCaution: '小心',
  footnotes: '脚注',
  footnoteBack: '返回引用 {n}',
  diagramSource: '图表源码',
  sectionTitled: '小节',
  siteHeader: '网站页眉',
  menu: '菜单',
  home: '{title} 首页',
  mainNavigation: '主导航',
  subnavigation: '{title} 的栏目',
  language: '语言',
  languages: '语言列表',
  themeToggle: '配色：{theme}',
  themeSystem: '跟随系统',
  themeLight: '浅色',
  themeDark: '深色',
  newTab: '（在新标签页中打开）',
  searchLabel: '搜索文档',
  searchPlaceholder: '搜索文档…',
  searchButton: '搜索',
  searchResults: '搜索结果',
  searchNone: '没有找到“{query}”的结果',
  searchOne: '1 条结果',
  searchMany: '{count} 条结果',
  searchCorrected: '“{corrected}”的 {count}（没有找到“{query}”的结果）',
  searchUnavailable: '搜索暂时不可用。',
  searchBuilding: '搜索索引仍在生成中，稍后自动重新搜索…',
  bannerLabel: '横幅',
  bannerClose: '关闭横幅',
  notificationLabel: '公告',
  notificationClose: '关闭公告',
  footerLabel: '网站页脚',
  footerNavigation: '页脚',
  editPage: '编辑此页',
  printableSection: '可打印的整章',
  jumpToRepository: '前往代码仓库',
  furtherReading: '延伸阅读',
  contributors: '贡献者',
  pagination: '上一页和下一页',
  previous: '上一页',
  next: '下一页',
  blogFeed: 'Atom 订阅源',
  lastUpdated: '最后更新于',
  date: '{year}年{monthNumber}月{day}日',
  months: '1月 2月 3月 4月 5月 6月 7月 8月 9月 10月 11月 12月',
  sidebar: '侧边栏',
  sidebarPages: '{title} 的页面',
  anchorsOf: '{title} 的小节',
  moreOne: '{section} 中还有 1 页',
  moreMany: '{section} 中还有 {count} 页',
  siteMenu: '网站',
  moreLinks: '更多链接',
  badgeAlt: '{label} 版本',
  badgeLink: '（发布说明，在新标签页中打开）',
  notFoundTitle: '找不到页面',
  notFoundText: '这个地址没有页面。可以用页面顶部的搜索框搜索文档，或者从下面的章节开始：',
  printableTitle: '{title}（可打印）',
  backTo: '返回 {title}',
  contents: '目录',
  onThisPage: '本页内容',
  breadcrumb: '页面路径',
  copy: '复制',
  copied: '已复制',
  copiedAnnouncement: '已复制到剪贴板',
  copyFailed: '这里不允许复制',
  sourceCodeOn: '{name} 上的源代码',
  questionsOn: '{name} 上的问答',
  features: '特性',
  movedTitle: '已移至 {url}',
  movedText: '此页面已移至 {link}。',
  fallbackNotice: '本页尚未翻译，下面是原文（{original}）。',
  version: '版本',
  versions: '版本列表',
  versionOld: '这是旧版本 {version} 的文档。',
  versionLatest: '阅读最新版本（{version}）',
};

/** The built-in sets by language (the part of the language tag before "-"). */
const SETS: Record<string, UiStrings> = { en: UI_EN, zh: UI_ZH, ja: UI_JA, ko: UI_KO, es: UI_ES, fr: UI_FR, de: UI_DE, pt: UI_PT_BR, ru: UI_RU };

/** Languages written right to left: a page in one of them gets dir="rtl". */
const RTL = new Set(['ar', 'he', 'fa', 'ur', 'yi', 'ps', 'sd', 'ug', 'dv', 'ckb']);
export const isRtl = (language: string) => RTL.has(language.toLowerCase().split('-')[0]!);

/** The strings of a site: the set of its language (English when there is none), with its own replacements. */
export function uiStrings(language: string, overrides: Partial<Record<UiKey, string>> = {}): UiStrings {
  const set = SETS[language.toLowerCase().split('-')[0]!] ?? UI_EN;
  return { ...set, ...overrides };
}

/** A string with its {placeholders} filled. */
export function format(text: string, values: Record<string, string | number>): string {
  // (Own keys only: "{toString}" is text, not the object's method.)
  return text.replace(/\{(\w+)\}/g, (all, name: string) => (Object.hasOwn(values, name) ? String(values[name]) : all));
}

/** The strings the client script needs (it reads them from <body data-ui>). */
export const CLIENT_KEYS = [
  'themeToggle',
  'themeSystem',
  'themeLight',
  'themeDark',
  'searchNone',
  'searchOne',
  'searchMany',
  'searchCorrected',
  'searchUnavailable',
  'searchBuilding',
  'copy',
  'copied',
  'copiedAnnouncement',
  'copyFailed',
] as const satisfies readonly UiKey[];

export type ClientKey = (typeof CLIENT_KEYS)[number];

export function clientStrings(ui: UiStrings): string {
  return JSON.stringify(Object.fromEntries(CLIENT_KEYS.map((key) => [key, ui[key]])));
}

/** A date (ISO, yyyy-mm-dd…) written out with the strings of the site. */
export function formatDate(ui: UiStrings, iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split('-').map(Number);
  const months = ui.months.split(/\s+/);
  return format(ui.date, { year: year!, month: months[month! - 1] ?? String(month), monthNumber: month!, day: day! });
}
