// Entry of the parse thread when the sources run unbundled: loads the TypeScript parser.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('./parse-worker.ts');
