import { z } from 'zod';
import { BlogSchema } from './blog-schema.js';
import { languageTag, nonBlank } from './text.js';
import { COLOR_DEFAULTS, COLOR_DESCRIPTIONS, HEX_COLOR, type ColorKey } from '../theme/colors.js';
import { SOCIAL_ICON_NAMES } from '../theme/social-icons.js';
import { UI_EN, type UiKey } from '../theme/ui.js';

/*
 * The schema of site.config.yaml. One schema per concern; every field is
 * described so that editors show the description on hover (the JSON Schema
 * published beside the config is generated from this file).
 */

const siteUrl = z
  .string()
  .regex(/^(\/|https?:\/\/|\/\/|mailto:)/, 'expected a URL starting with "/", "http", "//" or "mailto:"')
  // A browser reads "\" as "/": /\\evil.example is the host evil.example.
  .regex(/^[^\\\s]*$/, 'expected a URL without spaces or backslashes (a browser reads "\\" as "/", so /\\host leads to another site)');

const externalUrl = z.string().regex(/^(https?:)?\/\//, 'expected an absolute URL starting with "http" or "//"');

/**
 * The origin the site is published at: the canonical links, the sitemap and robots.txt are absolute
 * URLs made of it and the page's path (with the base of --base), so it has a scheme and no path.
 */
const originUrl = z
  .string()
  .regex(
    /^https?:\/\/[^/?#\s"'<>\\]+\/?$/,
    'expected the origin of the published site, such as https://docs.example.org: "http://" or "https://" and a host, no path (a site under a sub-path such as /project/ is built with docs build --base /project/)',
  );

const LinkSchema = z
  .strictObject({
    title: nonBlank().describe('The text of the link.'),
    url: siteUrl.describe('Where it goes: a site path such as /guides/ or an external URL.'),
  })
  .describe('A link.');

export interface NavEntry {
  title: string;
  url: string;
  children?: NavEntry[];
}
const NavEntrySchema: z.ZodType<NavEntry> = z.lazy(() =>
  z
    .strictObject({
      title: nonBlank().describe('Label in the top navigation.'),
      url: siteUrl.describe('Target; the entry is highlighted when the current path starts with it.'),
      children: z.array(NavEntrySchema).optional().describe('Sub-entries shown in a row under the active entry.'),
    })
    .describe('A top navigation entry.'),
);

const pageId = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9._-]*(\/[a-z0-9][a-z0-9._-]*)*$/,
    'expected a page path such as "guides/tree-shaking" (lowercase, no leading or trailing slash, no .md)',
  );

const FolderSchema = z
  .strictObject({
    directory: pageId.describe('The folder under content/ whose pages the section lists: "guides" is content/guides/.'),
  })
  .describe('A folder whose pages the section lists: by the frontmatter key sidebar.order, then by title; each sub-folder is a group. Pages listed by hand (anywhere in sections) and the index pages of sections are left out; a page under two listed folders goes to the longer one.');

/** An entry of a section's pages: a page, or `autogenerate: { directory }` for the pages of a folder at that place. */
const PageEntrySchema = z.union([
  pageId.describe('A page: its path under content/ without .md.'),
  z.strictObject({ autogenerate: FolderSchema }).describe('The pages of a folder, at this place among the pages listed by hand.'),
]);

const SectionSchema = z
  .strictObject({
    title: nonBlank().describe('Section heading in the menus.'),
    url: z.union([z.literal(''), pageId]).describe('Section path without slashes: "concepts" is /concepts/ (content/concepts/index.md); "" is the home page.'),
    pages: z
      .array(PageEntrySchema)
      .default([])
      .describe('The pages of the section in sidebar order: paths under content/ without .md, and `autogenerate: { directory }` entries for the pages of a folder at that place.'),
    autogenerate: FolderSchema.optional().describe(
      'Lists every page under content/<directory>/ (the same as pages: [{ autogenerate: { directory } }]): by the frontmatter key sidebar.order, then by title; each sub-folder is a group. To mix a folder with pages listed by hand, put it in pages.',
    ),
  })
  .describe('A sidebar section.');

const versionField = z
  .union([nonBlank(), z.number()])
  .transform(String)
  .describe('Stored in localStorage on dismissal; change it to show a new message to readers who dismissed the old one.');

