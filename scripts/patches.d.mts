/** Types of patches.mjs, for the tests. */
export interface FilePatch {
  /** Relative to the repository: node_modules/<package>/… */
  path: string;
  /** Each: its first line in the patched file, and its lines as the patch writes them (' ' kept, '-' removed, '+' added). */
  hunks: Array<{ start: number; lines: string[] }>;
}
export interface PackagePatch {
  /** The patch file's name: <package>+<version>.patch. */
  name: string;
  package: string;
  version: string;
  files: FilePatch[];
}
export function readPatches(dir?: string): PackagePatch[];
export const PATCHES: PackagePatch[];
export const PATCHED_FILES: string[];
export function isApplied(patch: PackagePatch, base?: string): boolean;
export function missingPatchesLine(base?: string, patches?: PackagePatch[]): string | undefined;
export function fileUrl(path: string): string;
export function unpatchedText(patched: string, file: FilePatch): string;
