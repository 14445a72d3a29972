import type { ObjectStore, TreeEntry } from './object-store.js';
import { folderMode } from './object-store.js';
import { encodeDelta } from './pack-delta.js';
import type { DeltaOp } from './pack-delta.js';
import { badPath } from './paths.js';
import { objectId } from './pending-objects.js';
import type { DeltaBase, PendingObjects } from './pending-objects.js';
import type { BlobRef, PathEdit } from './tree-edit.js';

/** A folder of the tip tree, kept in memory with its bytes and where each entry starts in them. */
export interface TreeNode {
  oid: string;
  entries: readonly TreeEntry[];
  /** The serialized tree and `offsets[i]`, where entry i starts (`offsets[n]` is the length); made on first edit. */
  bytes?: Buffer;
  offsets?: readonly number[];
  /** Sub-folders already read or built, by name. */
  children: Map<string, TreeNode>;
  /** This version in the pending objects: the next one is a delta of it. */
  version?: DeltaBase;
}

/**
 * The last tip a ledger built, kept between batches (CommitContext.tipTree): the next commit of the
 * same process starts from it instead of reading and re-serializing the big folder trees again.
 * Keyed by the commit: used only when the branch still points at it. Its nodes are never changed
 * in place except to fill caches (a loaded child, a folder's bytes), so sharing them is safe; a
 * node's `version` belongs to an earlier pending set, which `PendingObjects.add` tells apart.
 */
export interface TipTreeCache {
  commit?: string;
  root?: TreeNode;
}

/**
 * The tip of a batch of commits as an in-memory tree: each commit edits it and gets a new root.
 * An edit splices only the changed entries into a folder's bytes, and stores the new version of
 * the folder as a delta (copy the unchanged runs, insert the new entries) of its previous one:
 * a 10,000-entry skills folder costs a hash per commit, not a rewrite. An edit that fails leaves
 * the tip as it was (new nodes are built beside the old ones).
 */
