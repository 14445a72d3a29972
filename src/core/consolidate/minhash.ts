import type { ConsolidationConfig } from './config.js';

/** Murmur3's finalizer: spreads a 32-bit value over all bits. */
export function mix(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  x = Math.imul(x, 0xc2b2ae35);
  x ^= x >>> 16;
  return x >>> 0;
}

function seeds(count: number): Uint32Array {
  const out = new Uint32Array(count);
  for (let i = 0; i < count; i++) out[i] = mix(0x9e3779b9 + i * 0x632be5ab);
  return out;
}

const seedCache = new Map<number, Uint32Array>();

/** The salt of each of `hashes` hash functions: hash function i of a shingle is mix(shingle ^ salt[i]). */
export function signatureSalts(hashes: number): Uint32Array {
  let salts = seedCache.get(hashes);
  if (!salts) seedCache.set(hashes, (salts = seeds(hashes)));
  return salts;
}

/** The MinHash signature of a shingle set: per hash function, the smallest hashed shingle. */
export function buildSignature(shingles: Uint32Array, hashes: number): Uint32Array {
  const salts = signatureSalts(hashes);
  const signature = new Uint32Array(hashes);
  const n = shingles.length;
  let i = 0;
  // Four hash functions per walk over the shingles, each minimum in a local: four independent mixes per shingle
  // keep the multiplier busy where one mix waits on the last (about a third less time than one function at a time).
  for (; i + 4 <= hashes; i += 4) {
    const a = salts[i] as number;
    const b = salts[i + 1] as number;
    const c = salts[i + 2] as number;
    const d = salts[i + 3] as number;
    let minA = 0xffffffff;
    let minB = 0xffffffff;
    let minC = 0xffffffff;
    let minD = 0xffffffff;
    for (let s = 0; s < n; s++) {
      const value = shingles[s] as number;
      const ha = mix(value ^ a);
      const hb = mix(value ^ b);
      const hc = mix(value ^ c);
      const hd = mix(value ^ d);
      if (ha < minA) minA = ha;
      if (hb < minB) minB = hb;
      if (hc < minC) minC = hc;
      if (hd < minD) minD = hd;
    }
    signature[i] = minA;
    signature[i + 1] = minB;
    signature[i + 2] = minC;
    signature[i + 3] = minD;
  }
  for (; i < hashes; i++) {
    const salt = salts[i] as number;
    let min = 0xffffffff;
    for (let s = 0; s < n; s++) {
      const h = mix((shingles[s] as number) ^ salt);
      if (h < min) min = h;
    }
    signature[i] = min;
  }
  return signature;
}

/** Estimated Jaccard similarity: the share of hash functions whose minima agree. */
export function estimateJaccard(a: Uint32Array, b: Uint32Array): number {
  let same = 0;
  for (let i = 0; i < a.length; i++) if (a[i] === b[i]) same++;
  return a.length === 0 ? 0 : same / a.length;
}

/** Room for a signature's index under its band key in one double (see findCandidatePairs). */
const indexRoom = 2 ** 21;

/**
 * Locality-sensitive hashing by banding: two signatures that agree on every
 * row of some band become a candidate pair. Cost grows with the number of
 * skills and bucket sizes, not with all pairs.
 * Pairs are encoded as `i * n + j` with i < j. Empty signatures are skipped.
 * A band is bucketed by a hash of its rows (no string per skill and band), then split by the rows themselves,
 * so a hash collision never makes a pair.
 */
export function findCandidatePairs(
  signatures: readonly Uint32Array[],
  config: Pick<ConsolidationConfig, 'minhash_hashes' | 'lsh_bands'>,
  /** Libraries of this many signatures or more bucket through a Map (a lower limit lets a test take that path). */
  packLimit = indexRoom,
): Set<number> {
  const n = signatures.length;
  const rows = config.minhash_hashes / config.lsh_bands;
  const pairs = new Set<number>();
  // Key and index packed in one double (key · 2^21 + index stays below 2^53): one numeric sort lines each bucket up,
  // its members in index order, with no Map of keys (half of them above 2^30, so boxed).
  const packed = n < Math.min(packLimit, indexRoom) ? new Float64Array(n) : undefined;
  for (let band = 0; band < config.lsh_bands; band++) {
    const start = band * rows;
    const buckets = packed ? sortedBuckets(signatures, band, start, rows, packed) : mappedBuckets(signatures, band, start, rows);
    for (const bucket of buckets) {
      for (const group of splitByRows(bucket, signatures, start, start + rows))
        for (let x = 0; x < group.length; x++)
          for (let y = x + 1; y < group.length; y++) pairs.add((group[x] as number) * n + (group[y] as number));
    }
  }
  return pairs;
}

/** A band's key for one signature: a hash of its rows, seeded by the band. */
function bandKey(signature: Uint32Array, band: number, start: number, rows: number): number {
  let key = band;
  for (let r = start; r < start + rows; r++) key = mix((key ^ (signature[r] as number)) + 0x9e3779b9);
  return key;
}

/** The band's buckets of two or more signatures (empty ones left out), each in index order, through a Map of keys. */
function mappedBuckets(signatures: readonly Uint32Array[], band: number, start: number, rows: number): number[][] {
  const buckets = new Map<number, number[]>();
  for (let i = 0; i < signatures.length; i++) {
    const signature = signatures[i] as Uint32Array;
    if (signature[0] === 0xffffffff) continue;
    const key = bandKey(signature, band, start, rows);
    const bucket = buckets.get(key);
    if (bucket) bucket.push(i);
    else buckets.set(key, [i]);
  }
  return [...buckets.values()].filter((bucket) => bucket.length >= 2);
}

/** As mappedBuckets, by sorting packed keys (fewer than 2^21 signatures). */
function sortedBuckets(signatures: readonly Uint32Array[], band: number, start: number, rows: number, packed: Float64Array): number[][] {
  let count = 0;
  for (let i = 0; i < signatures.length; i++) {
    const signature = signatures[i] as Uint32Array;
    if (signature[0] === 0xffffffff) continue;
    packed[count++] = bandKey(signature, band, start, rows) * indexRoom + i;
  }
  const sorted = packed.subarray(0, count).sort();
  const buckets: number[][] = [];
  for (let x = 0; x < count;) {
    const key = Math.floor((sorted[x] as number) / indexRoom);
    let y = x + 1;
    while (y < count && Math.floor((sorted[y] as number) / indexRoom) === key) y++;
    if (y - x >= 2) {
      const bucket: number[] = [];
      for (let k = x; k < y; k++) bucket.push((sorted[k] as number) - key * indexRoom);
      buckets.push(bucket);
    }
    x = y;
  }
  return buckets;
}

/** The bucket's members grouped by the band's rows, each group in the bucket's order. */
function splitByRows(bucket: readonly number[], signatures: readonly Uint32Array[], from: number, to: number): number[][] {
  const groups: number[][] = [];
  for (const i of bucket) {
    const signature = signatures[i] as Uint32Array;
    const group = groups.find((g) => {
      const other = signatures[g[0] as number] as Uint32Array;
      for (let r = from; r < to; r++) if (other[r] !== signature[r]) return false;
      return true;
    });
    if (group) group.push(i);
    else groups.push([i]);
  }
  return groups;
}
