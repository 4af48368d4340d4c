import type { HomeFeature, HomeHero, HomeProps, PageProps } from '../types.js';
import { href, isExternal } from '../types.js';
import { SmartLink } from './ExternalLink.js';

/** The landing page's data: the hero and feature cards of content/index.md's frontmatter. */
export function homeProps(props: PageProps): HomeProps {
  const fm = props.page.frontmatter;
  const hero: HomeHero = {
    title: fm.hero?.title ?? props.page.title,
    tagline: fm.hero?.tagline,
    actions: (fm.hero?.actions ?? []).map((action) => ({ text: action.text, url: action.url, primary: action.primary ?? false })),
  };
  const features: HomeFeature[] = fm.features ?? [];
  return { ...props, hero, features };
}

/** The landing home page (theme.home: landing): a hero, feature cards, then the page's own text. */
export function Home({ ctx, body, hero, features }: HomeProps) {
  const link = (url: string) => (isExternal(url) ? url : href(ctx, url));
  return (
    <article className="article home">
      <header className="hero">
        <h1>{hero.title}</h1>
        {hero.tagline ? <p className="hero-tagline">{hero.tagline}</p> : null}
        {hero.actions.length ? (
          <p className="hero-actions">
            {hero.actions.map((action) => (
              <SmartLink key={action.url} href={link(action.url)} className={action.primary ? 'hero-action primary' : 'hero-action'}>
                {action.text}
              </SmartLink>
            ))}
          </p>
        ) : null}
      </header>
      {features.length ? (
        <section className="features" aria-label={ctx.theme.ui.features}>
          <ul>
            {features.map((feature) => (
              <li key={feature.title} className="feature">
                <h2>{feature.url ? <SmartLink href={link(feature.url)}>{feature.title}</SmartLink> : feature.title}</h2>
                <p>{feature.text}</p>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="markdown" dangerouslySetInnerHTML={{ __html: body }} />
    </article>
  );
}
