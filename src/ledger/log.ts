import { orderParentsFirst, type CommitRecord } from '../core/ledger/commit-record.js';
import { foldHistory } from '../core/ledger/history-fold.js';
import { emptyHistoryIndex } from '../core/ledger/history-index.js';
import { buildLog, type LogEntry, type LogFilter } from '../core/ledger/log-entry.js';
import { normalizeSkillsRoots, type SkillRoots } from '../core/ledger/skill-paths.js';
import { readGitDir } from './git-dir.js';
import { openHistoryWalker, readShallowCommits } from './history-index.js';
import type { HistoryBackend } from './history-walker.js';

export interface ReadLogOptions extends LogFilter {
  /** `auto` (default): the system git when it is on the PATH, else isomorphic-git. */
  backend?: HistoryBackend;
  /** Default `HEAD`. */
  ref?: string;
  /** The skill roots, repository-relative (default `skills`): whose files make a commit a skill's. */
  skillsRoot?: SkillRoots;
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
    return buildLog(await walker.readLog(head, filtered ? undefined : options.limit), options);
  }
  const root = normalizeSkillsRoots(options.skillsRoot ?? 'skills');
  const commits = await walker.readCommits({
    head,
    exclude: null,
    seen: new Set(),
    skillsRoot: root,
    shallow: await readShallowCommits(gitdir),
  });
  const touched = new Map<string, string[]>();
  const ordered = orderParentsFirst(commits);
  foldHistory(emptyHistoryIndex(root), ordered, head, (commit, skills) => touched.set(commit.oid, [...skills].sort()));
  // Newest first: children before parents, as `git log --topo-order` lists them.
  const newestFirst: CommitRecord[] = ordered.reverse().map(({ changes: _changes, ...record }) => record);
  return buildLog(newestFirst, { ...options, touched });
}
