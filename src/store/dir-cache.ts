import { constants, Dirent, readdirSync } from 'node:fs';

/** Lists a folder's entries; throws as `readdirSync` does. */
export type ReadDir = (path: string) => Dirent[];

/** A listing cache that can hand its listings to another thread (plain data) and be seeded with them. */
export type DirCache = ReadDir & {
  /** The listings of `paths` this cache holds, as plain data (names and entry types). */
  pack(paths: readonly string[]): PackedListings;
};

/** Folder → its entries' names and libuv entry types: what a listing is, without Dirent objects (which do not cross threads). */
export type PackedListings = [path: string, names: string[], types: number[]][];

export const readDirUncached: ReadDir = (path) => readdirSync(path, { withFileTypes: true });

/**
 * A listing cache for one pass: discovery and the per-skill file walk read
 * the same folders, and a second `readdir` of each is most of a pass's cost.
 * `seed`: listings another thread made (`pack`), taken as if read here.
 */
export function createDirCache(seed?: PackedListings): DirCache {
  const listings = new Map<string, Dirent[]>(unpack(seed));
  const read = (path: string): Dirent[] => {
    let entries = listings.get(path);
    if (entries === undefined) {
      entries = readdirSync(path, { withFileTypes: true });
      listings.set(path, entries);
    }
    return entries;
  };
  return Object.assign(read, {
    pack(paths: readonly string[]): PackedListings {
      const packed: PackedListings = [];
      for (const path of paths) {
        const entries = listings.get(path);
        if (entries) packed.push([path, entries.map((e) => e.name), entries.map(typeOf)]);
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

type DirentConstructor = new (name: string, type: number, path: string) => Dirent;

/**
 * The listings rebuilt as node's own Dirent objects: the constructor is not
 * documented, so it is used only when it is seen to give back what was packed;
 * otherwise the seed is dropped and the folders are simply read again.
 */
function unpack(seed: PackedListings | undefined): [string, Dirent[]][] {
  if (!seed || seed.length === 0 || !direntsRebuild()) return [];
  const make = Dirent as unknown as DirentConstructor;
  return seed.map(([path, names, types]) => [path, names.map((name, i) => new make(name, types[i]!, path))]);
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
