import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ComponentType } from 'react';
import type { PageProps } from '../../templates/types.js';
import { TEMPLATES_DIR } from '../build/parts.js';
import type { Renderer } from '../engine/preview.js';

/**
 * The page renderer of the worker. With the templates shipped with the tool
 * it is exactly the one `docs build` uses; another templates folder (tests
 * edit a copy) provides its own Layout, rendered the same way.
 */
export async function loadRenderer(templatesDir: string): Promise<Renderer> {
  const render = await import('../build/render.js');
  const layoutFile = join(templatesDir, 'Layout.tsx');
  if (resolve(templatesDir) === resolve(TEMPLATES_DIR) || !existsSync(layoutFile)) {
    return { page: render.renderPage, printable: render.renderPrintable };
  }
  const { Layout } = (await import(pathToFileURL(layoutFile).href)) as { Layout: ComponentType<PageProps> };
  return { page: (ctx, page) => render.renderPage(ctx, page, Layout), printable: render.renderPrintable };
}
