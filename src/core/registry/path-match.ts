import picomatch from 'picomatch';

/** A compiled test for a skill's `paths` globs; a glob that does not compile matches nothing. */
export type PathMatcher = (path: string) => boolean;

export function compilePathMatcher(globs: readonly string[]): PathMatcher {
  const tests: PathMatcher[] = [];
  for (const glob of globs) {
    try {
      tests.push(picomatch(glob, { dot: true, strictBrackets: true }));
    } catch {
      // The validator reports a glob that does not compile (skill/bad-glob); here it simply never wakes the skill.
    }
  }
  return (path) => tests.some((test) => test(path));
}

/** A touched path as the globs see it: relative to the project root, `/`-separated, no leading `./`. */
export function normalizeTouchedPath(path: string): string {
  return path.replace(/\\/g, '/').replace(/^(\.\/)+/, '');
}
