import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { SourceProblem } from '../shared/errors.js';
import { imageSize, type ImageSize } from '../theme/image-size.js';
import { imageProblem } from '../theme/theme.js';
import type { Site } from './model.js';

/*
 * The picture of a landing page's hero (frontmatter hero.image): its files must be pictures of
 * static/, and its size is read from the light one, so that the page gives the <img> its width and
 * height. A checked picture is set on its page as `heroImage` (and so is part of the page's key).
 */

/** Checks every page's hero.image against the files of static/ (paths such as /images/hero.png) and sets `heroImage`. */
export function heroImages(root: string, site: Site, statics: ReadonlySet<string>): SourceProblem[] {
  const problems: SourceProblem[] = [];
  for (const page of site.pages) {
    const image = page.frontmatter.hero?.image;
    if (!image) continue;
    const count = problems.length;
    const sizes: ImageSize[] = [];
    for (const field of ['src', 'dark'] as const) {
      const file = image[field];
      if (file === undefined) continue;
      const size = heroSize(root, statics, file);
      if (typeof size !== 'string') sizes.push(size);
      else problems.push({ file: page.sourcePath, ...page.locateField(['hero', 'image', field]), path: `frontmatter.hero.image.${field}`, message: size });
    }
    const [light, dark] = sizes;
    if (light && dark && Math.abs(light.width / light.height - dark.width / dark.height) > 0.01) {
      const message = `the dark hero image is ${dark.width}×${dark.height} and the light one ${light.width}×${light.height}: give both the same shape, so that the page keeps one place for either`;
      problems.push({ file: page.sourcePath, ...page.locateField(['hero', 'image', 'dark']), path: 'frontmatter.hero.image.dark', message });
    }
    if (problems.length === count && light) page.heroImage = { src: image.src, ...(image.dark ? { dark: image.dark } : {}), alt: image.alt, ...light };
  }
  return problems;
}

/** The size of a hero picture (a file of static/ written from there, such as /images/hero.png), or what is wrong with it. */
function heroSize(root: string, statics: ReadonlySet<string>, file: string): ImageSize | string {
  if (!statics.has(file)) return `hero image "${file}" is not a file of static/ (put the picture there and write its path from it, such as /images/hero.png)`;
  const full = join(root, 'static', file);
  const bad = imageProblem(full);
  if (bad) return `hero image static${file} ${bad}`;
  const size = imageSize(readFileSync(full));
  if (!size) return `hero image static${file} does not say its size, which the page needs to keep its place while it loads: give its <svg> element a width and a height, or a viewBox`;
  return { width: Math.round(size.width), height: Math.round(size.height) };
}
