import { readFileSync } from 'node:fs';
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

/** The real site built and served, with the 301 lines of its _redirects (address → target). */
export async function servedRealSite() {
  const site = await buildRealSite();
  const redirects = new Map(
    readFileSync(join(site.dir, '_redirects'), 'utf8')
      .split('\n')
      .map((line) => line.split(/\s+/))
      .filter((parts) => parts.length === 3 && parts[2] === '301')
      .map((parts): [string, string] => [parts[0]!, parts[1]!]),
  );
  /** An address of the served site: its status and text. */
  const get = async (path: string): Promise<{ status: number; html: string }> => {
    const response = await fetch(`${site.server.url}${path}`);
    return { status: response.status, html: await response.text() };
  };
  return { ...site, redirects, get };
}

/** Whether a page is the forwarding page of a redirect. */
export const isForwardingPage = (html: string) => /<meta http-equiv="refresh"/.test(html);
