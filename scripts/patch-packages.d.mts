/** Types of patch-packages.mjs, for the tests. */
export interface PackagePatch {
  name: string;
  file: string;
  /** Each: one exact piece of the file as installed, and what replaces it. */
  edits: Array<{ from: string; to: string }>;
}
export const PATCHES: PackagePatch[];
export function patchedUrl(patch: PackagePatch): string;
export function unpatchedPath(file: string): string;
export function patchState(patch: PackagePatch, base?: string): 'applied' | 'applies' | 'differs' | 'missing';
export function missingPatchesLine(base?: string): string | undefined;