const SearchSchema = z
  .discriminatedUnion('provider', [
    z.strictObject({
      provider: z.literal('local').describe('An index built by docs build and searched in the browser.'),
    }),
    z.strictObject({
      provider: z.literal('algolia').describe('The hosted search service.'),
      appId: z.string().regex(/^[A-Za-z0-9]+$/, 'expected the application id: letters and digits').describe('Application id of the hosted index.'),
      apiKey: z.string().min(1).describe('The public, search-only key. It is sent to every reader: never put an admin or write key here.'),
      indexName: nonBlank().describe('Name of the index to query.'),
      host: z
        .string()
        .regex(/^https?:\/\/[A-Za-z0-9.-]+(:\d+)?\/?$/, 'expected the origin of the service, such as https://search.example.org (a scheme and a host, no path)')
        .optional()
        .describe('Override of the service host (tests point it at a local stub). It is added to the Content-Security-Policy.'),
    }),
  ])
  .describe('Documentation search behind the header search box.');

/*
 * Redirect paths end up in HTML attributes and in the `_redirects` rules of
 * static hosts: only the characters of a URL path (RFC 3986, without quotes),
 * no "." or ".." segments, no empty segments; a target may add ?query and #fragment.
 */
const PATH_CHAR = String.raw`(?:[A-Za-z0-9\-._~!$&()*+,;=:@]|%[0-9A-Fa-f]{2})`;
const PATH = String.raw`(?:/(?!\.{1,2}(?:/|$|[?#]))${PATH_CHAR}+)*/?`;
const REDIRECT_SOURCE = new RegExp(`^${PATH}$`);
const REDIRECT_TARGET = new RegExp(String.raw`^${PATH}(?:\?(?:${PATH_CHAR}|[/?])*)?(?:#(?:${PATH_CHAR}|[/?])*)?$`);
const REDIRECT_RULE =
  'expected a plain URL path: letters, digits and - . _ ~ ! $ & ( ) * + , ; = : @ %XX between slashes, no spaces, quotes, angle brackets, "." or ".." segments';
/*
 * Escapes that a browser or a static host decodes into what the rule above refuses: "." (so
 * "%2e%2e" is a ".." segment), "/" and "\" (a segment that is two), and control characters.
 */
