import { readdirSync, type Dirent } from 'node:fs';

/** Lists a folder's entries; throws as `readdirSync` does. */
export type ReadDir = (path: string) => Dirent[];

export const readDirUncached: ReadDir = (path) => readdirSync(path, { withFileTypes: true });

/**
 * A listing cache for one pass: discovery and the per-skill file walk read
 * the same folders, and a second `readdir` of each is most of a pass's cost.
 */
export function createDirCache(): ReadDir {
  const listings = new Map<string, Dirent[]>();
  return (path) => {
    let entries = listings.get(path);
    if (entries === undefined) {
      entries = readdirSync(path, { withFileTypes: true });
      listings.set(path, entries);
    }
    return entries;
  };
}
