import { readdirSync, type Dirent } from 'node:fs';

/** Lists a folder's entries; throws as `readdirSync` does. */
export type ReadDir = (path: string) => Dirent[];

export const readDirUncached: ReadDir = (path) => readdirSync(path, { withFileTypes: true });

/**
 * A listing cache for one pass: discovery, validate's file walk and the
 * security scan read the same folders, and each is listed once.
 */
export function createDirCache(): ReadDir {
  const listings = new Map<string, Dirent[]>();
  return (path) => {
    let entries = listings.get(path);
    if (entries === undefined) {
      entries = readDirUncached(path);
      listings.set(path, entries);
    }
    return entries;
  };
}
