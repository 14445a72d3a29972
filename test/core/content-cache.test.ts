import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContentCache } from '../../src/core/content-cache.js';

const isNumber = (value: unknown): value is number => typeof value === 'number';

/** The cache as first written (every hit copied into a map of used entries): the definition the faster one must keep. */
class PlainCache {
  private readonly used = new Map<string, number>();
  hits = 0;
  misses = 0;
  constructor(private readonly old: Record<string, number>) {}
  get(key: string): number | undefined {
    const hit = this.used.get(key) ?? (Object.hasOwn(this.old, key) ? this.old[key] : undefined);
    if (hit !== undefined) {
      this.used.set(key, hit);
      this.hits++;
    }
    return hit;
  }
  put(key: string, value: number): void {
    this.used.set(key, value);
    this.misses++;
  }
  entries(): Record<string, number> {
    return { ...this.old, ...Object.fromEntries(this.used) };
  }
}

/** A cache file's data (version 2: keys and values side by side) holding `entries`. */
const stored2 = (entries: Record<string, unknown>) => ({
  version: 2,
  rules: 'r',
  keys: Object.keys(entries),
  values: Object.values(entries),
});

const key = fc.constantFrom('a', 'b', 'c', 'd', 'e', '__proto__', 'constructor', 'toString');
const op = fc.oneof(
  fc.record({ kind: fc.constant('get' as const), key }),
  fc.record({ kind: fc.constant('put' as const), key, value: fc.integer() }),
);

describe('content cache', () => {
  it('answers, counts and writes back as the plain definition does', () => {
    fc.assert(
      fc.property(fc.dictionary(key, fc.integer()), fc.array(op, { maxLength: 40 }), (stored, ops) => {
        const old = JSON.parse(JSON.stringify(stored)) as Record<string, number>;
        const cache = new ContentCache<number>(stored2(old), 'r', isNumber);
        const plain = new PlainCache(old);
        for (const o of ops) {
          if (o.kind === 'get') expect(cache.get(o.key)).toBe(plain.get(o.key));
          else {
            cache.put(o.key, o.value);
            plain.put(o.key, o.value);
          }
        }
        expect({ hits: cache.hits, misses: cache.misses, changed: cache.changed }).toEqual({
          hits: plain.hits,
          misses: plain.misses,
          changed: plain.misses > 0,
        });
        const data = cache.toData();
        expect(data).toMatchObject({ version: 2, rules: 'r' });
        expect(new Set(data.keys).size).toBe(data.keys.length);
        expect(Object.fromEntries(data.keys.map((k, i) => [k, data.values[i]]))).toEqual(plain.entries());
      }),
    );
  });

  it('ignores a file of another rule set, another version, or with a bad entry whole', () => {
    const entries = { a: 1, b: 2 };
    expect(new ContentCache<number>({ ...stored2(entries), rules: 'old' }, 'r', isNumber).get('a')).toBeUndefined();
    expect(new ContentCache<number>(stored2({ ...entries, c: 'x' }), 'r', isNumber).get('a')).toBeUndefined();
    expect(new ContentCache<number>({ ...stored2(entries), keys: ['a'] }, 'r', isNumber).get('a')).toBeUndefined();
    expect(new ContentCache<number>({ ...stored2(entries), keys: [1, 'b'] }, 'r', isNumber).get('b')).toBeUndefined();
    // Version 1 (an object keyed by the keys) is another format: read as nothing, and replaced by the next write.
    expect(new ContentCache<number>({ version: 1, rules: 'r', entries }, 'r', isNumber).get('a')).toBeUndefined();
    const cache = new ContentCache<number>(stored2(entries), 'r', isNumber);
    expect([cache.get('a'), cache.known]).toEqual([1, 2]);
  });
});
