import remarkDirective from 'remark-directive';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { remarkGfmWithoutAutolinks } from './plugins/gfm-without-autolinks.js';

/*
 * The Markdown parsers of the pipeline, in a module of their own so that the
 * benchmarks of the parser (scripts/bench-*.mjs) load them without the rest of it.
 */

/** The full parser: remark-parse with GFM and directives. */
export const parser = unified().use(remarkParse).use(remarkGfm).use(remarkDirective);
/** The same without the costly search for autolink literals: what every page is parsed with first. */
export const parserWithoutAutolinks = unified().use(remarkParse).use(remarkGfmWithoutAutolinks).use(remarkDirective);