export class BatchTree {
  private root: TreeNode | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly pending: PendingObjects,
    private readonly cache: TipTreeCache = {},
  ) {}

  /** Starts from `commit`'s tree (none: an empty tree). */
  async reset(commit: string | undefined): Promise<void> {
    if (commit !== undefined && commit === this.cache.commit && this.cache.root) {
      this.root = this.cache.root;
      return;
    }
    this.root = commit === undefined ? undefined : await this.load((await this.store.readCommit(commit)).tree);
  }

  /** Remembers the current tip as what `commit` (just built on it) points at, for the next batch. */
  keep(commit: string): void {
    this.cache.commit = commit;
    this.cache.root = this.root;
  }

  /** The blob at each path of the tip (`undefined` when absent). */
  async lookup(paths: readonly string[]): Promise<Map<string, BlobRef | undefined>> {
    const found = new Map<string, BlobRef | undefined>();
    for (const path of paths) found.set(path, await this.lookupPath(path));
    return found;
  }

  /** Applies `edits` to the tip; returns the new root tree's id (its objects are pending). */
  async apply(edits: ReadonlyMap<string, PathEdit>): Promise<string> {
    const writes: Array<() => void> = [];
    const root = await this.editNode(this.root, edits, '', writes);
    for (const write of writes) write();
    this.root = root;
    return root?.oid ?? this.pending.addWhole('tree', Buffer.alloc(0)).oid;
  }

  /**
   * The tracked path that `path` names on a case-insensitive file system, when it is spelled
   * differently (`skills/PDF/x` for `skills/pdf/x`); `undefined` when none, or the same.
   */
  async caseTwin(path: string): Promise<string | undefined> {
    let node = this.root;
    const found: string[] = [];
    const parts = path.split('/');
    for (const part of parts) {
      if (node === undefined) break;
      const lower = part.toLowerCase();
      const entry = findEntry(node.entries, part) ?? node.entries.find((e) => e.name.toLowerCase() === lower);
      if (entry === undefined) break;
      found.push(entry.name);
      if (entry.mode !== folderMode) break;
      node = await this.child(node, entry.name, entry.oid);
    }
    // The longest tracked prefix the path reaches on such a file system, when spelled otherwise.
    const twin = found.join('/');
    return twin !== parts.slice(0, found.length).join('/') ? twin : undefined;
  }

  private async lookupPath(path: string): Promise<BlobRef | undefined> {
    let node = this.root;
    const parts = path.split('/');
    for (const [i, part] of parts.entries()) {
      if (node === undefined) return undefined;
      const entry = findEntry(node.entries, part);
      if (entry === undefined) return undefined;
      if (i === parts.length - 1) return entry.mode === folderMode ? undefined : { oid: entry.oid, mode: entry.mode };
      if (entry.mode !== folderMode) return undefined;
      node = await this.child(node, part, entry.oid);
    }
    return undefined;
  }

  private async child(node: TreeNode, name: string, oid: string): Promise<TreeNode> {
    let child = node.children.get(name);
    if (child?.oid !== oid) node.children.set(name, (child = await this.load(oid)));
    return child;
  }

  private async load(oid: string): Promise<TreeNode> {
    return { oid, entries: await this.store.readTree(oid), children: new Map() };
  }

  private async editNode(
    node: TreeNode | undefined,
    edits: ReadonlyMap<string, PathEdit>,
    prefix: string,
    writes: Array<() => void>,
  ): Promise<TreeNode | undefined> {
    const entries = node?.entries ?? [];
    const changed = new Map<string, TreeEntry | null>();
    const groups = new Map<string, Map<string, PathEdit>>();
    for (const [path, edit] of edits) {
      const slash = path.indexOf('/');
      if (slash >= 0) {
        const name = path.slice(0, slash);
        const group = groups.get(name) ?? new Map<string, PathEdit>();
        group.set(path.slice(slash + 1), edit);
        groups.set(name, group);
        continue;
      }
      if (findEntry(entries, path)?.mode === folderMode) throw badPath(prefix + path, 'a folder is at that path');
      changed.set(path, edit && { mode: edit.mode, name: path, oid: edit.oid });
    }
    const children = new Map(node?.children ?? []);
    for (const [name, group] of groups) {
      const existing = findEntry(entries, name);
      if (existing && existing.mode !== folderMode) {
        throw badPath(
          `${prefix}${name}/${[...group.keys()][0] ?? ''}`,
          `${prefix}${name} is a ${existing.mode === '120000' ? 'symlink' : 'file'}, not a folder`,
        );
      }
      const child = await this.editNode(
        existing && node ? await this.child(node, name, existing.oid) : undefined,
        group,
        `${prefix}${name}/`,
        writes,
      );
      if (child) children.set(name, child);
      else children.delete(name);
      changed.set(name, child ? { mode: folderMode, name, oid: child.oid } : null);
    }
    const built = splice(node, changed);
    if (built.entries.length === 0) return undefined;
    const oid = objectId('tree', built.bytes);
    const next: TreeNode = { oid, entries: built.entries, bytes: built.bytes, offsets: built.offsets, children };
    const baseLength = node?.bytes?.length ?? 0;
    writes.push(() => {
      next.version = this.pending.add('tree', oid, built.bytes, node?.version, () =>
        encodeDelta(baseLength, built.bytes.length, built.ops),
      );
    });
    return next;
  }
}

/**
 * The folder with `changed` entries replaced, removed (null) or inserted, in git's order: the
 * unchanged runs of entries are copied from the old bytes (and become the delta's copy instructions).
 */
