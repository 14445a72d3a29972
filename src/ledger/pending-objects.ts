import { createHash } from 'node:crypto';
import { readOnlyError } from './fs-sync.js';
import { writeLooseObject } from './loose-objects.js';
import type { ObjectType } from './loose-objects.js';
import { prefixSuffixDelta } from './pack-delta.js';
import { writePack } from './pack-writer.js';
import type { PackObject } from './pack-writer.js';

/**
 * Git's own rule for how many objects are worth a pack: `transfer.unpackLimit` (default 100) —
 * a push or fetch of fewer objects is exploded into loose objects. A single commit stays loose
 * (as `git commit` writes it); a curator run's hundreds of commits go into one pack.
 */
export const packThreshold = 100;

/** Git's default `pack.depth`: reading an object applies at most this many deltas. */
const maxDeltaDepth = 50;

/** Where an object sits in the pending set, for the next version to be stored as a delta of it. */
export interface DeltaBase {
  oid: string;
  bytes: Buffer;
  depth: number;
  generation: number;
}

interface Pending extends PackObject {
  /** The whole object, kept while the set may still be written loose. */
  whole?: Buffer;
}

/**
 * The objects a batch of commits creates, kept in memory and written once, before any ref moves:
 * loose when few, else one pack whose versions of a big tree or file are deltas of the previous one.
 */
export class PendingObjects {
  /** Bumped at each flush: a base from an earlier generation is no longer in the pack being built. */
  generation = 0;
  private list: Pending[] = [];
  private seen = new Set<string>();

  constructor(
    private readonly commondir: string,
    private readonly durable: { loose: boolean; pack: boolean },
  ) {}

  get size(): number {
    return this.list.length;
  }

  /**
   * Adds an object whose id is already known; `base` (a previous version) makes it a delta when worth it,
   * `delta` being the instructions from it when the caller knows them (a tree edit), else its common start and end.
   */
  add(type: ObjectType, oid: string, bytes: Buffer, base?: DeltaBase, delta?: () => Buffer): DeltaBase {
    const next: DeltaBase = { oid, bytes, depth: 0, generation: this.generation };
    if (this.seen.has(oid)) return next;
    this.seen.add(oid);
    const usable = base !== undefined && base.generation === this.generation && base.depth < maxDeltaDepth && this.seen.has(base.oid);
    const instructions = usable ? (delta ?? (() => prefixSuffixDelta(base.bytes, bytes)))() : undefined;
    if (instructions && base && instructions.length < bytes.length / 2) {
      this.list.push({ oid, type, data: instructions, base: base.oid, ...(this.list.length < packThreshold ? { whole: bytes } : {}) });
      next.depth = base.depth + 1;
    } else {
      this.list.push({ oid, type, data: bytes });
    }
    // Past the threshold the set is certain to be packed: the whole bytes of deltas are dropped.
    if (this.list.length === packThreshold) for (const object of this.list) delete object.whole;
    return next;
  }

  addWhole(type: ObjectType, bytes: Buffer, base?: DeltaBase): DeltaBase {
    return this.add(type, objectId(type, bytes), bytes, base);
  }

  /** Writes every pending object (loose, or one pack) and starts a new generation. */
  async flush(): Promise<void> {
    const list = this.list;
    this.list = [];
    this.seen = new Set();
    this.generation += 1;
    if (list.length === 0) return;
    try {
      if (list.length >= packThreshold) writePack(this.commondir, list, this.durable.pack);
      else for (const object of list) await writeLooseObject(this.commondir, object.type, object.whole ?? object.data, this.durable.loose);
    } catch (error) {
      // Objects are written before any lock is taken: a read-only git folder is met here first.
      throw readOnlyError(error) ?? error;
    }
  }
}

export function objectId(type: ObjectType, bytes: Uint8Array): string {
  return createHash('sha1').update(`${type} ${bytes.length}\0`).update(bytes).digest('hex');
}
