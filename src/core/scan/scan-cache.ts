import { ContentCache } from '../content-cache.js';
import type { ScanFinding } from './types.js';

/**
 * Bump when how a file's text is judged changes outside the rule table (the
 * matcher, the context judge, the variants, content decoding): a cache built
 * by the older code is then dropped whole. Changes to the rules themselves
 * are seen by `ruleSetVersion` (rule-set-version.ts) without a bump.
 */
export const scanEngineVersion = 2;

/** What one file's content yielded (its structure findings are recomputed each time: they depend on its stat, not its bytes). */
export type CachedFileScan = readonly ScanFinding[];

/**
 * The scan's cache: a file's content findings by its git blob id and the path
 * it is reported under (rules judge by path: `assets/` HTML, `scripts/`).
 * Structure findings are not in it: they depend on the stat, not the bytes.
 */
export class ScanCache {
  private readonly entries: ContentCache<CachedFileScan>;

  constructor(data: unknown, rules: string) {
    this.entries = new ContentCache(data, rules, isFileScan);
  }

  get(blob: string, file: string): CachedFileScan | undefined {
    return this.entries.get(`${blob} ${file}`);
  }

  put(blob: string, file: string, findings: CachedFileScan): void {
    this.entries.put(`${blob} ${file}`, findings);
  }

  get hits(): number {
    return this.entries.hits;
  }

  get misses(): number {
    return this.entries.misses;
  }

  get changed(): boolean {
    return this.entries.changed;
  }

  toData() {
    return this.entries.toData();
  }
}

function isFileScan(value: unknown): value is CachedFileScan {
  return Array.isArray(value) && value.every(isFinding);
}

function isFinding(value: unknown): boolean {
  const f = value as Partial<ScanFinding> | null;
  return (
    typeof f === 'object' &&
    f !== null &&
    typeof f.rule === 'string' &&
    typeof f.file === 'string' &&
    typeof f.line === 'number' &&
    typeof f.column === 'number' &&
    typeof f.severity === 'string' &&
    typeof f.message === 'string'
  );
}
