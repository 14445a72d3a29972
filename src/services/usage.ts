import { hostname } from 'node:os';
import { SkillgardenError } from '../core/errors.js';
import { buildCommitMessage, type Actor } from '../core/ledger/trailers.js';
import { applyBump, parseUsageFile, withCommittedPatch, type UsageCounters, type UsageFile } from '../core/usage/index.js';
import { readHistoryIndex } from '../ledger/history-index.js';
import type { UsageBump } from '../core/usage/pending-bumps.js';
import type { FileChange, Ledger } from '../ledger/ledger.js';
import { readGitDir } from '../ledger/git-dir.js';
import {
  appendPendingBump,
  consumePendingBumps,
  readUsageSnapshot,
  renderUsageFile,
  usageDir,
  usageFilePath,
} from '../store/usage-files.js';

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

/** Records a bump locally (outside the tracked tree, so the working tree stays clean); `flushUsage` commits them in a batch. */
export async function bumpUsage(repoDir: string, writer: string, bump: UsageBump): Promise<void> {
  // A skill's name as the client calls it: plain, or `plugin:skill` for a plugin's skill (two plugins' `setup` never share a count).
  if (!/^(?:[A-Za-z0-9][A-Za-z0-9._-]{0,127}:)?[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/.test(bump.skill)) {
    throw new SkillgardenError('usage/bad-skill', `"${bump.skill.slice(0, 80)}" is not a skill name`);
  }
  await appendPendingBump(await readGitDir(repoDir), writer, bump);
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
  return consumePendingBumps(await readGitDir(options.repoDir), options.writer, async (bumps) => {
    if (bumps.length === 0) return { commit: undefined, bumps: 0, skills: [], quarantined: undefined };
    const filePath = usageFilePath(options.writer);
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
    changes.push({ path: filePath, content: renderUsageFile(file) });
    const skills = [...new Set(bumps.map((b) => b.skill))].sort();
    const message = buildCommitMessage({
      subject: `skill(usage): ${options.writer} — ${bumps.length} bump${bumps.length === 1 ? '' : 's'} over ${skills.length} skill${skills.length === 1 ? '' : 's'}`,
      ...(quarantined ? { body: `The writer's previous file was unreadable and was moved to ${quarantined}.` } : {}),
      trailers: { action: 'usage', skills: skills.slice(0, 50), actor: options.actor ?? 'agent', reverts: [] },
    });
    const result = await options.ledger.commit({ message, changes });
    return { commit: result.commit, bumps: bumps.length, skills, quarantined };
  });
}

/**
 * Totals for `usage show`: every writer's counters summed, plus what could not be read. With the library's skill names
 * (`skills`), keyed as the clients name them, old keys that several plugins share reported.
 */
export function showUsage(
  repoDir: string,
  options: { skillsDir: string | readonly string[]; now: Date; skills?: readonly string[] },
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

/**
 * Totals as the curator reads activity (what `list` and `show` call `inactive`): every writer's counters, plus the
 * last patch Git recorded for each skill, a person's edit included. History is keyed by folder name; the registry
 * keys both as clients name skills. Without readable history (no repository, no commit) the usage files alone.
 */
export async function readActivityTotals(
  repoDir: string,
  options: { skillsDir: string | readonly string[]; now: Date },
): Promise<Map<string, UsageCounters>> {
  const totals = readUsageSnapshot(repoDir, options).totals;
  const history = await readHistoryIndex(repoDir, { skillsRoot: options.skillsDir }).catch(() => undefined);
  for (const [name, entry] of Object.entries(history?.index.skills ?? {})) {
    const patched = withCommittedPatch(totals.get(name), entry.lastPatched?.time);
    if (patched !== undefined) totals.set(name, patched);
  }
  return totals;
}
