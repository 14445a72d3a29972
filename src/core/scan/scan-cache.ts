import { THREAT_RULES, type ThreatRule } from './rules.js';
import { SPECIAL_RULES } from './special-rules.js';
import type { ScanFinding } from './types.js';

/**
 * Bump when how a file's text is judged changes outside the rule table (the
 * matcher, the context judge, the variants, content decoding): a cache built
 * by the older code is then dropped whole. Changes to the rules themselves
 * are seen by `ruleSetVersion` without a bump.
 */
export const scanEngineVersion = 1;

/** What one file's content yielded (its structure findings are recomputed each time: they depend on its stat, not its bytes). */
export type CachedFileScan = readonly ScanFinding[];

/** The persisted form: findings per (blob id, reported path), valid for one rule set. */
export interface ScanCacheData {
  version: 1;
  /** `ruleSetVersion` and the per-file byte limit the entries were computed with. */
  rules: string;
  entries: Record<string, CachedFileScan>;
}

/** FNV-1a, 52 bits (exact in a double): a fingerprint, not a defence against an attacker who can write the cache. */
function fingerprint(text: string): string {
  let hash = 0xcbf29ce484222;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = (hash * 0x1b3 + Math.floor(hash / 2 ** 32) * 0x100000001b3) % 2 ** 52;
  }
  return hash.toString(36);
}

/** A fingerprint of everything that decides a file's content findings: every rule's fields, and the engine version. */
export function ruleSetVersion(rules: readonly ThreatRule[] = THREAT_RULES): string {
  const table = rules.map((r) => [
    ...[r.id, r.category, r.severity, r.pattern.source, r.pattern.flags, r.message, r.hint],
    ...[r.accept ? String(r.accept) : null, r.demoteWhenQuoted ?? false, r.triggers ?? null, r.base64Run ?? null],
  ]);
  const specials = SPECIAL_RULES.map((r) => [r.id, r.category, r.severity, r.message, r.hint]);
  return `${scanEngineVersion}:${rules.length}:${fingerprint(JSON.stringify([table, specials]))}`;
}

/** Entries kept beyond those used by the last run (a partial run must not empty the cache of the rest). */
const maxEntries = 200_000;

/**
 * One run's view of the cache: entries are looked up by the file's git blob
 * id and the path it is reported under (rules judge by path: `assets/` HTML,
 * `scripts/`), and what the run used is what it writes back.
 */
export class ScanCache {
  private readonly old: Record<string, CachedFileScan>;
  private readonly used = new Map<string, CachedFileScan>();
  private added = 0;
  /** Lookups answered: files not scanned again. */
  hits = 0;
  readonly rules: string;

  /** `data`: what was read (anything: a corrupt or foreign file is ignored); `rules`: this run's rule set and limits. */
  constructor(data: unknown, rules: string) {
    this.rules = rules;
    this.old = isCacheData(data) && data.rules === rules ? data.entries : {};
  }

  get(blob: string, file: string): CachedFileScan | undefined {
    const key = `${blob} ${file}`;
    const hit = this.used.get(key) ?? (Object.hasOwn(this.old, key) ? this.old[key] : undefined);
    if (hit !== undefined) {
      this.used.set(key, hit);
      this.hits++;
    }
    return hit;
  }

  put(blob: string, file: string, findings: readonly ScanFinding[]): void {
    this.used.set(`${blob} ${file}`, findings);
    this.added++;
  }

  /** Files scanned (and added) by this run. */
  get misses(): number {
    return this.added;
  }

  /** Something new to write. */
  get changed(): boolean {
    return this.added > 0;
  }

  toData(): ScanCacheData {
    const entries: Record<string, CachedFileScan> = Object.fromEntries(this.used);
    let room = maxEntries - this.used.size;
    for (const key of Object.keys(this.old)) {
      if (room <= 0) break;
      if (this.used.has(key)) continue;
      entries[key] = this.old[key]!;
      room--;
    }
    return { version: 1, rules: this.rules, entries };
  }
}

function isCacheData(value: unknown): value is ScanCacheData {
  const data = value as Partial<ScanCacheData> | null | undefined;
  if (typeof data !== 'object' || data === null || data.version !== 1 || typeof data.rules !== 'string') return false;
  const entries = data.entries;
  if (typeof entries !== 'object' || entries === null || Array.isArray(entries)) return false;
  // One bad entry means the file is not what this code wrote: drop it whole rather than trust the rest.
  return Object.values(entries).every((list) => Array.isArray(list) && list.every(isFinding));
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
