import type { ObjectStore, TreeEntry } from './object-store.js';
import { folderMode } from './object-store.js';
import type { BlobRef } from './tree-edit.js';

export interface FileDiff {
  path: string;
  before: BlobRef | null;
  after: BlobRef | null;
}

export interface DiffOptions {
  /**
   * A folder moved whole (its tree gone from one path, the same tree come at another: an archive, a restore) is one
   * entry at each end (the tree, mode `040000`), not every file in it; everything else is listed file by file.
   */
  moves?: boolean;
  /** Internal to `moves`: a folder only one side has as one entry, paired or not. */
  whole?: boolean;
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
  if (options.moves) return pairMoves(store, await diffTrees(store, before, after, prefix, { whole: true }));
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
  if (options.whole && only?.mode === folderMode) {
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

const isFolderDiff = (d: FileDiff) => d.before?.mode === folderMode || d.after?.mode === folderMode;

/**
 * Folders only one side has, opened until each is moved (its tree at the other end too) or listed file by file.
 * A folder is opened a level while it wraps a moved one (`skills/.archive`, new with the first archive, holds
 * `big`); what is left unpaired then is listed whole, as a plain diff lists it.
 */
async function pairMoves(store: ObjectStore, diffs: FileDiff[]): Promise<FileDiff[]> {
  let entries = diffs;
  for (;;) {
    const folders = entries.filter(isFolderDiff);
    const gone = new Set(folders.flatMap((d) => (d.before ? [d.before.oid] : [])));
    const come = new Set(folders.flatMap((d) => (d.after ? [d.after.oid] : [])));
    const unpaired = folders.filter((d) => (d.before ? !come.has(d.before.oid) : !gone.has(d.after!.oid)));
    if (unpaired.length === 0) return entries.sort((a, b) => Buffer.compare(Buffer.from(a.path), Buffer.from(b.path)));
    const opened = new Map<FileDiff, FileDiff[]>();
    for (const d of unpaired) {
      const tree = (d.before ?? d.after)!.oid;
      const other = d.before ? come : gone;
      const children = await store.readTree(tree);
      const wraps =
        children.some((c) => c.mode === folderMode && other.has(c.oid)) || (children.length === 1 && children[0]!.mode === folderMode);
      if (wraps)
        opened.set(
          d,
          children.filter((c) => c.mode !== '160000').map((c) => childDiff(d, c)),
        );
    }
    if (opened.size === 0) {
      for (const d of unpaired) {
        const files = await listTree(store, (d.before ?? d.after)!.oid, `${d.path}/`);
        opened.set(
          d,
          files.map((f) => ({
            path: f.path,
            before: d.before ? { oid: f.oid, mode: f.mode } : null,
            after: d.after ? { oid: f.oid, mode: f.mode } : null,
          })),
        );
      }
    }
    entries = entries.flatMap((d) => opened.get(d) ?? [d]);
  }
}

function childDiff(parent: FileDiff, child: TreeEntry): FileDiff {
  const ref = { oid: child.oid, mode: child.mode };
  return { path: `${parent.path}/${child.name}`, before: parent.before ? ref : null, after: parent.after ? ref : null };
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
