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
    ...(props.page.heroImage ? { image: props.page.heroImage } : {}),
  };
  const features: HomeFeature[] = fm.features ?? [];
  return { ...props, hero, features };
}

/** The landing home page (theme.home: landing): a hero, feature cards, then the page's own text. */
export function Home({ ctx, body, hero, features }: HomeProps) {
  const link = (url: string) => (isExternal(url) ? url : href(ctx, url));
  const text = (
    <>
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
    </>
  );
  const image = hero.image;
  return (
    <article className="article home">
      {image ? (
        // The text first (the h1 leads for screen readers); the stylesheet puts the picture above it on narrow screens.
        <header className="hero hero-with-image">
          <div className="hero-text">{text}</div>
          <p className="hero-image">
            {[image.src, image.dark].map((src, i) =>
              src === undefined ? null : (
                <img
                  key={src}
                  className={image.dark === undefined ? undefined : i === 0 ? 'hero-image-light' : 'hero-image-dark'}
                  src={href(ctx, src)}
                  alt={image.alt}
                  width={image.width}
                  height={image.height}
                  fetchPriority={i === 0 ? 'high' : undefined}
                />
              ),
            )}
          </p>
        </header>
      ) : (
        <header className="hero">{text}</header>
      )}
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
