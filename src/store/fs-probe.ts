import { lstatSync, type Stats } from 'node:fs';

/** What is at `path` without following a link; undefined when nothing is (missing, or a file where a folder on the way should be). */
export function lstatIfAny(path: string): Stats | undefined {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

export function isSymlink(path: string): boolean {
  return lstatIfAny(path)?.isSymbolicLink() ?? false;
}
