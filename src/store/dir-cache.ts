import { constants, Dirent, readdirSync, statSync, type Stats } from 'node:fs';
import { sep } from 'node:path';

/** Lists a folder's entries; throws as `readdirSync` does. */
export type ReadDir = (path: string) => Dirent[];

/** A listing cache that can hand its listings to another thread (plain data) and be seeded with them. */
export type DirCache = ReadDir & {
  /**
   * The listings of `paths` this cache holds, and of the folders below them
   * it holds (to the depth a skill's file walk goes), as plain data (names and
   * entry types).
   */
  pack(paths: readonly string[]): PackedListings;
  /** With kept listings: the folders listed by this run that a later run may trust (see `KeptListing`), other threads' included. */
  fresh(): KeptListing[];
  /** Adds another thread's fresh listings to this cache's `fresh()`. */
  absorb(listings: readonly KeptListing[]): void;
};

/**
 * A folder's listing kept across runs (dir-listings-file.ts), with the
 * folder's stat when it was listed: git's untracked cache, in small. Adding,
 * removing or renaming an entry sets the folder's mtime and ctime to now, so
 * a folder whose stat is unchanged holds what it held. Names are joined by
 * `/` (no entry name holds one); types are libuv's entry types, one digit
 * each.
 */
export type KeptListing = [path: string, mtimeMs: number, ctimeMs: number, ino: number, names: string, types: string];

/**
 * A folder changed less than this before it was listed may change again
 * within the same timestamp tick (coarse on Linux, 2 s on FAT): its listing
 * is not kept, as git treats a racily clean file.
 */
export const racyListingMs = 2_000;

/**
 * Folder → its entries' names joined by `/` and their libuv entry types, one
 * digit each (as a kept listing holds them): what a listing is, without
 * Dirent objects (which do not cross threads), in three strings a folder
 * rather than two arrays of one value an entry, which structured clone copies
 * one by one.
 */
export type PackedListings = [path: string, names: string, types: string][];

/** How far below a packed folder its subfolders' listings go with it: the depth a skill's file walk reaches (read-skill.ts). */
const packDepth = 8;

/** `inner`, each folder it is asked for noted in `listed` (what a pass listed: what validate's memo stamps). */
export function recordListings(inner: DirCache, listed: Set<string>): DirCache {
  const read = (path: string) => {
    listed.add(path);
    return inner(path);
  };
  return Object.assign(read, {
    pack: (paths: readonly string[]) => inner.pack(paths),
    fresh: () => inner.fresh(),
    absorb: (more: Parameters<DirCache['absorb']>[0]) => inner.absorb(more),
  });
}

export const readDirUncached: ReadDir = (path) => readdirSync(path, { withFileTypes: true });

/**
 * A listing cache for one pass: discovery and the per-skill file walk read
 * the same folders, and a second `readdir` of each is most of a pass's cost.
 * `seed`: listings another thread made (`pack`), taken as if read here.
 */
export function createDirCache(seed?: PackedListings, kept?: ReadonlyMap<string, KeptListing>): DirCache {
  const listings = new Map<string, Dirent[]>(unpack(seed));
  const fresh: KeptListing[] = [];
  const list = kept && direntsRebuild() ? (path: string) => listKept(path, kept, fresh) : readDirUncached;
  const read = (path: string): Dirent[] => {
    let entries = listings.get(path);
    if (entries === undefined) {
      entries = list(path);
      listings.set(path, entries);
    }
    return entries;
  };
  return Object.assign(read, {
    fresh: () => fresh,
    absorb(more: readonly KeptListing[]) {
      for (const listing of more) fresh.push(listing);
    },
    pack(paths: readonly string[]): PackedListings {
      const packed: PackedListings = [];
      const add = (path: string, entries: Dirent[]): void => {
        const types = entries.map(typeOf).join('');
        // One digit per entry (libuv's types are 0 to 7): a listing that does not fit is simply listed again there.
        if (types.length === entries.length) packed.push([path, entries.map((e) => e.name).join('/'), types]);
      };
      const below = (path: string, entries: Dirent[], depth: number): void => {
        add(path, entries);
        if (depth >= packDepth) return;
        for (const entry of entries) {
          if (!entry.isDirectory()) continue;
          const child = `${path}${sep}${entry.name}`;
          const listed = listings.get(child);
          if (listed) below(child, listed, depth + 1);
        }
      };
      for (const path of paths) {
        const entries = listings.get(path);
        if (entries) below(path, entries, 0);
      }
      return packed;
    },
  });
}

