/* What loadParsers (src/config/parsers.ts) loads: everything that needs the yaml or zod package. */
export { locate, parseLocatedYaml, yamlValue } from './yaml-positions.js';
export { readFrontmatter } from './frontmatter-schema.js';
export { configProblemAt, parseChecked } from './checked.js';
