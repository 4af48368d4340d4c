// Entry of the search index thread when the sources run unbundled: loads the TypeScript indexer.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('./search-worker.ts');
