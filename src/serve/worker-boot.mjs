// Starts the render worker. The generator and the templates are TypeScript,
// compiled on import by tsx with the tool's tsconfig (whatever the current folder).
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register({ tsconfig: workerData.tsconfig });
try {
  await import(new URL('./worker.ts', import.meta.url).href);
} catch (e) {
  parentPort.postMessage({ type: 'fatal', error: String((e && e.stack) || e) });
}
