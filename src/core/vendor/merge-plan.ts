/** One file of a vendored skill on three sides: the pinned upstream (base), the library (ours), the new upstream (theirs). */
export interface FileSides {
  base: Uint8Array | undefined;
  ours: Uint8Array | undefined;
  theirs: Uint8Array | undefined;
}

/** What to do with one file: keep the library's, take a side's bytes, delete, merge the text (git merge-file), or stop. */
export type FileDecision =
  { kind: 'keep' } | { kind: 'take'; bytes: Uint8Array } | { kind: 'delete' } | { kind: 'merge' } | { kind: 'conflict'; reason: string };

const same = (a: Uint8Array | undefined, b: Uint8Array | undefined): boolean =>
  a === undefined || b === undefined ? a === b : Buffer.compare(a, b) === 0;

/** The three-way decision for one file, as git decides it before any line is merged. */
export function planFileMerge({ base, ours, theirs }: FileSides): FileDecision {
  if (same(ours, theirs) || same(base, theirs)) return { kind: 'keep' };
  if (same(base, ours)) return theirs === undefined ? { kind: 'delete' } : { kind: 'take', bytes: theirs };
  if (ours === undefined) return { kind: 'conflict', reason: 'deleted in the library, changed upstream' };
  if (theirs === undefined) return { kind: 'conflict', reason: 'changed in the library, deleted upstream' };
  // git merge-file merges lines; a file with a NUL byte has none it can trust.
  if ([base, ours, theirs].some((side) => side?.includes(0))) return { kind: 'conflict', reason: 'a binary file changed on both sides' };
  return { kind: 'merge' };
}
