// Entry of the highlight thread when the sources run unbundled: loads the TypeScript highlighter.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('./highlight-worker.ts');
