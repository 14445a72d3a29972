import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { runGit } from '../ledger/system-git.js';
import { openLibrary } from '../store/layout/discover-library.js';

export interface ArchiveInfo {
  name: string;
  dir: string;
  /** ISO-8601 time of the archive. */
  archivedAt: string;
  /** `git`: the last commit touching the archive folder; `mtime`: the folder's modification time (a guess: a move keeps old mtimes). */
  dateSource: 'git' | 'mtime';
}

/** The archived skill of exactly this name (or `<name>-<suffix>`, as restore accepts), if any. */
export async function readArchiveInfo(options: {
  repoDir: string;
  skillsDir: string | readonly string[] | undefined;
  name: string;
}): Promise<ArchiveInfo | undefined> {
  // Archives live beside their roots: the library's discovery finds them all.
  const candidates = openLibrary(options.repoDir, options.skillsDir).archived.filter(
    (s) => s.name === options.name || s.name.startsWith(`${options.name}-`),
  );
  const chosen = candidates.find((c) => c.name === options.name) ?? candidates[0];
  if (!chosen) return undefined;
  const fromGit = await readLastCommitTime(options.repoDir, relative(options.repoDir, chosen.dir));
  if (fromGit) return { name: options.name, dir: chosen.dir, archivedAt: fromGit, dateSource: 'git' };
  return { name: options.name, dir: chosen.dir, archivedAt: statSync(chosen.dir).mtime.toISOString(), dateSource: 'mtime' };
}

/** Through the one choke point for git; no git, or no commit, means no date from git. */
async function readLastCommitTime(repoDir: string, path: string): Promise<string | undefined> {
  const result = await runGit(['log', '-1', '--format=%cI', '--', path], { cwd: repoDir, timeoutMs: 5_000 }).catch(() => undefined);
  const time = result?.code === 0 ? result.stdout.toString('utf8').trim() : '';
  return time === '' ? undefined : new Date(time).toISOString();
}
