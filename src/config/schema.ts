import { z } from 'zod';

/*
 * The schema of site.config.yaml. One schema per concern; every field is
 * described so that editors show the description on hover (the JSON Schema
 * published beside the config is generated from this file).
 */

const siteUrl = z
  .string()
  .regex(/^(\/|https?:\/\/|\/\/|mailto:)/, 'expected a URL starting with "/", "http", "//" or "mailto:"');

const externalUrl = z.string().regex(/^(https?:)?\/\//, 'expected an absolute URL starting with "http" or "//"');

export const LinkSchema = z
  .strictObject({
    title: z.string().min(1).describe('The text of the link.'),
    url: siteUrl.describe('Where it goes: a site path such as /guides/ or an external URL.'),
  })
  .describe('A link.');
export type Link = z.infer<typeof LinkSchema>;

export interface NavEntry {
  title: string;
  url: string;
  children?: NavEntry[];
}
export const NavEntrySchema: z.ZodType<NavEntry> = z.lazy(() =>
  z
    .strictObject({
      title: z.string().min(1).describe('Label in the top navigation.'),
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

export const SectionSchema = z
  .strictObject({
    title: z.string().min(1).describe('Section heading in the menus.'),
    url: z
      .union([z.literal(''), pageId])
      .describe('Section path without slashes: "concepts" is /concepts/ (content/concepts/index.md); "" is the home page.'),
    pages: z
      .array(pageId)
      .default([])
      .describe('The pages of the section in sidebar order, as paths under content/ without .md.'),
  })
  .describe('A sidebar section.');
export type Section = z.infer<typeof SectionSchema>;

const versionField = z
  .union([z.string().min(1), z.number()])
  .transform(String)
  .describe('Stored in localStorage on dismissal; change it to show a new message to readers who dismissed the old one.');

export const SearchSchema = z
  .discriminatedUnion('provider', [
    z.strictObject({
      provider: z.literal('local').describe('An index built by docs build and searched in the browser.'),
    }),
    z.strictObject({
      provider: z.literal('algolia').describe('The hosted search service.'),
      appId: z.string().min(1).describe('Application id of the hosted index.'),
      apiKey: z
        .string()
        .min(1)
        .describe('The public, search-only key. It is sent to every reader: never put an admin or write key here.'),
      indexName: z.string().min(1).describe('Name of the index to query.'),
      host: externalUrl.optional().describe('Override of the service host (tests point it at a local stub).'),
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

export const SiteConfigSchema = z
  .strictObject({
    $schema: z.string().optional(),
    site: z
      .strictObject({
        title: z.string().min(1).describe('Site name, used in page titles ("Page | title").'),
        url: externalUrl.describe('Canonical origin of the published site, e.g. https://webpack.js.org.'),
        description: z.string().min(1).describe('Default meta description.'),
        language: z.string().default('en').describe('The lang attribute of every page.'),
        repository: externalUrl.describe('Source repository of the documented project.'),
        editBase: externalUrl
          .optional()
          .describe('Prefix of "Edit this page" links; the page source path (content/...) is appended.'),
      })
      .describe('Identity of the site.'),
    banner: z
      .strictObject({
        text: z.string().min(1).describe('Sentence shown in the banner.'),
        links: z.array(LinkSchema).default([]).describe('Links shown after the text.'),
        version: versionField,
      })
      .optional()
      .describe('The dismissible sponsorship banner at the top of every page.'),
    notification: z
      .strictObject({
        message: z.string().min(1).describe('The announcement.'),
        link: LinkSchema.optional(),
        version: versionField,
      })
      .optional()
      .describe('A general announcement line; omit it to show none.'),
    navigation: z.array(NavEntrySchema).min(1).describe('The top navigation.'),
    languages: z.array(LinkSchema).default([]).describe('Entries of the language dropdown.'),
    links: z
      .strictObject({
        repository: externalUrl.describe('Header icon link to the source repository.'),
        questions: externalUrl.describe('Header icon link to the question-and-answer site tag.'),
      })
      .describe('Header icon links.'),
    badge: z
      .strictObject({
        package: z.string().min(1).describe('npm package whose version the badge shows.'),
        label: z.string().min(1).optional().describe('Badge label; defaults to the package name.'),
        link: externalUrl.describe('Where the badge links (the release page).'),
      })
      .optional()
      .describe('The version badge at the top of the sidebar.'),
    chat: z
      .strictObject({
        url: externalUrl.describe('Destination of the floating chat button.'),
        label: z.string().min(1).describe('Accessible name and tooltip of the chat button.'),
      })
      .optional(),
    search: SearchSchema.default({ provider: 'local' }),
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
        z.string().regex(/^\//, 'expected a path starting with "/"').regex(REDIRECT_SOURCE, REDIRECT_RULE),
        z.string().regex(/^\//, 'expected a path starting with "/"').regex(REDIRECT_TARGET, REDIRECT_RULE),
      )
      .default({})
      .describe('Old path → new path; each old path gets a small page that forwards readers.'),
  })
  .describe('Configuration of the documentation site built by `docs`.');

export type SiteConfig = z.infer<typeof SiteConfigSchema>;
