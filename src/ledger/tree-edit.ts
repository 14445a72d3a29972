import type { FileMode } from './ledger.js';
import type { ObjectStore, TreeEntry } from './object-store.js';
import { folderMode } from './object-store.js';
import { badPath } from './paths.js';

export interface BlobRef {
  oid: string;
  mode: string;
}

/** `null` removes the path (a folder whole, for a move); a folder's mode places a tree. */
export type PathEdit = { oid: string; mode: FileMode | typeof folderMode } | null;

/**
 * The blob at each path in a tree (`undefined` when absent), reading only the trees on those paths; with `folders`,
 * a folder's tree too (mode `040000`).
 */
export async function lookupPaths(
  store: ObjectStore,
  tree: string | undefined,
  paths: readonly string[],
  options: { folders?: boolean } = {},
): Promise<Map<string, BlobRef | undefined>> {
  const found = new Map<string, BlobRef | undefined>();
  for (const path of paths) found.set(path, await lookupPath(store, tree, path, options.folders === true));
  return found;
}

async function lookupPath(store: ObjectStore, tree: string | undefined, path: string, folders: boolean): Promise<BlobRef | undefined> {
  let current = tree;
  const parts = path.split('/');
  for (const [i, part] of parts.entries()) {
    if (current === undefined) return undefined;
    const entry = (await store.readTree(current)).find((e) => e.name === part);
    if (entry === undefined) return undefined;
    if (i === parts.length - 1) return entry.mode === folderMode && !folders ? undefined : { oid: entry.oid, mode: entry.mode };
    if (entry.mode !== folderMode) return undefined;
    current = entry.oid;
  }
  return undefined;
}

/**
 * A new root tree with `edits` applied. Only the trees on edited paths are
 * read and rewritten; folders left empty disappear, as git has no empty folders.
 */
export async function editTree(store: ObjectStore, tree: string | undefined, edits: ReadonlyMap<string, PathEdit>): Promise<string> {
  return (await editNode(store, tree, edits, '')) ?? store.writeTree([]);
}

async function editNode(
  store: ObjectStore,
  tree: string | undefined,
  edits: ReadonlyMap<string, PathEdit>,
  prefix: string,
): Promise<string | undefined> {
  // Kept in git's order throughout (read trees are sorted): re-sorting a
  // 10,000-entry skills folder on every commit was the biggest CPU cost.
  const entries = (tree ? await store.readTree(tree) : []).slice();
  const folders = new Map<string, Map<string, PathEdit>>();
  for (const [path, edit] of edits) {
    const slash = path.indexOf('/');
    if (slash >= 0) {
      const name = path.slice(0, slash);
      const group = folders.get(name) ?? new Map<string, PathEdit>();
      group.set(path.slice(slash + 1), edit);
      folders.set(name, group);
      continue;
    }
    const moving = edit === null || edit.mode === folderMode;
    if (!moving && entries.find((e) => e.name === path)?.mode === folderMode) throw badPath(prefix + path, 'a folder is at that path');
    setEntry(entries, path, edit && { mode: edit.mode, name: path, oid: edit.oid });
  }
  for (const [name, group] of folders) {
    const existing = entries.find((e) => e.name === name);
    if (existing && existing.mode !== folderMode) {
      throw badPath(
        `${prefix}${name}/${[...group.keys()][0] ?? ''}`,
        `${prefix}${name} is a ${existing.mode === '120000' ? 'symlink' : 'file'}, not a folder`,
      );
    }
    const child = await editNode(store, existing?.oid, group, `${prefix}${name}/`);
    setEntry(entries, name, child === undefined ? null : { mode: folderMode, name, oid: child });
  }
  return entries.length === 0 ? undefined : store.writeTree(entries, { sorted: true });
}

/** Replaces, removes (`null`) or inserts the entry called `name`, keeping git's order. */
function setEntry(entries: TreeEntry[], name: string, entry: TreeEntry | null): void {
  const at = entries.findIndex((e) => e.name === name);
  if (at >= 0) {
    if (entry) entries[at] = entry;
    else entries.splice(at, 1);
    return;
  }
  if (!entry) return;
  const key = treeKey(entry);
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (Buffer.compare(treeKey(entries[mid]!), key) < 0) low = mid + 1;
    else high = mid;
  }
  entries.splice(low, 0, entry);
}

function treeKey(entry: TreeEntry): Buffer {
  return Buffer.from(entry.mode === folderMode ? `${entry.name}/` : entry.name, 'utf8');
}
