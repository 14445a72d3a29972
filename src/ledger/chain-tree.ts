import type { ObjectStore } from './object-store.js';
import { folderMode } from './object-store.js';
import { badPath } from './paths.js';
import type { PreparedChange } from './prepare-changes.js';
import type { BlobRef } from './tree-edit.js';

interface Folder {
  /** The stored tree, until a change of the batch alters its entries. */
  oid?: string;
  entries?: Map<string, Item>;
}

type Item = BlobRef | { mode: typeof folderMode; folder: Folder };

/** What a path holds: a blob, a folder, nothing; or nothing because a file stands where one of its folders would. */
export type Found = { blob?: BlobRef; folder?: true; blocker?: { path: string; mode: string } };

/**
 * The tree of a batch's tip as its commits leave it: read from the store a folder at a time (each
 * one once), changed in memory as each commit is added. A commit's before-values, its path checks
 * and its case twins are read here, so the writer is never waited on between two commits.
 */
export class ChainTree {
  private readonly root: Folder = {};
  private rootRead: Promise<void> | undefined;

  constructor(
    private readonly store: ObjectStore,
    private readonly commit: string | undefined,
  ) {}

  /** What each path holds, before the commit that touches them. */
  async findAll(paths: readonly string[]): Promise<Map<string, Found>> {
    const found = new Map<string, Found>();
    for (const path of paths) found.set(path, await this.find(path));
    return found;
  }

  async find(path: string): Promise<Found> {
    let folder = await this.top();
    const parts = path.split('/');
    for (const [i, part] of parts.entries()) {
      const item = (await this.entries(folder)).get(part);
      if (item === undefined) return {};
      const last = i === parts.length - 1;
      if ('folder' in item) {
        if (last) return { folder: true };
        folder = item.folder;
      } else if (last) return { blob: item };
      else return { blocker: { path: parts.slice(0, i + 1).join('/'), mode: item.mode } };
    }
    return {};
  }

  /** The tracked path `path` names on a case-insensitive file system when it is spelled differently; `undefined` when none. */
  async findCaseTwin(path: string): Promise<string | undefined> {
    let folder: Folder | undefined = await this.top();
    const found: string[] = [];
    const parts = path.split('/');
    for (const part of parts) {
      if (folder === undefined) break;
      const entries = await this.entries(folder);
      const lower = part.toLowerCase();
      const name = entries.has(part) ? part : [...entries.keys()].find((n) => n.toLowerCase() === lower);
      if (name === undefined) break;
      found.push(name);
      const item = entries.get(name)!;
      folder = 'folder' in item ? item.folder : undefined;
    }
    const twin = found.join('/');
    return twin !== parts.slice(0, found.length).join('/') ? twin : undefined;
  }

  /**
   * The stored tree a folder move takes from `from`, checked: a folder there, nothing at `to`. A folder changed earlier in the
   * batch has no stored tree yet: such a move is refused (a move goes in a commit of its own, after the folder's last edit is published).
   */
  async moveTree(from: string, to: string): Promise<string> {
    const target = await this.find(to);
    if (target.blocker)
      throw badPath(to, `${target.blocker.path} is a ${target.blocker.mode === '120000' ? 'symlink' : 'file'}, not a folder`);
    if (target.blob || target.folder) throw badPath(to, 'something is already at that path: a move never overwrites');
    let folder = await this.top();
    for (const part of from.split('/')) {
      const item = (await this.entries(folder)).get(part);
      if (item === undefined || !('folder' in item)) throw badPath(from, 'no folder at that path to move');
      folder = item.folder;
    }
    if (folder.oid === undefined) throw badPath(from, 'it changed earlier in this batch; move it in a batch of its own');
    return folder.oid;
  }

  /** The commit's changes, in order, as git's tree edits do them: folders made on the way, folders left empty gone. */
  async apply(changes: readonly PreparedChange[]): Promise<void> {
    for (const change of changes) {
      const parts = change.path.split('/');
      const name = parts.pop()!;
      const trail: Array<{ folder: Folder; name: string }> = [];
      let folder = await this.top();
      for (const part of parts) {
        const entries = await this.entries(folder);
        const item = entries.get(part);
        let next: Folder;
        if (item && 'folder' in item) next = item.folder;
        else entries.set(part, { mode: folderMode, folder: (next = { entries: new Map() }) });
        trail.push({ folder, name: part });
        folder = next;
      }
      const entries = await this.entries(folder);
      // Entries read, so the stored ids of the folders on the path may go: they no longer describe them.
      for (const step of [...trail.map((t) => t.folder), folder]) delete step.oid;
      if (change.oid === null) entries.delete(name);
      else if (change.mode === folderMode) entries.set(name, { mode: folderMode, folder: { oid: change.oid } });
      else entries.set(name, { oid: change.oid, mode: change.mode });
      for (let child = folder, at = trail.length - 1; at >= 0 && child.entries!.size === 0; at -= 1) {
        child = trail[at]!.folder;
        child.entries!.delete(trail[at]!.name);
      }
    }
  }

  private async top(): Promise<Folder> {
    this.rootRead ??= (async () => {
      if (this.commit !== undefined) this.root.oid = (await this.store.readCommit(this.commit)).tree;
    })();
    await this.rootRead;
    return this.root;
  }

  private async entries(folder: Folder): Promise<Map<string, Item>> {
    if (folder.entries) return folder.entries;
    const read = folder.oid === undefined ? [] : await this.store.readTree(folder.oid);
    folder.entries = new Map(
      read.map((e) => [e.name, e.mode === folderMode ? { mode: folderMode, folder: { oid: e.oid } } : { oid: e.oid, mode: e.mode }]),
    );
    return folder.entries;
  }
}

/** Each touched path's blob before the commit (`undefined` when absent or a folder). */
export function beforeValues(found: ReadonlyMap<string, Found>): Map<string, BlobRef | undefined> {
  return new Map([...found].map(([path, f]) => [path, f.blob]));
}

/** What git's trees cannot hold: a file where a folder goes, a folder where a file goes. */
export function checkShape(found: ReadonlyMap<string, Found>): void {
  for (const [path, f] of found) {
    if (f.blocker) throw badPath(path, `${f.blocker.path} is a ${f.blocker.mode === '120000' ? 'symlink' : 'file'}, not a folder`);
    if (f.folder) throw badPath(path, 'a folder is at that path');
  }
}
