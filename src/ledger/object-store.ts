import type { Author, CommitInfo } from './ledger.js';

/** One entry of a git tree: `mode` is git's six-digit octal string (`040000` for a folder). */
export interface TreeEntry {
  mode: string;
  name: string;
  oid: string;
}

export interface NewCommit {
  tree: string;
  parents: string[];
  message: string;
  author: Required<Author>;
  /** Default: the author. */
  committer?: Required<Author>;
}

/**
 * What a backend must do with git objects. Refs, the index and the working
 * tree are handled once, above this, with git's own lock protocol.
 */
export interface ObjectStore {
  readTree(oid: string): Promise<TreeEntry[]>;
  readBlob(oid: string): Promise<Uint8Array>;
  readCommit(oid: string): Promise<CommitInfo>;
  /** The object an annotated tag points at; undefined when `oid` is not a tag (or cannot be read). */
  peelTag(oid: string): Promise<string | undefined>;
  writeBlob(content: Uint8Array): Promise<string>;
  /** Entries already in git's order (`sortTreeEntries`); `withTreeCache` guarantees it unless told they are. */
  writeTree(entries: readonly TreeEntry[], options?: { sorted?: boolean }): Promise<string>;
  writeCommit(commit: NewCommit): Promise<string>;
  close(): Promise<void>;
}

export const folderMode = '040000';

/** Git sorts tree entries as if folder names ended in `/`. */
export function sortTreeEntries(entries: readonly TreeEntry[]): TreeEntry[] {
  const keyed = entries.map((entry) => ({ entry, key: entry.mode === folderMode ? `${entry.name}/` : entry.name }));
  // For ASCII names, string order is byte order and far cheaper than
  // comparing Buffers (a 10,000-entry folder is sorted on every commit under it).
  if (keyed.every((k) => asciiOnly.test(k.key)))
    return keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)).map((k) => k.entry);
  const bytes = keyed.map((k) => ({ entry: k.entry, key: Buffer.from(k.key, 'utf8') }));
  return bytes.sort((a, b) => Buffer.compare(a.key, b.key)).map((k) => k.entry);
}

const asciiOnly = /^[\x00-\x7f]*$/;

/** Git's `+hhmm` from a `Date#getTimezoneOffset`-style minute count. */
export function formatTimezone(offsetMinutes: number): string {
  const sign = offsetMinutes <= 0 ? '+' : '-';
  const minutes = Math.abs(offsetMinutes);
  return `${sign}${String(Math.floor(minutes / 60)).padStart(2, '0')}${String(minutes % 60).padStart(2, '0')}`;
}

/** Git's commit messages end with one newline. */
export function normalizeMessage(message: string): string {
  return `${message.replace(/\s+$/, '')}\n`;
}

/**
 * Trees are immutable by id, so parsed ones are kept: a commit under a folder
 * of 10,000 skills otherwise re-reads and re-parses that folder every time.
 */
export function withTreeCache(store: ObjectStore, limit = 4096): ObjectStore {
  const cache = new Map<string, TreeEntry[]>();
  const remember = (oid: string, entries: TreeEntry[]) => {
    if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
    cache.set(oid, entries);
  };
  return {
    ...store,
    readBlob: (oid) => store.readBlob(oid),
    readCommit: (oid) => store.readCommit(oid),
    writeBlob: (content) => store.writeBlob(content),
    writeCommit: (commit) => store.writeCommit(commit),
    close: () => store.close(),
    async readTree(oid) {
      const hit = cache.get(oid);
      if (hit) return hit;
      const entries = await store.readTree(oid);
      remember(oid, entries);
      return entries;
    },
    async writeTree(entries, options) {
      const sorted = options?.sorted ? entries.slice() : sortTreeEntries(entries);
      const oid = await store.writeTree(sorted);
      remember(oid, sorted);
      return oid;
    },
  };
}
