import type { FileMode } from './ledger.js';
import type { ObjectStore, TreeEntry } from './object-store.js';
import { folderMode } from './object-store.js';
import { badPath } from './paths.js';

export interface BlobRef {
  oid: string;
  mode: string;
}

/** `null` removes the path. */
export type PathEdit = { oid: string; mode: FileMode } | null;

/** The blob at each path in a tree (`undefined` when absent), reading only the trees on those paths. */
export async function lookupPaths(store: ObjectStore, tree: string | undefined, paths: readonly string[]): Promise<Map<string, BlobRef | undefined>> {
  const found = new Map<string, BlobRef | undefined>();
  for (const path of paths) found.set(path, await lookupPath(store, tree, path));
  return found;
}

async function lookupPath(store: ObjectStore, tree: string | undefined, path: string): Promise<BlobRef | undefined> {
  let current = tree;
  const parts = path.split('/');
  for (const [i, part] of parts.entries()) {
    if (current === undefined) return undefined;
    const entry = (await store.readTree(current)).find((e) => e.name === part);
    if (entry === undefined) return undefined;
    if (i === parts.length - 1) return entry.mode === folderMode ? undefined : { oid: entry.oid, mode: entry.mode };
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

async function editNode(store: ObjectStore, tree: string | undefined, edits: ReadonlyMap<string, PathEdit>, prefix: string): Promise<string | undefined> {
  const byName = new Map<string, TreeEntry>((tree ? await store.readTree(tree) : []).map((e) => [e.name, e]));
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
    if (byName.get(path)?.mode === folderMode) throw badPath(prefix + path, 'a folder is at that path');
    if (edit) byName.set(path, { mode: edit.mode, name: path, oid: edit.oid });
    else byName.delete(path);
  }
  for (const [name, group] of folders) {
    const existing = byName.get(name);
    if (existing && existing.mode !== folderMode) {
      throw badPath(`${prefix}${name}/${[...group.keys()][0] ?? ''}`, `${prefix}${name} is a ${existing.mode === '120000' ? 'symlink' : 'file'}, not a folder`);
    }
    const child = await editNode(store, existing?.oid, group, `${prefix}${name}/`);
    if (child === undefined) byName.delete(name);
    else byName.set(name, { mode: folderMode, name, oid: child });
  }
  return byName.size === 0 ? undefined : store.writeTree([...byName.values()]);
}
