import type { ObjectStore } from './object-store.js';
import { folderMode } from './object-store.js';

/** The tree at `prefix` inside `tree` (`''` is the root); `undefined` when there is no such folder. */
export async function readSubtree(store: ObjectStore, tree: string | undefined, prefix: string): Promise<string | undefined> {
  let current = tree;
  for (const part of prefix.split('/').filter((p) => p !== '')) {
    if (current === undefined) return undefined;
    const entry = (await store.readTree(current)).find((e) => e.name === part);
    current = entry?.mode === folderMode ? entry.oid : undefined;
  }
  return current;
}
