// Entry of a Markdown worker thread: loads the TypeScript pipeline and renders the pages it is sent.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
