import * as fs from 'node:fs';
import git from 'isomorphic-git';
import type { CommitRecord, HistoryCommit, PathChange, PathChangeStatus } from '../core/ledger/commit-record.js';
import { isHistoryPath, isSkillFile } from '../core/ledger/skill-paths.js';
import { CatFileBatch } from './cat-file-batch.js';
import { runGit, runGitChecked } from './history-git.js';
import type { HistoryWalker, WalkRange } from './history-walker.js';

const commitMark = '\x01';
// NUL-separated: hash, parents, committer time, raw message. Messages never hold NUL.
const commitFormat = '--format=%x01%H%x00%P%x00%ct%x00%B';

function toStatus(letter: string): PathChangeStatus {
  return letter === 'A' ? 'added' : letter === 'D' ? 'deleted' : 'modified';
}

/**
 * Reads `git log -z --name-status` or `--raw --no-abbrev` output: a commit's fields, then
 * (status, path) pairs; a raw status (`:100644 100644 <old> <new> M`) also names the blobs.
 */
export function parseNameStatusLog(output: string): HistoryCommit[] {
  const tokens = output.split('\0');
  const commits: HistoryCommit[] = [];
  let current: HistoryCommit | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as string;
    if (token.startsWith(commitMark)) {
      current = {
        oid: token.slice(1),
        parents: (tokens[i + 1] ?? '').split(' ').filter(Boolean),
        time: Number(tokens[i + 2]),
        message: tokens[i + 3] ?? '',
        changes: [],
      };
      commits.push(current);
      i += 3;
      continue;
    }
    // git puts a newline between the format and the first status letter.
    const letter = token.replace(/^\n+/, '');
    if (letter === '' || current === undefined) continue;
    const path = tokens[++i] ?? '';
    current.changes.push(readChange(letter, path));
  }
  return commits;
}

const zeroOid = /^0+$/;

function readChange(status: string, path: string): PathChange {
  if (!status.startsWith(':')) return { status: toStatus(status[0] as string), path };
  const [, , before = '', after = '', letter = ''] = status.slice(1).split(' ');
  const change: PathChange = { status: toStatus(letter[0] ?? 'M'), path };
  const blob = change.status === 'added' ? after : change.status === 'deleted' ? before : '';
  return isSkillFile(path) && blob !== '' && !zeroOid.test(blob) ? { ...change, blob } : change;
}

function rangeArgs(range: WalkRange): string[] {
  // A cached head gone after a force-push and gc is skipped, not an error: the walk is then full.
  return ['--ignore-missing', range.head, ...(range.exclude === null ? [] : [`^${range.exclude}`]), '--'];
}

function toRecords(output: string): CommitRecord[] {
  return parseNameStatusLog(output).map(({ changes: _changes, ...record }): CommitRecord => record);
}

/** The system git: one `git log` process for the whole walk. */
export function systemGitWalker(dir: string, gitdir: string): HistoryWalker {
  return {
    async resolveHead(ref) {
      // Reading the ref files saves a process on every call; git answers what they cannot (a worktree, `HEAD~2`).
      const direct = await git.resolveRef({ fs, gitdir, ref }).catch(() => null);
      if (direct !== null && /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/.test(direct)) return direct;
      const result = await runGit(dir, ['rev-parse', '--verify', '--quiet', `${ref}^{commit}`]);
      return result.code === 0 ? result.stdout.trim() : null;
    },
    async readCommits(range) {
      const args = ['log', '--no-renames', '--diff-merges=first-parent', '--raw', '--no-abbrev', '-z', commitFormat];
      const output = await runGitChecked(dir, [...args, ...rangeArgs(range)]);
      return parseNameStatusLog(output).map((c) => {
        const changes = c.changes.filter((change) => isHistoryPath(change.path, range.skillsRoot));
        // git itself shows a cut commit without parents.
        return range.shallow.has(c.oid) ? { ...c, changes, boundary: true } : { ...c, changes };
      });
    },
    async readLog(head, limit) {
      const args = ['log', '--date-order', '-z', commitFormat, ...(limit === undefined ? [] : [`--max-count=${limit}`]), head, '--'];
      return toRecords(await runGitChecked(dir, args));
    },
    async readCommitRecords(oids) {
      if (oids.length === 0) return [];
      // One process for any number of commits: the ids go on stdin, not the command line.
      return toRecords(await runGitChecked(dir, ['log', '--no-walk=unsorted', '--stdin', '-z', commitFormat], `${oids.join('\n')}\n`));
    },
    async listFiles(commit, roots) {
      // The repository's top (root '') is the whole tree: no pathspec.
      const paths = roots.includes('') ? [] : roots;
      const output = await runGitChecked(dir, ['ls-tree', '-r', '-z', '--name-only', '--full-tree', commit, '--', ...paths]);
      return output.split('\0').filter(Boolean);
    },
    async readBlobs(oids) {
      const texts = new Map<string, string>();
      if (oids.length === 0) return texts;
      // One process for any number of blobs; isomorphic-git would load the whole pack to read a few.
      const batch = new CatFileBatch(gitdir);
      try {
        // All requests written at once: replies come back in order through the one pipe.
        const objects = await Promise.all(oids.map((oid) => batch.read(oid).catch(() => null)));
        objects.forEach((object, i) => {
          if (object?.type === 'blob') texts.set(oids[i]!, object.content.toString('utf8'));
        });
      } finally {
        await batch.close();
      }
      return texts;
    },
  };
}
