/**
 * The same table as PairTable for when the keys are few enough to index
 * directly: a pair (prefix id, last token) is the cell `prefix × tokens + last`
 * of one array, so a lookup is one read instead of a hash, a probe and a key
 * compare. On a dozen tools nearly every short window is frequent and mining
 * makes tens of millions of lookups: this is most of the counting's time.
 * Slots are numbered in first-seen order, as PairTable numbers them, so both
 * give the same levels (test/core/patterns/count-windows.test.ts compares them).
 */
export class DenseTable {
  /** Per cell: slot + 1 (0 = not seen). */
  private readonly slotOfCell: Int32Array;
  size = 0;
  prefix = new Int32Array(1024);
  suffix = new Int32Array(1024);
  last = new Int32Array(1024);
  /** Per slot: [count, last session counted]. */
  tally = new Int32Array(2048);

  /** Cells are `a < prefixes` × `b < tokens`. */
  constructor(
    prefixes: number,
    private readonly tokens: number,
  ) {
    this.slotOfCell = new Int32Array(prefixes * tokens);
  }

  /** Counts (a, b) once for `session`; returns its slot, created (with `suffix`) when new. */
  countOnce(a: number, b: number, suffix: number, session: number): number {
    const cell = a * this.tokens + b;
    let slot = (this.slotOfCell[cell] as number) - 1;
    if (slot < 0) {
      slot = this.size;
      this.size += 1;
      this.slotOfCell[cell] = slot + 1;
      if (slot >= this.prefix.length) this.growColumns();
      this.prefix[slot] = a;
      this.last[slot] = b;
      this.suffix[slot] = suffix;
      this.tally[slot * 2 + 1] = -1;
    }
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
}
