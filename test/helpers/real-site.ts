import { join, resolve } from 'node:path';
import { builtSite } from './built.js';
import { ROOT } from './content.js';

/**
 * The real site (site.config.yaml and content/ of the repository), built once
 * per test file. DOCS_TEST_SITE points it elsewhere (for example the fixture
 * site) when working on the generator alone.
 */
export function buildRealSite(headers: Record<string, string> = {}) {
  return builtSite(process.env.DOCS_TEST_SITE ? resolve(ROOT, process.env.DOCS_TEST_SITE) : ROOT, headers);
}
