import { readFileSync } from 'node:fs';
import { SkillgardenError } from '../core/errors.js';
import { parseOtlpSkillEvents, type OtelImport } from '../core/usage/otel-events.js';
import { parseUsageFile } from '../core/usage/index.js';
import type { Ledger } from '../ledger/ledger.js';
import { usageFilePath } from '../store/usage-files.js';
import { bumpUsage, flushUsage, type FlushResult } from './usage.js';

export interface ImportUsageOptions {
  repoDir: string;
  ledger: Ledger;
  skillsDir: string | readonly string[];
  file: string;
  /** The writer the imported uses are counted under (one file per source, as every writer has). */
  writer: string;
  now: Date;
}

export interface ImportUsageResult {
  imported: number;
  /** Activations at or before the writer's last recorded use of that skill: already counted by an earlier import. */
  alreadyCounted: number;
  sessions: number;
  otherEvents: number;
  problems: OtelImport['problems'];
  flush: FlushResult;
}

/**
 * `usage import FILE`: each `skill_activated` event is a use, bumped under the
 * importing writer and flushed as one `usage` commit, so it merges with every
 * other writer's counts. An event no later than the writer's last use of that
 * skill was counted before: importing the same export twice counts it once.
 */
export async function importUsage(options: ImportUsageOptions): Promise<ImportUsageResult> {
  let text: string;
  try {
    text = readFileSync(options.file, 'utf8');
  } catch (error) {
    throw new SkillgardenError('usage/import-unreadable', `cannot read ${options.file}: ${(error as Error).message}`, {
      data: { file: options.file },
      cause: error,
    });
  }
  const parsed = parseOtlpSkillEvents(text);
  if (parsed.activations.length === 0 && parsed.otherEvents === 0 && parsed.problems.length > 0) {
    const first = parsed.problems[0];
    throw new SkillgardenError(
      'usage/import-invalid',
      `${options.file}:${first?.line ?? 1}: ${first?.reason ?? 'unreadable'}; expected an OTLP JSON logs export (resourceLogs → scopeLogs → logRecords)`,
      { data: { file: options.file, problems: parsed.problems.length } },
    );
  }
  const committed = await options.ledger.readFile(usageFilePath(options.writer));
  const known = committed
    ? (parseUsageFile(Buffer.from(committed).toString('utf8'), { path: options.file, writer: options.writer, now: options.now }).file
        ?.skills ?? {})
    : {};
  let imported = 0;
  let alreadyCounted = 0;
  const sessions = new Set<string>();
  for (const event of [...parsed.activations].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))) {
    const last = known[event.skill]?.last_used_at;
    if (last !== undefined && event.at <= last) {
      alreadyCounted += 1;
      continue;
    }
    await bumpUsage(options.repoDir, options.writer, { skill: event.skill, kind: 'use', at: event.at });
    imported += 1;
    if (event.session) sessions.add(event.session);
  }
  const flush = await flushUsage({
    repoDir: options.repoDir,
    ledger: options.ledger,
    writer: options.writer,
    skillsDir: options.skillsDir,
    now: options.now,
  });
  return { imported, alreadyCounted, sessions: sessions.size, otherEvents: parsed.otherEvents, problems: parsed.problems, flush };
}