const ENCODED_SEPARATOR = /%(?:2[eEfF]|5[cC]|[01][0-9A-Fa-f]|7[fF])/;
const ENCODED_RULE = 'write "." and "/" as themselves: %2E, %2F, %5C and escaped control characters (%00 to %1F, %7F) are read as dots, separators or controls';
const redirectPath = z.string().regex(/^\//, 'expected a path starting with "/"');

/* Files of the site named in the config: paths relative to the site root, inside it. */
const SITE_PATH = /^(?!\/)(?!.*(^|\/)\.\.?(\/|$))[^\\\0]+$/;
const sitePath = z
  .string()
  .regex(SITE_PATH, 'expected a path relative to the site root, such as "static/logo.svg" (no leading "/", no "." or ".." parts)');
const staticFile = (exts: string[], what: string) =>
  sitePath
    .regex(/^static\//, `expected a file under static/ (it is published at the same path without "static")`)
    .regex(new RegExp(`\\.(${exts.join('|')})$`, 'i'), `expected ${what}`);

const logoFile = staticFile(['svg', 'png'], 'an SVG or PNG file');

/** A picture for link previews: a raster file under static/ (previews do not show SVG), or an absolute URL. */
const shareImage = z.string().superRefine((value, ctx) => {
  const problem = /^https?:/i.test(value)
    ? /^https?:\/\/[^\s"'<>\\]+$/i.test(value)
      ? undefined
      : 'expected an absolute URL without spaces, quotes, angle brackets or backslashes'
    : !SITE_PATH.test(value) || !value.startsWith('static/')
      ? 'expected a file under static/ (such as static/social.png) or an absolute https:// URL'
      : /\.svg$/i.test(value)
        ? 'expected a PNG, JPEG, WebP or GIF file: link previews do not show SVG'
        : /\.(png|jpe?g|webp|gif)$/i.test(value)
          ? undefined
          : 'expected a PNG, JPEG, WebP or GIF file';
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});

const colorValue = z.string().regex(HEX_COLOR, 'expected a colour as #rgb or #rrggbb');
const ColorsSchema = z
  .strictObject(
    Object.fromEntries(
      (Object.keys(COLOR_DEFAULTS) as ColorKey[]).map((key) => [key, colorValue.optional().describe(`${COLOR_DESCRIPTIONS[key]} Default ${COLOR_DEFAULTS[key]}.`)]),
    ) as Record<ColorKey, z.ZodOptional<typeof colorValue>>,
  )
  .describe('Colours of the chrome, as CSS custom properties in the light and dark schemes; text on each background is checked for WCAG AA contrast.');

export const COMPONENT_NAMES = ['Header', 'Footer', 'Banner', 'Sidebar', 'Article', 'Home', 'Head'] as const;
export type ComponentName = (typeof COMPONENT_NAMES)[number];
const COMPONENT_DESCRIPTIONS: Record<ComponentName, string> = {
  Header: 'Replaces the header bar (props: HeaderProps).',
  Footer: 'Replaces the footer (props: FooterProps).',
  Banner: 'Replaces the banner at the top (props: BannerProps).',
  Sidebar: 'Replaces the desktop sidebar (props: SidebarProps).',
  Article: 'Replaces the article of a documentation page (props: PageProps).',
  Home: 'Replaces the landing home page of theme.home: landing (props: HomeProps).',
  Head: 'Adds elements at the end of every <head> (props: HeadProps).',
};

const ThemeSchema = z
  .strictObject({
    logo: z
      .union([
        logoFile.describe('The logo file (SVG or PNG) under static/, for both colour schemes.'),
        z
          .strictObject({
            light: logoFile.optional().describe('The logo file (SVG or PNG) under static/, shown in the header and the footer (in the dark scheme too, unless dark is given).'),
            src: logoFile.optional().describe('Older name of light.'),
            dark: logoFile.optional().describe('The logo file shown in the dark colour scheme (system or chosen with the header toggle).'),
            alt: nonBlank().optional().describe('Text of the logo image, shown where the image cannot load (the link keeps its name, ui.home).'),
            replacesTitle: z
              .boolean()
              .default(false)
              .describe('true: the logo stands for the site title, which is hidden beside it (screen readers still read the link as "<site title> home").'),
          })
          .refine((logo) => logo.light !== undefined || logo.src !== undefined, { message: 'expected light: the logo file under static/ (such as static/logo.svg)' }),
      ])
      .optional()
      .describe('The logo: a file under static/, or { light, dark, alt, replacesTitle }; without it a neutral mark is shown. It sits in links named "<site title> home" (ui.home).'),
    favicon: staticFile(['svg', 'png', 'ico'], 'an SVG, PNG or ICO file').optional().describe('The favicon under static/; defaults to the logo, or to a neutral mark.'),
    colors: ColorsSchema.default({}),
    css: z
      .array(sitePath.regex(/\.css$/, 'expected a .css file'))
      .default([])
      .describe('Stylesheets of the site, appended after the built-in one in the same hashed file.'),
    home: z
      .enum(['docs', 'landing'])
      .default('docs')
      .describe('"docs": the home page is a documentation page; "landing": a hero and feature cards from the frontmatter of content/index.md, without a sidebar.'),
  })
  .describe('The look of the site: logo, favicon, colours, extra stylesheets, home layout.');

const SocialLinkSchema = z
  .strictObject({
    icon: z.enum(SOCIAL_ICON_NAMES).describe(`The built-in icon: ${SOCIAL_ICON_NAMES.join(', ')}.`),
    url: externalUrl.describe('Where the icon links.'),
    label: nonBlank().describe('The accessible name of the link, e.g. "Source code on GitHub".'),
  })
  .describe('An icon link in the header (and in the phone menu).');

const UiSchema = z
  .strictObject(
    Object.fromEntries(
      (Object.keys(UI_EN) as UiKey[]).map((key) => [
        key,
        (key === 'months' ? nonBlank().regex(/^\s*\S+(\s+\S+){11}\s*$/, 'expected the names of the twelve months, in order, separated by spaces') : nonBlank())
          .optional()
          .describe(`Default (English): ${UI_EN[key]}`),
      ]),
    ) as Record<UiKey, z.ZodOptional<z.ZodString>>,
  )
  .describe('Interface strings that replace the built-in English or Chinese ones (chosen by site.language); {name} placeholders are filled in.');

// A path may not hold "," or ";": in a policy a comma starts a second policy and a semicolon a new directive.
const cspSource = z
  .string()
  .regex(
    /^((https|wss?|http):\/\/(\*\.)?[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*(:\d+)?(\/[A-Za-z0-9\-._~%!$&()*+=:@/]*)?|data:|blob:)$/,
    'expected a source such as https://img.example.com, https://*.example.com or data: (a path may not hold spaces, commas or semicolons)',
  );
const cspList = (what: string) => z.array(cspSource).default([]).describe(`Sources ${what}, added to the policy.`);
const CspSchema = z
  .strictObject({
    img: cspList('images may load from (img-src)'),
    media: cspList('audio and video may load from (media-src)'),
    frame: cspList('frames (iframes) may show (frame-src)'),
    connect: cspList('scripts may fetch from (connect-src)'),
    font: cspList('fonts may load from (font-src)'),
  })
  .describe('Extra sources of the Content-Security-Policy (the meta tag of every page and _headers); the badge image host is added by itself.');

/*
 * The keys of a site in several languages or versions (`languages:` and `versions:`); the rules between
 * them that the schema cannot say are in load.ts. How the engine uses them: src/site/trees.ts.
 */

/** A link of the language menu to another site (the older form of `languages:`), or a language of this site. */
const LanguageEntrySchema = z.union([
  z
    .strictObject({
      code: languageTag.describe('The language tag (the lang attribute and hreflang). Every language but the first has its pages under content/<code>/, served under /<code>/; the first is the default, at the root.'),
      label: nonBlank().describe('The name of the language in the language menu, in that language (English, 简体中文, Deutsch).'),
      dir: z.enum(['ltr', 'rtl']).optional().describe('Writing direction; defaults to rtl for Arabic, Hebrew, Persian and Urdu, ltr for the rest.'),
      titles: z
        .record(z.string(), nonBlank())
        .optional()
        .describe('The words of the config in this language, by their text in the config: the titles of the sections, navigation entries and footer links, the site\'s title and the footer\'s small print ({ Guides: 指南 }). An untranslated one stays as it is.'),
      ui: UiSchema.optional().describe(
        'Interface strings of this language that replace its built-in ones (as ui: does for the first language); a language without built-in strings (Arabic, Hebrew) is given its own here.',
      ),
    })
    .describe('A language of this site: its pages are under content/<code>/ (the first language: content/ itself).'),
  LinkSchema,
]);

/** An older version of the documentation, beside the current one. */
const VersionSchema = z
  .strictObject({
    name: z
      .string()
      // A folder name and a URL segment.
      .regex(/^[a-z0-9][a-z0-9._-]*$/, 'expected a folder name such as 4.x or v4: lowercase letters, digits, ".", "_" and "-"')
      .describe('The name of the version, its URL prefix (/4.x/) and its folder (content/4.x/); the first version is the current one, at the root and in content/ itself.'),
    label: nonBlank().optional().describe('The name shown in the version menu and the banner; defaults to name.'),
    sections: z.array(SectionSchema).min(1).optional().describe('The sidebar sections of this version, page paths from its folder (content/4.x/); defaults to the sections of the current version.'),
    navigation: z.array(NavEntrySchema).min(1).optional().describe('The top navigation of this version, with paths from its root ("/guides/" is /4.x/guides/); defaults to the current one\'s, under the version\'s prefix.'),
  })
  .describe('A version of the documentation. The first entry is the current version (only its name and label are read).');

export const SiteConfigSchema = z
  .strictObject({
    $schema: z.string().optional(),
    site: z
      .strictObject({
        title: nonBlank().describe('Site name, used in page titles ("Page | title").'),
        url: originUrl.describe('Origin of the published site, e.g. https://docs.example.org: scheme and host, no path (a sub-path is given to docs build --base).'),
        description: nonBlank().describe('Default meta description.'),
        language: languageTag.default('en').describe('The lang attribute of every page.'),
        repository: externalUrl.optional().describe('Source repository of the documented project (for reference; the header icons come from social).'),
        editBase: externalUrl.optional().describe('Prefix of "Edit this page" links; the page source path (content/...) is appended.'),
        image: shareImage
          .optional()
          .describe('The picture of link previews (og:image, twitter:card summary_large_image): a file under static/ such as static/social.png (1200×630 suits most sites), or an absolute URL. A page may set its own with the frontmatter key image.'),
        printable: z.boolean().default(true).describe('false: no printable section documents are built, and pages do not link to them.'),
      })
      .describe('Identity of the site.'),
    banner: z
      .strictObject({
        text: nonBlank().describe('Sentence shown in the banner.'),
        links: z.array(LinkSchema).default([]).describe('Links shown after the text.'),
        version: versionField,
      })
      .optional()
      .describe('The dismissible sponsorship banner at the top of every page.'),
    notification: z
      .strictObject({
        message: nonBlank().describe('The announcement.'),
        link: LinkSchema.optional(),
        version: versionField,
      })
      .optional()
      .describe('A general announcement line; omit it to show none.'),
    navigation: z.array(NavEntrySchema).min(1).describe('The top navigation.'),
    languages: z
      .array(LanguageEntrySchema)
      .default([])
      .describe('The language menu: languages of this site ({ code, label }: the first is the default, the others have their pages under content/<code>/), or links to other sites ({ title, url }).'),
    versions: z
      .array(VersionSchema)
      .default([])
      .describe('Versions of the documentation: the first is the current one (content/, at the root), each other has its pages under content/<name>/, served under /<name>/, with a banner linking to the current version.'),
    links: z
      .strictObject({
        repository: externalUrl.optional().describe('Header icon link to the source repository.'),
        questions: externalUrl.optional().describe('Header icon link to the question-and-answer site tag.'),
      })
      .optional()
      .describe('Older form of social: these two links become social entries after those listed there (icon by host; label from ui.sourceCodeOn and ui.questionsOn).'),
    social: z.array(SocialLinkSchema).default([]).describe('Icon links in the header, in this order.'),
    theme: ThemeSchema.default({ colors: {}, css: [], home: 'docs' }),
    ui: UiSchema.default({}),
    csp: CspSchema.default({ img: [], media: [], frame: [], connect: [], font: [] }),
    components: z
      .strictObject(Object.fromEntries(COMPONENT_NAMES.map((name) => [name, sitePath.regex(/\.(tsx|jsx|ts|js)$/, 'expected a .tsx, .jsx, .ts or .js file').optional().describe(COMPONENT_DESCRIPTIONS[name])])) as Record<ComponentName, z.ZodOptional<z.ZodString>>)
      .default({})
      .describe('Page parts replaced by the site\'s own components (compiled with esbuild, rendered at build time only).'),
    badge: z
      .strictObject({
        package: z
          .string()
          .regex(/^(@[a-z0-9-~][a-z0-9-._~]*\/)?[a-z0-9-~][a-z0-9-._~]*$/, 'expected an npm package name, such as react or @scope/name')
          .describe('npm package whose version the badge shows.'),
        label: nonBlank().optional().describe('Badge label; defaults to the package name.'),
        link: externalUrl.describe('Where the badge links (the release page).'),
      })
      .optional()
      .describe('The version badge at the top of the sidebar.'),
    chat: z
      .strictObject({
        url: externalUrl.describe('Destination of the floating chat button.'),
        label: nonBlank().describe('Accessible name and tooltip of the chat button.'),
      })
      .optional(),
    search: SearchSchema.default({ provider: 'local' }),
    blog: BlogSchema.optional(),
    footer: z
      .strictObject({
        links: z.array(LinkSchema).default([]).describe('Links left of the logo mark.'),
        secondary: z.array(LinkSchema).default([]).describe('Links right of the logo mark.'),
        copyright: z.string().optional().describe('Small print under the links.'),
      })
      .default({ links: [], secondary: [] }),
    sections: z.array(SectionSchema).min(1).describe('Sidebar sections in menu order.'),
    redirects: z
      .record(
        redirectPath.regex(REDIRECT_SOURCE, REDIRECT_RULE).refine((path) => !ENCODED_SEPARATOR.test(path), ENCODED_RULE),
        // (A target's ?query and #fragment may hold escapes of their own.)
        redirectPath.regex(REDIRECT_TARGET, REDIRECT_RULE).refine((path) => !ENCODED_SEPARATOR.test(path.replace(/[?#].*$/s, '')), ENCODED_RULE),
      )
      .default({})
      .describe('Old path → new path; each old path gets a small page that forwards readers.'),
  })
  .describe('Configuration of the documentation site built by `docs`.');

export type SiteConfig = z.infer<typeof SiteConfigSchema>;
