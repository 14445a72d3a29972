import { readFileSync, statSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { Finding } from '../../core/findings.js';
import {
  planLifecycle,
  planSteady,
  settingsKey,
  type LifecyclePlan,
  type LifecycleSettings,
  type LifecycleSkill,
  type SteadyEntry,
} from '../../core/lifecycle/index.js';
import { timeKeys, type UsageCounters } from '../../core/usage/index.js';
import { listUsageFiles, readUsageSnapshot, type UsageSnapshot } from '../../store/usage-files.js';

/**
 * What one curator pass keeps for the next (`.git/skillgarden/curator-cache.json`): the usage totals with
 * the stamps of the files they came from, each SKILL.md's pin with its stamp, and each skill's verdict
 * with the inputs it was decided on. A steady pass (nothing changed) then reads no usage file and no
 * SKILL.md, and decides no skill afresh. Every entry is checked before use: a changed stamp re-reads,
 * changed inputs re-decide; a lost or unreadable cache only costs a full pass.
 */
export interface SteadyCache {
  version: 1;
  /** `settingsKey` of the config the verdicts were made under. */
  settings: string;
  usage: CachedUsage | null;
  pins: Record<string, { stamp: string; pinned: boolean }>;
  plan: Record<string, SteadyEntry>;
  /** Set when this pass changed anything (not written): an unchanged cache is not rewritten. */
  changed?: boolean;
}

interface CachedUsage {
  /** The usage folder's files and Hermes's `.usage.json`, each with its stamp. */
  key: string;
  /** The parse rejects times more than 5 minutes ahead of the clock: the cached parse holds from this clock time on. */
  from: number | null;
  totals: [string, UsageCounters][];
  quarantined: string[];
  findings: Finding[];
}

/** A file changed within this long of being read may change again within the same stamp (coarse clocks): never trusted. */
const racyMs = 2_000;
const futureSlackMs = 5 * 60_000;

export function emptySteadyCache(): SteadyCache {
  return { version: 1, settings: '', usage: null, pins: {}, plan: {} };
}

export function steadyCachePath(gitdir: string): string {
  return join(gitdir, 'skillgarden', 'curator-cache.json');
}

export function readSteadyCache(gitdir: string): SteadyCache {
  try {
    const parsed = JSON.parse(readFileSync(steadyCachePath(gitdir), 'utf8')) as Partial<SteadyCache> | null;
    const valid =
      parsed?.version === 1 &&
      typeof parsed.settings === 'string' &&
      typeof parsed.pins === 'object' &&
      parsed.pins !== null &&
      typeof parsed.plan === 'object' &&
      parsed.plan !== null;
    return valid ? (parsed as SteadyCache) : emptySteadyCache();
  } catch {
    return emptySteadyCache();
  }
}

/** Temp file, then rename: a reader sees the old cache or the new one. A read-only `.git` keeps no cache. */
export async function writeSteadyCache(gitdir: string, cache: SteadyCache): Promise<void> {
  const path = steadyCachePath(gitdir);
  const temp = `${path}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  try {
    await mkdir(dirname(path), { recursive: true });
    const { changed: _changed, ...file } = cache;
    await writeFile(temp, JSON.stringify(file));
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EROFS' && code !== 'EPERM') throw error;
  }
}

/** Size, times and inode, or null when the file is missing or changed too recently to trust its stamp. `seen`: its stat, just taken. */
function readStamp(path: string, wall: number, seen?: FileTimes): string | null | 'missing' {
  const stat = seen ?? statSync(path, { throwIfNoEntry: false });
  if (stat === undefined) return 'missing';
  if (Math.max(stat.mtimeMs, stat.ctimeMs) > wall - racyMs) return null;
  return `${stat.size}:${stat.mtimeMs}:${stat.ctimeMs}:${stat.ino}`;
}

function usageKey(repoDir: string, skillsDir: string | readonly string[], wall: number): string | null {
  const parts: string[] = [];
  for (const { path } of listUsageFiles(repoDir, skillsDir)) {
    const stamp = readStamp(join(repoDir, path), wall);
    if (stamp === null) return null;
    parts.push(`${path}=${stamp}`);
  }
  return parts.join('\n');
}

export type SteadyUsage = Pick<UsageSnapshot, 'totals' | 'quarantined' | 'findings'>;

/** The usage totals: the cached ones while no usage file changed and the clock is where the parse holds, else read afresh. */
export function readSteadyUsage(
  cache: SteadyCache,
  repoDir: string,
  options: { skillsDir: string | readonly string[]; now: Date },
): SteadyUsage {
  const wall = Date.now();
  const key = usageKey(repoDir, options.skillsDir, wall);
  const cached = cache.usage;
  if (key !== null && cached?.key === key && (cached.from === null || options.now.getTime() >= cached.from))
    return { totals: new Map(cached.totals), quarantined: cached.quarantined, findings: cached.findings };
  const usage = readUsageSnapshot(repoDir, options);
  cache.changed = true;
  // A time rejected as future would be accepted later: such a parse holds for this pass only.
  const future = usage.findings.some((f) => f.code === 'usage/future-time');
  cache.usage =
    key === null || future
      ? null
      : { key, from: latestTime(usage.totals), totals: [...usage.totals], quarantined: usage.quarantined, findings: usage.findings };
  return usage;
}

/** The parse accepts a time up to 5 minutes ahead: a clock set back further would reject the latest one. */
function latestTime(totals: ReadonlyMap<string, UsageCounters>): number | null {
  let latest: number | null = null;
  for (const counters of totals.values())
    for (const key of timeKeys) {
      const value = counters[key];
      const at = value === undefined ? NaN : Date.parse(value);
      if (!Number.isNaN(at) && (latest === null || at > latest)) latest = at;
    }
  return latest === null ? null : latest - futureSlackMs;
}

/** Whether a SKILL.md pins its skill: the cached answer while the file's stamp is the same, else `read`. */
/** What a stamp is made of: a stat, or the discovery's lstat of a SKILL.md that is a plain file (the same for one). */
export interface FileTimes {
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  ino: number;
}

/** `stat`: the file's stat when the caller already has it (the discovery's lstat), else it is stat'ed here. */
export function readSteadyPin(cache: SteadyCache, path: string, read: () => boolean, seen: Set<string>, stat?: FileTimes): boolean {
  seen.add(path);
  const stamp = readStamp(path, Date.now(), stat);
  const cached = cache.pins[path];
  if (stamp !== null && stamp !== 'missing' && cached?.stamp === stamp) return cached.pinned;
  const pinned = read();
  cache.changed = true;
  if (stamp === null || stamp === 'missing') delete cache.pins[path];
  else cache.pins[path] = { stamp, pinned };
  return pinned;
}

/** The lifecycle plan, reusing the cached verdicts made under the same settings; the cache takes the new ones. */
export function planSteadyPass(
  cache: SteadyCache | undefined,
  skills: readonly LifecycleSkill[],
  settings: LifecycleSettings,
  now: Date,
): LifecyclePlan {
  if (!cache) return planLifecycle(skills, settings, now);
  const key = settingsKey(settings);
  const previous = cache.settings === key ? cache.plan : {};
  const steady = planSteady(previous, skills, settings, now);
  const removed = Object.keys(previous).length !== skills.length;
  if (steady.planned > 0 || removed || cache.settings !== key) cache.changed = true;
  cache.settings = key;
  cache.plan = steady.entries;
  return steady.plan;
}
