import { DenseTable } from './dense-table.js';
import { PairTable } from './pair-table.js';

/**
 * Level-wise counting of contiguous windows, each counted once per session.
 * A window of length L+1 can only reach `minSessions` if its length-L prefix
 * did, so each level extends only the frequent windows of the level before.
 * Windows are keyed exactly by the pair (prefix id, last token): numbers,
 * no strings, no lossy hashes.
 */

/** The frequent windows of one length. Index = the window's id at that level. */
export interface WindowLevel {
  length: number;
  /** Id of the length-1-shorter prefix (a token id at length 2). */
  prefix: Int32Array;
  /** Id of the length-1-shorter suffix (a token id at length 2). */
  suffix: Int32Array;
  last: Int32Array;
  sessions: Int32Array;
}

/** Sessions' tokens laid end to end, with `starts[s]..starts[s+1]` for session s. */
export interface PackedSessions {
  tokens: Int32Array;
  starts: Int32Array;
}

/** Token ids must be non-negative integers: -1 marks "no frequent window here" while counting. */
export function packSessions(sessions: readonly ArrayLike<number>[]): PackedSessions {
  const total = sessions.reduce((sum, s) => sum + s.length, 0);
  const tokens = new Int32Array(total);
  const starts = new Int32Array(sessions.length + 1);
  let at = 0;
  sessions.forEach((session, s) => {
    starts[s] = at;
    tokens.set(session, at);
    at += session.length;
  });
  starts[sessions.length] = at;
  return { tokens, starts };
}

/**
 * Runs of one token collapsed (`Bash Bash Bash` → `Bash`) in every session, packed as given: the same as
 * `collapseRuns` of each session, without an array per session.
 */
export function collapsePackedRuns(packed: PackedSessions): PackedSessions {
  const tokens = new Int32Array(packed.tokens.length);
  const starts = new Int32Array(packed.starts.length);
  let at = 0;
  for (let s = 0; s + 1 < packed.starts.length; s += 1) {
    starts[s] = at;
    const first = at;
    for (let p = packed.starts[s] as number; p < (packed.starts[s + 1] as number); p += 1) {
      const token = packed.tokens[p] as number;
      if (at === first || tokens[at - 1] !== token) tokens[at++] = token;
    }
  }
  starts[packed.starts.length - 1] = at;
  return { tokens: tokens.subarray(0, at), starts };
}

/** What countLevel counts into: PairTable (any keys) or DenseTable (few enough keys to index directly). */
type WindowTable = PairTable | DenseTable;

/**
 * Above this many cells (prefix ids × tokens) the direct table would cost more memory than
 * it saves time (4 bytes a cell: 64 MiB), and counting hashes instead.
 */
const maxDenseCells = 1 << 24;

function chooseTable(prefixes: number, tokens: number, mode: TableMode): WindowTable {
  return mode === 'auto' && prefixes * tokens <= maxDenseCells ? new DenseTable(prefixes, tokens) : new PairTable();
}

function countLevel(packed: PackedSessions, prevIds: Int32Array, length: number, slotAt: Int32Array, table: WindowTable): WindowTable {
  const { tokens, starts } = packed;
  slotAt.fill(-1);
  for (let s = 0; s + 1 < starts.length; s += 1) {
    const end = (starts[s + 1] as number) - length;
    for (let p = starts[s] as number; p <= end; p += 1) {
      const prefixId = prevIds[p] as number;
      const suffixId = prevIds[p + 1] as number;
      // Both the prefix and the suffix of a frequent window are frequent.
      if (prefixId < 0 || suffixId < 0) continue;
      slotAt[p] = table.countOnce(prefixId, tokens[p + length - 1] as number, suffixId, s);
    }
  }
  return table;
}

function keepFrequent(table: WindowTable, length: number, minSessions: number): { level: WindowLevel; idOfSlot: Int32Array } {
  const idOfSlot = new Int32Array(table.size).fill(-1);
  const kept: number[] = [];
  for (let slot = 0; slot < table.size; slot += 1) {
    if (table.count(slot) >= minSessions) {
      idOfSlot[slot] = kept.length;
      kept.push(slot);
    }
  }
  const pick = (values: Int32Array) => Int32Array.from(kept, (slot) => values[slot] as number);
  const level: WindowLevel = {
    length,
    prefix: pick(table.prefix),
    suffix: pick(table.suffix),
    last: pick(table.last),
    sessions: Int32Array.from(kept, (slot) => table.count(slot)),
  };
  return { level, idOfSlot };
}

/** `auto`: the direct table where it fits, else hashing; `hash`: always hashing (the plain path the tests compare with). */
export type TableMode = 'auto' | 'hash';

export interface CountOptions {
  minSessions: number;
  maxLength: number;
  table?: TableMode;
}

/** Counts every frequent contiguous window of length 2..maxLength. `levels[0]` is length 2. */
export function countWindows(packed: PackedSessions, options: CountOptions): WindowLevel[] {
  const levels: WindowLevel[] = [];
  let prevIds = packed.tokens;
  const slotAt = new Int32Array(packed.tokens.length);
  let tokenCount = 0;
  for (const token of packed.tokens) if (token >= tokenCount) tokenCount = token + 1;
  let prefixCount = tokenCount;
  for (let length = 2; length <= options.maxLength; length += 1) {
    const table = chooseTable(prefixCount, tokenCount, options.table ?? 'auto');
    const slots = countLevel(packed, prevIds, length, slotAt, table);
    const { level, idOfSlot } = keepFrequent(slots, length, options.minSessions);
    if (level.sessions.length === 0) break;
    levels.push(level);
    prefixCount = level.sessions.length;
    const nextIds = new Int32Array(packed.tokens.length);
    for (let p = 0; p < slotAt.length; p += 1) {
      const slot = slotAt[p] as number;
      nextIds[p] = slot < 0 ? -1 : (idOfSlot[slot] as number);
    }
    prevIds = nextIds;
  }
  return levels;
}

/** The token ids of window `id` at `levels[index]`. */
export function buildWindowTokens(levels: readonly WindowLevel[], index: number, id: number): number[] {
  const out: number[] = [];
  let level = index;
  let current = id;
  while (level >= 0) {
    const window = levels[level] as WindowLevel;
    out.push(window.last[current] as number);
    current = window.prefix[current] as number;
    level -= 1;
  }
  out.push(current);
  return out.reverse();
}