const {
  UV_DIRENT_FILE: file,
  UV_DIRENT_DIR: dir,
  UV_DIRENT_LINK: link,
  UV_DIRENT_FIFO: fifo,
  UV_DIRENT_SOCKET: socket,
  UV_DIRENT_CHAR: char,
  UV_DIRENT_BLOCK: block,
  UV_DIRENT_UNKNOWN: unknown,
} = constants as Record<string, number>;

function typeOf(e: Dirent): number {
  if (e.isFile()) return file!;
  if (e.isDirectory()) return dir!;
  if (e.isSymbolicLink()) return link!;
  if (e.isFIFO()) return fifo!;
  if (e.isSocket()) return socket!;
  if (e.isCharacterDevice()) return char!;
  if (e.isBlockDevice()) return block!;
  return unknown!;
}

/**
 * A folder's listing from `kept` when its stat is the one kept with it, else
 * read (and, when not racy, added to `fresh`). Anything but a folder, or a
 * stat that fails, is left to `readdirSync`, which throws as it always did.
 */
function listKept(path: string, kept: ReadonlyMap<string, KeptListing>, fresh: KeptListing[]): Dirent[] {
  let stat: Stats | undefined;
  try {
    stat = statSync(path);
  } catch {
    return readDirUncached(path);
  }
  if (!stat.isDirectory()) return readDirUncached(path);
  const old = kept.get(path);
  const same = old !== undefined && old[1] === stat.mtimeMs && old[2] === stat.ctimeMs && old[3] === stat.ino;
  const rebuilt = same ? rebuild(old) : undefined;
  if (rebuilt) return rebuilt;
  // The stat is taken before the listing: a change in between leaves a newer mtime than the one kept.
  const listedAt = Date.now();
  const entries = readDirUncached(path);
  const types = entries.map(typeOf).join('');
  // One digit per entry (libuv's types are 0 to 7): anything else is simply not kept.
  if (stat.mtimeMs < listedAt - racyListingMs && types.length === entries.length) {
    fresh.push([path, stat.mtimeMs, stat.ctimeMs, stat.ino, entries.map((e) => e.name).join('/'), types]);
  }
  return entries;
}

/** The kept listing as readdir's entries; undefined when it does not hold one type per name (not written by this code). */
function rebuild([path, , , , names, types]: KeptListing): Dirent[] | undefined {
  const split = names === '' ? [] : names.split('/');
  if (split.length !== types.length) return undefined;
  const make = Dirent as unknown as DirentConstructor;
  const entries: Dirent[] = [];
  for (let i = 0; i < split.length; i++) {
    const type = types.charCodeAt(i) - 48;
    if (!(type >= 0 && type <= 7) || split[i] === '') return undefined;
    entries.push(new make(split[i]!, type, path));
  }
  return entries;
}

type DirentConstructor = new (name: string, type: number, path: string) => Dirent;

/**
 * The listings rebuilt as node's own Dirent objects: the constructor is not
 * documented, so it is used only when it is seen to give back what was packed;
 * otherwise the seed is dropped and the folders are simply read again.
 */
function unpack(seed: PackedListings | undefined): [string, Dirent[]][] {
  if (!seed || seed.length === 0 || !direntsRebuild()) return [];
  const out: [string, Dirent[]][] = [];
  for (const [path, names, types] of seed) {
    const entries = rebuild([path, 0, 0, 0, names, types]);
    if (entries) out.push([path, entries]);
  }
  return out;
}

let rebuilds: boolean | undefined;

function direntsRebuild(): boolean {
  if (rebuilds !== undefined) return rebuilds;
  try {
    const make = Dirent as unknown as DirentConstructor;
    const types = [file, dir, link, fifo, socket, char, block, unknown] as number[];
    rebuilds = types.every((type) => {
      const e = new make('probe', type, '/');
      return e.name === 'probe' && typeOf(e) === type;
    });
  } catch {
    rebuilds = false;
  }
  return rebuilds;
}
