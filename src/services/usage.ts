import { appendFileSync, closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { SkillgardenError } from '../core/errors.js';
import { buildCommitMessage, type Actor } from '../core/ledger/trailers.js';
import { applyBump, parseUsageFile, type UsageCounters, type UsageFile, type UsageKind } from '../core/usage/index.js';
import type { FileChange, Ledger } from '../ledger/ledger.js';
import { readGitDir } from '../ledger/git-dir.js';
import { readUsageSnapshot, usageDir } from '../store/usage-files.js';

export interface UsageBump {
  skill: string;
  kind: UsageKind;
  at: string;
}

/** The writer id of this machine: SKILLGARDEN_WRITER, else the host name, made safe for a file name. */
export function defaultWriterId(env: Readonly<Record<string, string | undefined>>): string {
  return sanitizeWriter(env.SKILLGARDEN_WRITER ?? hostname());
}

export function sanitizeWriter(raw: string): string {
  const id = raw
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 64);
  if (id === '')
    throw new SkillgardenError('usage/bad-writer', `writer id "${raw}" has no usable characters; use letters, digits, ".", "_" or "-"`);
  return id;
}

async function pendingPath(repoDir: string, writer: string): Promise<string> {
  const dir = join(await readGitDir(repoDir), 'skillgarden', 'usage-pending');
  mkdirSync(dir, { recursive: true });
  return join(dir, `${writer}.jsonl`);
}

/** Records a bump locally (outside the tracked tree, so the working tree stays clean); `flushUsage` commits them in a batch. */
export async function bumpUsage(repoDir: string, writer: string, bump: UsageBump): Promise<void> {
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(bump.skill)) {
    throw new SkillgardenError('usage/bad-skill', `"${bump.skill.slice(0, 80)}" is not a skill name`);
  }
  const path = await pendingPath(repoDir, writer);
  await withLock(`${path}.lock`, () => {
    // A line torn by a crash must not swallow this one: start on a fresh line.
    const torn = endsWithoutNewline(path);
    appendFileSync(path, `${torn ? '\n' : ''}${JSON.stringify(bump)}\n`);
  });
}

export interface FlushResult {
  commit: string | undefined;
  bumps: number;
  skills: string[];
  quarantined: string | undefined;
}

/**
 * Commits the pending bumps of one writer as one `usage` commit touching only
 * that writer's file. A corrupt file of the writer is moved aside (never
 * overwritten) in the same commit and a fresh one started.
 */
export async function flushUsage(options: {
  repoDir: string;
  ledger: Ledger;
  writer: string;
  /** The skill roots (Hermes's `.usage.json` of each counts). */
  skillsDir: string | readonly string[];
  now: Date;
  actor?: Actor;
}): Promise<FlushResult> {
  const path = await pendingPath(options.repoDir, options.writer);
  return withLock(`${path}.lock`, async () => {
    const raw = readOrEmpty(path);
    const bumps = raw.split('\n').flatMap((line) => parseBump(line));
    if (bumps.length === 0) return { commit: undefined, bumps: 0, skills: [], quarantined: undefined };
    const filePath = `${usageDir}/${options.writer}.json`;
    const current = await options.ledger.readFile(filePath);
    const changes: FileChange[] = [];
    let file: UsageFile = { version: 1, writer: options.writer, skills: {} };
    let quarantined: string | undefined;
    if (current) {
      const parsed = parseUsageFile(new TextDecoder().decode(current), { path: filePath, writer: options.writer, now: options.now });
      if (parsed.file) file = parsed.file;
      else {
        quarantined = `${usageDir}/quarantine/${options.writer}-${options.now.toISOString().replace(/[-:.]/g, '')}.json`;
        changes.push({ path: quarantined, content: current, expected: null });
      }
    }
    const totals = readUsageSnapshot(options.repoDir, { skillsDir: options.skillsDir, now: options.now }).totals;
    // The patch generation is the skill's patch count over every writer, including patches in this batch.
    const batchPatches = new Map<string, number>();
    for (const bump of bumps) {
      if (bump.kind === 'patch') batchPatches.set(bump.skill, (batchPatches.get(bump.skill) ?? 0) + 1);
      const generation = (totals.get(bump.skill)?.patch_count ?? 0) + (batchPatches.get(bump.skill) ?? 0);
      file.skills[bump.skill] = applyBump(file.skills[bump.skill] ?? {}, bump.kind, bump.at, generation);
    }
    file.skills = Object.fromEntries(Object.entries(file.skills).sort(([a], [b]) => (a < b ? -1 : 1)));
    changes.push({ path: filePath, content: `${JSON.stringify(file, null, 2)}\n` });
    const skills = [...new Set(bumps.map((b) => b.skill))].sort();
    const message = buildCommitMessage({
      subject: `skill(usage): ${options.writer} — ${bumps.length} bump${bumps.length === 1 ? '' : 's'} over ${skills.length} skill${skills.length === 1 ? '' : 's'}`,
      ...(quarantined ? { body: `The writer's previous file was unreadable and was moved to ${quarantined}.` } : {}),
      trailers: { action: 'usage', skills: skills.slice(0, 50), actor: options.actor ?? 'agent', reverts: [] },
    });
    const result = await options.ledger.commit({ message, changes });
    // Only the bytes read were committed; lines appended since stay pending.
    const rest = readOrEmpty(path).slice(raw.length);
    writeAtomic(path, rest);
    return { commit: result.commit, bumps: bumps.length, skills, quarantined };
  });
}

function parseBump(line: string): UsageBump[] {
  if (line.trim() === '') return [];
  try {
    const value = JSON.parse(line) as Partial<UsageBump>;
    if (
      typeof value.skill === 'string' &&
      (value.kind === 'use' || value.kind === 'view' || value.kind === 'patch') &&
      typeof value.at === 'string'
    ) {
      return [{ skill: value.skill, kind: value.kind, at: value.at }];
    }
  } catch {
    /* a torn last line from a crash: skipped, the rest still counts */
  }
  return [];
}

function endsWithoutNewline(path: string): boolean {
  const text = readOrEmpty(path);
  return text.length > 0 && !text.endsWith('\n');
}

function readOrEmpty(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return '';
  }
}

function writeAtomic(path: string, content: string): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, content);
  renameSync(temp, path);
}

/** A lock file created exclusively, as git does; retried briefly, then a clear error naming it. */
async function withLock<T>(lock: string, fn: () => T | Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      closeSync(openSync(lock, 'wx'));
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (attempt >= 200) {
        throw new SkillgardenError(
          'usage/locked',
          `${lock} is held; if no skillgarden process is running, a crashed one left it: run \`skillgarden doctor\` to see what is left, then remove ${lock} by hand`,
          { data: { lock } },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}

/** Totals for `usage show`: every writer's counters summed, plus what could not be read. */
export function showUsage(
  repoDir: string,
  options: { skillsDir: string | readonly string[]; now: Date },
): {
  totals: Record<string, UsageCounters>;
  writers: string[];
  quarantined: string[];
  findings: ReturnType<typeof readUsageSnapshot>['findings'];
} {
  const snapshot = readUsageSnapshot(repoDir, options);
  return {
    totals: Object.fromEntries([...snapshot.totals].sort(([a], [b]) => (a < b ? -1 : 1))),
    writers: snapshot.files.map((f) => f.writer),
    quarantined: snapshot.quarantined,
    findings: snapshot.findings,
  };
}
