import type { SkillStateRecord } from '../lifecycle/types.js';
import type { CuratorState } from './state.js';
import { serializeState } from './state.js';

/** A change prepared by `StateText.change`: the file's bytes with it, and `apply` to keep it. */
export interface StateChange {
  bytes: Buffer;
  /** False when the file stays as it is (the record was already so). */
  changed: boolean;
  apply(): void;
}

/**
 * `serializeState`'s bytes, kept up to date one record at a time: a curator run writes the state
 * file in every transition commit, and re-sorting and re-stringifying a file of thousands of
 * records for each one made a 10,000-skill pass quadratic. The records' text sits in one buffer,
 * in `serializeState`'s order and indentation, and a change splices one record's bytes (a copy,
 * no re-serializing); the result is the same bytes `serializeState` gives (tested).
 */
export class StateText {
  private readonly records: Map<string, SkillStateRecord>;
  /** In the order `serializeState`'s output has them (`keyOrder`), with where each one's text starts in `body`. */
  private names: string[];
  private offsets: number[];
  /** Each record as `    "name": {…},\n`; the file drops the last `,` of the last one. */
  private body: Buffer;
  private readonly head: Buffer;
  private readonly tail: Buffer;
  private readonly empty: Buffer;

  constructor(private readonly base: CuratorState) {
    this.records = new Map(Object.entries(base.skills));
    this.names = [...this.records.keys()].sort(keyOrder);
    const pieces = this.names.map((name) => piece(name, this.records.get(name)!));
    this.offsets = [];
    let at = 0;
    for (const bytes of pieces) {
      this.offsets.push(at);
      at += bytes.length;
    }
    this.body = Buffer.concat(pieces, at);
    // The file with no skills: every other field, in serializeState's order and format.
    const frame = serializeState({ ...base, skills: {} });
    const marker = '\n  "skills": {}';
    const split = frame.indexOf(marker) + marker.length - 1;
    this.empty = Buffer.from(frame, 'utf8');
    this.head = Buffer.from(`${frame.slice(0, split)}\n`, 'utf8');
    this.tail = Buffer.from(`\n  ${frame.slice(split)}`, 'utf8');
  }

  get(name: string): SkillStateRecord | undefined {
    return this.records.get(name);
  }

  bytes(): Buffer {
    return this.render(this.body);
  }

  /** The file with `name`'s record replaced (`undefined` removes it); nothing changes until `apply`. */
  change(name: string, record: SkillStateRecord | undefined): StateChange {
    const at = this.position(name);
    const present = this.names[at] === name;
    const start = present || at < this.names.length ? this.offsets[at]! : this.body.length;
    const end = present ? (this.offsets[at + 1] ?? this.body.length) : start;
    const inserted = record === undefined ? Buffer.alloc(0) : piece(name, record);
    const body = Buffer.concat([this.body.subarray(0, start), inserted, this.body.subarray(end)]);
    const same = present ? record !== undefined && inserted.equals(this.body.subarray(start, end)) : record === undefined;
    return {
      bytes: this.render(body),
      changed: !same,
      apply: () => {
        const shift = inserted.length - (end - start);
        const later = present ? at + 1 : at;
        const moved = this.offsets.slice(later).map((offset) => offset + shift);
        if (record === undefined) {
          this.records.delete(name);
          if (present) {
            this.names.splice(at, 1);
            this.offsets = [...this.offsets.slice(0, at), ...moved];
          }
        } else {
          this.records.set(name, record);
          if (!present) this.names.splice(at, 0, name);
          this.offsets = [...this.offsets.slice(0, at), start, ...moved];
        }
        this.body = body;
      },
    };
  }

  /** The state these records make (for the run's last commit and its report). */
  state(): CuratorState {
    return { ...this.base, skills: Object.fromEntries(this.names.map((n) => [n, this.records.get(n)!])) };
  }

  private render(body: Buffer): Buffer {
    if (body.length === 0) return this.empty;
    // Without the last record's `,\n`: the file's `\n  }` follows.
    return Buffer.concat([this.head, body.subarray(0, body.length - 2), this.tail]);
  }

  private position(name: string): number {
    let low = 0;
    let high = this.names.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (keyOrder(this.names[mid]!, name) < 0) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

/** One record as it sits in the file: four spaces in, its own lines four spaces further, then `,\n`. */
function piece(name: string, record: SkillStateRecord): Buffer {
  return Buffer.from(`    ${JSON.stringify(name)}: ${JSON.stringify(record, null, 2).split('\n').join('\n    ')},\n`, 'utf8');
}

const arrayIndex = /^(0|[1-9][0-9]{0,9})$/;

/**
 * The order of the keys in `serializeState`'s output: sorted by `<`, but JavaScript puts keys that
 * are array indexes ("0", "42") first, in numeric order, whatever the insertion order.
 */
function keyOrder(a: string, b: string): number {
  const ai = arrayIndex.test(a) && Number(a) < 2 ** 32 - 1;
  const bi = arrayIndex.test(b) && Number(b) < 2 ** 32 - 1;
  if (ai && bi) return Number(a) - Number(b);
  if (ai !== bi) return ai ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
