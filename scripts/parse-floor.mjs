#!/usr/bin/env node
// The floor under a cold build: how long remark-parse (with the GFM and directive syntax the
// site uses) takes to parse every page of a content folder, in one fresh process, one thread,
// and nothing else (no highlighting, no HTML, no writing). Prints JSON: { pages, bytes, ms }.
// Used by `npm run bench`; on its own: node scripts/parse-floor.mjs CONTENT_DIR
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';

const dir = process.argv[2];
const sources = readdirSync(dir, { recursive: true })
  .filter((f) => f.endsWith('.md'))
  .sort()
  .map((f) => readFileSync(join(dir, f), 'utf8'));
const parser = unified().use(remarkParse).use(remarkGfm).use(remarkDirective);
const started = performance.now();
for (const source of sources) parser.parse(source);
const ms = performance.now() - started;
console.log(JSON.stringify({ pages: sources.length, bytes: sources.reduce((n, s) => n + Buffer.byteLength(s), 0), ms: Math.round(ms) }));
