#!/usr/bin/env node
// The floor under a cold build: how long remark-parse (with the GFM and directive syntax the
// site uses) takes to parse every page of a content folder, in one fresh process, one thread,
// and nothing else (no highlighting, no HTML, no writing). Pages are parsed as the pipeline
// parses them (src/content/markdown.ts): without the search for autolink literals, and again
// with it where the text could hold one. Prints JSON: { pages, bytes, ms, again }.
// Used by `npm run bench`; on its own: node scripts/parse-floor.mjs CONTENT_DIR
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { tsImport } from 'tsx/esm/api';
import { unified } from 'unified';

const { mayHoldAutolinks, remarkGfmWithoutAutolinks, textMayHoldAutolinks } = await tsImport('../src/content/mdast-parse.ts', import.meta.url);
const dir = process.argv[2];
const sources = readdirSync(dir, { recursive: true })
  .filter((f) => f.endsWith('.md'))
  .sort()
  // The body: frontmatter is YAML, not Markdown.
  .map((f) => readFileSync(join(dir, f), 'utf8').replace(/^---\r?\n[^]*?\r?\n---\r?\n/, ''));
const full = unified().use(remarkParse).use(remarkGfm).use(remarkDirective);
const fast = unified().use(remarkParse).use(remarkGfmWithoutAutolinks).use(remarkDirective);
let again = 0;
const started = performance.now();
for (const source of sources) {
  const tree = fast.parse(source);
  if (mayHoldAutolinks(source) && textMayHoldAutolinks(tree)) {
    full.parse(source);
    again++;
  }
}
const ms = performance.now() - started;
console.log(JSON.stringify({ pages: sources.length, bytes: sources.reduce((n, s) => n + Buffer.byteLength(s), 0), ms: Math.round(ms), again }));
