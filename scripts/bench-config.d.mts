/** Writes the benchmark's site.config.yaml into `root` (see bench-config.mjs). */
export function writeBenchConfig(root: string): void;
