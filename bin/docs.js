#!/usr/bin/env node
// Entry point of the `docs` command: loads the TypeScript sources and hands over argv.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

// React's server renderer is several times faster in its production build.
process.env.NODE_ENV ??= 'production';
// The project's tsconfig, whatever the current folder (it sets the JSX runtime of the templates).
register({ tsconfig: fileURLToPath(new URL('../tsconfig.json', import.meta.url)) });
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv);
