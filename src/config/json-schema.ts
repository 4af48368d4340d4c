import { z } from 'zod';
import { SiteConfigSchema } from './schema.js';

/** The JSON Schema of site.config.yaml, generated from the zod schema (what writers may write: the input side). */
export function configJsonSchema(): string {
  const schema = z.toJSONSchema(SiteConfigSchema, { io: 'input', unrepresentable: 'any' });
  return JSON.stringify({ ...schema, title: 'site.config.yaml' }, null, 2) + '\n';
}
