import type { ConsolidationConfig } from './config.js';

/** Murmur3's finalizer: spreads a 32-bit value over all bits. */
function mix(x: number): number {
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

/** The MinHash signature of a shingle set: per hash function, the smallest hashed shingle. */
export function buildSignature(shingles: Uint32Array, hashes: number): Uint32Array {
  let salts = seedCache.get(hashes);
  if (!salts) seedCache.set(hashes, (salts = seeds(hashes)));
  const signature = new Uint32Array(hashes);
  // One hash function at a time, its minimum in a local: the same minima as shingle by shingle, without a load and store per pair.
  for (let i = 0; i < hashes; i++) {
    const salt = salts[i] as number;
    let min = 0xffffffff;
    for (let s = 0; s < shingles.length; s++) {
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
): Set<number> {
  const n = signatures.length;
  const rows = config.minhash_hashes / config.lsh_bands;
  const pairs = new Set<number>();
  for (let band = 0; band < config.lsh_bands; band++) {
    const start = band * rows;
    const buckets = new Map<number, number[]>();
    for (let i = 0; i < n; i++) {
      const signature = signatures[i] as Uint32Array;
      if (signature[0] === 0xffffffff) continue;
      let key = band;
      for (let r = start; r < start + rows; r++) key = mix((key ^ (signature[r] as number)) + 0x9e3779b9);
      const bucket = buckets.get(key);
      if (bucket) bucket.push(i);
      else buckets.set(key, [i]);
    }
    for (const bucket of buckets.values()) {
      if (bucket.length < 2) continue;
      for (const group of splitByRows(bucket, signatures, start, start + rows))
        for (let x = 0; x < group.length; x++)
          for (let y = x + 1; y < group.length; y++) pairs.add((group[x] as number) * n + (group[y] as number));
    }
  }
  return pairs;
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
