import { formatCommitTime, type CommitRecord } from './commit-record.js';
import { parseCommitMessage, type Actor, type SkillAction, type Source } from './trailers.js';

/** One ledger entry, the `log --json` shape of DESIGN §12. Commits without trailers are `user` with action `null`. */
export interface LogEntry {
  commit: string;
  time: string;
  action: SkillAction | null;
  skills: string[];
  actor: Actor;
  source: Source | null;
  run: string | null;
  subject: string;
}

export interface LogFilter {
  skill?: string;
  actor?: Actor;
  action?: SkillAction;
  run?: string;
  limit?: number;
  /** Keep commits that are no ledger entry and touch no skill (`log --all`). */
  all?: boolean;
  /**
   * Commit → the skills whose files it changed, found by path. When given, an entry's skills are
   * those its trailers name and these, and (without `all`) a commit with neither is left out.
   */
  touched?: ReadonlyMap<string, readonly string[]>;
}

export function buildLogEntry(commit: CommitRecord, touched: readonly string[] = []): LogEntry {
  const { subject, trailers } = parseCommitMessage(commit.message);
  return {
    commit: commit.oid,
    time: formatCommitTime(commit.time),
    action: trailers.action ?? null,
    skills: [...trailers.skills, ...touched.filter((name) => !trailers.skills.includes(name))],
    actor: trailers.actor,
    source: trailers.source ?? null,
    run: trailers.run ?? null,
    subject,
  };
}

export function matchesLogFilter(entry: LogEntry, filter: LogFilter): boolean {
  return (
    (filter.skill === undefined || entry.skills.includes(filter.skill)) &&
    (filter.actor === undefined || entry.actor === filter.actor) &&
    (filter.action === undefined || entry.action === filter.action) &&
    (filter.run === undefined || entry.run === filter.run)
  );
}

/** Entries of the commits (newest first) that pass the filter, up to its limit. */
export function buildLog(commits: Iterable<CommitRecord>, filter: LogFilter = {}): LogEntry[] {
  const entries: LogEntry[] = [];
  const limit = filter.limit ?? Number.POSITIVE_INFINITY;
  for (const commit of commits) {
    if (entries.length >= limit) break;
    const entry = buildLogEntry(commit, filter.touched?.get(commit.oid));
    const skillless = filter.touched !== undefined && filter.all !== true && entry.action === null && entry.skills.length === 0;
    if (!skillless && matchesLogFilter(entry, filter)) entries.push(entry);
  }
  return entries;
}
