#!/usr/bin/env node
// Entry point of the `docs` command: loads the TypeScript sources and hands over argv.
import { register } from 'tsx/esm/api';

// React's server renderer is several times faster in its production build.
process.env.NODE_ENV ??= 'production';
register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv);
