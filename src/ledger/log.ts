import { buildLog, type LogEntry, type LogFilter } from '../core/ledger/log-entry.js';
import { readGitDir } from './git-dir.js';
import { openHistoryWalker } from './history-index.js';
import type { HistoryBackend } from './history-walker.js';

export interface ReadLogOptions extends LogFilter {
  /** `auto` (default): the system git when it is on the PATH, else isomorphic-git. */
  backend?: HistoryBackend;
  /** Default `HEAD`. */
  ref?: string;
}

/** The ledger, newest first: every commit reachable from the ref, read through our own trailer parser. */
export async function readLog(dir: string, options: ReadLogOptions = {}): Promise<LogEntry[]> {
  const gitdir = await readGitDir(dir);
  const { walker } = await openHistoryWalker(dir, gitdir, options.backend);
  const head = await walker.resolveHead(options.ref ?? 'HEAD');
  if (head === null) return [];
  const filtered = options.skill !== undefined || options.actor !== undefined || options.action !== undefined || options.run !== undefined;
  // Without a filter the limit can go to git; with one, every commit must be read to find the matches.
  const commits = await walker.readLog(head, filtered ? undefined : options.limit);
  return buildLog(commits, options);
}
