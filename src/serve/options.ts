import type { BuildResult } from './protocol.js';

/* What `docs serve` is given (src/serve/command.ts, src/serve/serve.ts). */

export interface ServeOptions {
  root: string;
  config: string;
  port: number;
  host: string;
  /** The --port argument as typed, for messages. */
  portText?: string;
  open: boolean;
  /** Folder of the page templates; defaults to the templates shipped with the tool (as `docs build`). */
  templates?: string;
  /** TypeScript config the worker compiles the templates with; defaults to the tool's. */
  tsconfig?: string;
  /** Called after every build's result is applied (not after the background updates that follow it). */
  onBuild?: (result: BuildResult) => void;
}

/** Where a command writes (the terminal, or a test's buffers); `isTTY` makes `docs build` show its progress on one line. */
export interface Io {
  out: { write(s: string): unknown; isTTY?: boolean };
  err: { write(s: string): unknown };
}
