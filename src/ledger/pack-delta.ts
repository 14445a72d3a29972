/**
 * Git's pack delta format (gitformat-pack(5), "Deltified representation"): the sizes of the base
 * and the result, then copy instructions (a range of the base) and insert instructions (new bytes).
 * The batch writer knows exactly which bytes an edit changed, so it writes the instructions
 * directly instead of searching for matches as `git pack-objects` does.
 */
export type DeltaOp = { copy: number; length: number } | { insert: Buffer };

const maxCopy = 0xffffff;
const maxInsert = 0x7f;

export function encodeDelta(baseSize: number, resultSize: number, ops: readonly DeltaOp[]): Buffer {
  const out: number[] = [];
  const pieces: Buffer[] = [];
  const flush = () => {
    if (out.length > 0) pieces.push(Buffer.from(out.splice(0)));
  };
  pushSize(out, baseSize);
  pushSize(out, resultSize);
  for (const op of ops) {
    if ('insert' in op) {
      for (let at = 0; at < op.insert.length; at += maxInsert) {
        const chunk = op.insert.subarray(at, at + maxInsert);
        out.push(chunk.length);
        flush();
        pieces.push(chunk);
      }
      continue;
    }
    for (let done = 0; done < op.length; done += maxCopy) pushCopy(out, op.copy + done, Math.min(maxCopy, op.length - done));
  }
  flush();
  return Buffer.concat(pieces);
}

function pushSize(out: number[], size: number): void {
  let rest = size;
  while (rest >= 0x80) {
    out.push((rest & 0x7f) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  out.push(rest);
}

/** Offset in up to four bytes, size in up to three; only the non-zero bytes are written, flagged in the opcode. */
function pushCopy(out: number[], offset: number, size: number): void {
  let opcode = 0x80;
  const args: number[] = [];
  for (let i = 0; i < 4; i += 1) {
    const byte = Math.floor(offset / 2 ** (8 * i)) & 0xff;
    if (byte !== 0) {
      opcode |= 1 << i;
      args.push(byte);
    }
  }
  // A size of exactly 0x10000 may be written with no size bytes; writing its bytes is valid too.
  for (let i = 0; i < 3; i += 1) {
    const byte = (size >> (8 * i)) & 0xff;
    if (byte !== 0) {
      opcode |= 0x10 << i;
      args.push(byte);
    }
  }
  out.push(opcode, ...args);
}

/** A delta from `base` to `next` that copies their common start and end: what one edit of a file looks like. */
export function prefixSuffixDelta(base: Buffer, next: Buffer): Buffer {
  const prefix = commonLength(base, next, (n) => base.compare(next, 0, n, 0, n) === 0);
  const room = Math.min(base.length, next.length) - prefix;
  const suffix = commonLength(
    { length: room },
    { length: room },
    (n) => base.compare(next, next.length - n, next.length, base.length - n, base.length) === 0,
  );
  const ops: DeltaOp[] = [];
  if (prefix > 0) ops.push({ copy: 0, length: prefix });
  if (next.length - prefix - suffix > 0) ops.push({ insert: next.subarray(prefix, next.length - suffix) });
  if (suffix > 0) ops.push({ copy: base.length - suffix, length: suffix });
  return encodeDelta(base.length, next.length, ops);
}

/** The largest n ≤ both lengths with same(n), by bisection: each probe is one native memcmp. */
function commonLength(a: { length: number }, b: { length: number }, same: (n: number) => boolean): number {
  let low = 0;
  let high = Math.min(a.length, b.length);
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (same(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}