function splice(
  node: TreeNode | undefined,
  changed: ReadonlyMap<string, TreeEntry | null>,
): { entries: TreeEntry[]; offsets: number[]; bytes: Buffer; ops: DeltaOp[] } {
  const old = node?.entries ?? [];
  const { bytes: oldBytes, offsets: oldOffsets } = node ? serialized(node) : { bytes: Buffer.alloc(0), offsets: [0] };
  const removed = new Set<number>();
  const inserts = new Map<number, TreeEntry[]>();
  for (const [name, entry] of changed) {
    const at = indexOf(old, name);
    if (at >= 0) removed.add(at);
    if (!entry) continue;
    const pos = at >= 0 ? at : lowerBound(old, treeKey(entry));
    inserts.set(pos, [...(inserts.get(pos) ?? []), entry]);
  }
  const positions = [...new Set([...removed, ...inserts.keys()])].sort((a, b) => a - b);
  const entries: TreeEntry[] = [];
  const offsets: number[] = [];
  const pieces: Buffer[] = [];
  const ops: DeltaOp[] = [];
  let out = 0;
  let cursor = 0;
  const copyUpTo = (end: number) => {
    if (end <= cursor) return;
    const start = oldOffsets[cursor]!;
    const length = oldOffsets[end]! - start;
    for (let i = cursor; i < end; i += 1) {
      entries.push(old[i]!);
      offsets.push(oldOffsets[i]! - start + out);
    }
    pieces.push(oldBytes.subarray(start, start + length));
    ops.push({ copy: start, length });
    out += length;
  };
  for (const pos of positions) {
    copyUpTo(pos);
    const added = (inserts.get(pos) ?? []).sort((a, b) => compareKeys(treeKey(a), treeKey(b)));
    for (const entry of added) {
      const bytes = serializeEntry(entry);
      entries.push(entry);
      offsets.push(out);
      pieces.push(bytes);
      ops.push({ insert: bytes });
      out += bytes.length;
    }
    cursor = removed.has(pos) ? pos + 1 : pos;
  }
  copyUpTo(old.length);
  offsets.push(out);
  return { entries, offsets, bytes: Buffer.concat(pieces, out), ops };
}

function serialized(node: TreeNode): { bytes: Buffer; offsets: readonly number[] } {
  if (node.bytes && node.offsets) return { bytes: node.bytes, offsets: node.offsets };
  const pieces = node.entries.map(serializeEntry);
  const offsets: number[] = [];
  let at = 0;
  for (const piece of pieces) {
    offsets.push(at);
    at += piece.length;
  }
  offsets.push(at);
  node.bytes = Buffer.concat(pieces, at);
  node.offsets = offsets;
  return { bytes: node.bytes, offsets };
}

/** One tree entry as git stores it: `<mode without leading 0> <name>\0<20-byte id>`. */
function serializeEntry(entry: TreeEntry): Buffer {
  const head = `${entry.mode.replace(/^0/, '')} ${entry.name}\0`;
  const length = Buffer.byteLength(head);
  const bytes = Buffer.allocUnsafe(length + 20);
  bytes.write(head, 0, 'utf8');
  bytes.write(entry.oid, length, 'hex');
  return bytes;
}

function findEntry(entries: readonly TreeEntry[], name: string): TreeEntry | undefined {
  const at = indexOf(entries, name);
  return at >= 0 ? entries[at] : undefined;
}

/** Where the entry called `name` is (a file or a folder: their sort keys differ), or -1. */
function indexOf(entries: readonly TreeEntry[], name: string): number {
  for (const key of [name, `${name}/`]) {
    const at = lowerBound(entries, key);
    if (entries[at]?.name === name) return at;
  }
  return -1;
}

function lowerBound(entries: readonly TreeEntry[], key: string): number {
  let low = 0;
  let high = entries.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    if (compareKeys(treeKey(entries[mid]!), key) < 0) low = mid + 1;
    else high = mid;
  }
  return low;
}

/** Git sorts tree entries by their bytes, folder names as if they ended in `/`. */
function treeKey(entry: TreeEntry): string {
  return entry.mode === folderMode ? `${entry.name}/` : entry.name;
}

const asciiOnly = /^[\x00-\x7f]*$/;

function compareKeys(a: string, b: string): number {
  if (asciiOnly.test(a) && asciiOnly.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
