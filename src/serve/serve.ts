// Replaced by the live-preview server (docs serve).
export interface ServeOptions {
  root: string;
  config: string;
  port: number;
  host: string;
  open: boolean;
}

export async function serve(_options: ServeOptions, io: { err: { write(s: string): unknown } }): Promise<number> {
  io.err.write('docs serve is not available in this build yet; use docs build and any static server.\n');
  return 1;
}
