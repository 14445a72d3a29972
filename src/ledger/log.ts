import { orderParentsFirst, type CommitRecord } from '../core/ledger/commit-record.js';
import { buildLog, type LogEntry, type LogFilter } from '../core/ledger/log-entry.js';
import type { SkillRoots } from '../core/ledger/skill-paths.js';
import { readGitDir } from './git-dir.js';
import { openHistoryWalker, readHistoryIndex } from './history-index.js';
import type { HistoryBackend } from './history-walker.js';

export interface ReadLogOptions extends LogFilter {
  /** `auto` (default): the system git when it is on the PATH, else isomorphic-git. */
  backend?: HistoryBackend;
  /** Default `HEAD`. */
  ref?: string;
  /** The skill roots, repository-relative (default `skills`): whose files make a commit a skill's. */
  skillsRoot?: SkillRoots;
  /**
   * Default true: which commits belong to which skills comes from the history cache, and only the
   * commits shown are read. False: history is folded afresh and every commit read (the plain path).
   */
  cache?: boolean;
}

/**
 * Newest first by commit date, as a person reads a log: on merge-heavy history a topological order
 * lists a whole branch before the main line it interleaves with. Same-second commits keep children
 * before parents.
 */
export function orderNewestFirst<T extends CommitRecord>(commits: readonly T[]): T[] {
  return orderParentsFirst(commits)
    .reverse()
    .sort((a, b) => b.time - a.time);
}

/**
 * The ledger, newest first, read through our own trailer parser. A commit belongs to the skills its
 * trailers name and to those whose files it changed (found by path, following moves and renames), so
 * a person's plain `git commit` shows under `--skill` too. Without `all`, commits that are no ledger
 * entry and touch no skill are left out.
 */
export async function readLog(dir: string, options: ReadLogOptions = {}): Promise<LogEntry[]> {
  const gitdir = await readGitDir(dir);
  const { walker } = await openHistoryWalker(dir, gitdir, options.backend);
  const head = await walker.resolveHead(options.ref ?? 'HEAD');
  if (head === null) return [];
  const filtered = options.skill !== undefined || options.actor !== undefined || options.action !== undefined || options.run !== undefined;
  if (options.all === true && options.skill === undefined) {
    // Without a filter the limit can go to git; with one, every commit must be read to find the matches.
    return buildLog(orderNewestFirst(await walker.readLog(head, filtered ? undefined : options.limit)), options);
  }
  const { ledger } = await readHistoryIndex(dir, {
    ...(options.skillsRoot === undefined ? {} : { skillsRoot: options.skillsRoot }),
    ...(options.backend === undefined ? {} : { backend: options.backend }),
    ...(options.cache === false ? { cache: false } : {}),
    ref: head,
  });
  const touched = new Map(Object.entries(ledger));
  const skill = options.skill;
  const records =
    options.cache === false
      ? await walker.readLog(head)
      : await walker.readCommitRecords(
          [...touched].filter(([, skills]) => skill === undefined || skills.includes(skill)).map(([oid]) => oid),
        );
  return buildLog(orderNewestFirst(records), { ...options, touched });
}
