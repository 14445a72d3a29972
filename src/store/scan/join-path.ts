import { posix, sep } from 'node:path';

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
