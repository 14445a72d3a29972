/**
 * The one shape of skillgarden's content caches (the scan's, validate's):
 * what was computed from some bytes, keyed by their git blob id and whatever
 * else the result depends on, valid for one version of the code that
 * computed it. Kept in `.git/skillgarden/` by the store (cache-file.ts).
 */
export interface ContentCacheData<T> {
  version: 2;
  /** What computed the entries (rule set, limits, engine version): another value and every entry is dropped. */
  rules: string;
  /**
   * The entries as two arrays, `values[i]` for `keys[i]` (no key repeated):
   * not an object keyed by them, whose every key V8 interns into its string
   * table, read and written (version 1 was; measured in session 8: a first run
   * over 10,000 skills spent some 70 ms of its cache's 120 on that).
   */
  keys: string[];
  values: T[];
}

/** Entries kept beyond those used by the last run (a partial run must not empty the cache of the rest). */
const maxEntries = 200_000;

/**
 * One run's view of a cache: looked up by key, and what the run used or
 * added is what it writes back (then older entries, up to a bound).
 */
export class ContentCache<T> {
  private readonly old: Map<string, T>;
  /** What this run put. */
  private readonly fresh = new Map<string, T>();
  /**
   * Keys of `old` this run looked up and found, in order (repeats allowed):
   * an array, not a second map, because a warm run finds every key and a map
   * insert per lookup was most of a lookup's cost.
   */
  private readonly found: string[] = [];
  private added = 0;
  /** Lookups answered: work not done again. */
  hits = 0;
  readonly rules: string;

  /**
   * `data`: what was read (anything: a corrupt or foreign file is ignored
   * whole, as is one with a bad entry); `rules`: this run's version.
   */
  constructor(data: unknown, rules: string, isEntry: (value: unknown) => value is T) {
    this.rules = rules;
    this.old = new Map();
    if (!isCacheData(data, isEntry) || data.rules !== rules) return;
    const { keys, values } = data;
    for (let i = 0; i < keys.length; i++) this.old.set(keys[i]!, values[i]!);
  }

  get(key: string): T | undefined {
    const put = this.fresh.size === 0 ? undefined : this.fresh.get(key);
    if (put !== undefined) {
      this.hits++;
      return put;
    }
    // A first run's lookups all miss: not even the key's hash is needed.
    const hit = this.old.size === 0 ? undefined : this.old.get(key);
    if (hit !== undefined) {
      this.found.push(key);
      this.hits++;
    }
    return hit;
  }

  put(key: string, value: T): void {
    this.fresh.set(key, value);
    this.added++;
  }

  /** Entries read back from the file (those of this rule set): how warm the run can be. */
  get known(): number {
    return this.old.size;
  }

  /** Entries computed (and added) by this run. */
  get misses(): number {
    return this.added;
  }

  /** Something new to write. */
  get changed(): boolean {
    return this.added > 0;
  }

  /** What the run put, then what it used of the old entries, then the other old entries up to the bound. */
  toData(): ContentCacheData<T> {
    const keys = [...this.fresh.keys()];
    const values = [...this.fresh.values()];
    if (this.old.size === 0) return { version: 2, rules: this.rules, keys, values };
    const written = new Set<string>(keys);
    for (const key of this.found) {
      if (written.has(key)) continue;
      keys.push(key);
      values.push(this.old.get(key)!);
      written.add(key);
    }
    let room = maxEntries - written.size;
    for (const [key, value] of this.old) {
      if (room <= 0) break;
      if (written.has(key)) continue;
      keys.push(key);
      values.push(value);
      room--;
    }
    return { version: 2, rules: this.rules, keys, values };
  }
}

function isCacheData<T>(value: unknown, isEntry: (value: unknown) => value is T): value is ContentCacheData<T> {
  const data = value as Partial<ContentCacheData<T>> | null | undefined;
  if (typeof data !== 'object' || data === null || data.version !== 2 || typeof data.rules !== 'string') return false;
  const { keys, values } = data;
  if (!Array.isArray(keys) || !Array.isArray(values) || keys.length !== values.length) return false;
  // A key repeated (not written by this code) is harmless: the last one stands.
  return keys.every((k) => typeof k === 'string') && values.every(isEntry);
}

/** FNV-1a, 52 bits (exact in a double): a fingerprint of what computed a cache, not a defence against whoever can write it. */
export function fingerprint(text: string): string {
  let hash = 0xcbf29ce484222;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = (hash * 0x1b3 + Math.floor(hash / 2 ** 32) * 0x100000001b3) % 2 ** 52;
  }
  return hash.toString(36);
}
