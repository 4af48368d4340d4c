// Entry of a thread of the worker pool, running from the sources: loads the TypeScript code and does the work it is sent.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('./worker.ts');
