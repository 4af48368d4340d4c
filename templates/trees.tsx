import type { SitePage } from '../src/site/model.js';
import { counterpart, languageLinks, treeOf, versionLinks } from '../src/site/trees.js';
import { format } from '../src/theme/ui.js';
import { ChevronIcon } from './components/Icons.js';
import { SmartLink } from './components/ExternalLink.js';
import type { RenderContext } from './types.js';
import { absoluteHref, href } from './types.js';

/*
 * The parts of a page of a site in several languages or versions (see src/site/trees.ts): the
 * language and version menus (to the same page in the other language or version, in the same tab),
 * the hreflang alternates, the notice of a page shown in its default language, and the banner of an
 * older version. A site of one tree shows only the language links of its config, as before.
 */

/** The language entries of the header's menu and of the phone menu. */
export function LanguageItems({ ctx, currentUrl }: { ctx: RenderContext; currentUrl: string }) {
  const page = ctx.site.byUrl.get(currentUrl);
  const links = ctx.site.config.languages.filter((entry): entry is { title: string; url: string } => 'url' in entry);
  return (
    <>
      {languageLinks(ctx.site, page ?? homeOf(ctx)).map(({ tree, url }) => (
        <li key={tree.prefix}>
          <a href={href(ctx, url)} lang={tree.language.code} hrefLang={tree.language.code} aria-current={tree.index === ctx.site.tree ? 'page' : undefined}>
            {tree.language.label}
          </a>
        </li>
      ))}
      {links.map((lang) => (
        <li key={lang.url}>
          <SmartLink href={href(ctx, lang.url)}>{lang.title}</SmartLink>
        </li>
      ))}
    </>
  );
}

/** The name on the language menu's button: the page's language, or the first link of the config. */
export function languageLabel(ctx: RenderContext): string | undefined {
  const tree = treeOf(ctx.site);
  if (tree) return tree.language.label;
  const first = ctx.site.config.languages[0];
  return first && 'title' in first ? first.title : undefined;
}

/** Whether the site has a language menu (links to other sites, or languages of its own). */
export function hasLanguageMenu(ctx: RenderContext): boolean {
  return ctx.site.config.languages.length > 0 && (!ctx.site.trees || ctx.site.config.languages.length > 1);
}

/** The address of the home page of the language and version a view shows (the logo leads there): "/", "/zh-cn/", "/4.x/". */
export const homePath = (ctx: RenderContext): string => `/${treeOf(ctx.site)?.prefix ?? ''}`;

/** The home page of the tree a view shows (the 404 page links to it). */
const homeOf = (ctx: RenderContext): SitePage | undefined => {
  const tree = treeOf(ctx.site);
  return tree && ctx.site.byId.get(tree.prefix.replace(/\/$/, ''));
};

/** The version menu: a disclosure with the page in each version of its language. */
export function VersionMenu({ ctx, currentUrl }: { ctx: RenderContext; currentUrl: string }) {
  const links = versionLinks(ctx.site, ctx.site.byUrl.get(currentUrl) ?? homeOf(ctx));
  if (links.length < 2) return null;
  const { ui } = ctx.theme;
  const tree = treeOf(ctx.site)!;
  return (
    <details className="version-menu">
      <summary>
        <span className="sr-only">{ui.version}: </span>
        <bdi>{tree.version!.label}</bdi>
        <ChevronIcon size={10} />
      </summary>
      <ul aria-label={ui.versions}>
        {links.map(({ tree: other, url }) => (
          <li key={other.prefix}>
            <a href={href(ctx, url)} aria-current={other.index === tree.index ? 'page' : undefined}>
              <bdi>{other.version!.label}</bdi>
            </a>
          </li>
        ))}
      </ul>
    </details>
  );
}

/**
 * The head's links between trees: the page in every language of its version (hreflang, real
 * translations only), and for a copy, a canonical link to its original; a page of an older version
 * is kept out of the search engines' index.
 */
export function TreeHead({ ctx, page }: { ctx: RenderContext; page: SitePage }) {
  const tree = treeOf(ctx.site);
  if (!tree) return null;
  const old = tree.version && !tree.version.current;
  const alternates = page.fallback || old ? [] : languageLinks(ctx.site, page).filter((link) => link.page && !link.page.fallback);
  const first = alternates.find((link) => link.tree.defaultLanguage);
  return (
    <>
      {old ? <meta name="robots" content="noindex" /> : null}
      {alternates.length > 1
        ? alternates.map(({ tree: other, url }) => <link key={other.prefix} rel="alternate" hrefLang={other.language.code} href={absoluteHref(ctx, url)} />)
        : null}
      {alternates.length > 1 && first ? <link rel="alternate" hrefLang="x-default" href={absoluteHref(ctx, first.url)} /> : null}
    </>
  );
}

/** The canonical URL of a page: its own, or its original's for a copy. */
export function canonicalOf(ctx: RenderContext, page: SitePage): string {
  return absoluteHref(ctx, page.fallback ?? page.url);
}

/** Above the page: the banner of an older version (to the same page in the current one), and the notice of a copy. */
export function TreeNotices({ ctx, page }: { ctx: RenderContext; page: SitePage }) {
  const tree = treeOf(ctx.site);
  if (!tree) return null;
  const { ui } = ctx.theme;
  const latest = tree.version && !tree.version.current ? ctx.site.trees!.find((t) => t.versionIndex === 0 && t.language.code === tree.language.code) : undefined;
  const original = page.fallback ? ctx.site.trees![ctx.site.byUrl.get(page.fallback)?.tree ?? 0] : undefined;
  // (The page's main element takes the original's language and direction: the notices keep the reader's.)
  const turned = original && original.language.dir !== tree.language.dir ? tree.language.dir : undefined;
  return (
    <>
      {latest ? (
        <div className="notification version-banner" role="note" aria-label={ui.version} {...(original ? { lang: tree.language.code, dir: turned } : {})}>
          <p>
            <Isolated text={ui.versionOld} value={tree.version!.label} />{' '}
            <a href={href(ctx, counterpart(ctx.site, page, latest).url)}>
              <Isolated text={ui.versionLatest} value={latest.version!.label} />
            </a>
          </p>
        </div>
      ) : null}
      {original ? (
        <div className="aside aside-note fallback-notice" role="note" aria-label={ui.asideNote} lang={tree.language.code} dir={turned}>
          <p>{format(ui.fallbackNotice, { original: original.language.label })}</p>
        </div>
      ) : null}
    </>
  );
}

/** A string with its {version} filled, the version isolated (<bdi>): "5.x" stays "5.x" in a page written right to left. */
function Isolated({ text, value }: { text: string; value: string }) {
  const [before, ...after] = format(text, { version: '\0' }).split('\0');
  return after.length ? (
    <>
      {before}
      <bdi>{value}</bdi>
      {after.join(value)}
    </>
  ) : (
    <>{before}</>
  );
}
