// Regenerates site.config.schema.json from the zod schema: npm run schema
import { writeFileSync } from 'node:fs';
import { configJsonSchema } from '../src/config/json-schema.js';

writeFileSync(new URL('../site.config.schema.json', import.meta.url), configJsonSchema());
console.log('wrote site.config.schema.json');
