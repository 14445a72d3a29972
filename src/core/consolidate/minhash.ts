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
  const signature = new Uint32Array(hashes).fill(0xffffffff);
  for (let s = 0; s < shingles.length; s++) {
    const shingle = shingles[s] as number;
    for (let i = 0; i < hashes; i++) {
      const h = mix(shingle ^ (salts[i] as number));
      if (h < (signature[i] as number)) signature[i] = h;
    }
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
 */
export function findCandidatePairs(
  signatures: readonly Uint32Array[],
  config: Pick<ConsolidationConfig, 'minhash_hashes' | 'lsh_bands'>,
): Set<number> {
  const n = signatures.length;
  const rows = config.minhash_hashes / config.lsh_bands;
  const pairs = new Set<number>();
  for (let band = 0; band < config.lsh_bands; band++) {
    const buckets = new Map<string, number[]>();
    for (let i = 0; i < n; i++) {
      const signature = signatures[i] as Uint32Array;
      if (signature[0] === 0xffffffff) continue;
      const key = Array.from(signature.subarray(band * rows, band * rows + rows)).join(',');
      const bucket = buckets.get(key);
      if (bucket) bucket.push(i);
      else buckets.set(key, [i]);
    }
    for (const bucket of buckets.values()) {
      for (let x = 0; x < bucket.length; x++)
        for (let y = x + 1; y < bucket.length; y++) pairs.add((bucket[x] as number) * n + (bucket[y] as number));
    }
  }
  return pairs;
}
