import { excerpt, finding, type Finding } from '../findings.js';
import { countKeys, timeKeys, type UsageCounters, type UsageFile } from './types.js';
import { formatCount } from '../format-count.js';

export interface ParsedUsage {
  file: UsageFile | undefined;
  findings: Finding[];
}

/**
 * Reads one writer's usage file. A file that is not JSON or not the right
 * shape yields no counters and an error finding (the caller quarantines it);
 * bad values inside an otherwise good file are dropped one by one, each reported.
 */
export function parseUsageFile(text: string, options: { path: string; writer: string; now: Date }): ParsedUsage {
  const findings: Finding[] = [];
  const report = (code: string, severity: 'error' | 'warning', message: string, hint: string) =>
    findings.push(finding({ code, severity, file: options.path, message, hint }));
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    report(
      'usage/not-json',
      'error',
      `not JSON: ${(error as Error).message}`,
      'The file was set aside; usage from other writers still counts. Delete it or fix it by hand.',
    );
    return { file: undefined, findings };
  }
  if (!isRecord(raw) || raw.version !== 1 || !isRecord(raw.skills)) {
    report(
      'usage/bad-shape',
      'error',
      'expected {"version": 1, "writer": "...", "skills": {...}}',
      'The file was set aside; see schemas/usage.schema.json.',
    );
    return { file: undefined, findings };
  }
  if (typeof raw.writer === 'string' && raw.writer !== options.writer) {
    report(
      'usage/writer-mismatch',
      'warning',
      `the file is named for writer "${options.writer}" but says "${excerpt(raw.writer)}"`,
      'Each writer owns exactly one file, named after it.',
    );
  }
  const skills: Record<string, Partial<UsageCounters>> = {};
  for (const [name, entry] of Object.entries(raw.skills)) {
    if (!isRecord(entry)) {
      report('usage/bad-entry', 'warning', `skill "${excerpt(name)}": not an object; ignored`, 'Each skill maps to an object of counters.');
      continue;
    }
    skills[name] = readCounters(name, entry, options.now, report);
  }
  return { file: { version: 1, writer: options.writer, skills }, findings };
}

/**
 * The most one writer's file may count for one skill: a billion uses is more than any agent makes, and far below
 * where sums over thousands of writers stop being exact (2^53). A `use_count: 1e308` would otherwise rank first forever.
 */
export const maxCount = 1_000_000_000;

/** A count in range: negatives are 0, fractions rounded down, anything huge `maxCount`. */
export function clampCount(value: number): number {
  return Math.min(maxCount, Math.max(0, Math.floor(value)));
}

type Report = (code: string, severity: 'error' | 'warning', message: string, hint: string) => void;

function readCounters(name: string, entry: Record<string, unknown>, now: Date, report: Report): Partial<UsageCounters> {
  const out: Partial<UsageCounters> = {};
  for (const key of countKeys) {
    const value = entry[key];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      report(
        'usage/bad-count',
        'warning',
        `skill "${excerpt(name)}": ${key} is ${excerpt(JSON.stringify(value))}; counted as 0`,
        'Counts are whole numbers, 0 or more.',
      );
      continue;
    }
    const clamped = clampCount(value);
    if (clamped !== value)
      report(
        'usage/count-out-of-range',
        'warning',
        `skill "${excerpt(name)}": ${key} is ${excerpt(JSON.stringify(value))}; counted as ${clamped}`,
        `Counts are whole numbers from 0 to ${formatCount(maxCount)} per writer; a value outside is a broken or edited file.`,
      );
    out[key] = clamped;
  }
  for (const key of timeKeys) {
    const value = entry[key];
    if (value === undefined || value === null) continue;
    const time = typeof value === 'string' ? normalizeTime(value) : undefined;
    if (time === undefined) {
      report(
        'usage/bad-time',
        'warning',
        `skill "${excerpt(name)}": ${key} is ${excerpt(JSON.stringify(value))}; ignored`,
        'Times are ISO-8601 in UTC, e.g. 2026-05-01T10:00:00Z.',
      );
    } else if (Date.parse(time) > now.getTime() + 5 * 60_000) {
      report(
        'usage/future-time',
        'warning',
        `skill "${excerpt(name)}": ${key} ${time} is in the future; ignored`,
        'Check the clock of the machine that wrote this file.',
      );
    } else {
      out[key] = time;
    }
  }
  const generation = entry.last_reused_patch_generation;
  if (typeof generation === 'number' && Number.isInteger(generation) && generation >= 0) out.last_reused_patch_generation = generation;
  return out;
}

/** ISO-8601 to canonical UTC (`…Z`); a time without a zone is taken as UTC. */
export function normalizeTime(value: string): string | undefined {
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(value.trim()) ? value.trim() : `${value.trim()}Z`;
  if (!/^\d{4}-\d{2}-\d{2}/.test(zoned)) return undefined;
  const ms = Date.parse(zoned);
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString().replace(/\.000Z$/, 'Z');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Hermes Agent's `skills/.usage.json`: a map of skill name to counters (optionally under `skills`). */
export function parseHermesUsage(text: string, options: { path: string; now: Date }): ParsedUsage {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return parseUsageFile(text, { ...options, writer: 'hermes' });
  }
  const skills = isRecord(raw) && isRecord(raw.skills) ? raw.skills : raw;
  return parseUsageFile(JSON.stringify({ version: 1, writer: 'hermes', skills }), { ...options, writer: 'hermes' });
}
