import type { ObjectStore, TreeEntry } from './object-store.js';
import { folderMode } from './object-store.js';
import type { BlobRef } from './tree-edit.js';

export interface FileDiff {
  path: string;
  before: BlobRef | null;
  after: BlobRef | null;
}

export interface DiffOptions {
  /** A folder only one side has is one entry (its tree, mode `040000`), not every file in it. */
  wholeFolders?: boolean;
}

/** Every file that differs between two trees, skipping subtrees with the same id (git's own shortcut). */
export async function diffTrees(
  store: ObjectStore,
  before: string | undefined,
  after: string | undefined,
  prefix = '',
  options: DiffOptions = {},
): Promise<FileDiff[]> {
  if (before === after) return [];
  const left = new Map((before ? await store.readTree(before) : []).map((e) => [e.name, e]));
  const right = new Map((after ? await store.readTree(after) : []).map((e) => [e.name, e]));
  const names = [...new Set([...left.keys(), ...right.keys()])];
  const diffs: FileDiff[] = [];
  for (const name of names) {
    for (const item of await diffEntry(store, `${prefix}${name}`, left.get(name), right.get(name), options)) diffs.push(item);
  }
  return diffs.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
}

async function diffEntry(
  store: ObjectStore,
  path: string,
  a: TreeEntry | undefined,
  b: TreeEntry | undefined,
  options: DiffOptions,
): Promise<FileDiff[]> {
  if (a?.oid === b?.oid && a?.mode === b?.mode) return [];
  const only = a === undefined ? b : b === undefined ? a : undefined;
  if (options.wholeFolders && only?.mode === folderMode) {
    const folder = { oid: only.oid, mode: folderMode };
    return [{ path, before: a ? folder : null, after: b ? folder : null }];
  }
  const tree = (e: TreeEntry | undefined) => (e?.mode === folderMode ? e.oid : undefined);
  const blob = (e: TreeEntry | undefined) => (e && e.mode !== folderMode && e.mode !== '160000' ? { oid: e.oid, mode: e.mode } : null);
  const nested = await diffTrees(store, tree(a), tree(b), `${path}/`, options);
  const fileBefore = blob(a);
  const fileAfter = blob(b);
  if (fileBefore === null && fileAfter === null) return nested;
  return [...nested, { path, before: fileBefore, after: fileAfter }];
}

/** Every file under a tree, with its full path. */
export async function listTree(store: ObjectStore, tree: string | undefined, prefix = ''): Promise<(BlobRef & { path: string })[]> {
  if (tree === undefined) return [];
  const files: (BlobRef & { path: string })[] = [];
  for (const entry of await store.readTree(tree)) {
    // A loop, not push(...list): spread arguments overflow the call stack past about 100,000 files.
    if (entry.mode === folderMode) for (const item of await listTree(store, entry.oid, `${prefix}${entry.name}/`)) files.push(item);
    else if (entry.mode !== '160000') files.push({ path: `${prefix}${entry.name}`, oid: entry.oid, mode: entry.mode });
  }
  return files;
}
