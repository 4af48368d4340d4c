#!/usr/bin/env node
// Entry point of the `docs` command: loads the TypeScript sources and hands over argv.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli.ts');
process.exitCode = await main(process.argv);
