/** The globs in `paths`, whatever way the frontmatter wrote them (a list, or a comma-separated string), with each one's list index. */
export function readPathGlobs(value: unknown): { glob: string; index: number | undefined }[] {
  if (typeof value === 'string') return value.split(',').map((glob) => ({ glob: glob.trim(), index: undefined }));
  if (Array.isArray(value)) {
    return value.flatMap((glob, index) => (typeof glob === 'string' ? [{ glob, index }] : []));
  }
  return [];
}

/** The non-empty globs of `paths`: what the registry wakes a skill on and consolidation unions. */
export function readPathList(value: unknown): string[] {
  return readPathGlobs(value)
    .map((g) => g.glob)
    .filter((g) => g !== '');
}
