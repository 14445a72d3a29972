/**
 * An open-addressing hash table from a pair of small non-negative integers
 * (prefix id, last token) to a slot number, with per-slot columns. A
 * JavaScript Map was several times slower here: mining makes tens of millions
 * of lookups, and each costs cache misses, so a lookup touches one interleaved
 * entry (key, key, slot) and one interleaved (count, last session) pair.
 */
export class PairTable {
  private mask: number;
  /** Entries of 3 ints: key a, key b, slot + 1 (0 = empty). */
  private entries: Int32Array;
  size = 0;
  prefix = new Int32Array(1024);
  suffix = new Int32Array(1024);
  last = new Int32Array(1024);
  /** Per slot: [count, last session counted]. */
  tally = new Int32Array(2048);

  constructor(capacityHint = 1 << 16) {
    let capacity = 1 << 10;
    while (capacity < capacityHint * 2) capacity *= 2;
    this.mask = capacity - 1;
    this.entries = new Int32Array(capacity * 3);
  }

  private static hash(a: number, b: number): number {
    // murmur3's finaliser over a mix of both halves: the low bits depend on every input bit.
    let h = Math.imul(a, 0x9e3779b1) ^ b;
    h ^= h >>> 16;
    h = Math.imul(h, 0x85ebca6b);
    h ^= h >>> 13;
    h = Math.imul(h, 0xc2b2ae35);
    return h ^ (h >>> 16);
  }

  /** Counts (a, b) once for `session`; returns its slot, created (with `suffix`) when new. */
  countOnce(a: number, b: number, suffix: number, session: number): number {
    const entries = this.entries;
    let i = PairTable.hash(a, b) & this.mask;
    let slot = -1;
    for (;;) {
      const at = i * 3;
      const stored = entries[at + 2] as number;
      if (stored === 0) break;
      if (entries[at] === a && entries[at + 1] === b) {
        slot = stored - 1;
        break;
      }
      i = (i + 1) & this.mask;
    }
    if (slot < 0) slot = this.insert(i, a, b, suffix);
    const tally = this.tally;
    if (tally[slot * 2 + 1] !== session) {
      tally[slot * 2 + 1] = session;
      tally[slot * 2] = (tally[slot * 2] as number) + 1;
    }
    return slot;
  }

  count(slot: number): number {
    return this.tally[slot * 2] as number;
  }

  private insert(i: number, a: number, b: number, suffix: number): number {
    const slot = this.size;
    this.entries[i * 3] = a;
    this.entries[i * 3 + 1] = b;
    this.entries[i * 3 + 2] = slot + 1;
    this.size += 1;
    if (slot >= this.prefix.length) this.growColumns();
    this.prefix[slot] = a;
    this.last[slot] = b;
    this.suffix[slot] = suffix;
    this.tally[slot * 2 + 1] = -1;
    if (this.size * 2 > this.mask) this.rehash();
    return slot;
  }

  private growColumns(): void {
    const grow = (column: Int32Array) => {
      const next = new Int32Array(column.length * 2);
      next.set(column);
      return next;
    };
    this.prefix = grow(this.prefix);
    this.suffix = grow(this.suffix);
    this.last = grow(this.last);
    this.tally = grow(this.tally);
  }

  private rehash(): void {
    const capacity = (this.mask + 1) * 2;
    this.mask = capacity - 1;
    const entries = new Int32Array(capacity * 3);
    for (let slot = 0; slot < this.size; slot += 1) {
      const a = this.prefix[slot] as number;
      const b = this.last[slot] as number;
      let i = PairTable.hash(a, b) & this.mask;
      while (entries[i * 3 + 2] !== 0) i = (i + 1) & this.mask;
      entries[i * 3] = a;
      entries[i * 3 + 1] = b;
      entries[i * 3 + 2] = slot + 1;
    }
    this.entries = entries;
  }
}
