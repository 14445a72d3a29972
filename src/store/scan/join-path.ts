import { posix, relative, sep } from 'node:path';

/**
 * `path.join(parent, name)` for a `parent` path.join or path.normalize made
 * and a folder entry's `name` (never empty, `.`, `..` or holding a
 * separator): a concatenation, where `join` normalises the whole path again
 * on every call (a walk makes one per file and folder).
 */
export function joinEntry(parent: string, name: string, separator: string = sep): string {
  if (parent === '.' || parent === `.${separator}`) return name;
  return parent.endsWith(separator) ? `${parent}${name}` : `${parent}${separator}${name}`;
}

/**
 * `posix.join(label, rel)` for any `label` and a `rel` made of folder entry
 * names joined by `/`: the label is normalised once per skill (`shownUnder`),
 * each file's path is then a concatenation.
 */
export function shownUnder(label: string): (rel: string) => string {
  const base = posix.normalize(label);
  if (base === '.' || base === './') return (rel) => rel;
  return base.endsWith('/') ? (rel) => `${base}${rel}` : (rel) => `${base}/${rel}`;
}

/** A path with an empty, `.` or `..` segment, or a trailing `/`: what `path.relative` would normalise. */
const unplain = /(?:^|\/)\.{0,2}(?:\/|$)/;

/**
 * A skill folder's path under the repository, `/`-separated, as
 * `path.relative(repo, dir)` gives it (`.` for the repository itself): a
 * prefix cut when `dir` is `repo` followed by plain segments, where
 * `relative` resolves both paths on every call.
 */
export function labelUnder(repo: string, dir: string): string {
  if (sep === '/' && repo.startsWith('/')) {
    const prefix = repo.endsWith('/') ? repo : `${repo}/`;
    if (dir.startsWith(prefix)) {
      const rest = dir.slice(prefix.length);
      if (!unplain.test(rest) && !rest.includes('\\')) return rest;
    }
  }
  return relative(repo, dir).split('\\').join('/') || '.';
}
