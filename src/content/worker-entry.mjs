// Entry of a Markdown worker thread: loads the TypeScript pipeline and renders the pages it is sent.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../tsconfig.json', import.meta.url)) });
await import('./worker.ts');
