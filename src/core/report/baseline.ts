import type { Finding } from '../findings.js';

/**
 * A baseline: the findings a library accepted when it adopted validation, so
 * only new ones fail. A finding is known by (code, file, message), not by its
 * line: an edit above it must not make an old finding new.
 */
export interface Baseline {
  version: 1;
  findings: BaselineEntry[];
}

export interface BaselineEntry {
  code: string;
  file: string;
  message: string;
  fingerprint: string;
}

export interface BaselineSplit<F extends FindingKey = Finding> {
  /** Findings the baseline does not hold: these fail. */
  fresh: F[];
  /** Findings the baseline holds (each entry matches at most one finding). */
  known: F[];
  /** Entries that matched nothing: fixed since, and can be dropped by re-writing the baseline. */
  gone: BaselineEntry[];
}

/** What identifies a finding across trees: its code, file and message (not its line). */
export type FindingKey = Pick<Finding, 'code' | 'file' | 'message'>;

/** A short stable id of a finding's (code, file, message); `hash` is the caller's (core has no crypto). */
export function fingerprintOf(finding: FindingKey, hash: (text: string) => string): string {
  return hash(`${finding.code}\u0000${finding.file}\u0000${finding.message}`).slice(0, 16);
}

export function buildBaseline(findings: readonly FindingKey[], hash: (text: string) => string): Baseline {
  const entries = findings.map((f) => ({ code: f.code, file: f.file, message: f.message, fingerprint: fingerprintOf(f, hash) }));
  entries.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.fingerprint < b.fingerprint ? -1 : 1));
  return { version: 1, findings: entries };
}

/** Splits findings into new and known; two equal findings need two entries (a multiset, so a copy of an old problem is new). */
export function splitByBaseline<F extends FindingKey>(
  findings: readonly F[],
  baseline: Baseline,
  hash: (text: string) => string,
): BaselineSplit<F> {
  const remaining = new Map<string, BaselineEntry[]>();
  for (const entry of baseline.findings) {
    const list = remaining.get(entry.fingerprint) ?? [];
    list.push(entry);
    remaining.set(entry.fingerprint, list);
  }
  const fresh: F[] = [];
  const known: F[] = [];
  for (const f of findings) {
    const list = remaining.get(fingerprintOf(f, hash));
    if (list && list.length > 0) {
      list.pop();
      known.push(f);
    } else fresh.push(f);
  }
  return { fresh, known, gone: [...remaining.values()].flat() };
}

/** Reads a baseline's JSON; returns what is wrong with it instead when it is not one. */
export function parseBaseline(text: string): Baseline | { problem: string } {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    return { problem: `not JSON: ${(error as Error).message}` };
  }
  if (typeof data !== 'object' || data === null || (data as { version?: unknown }).version !== 1) {
    return { problem: 'not a skillgarden baseline (expected {"version": 1, "findings": [...]})' };
  }
  const list = (data as { findings?: unknown }).findings;
  if (!Array.isArray(list)) return { problem: '"findings" is not a list' };
  const findings: BaselineEntry[] = [];
  for (const [i, item] of list.entries()) {
    const e = item as Partial<BaselineEntry> | null;
    if (
      !e ||
      typeof e.code !== 'string' ||
      typeof e.file !== 'string' ||
      typeof e.message !== 'string' ||
      typeof e.fingerprint !== 'string'
    ) {
      return { problem: `findings[${i}] needs string code, file, message and fingerprint` };
    }
    findings.push({ code: e.code, file: e.file, message: e.message, fingerprint: e.fingerprint });
  }
  return { version: 1, findings };
}
