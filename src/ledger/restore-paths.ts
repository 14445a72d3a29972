import * as fs from 'node:fs';
import git from 'isomorphic-git';
import type { GitLedger } from './git-ledger.js';
import type { FileMode } from './ledger.js';
import { hasGitBinary, runGitChecked } from './system-git.js';
import { removeWorktreeFile, writeWorktreeFile } from './worktree.js';

const zeroOid = '0'.repeat(40);

/**
 * Puts `paths` back to what HEAD has, in the index and the working tree (a file HEAD lacks is
 * removed, with the folders it leaves empty): how a crashed write is undone or completed, since
 * the branch decides which of the two happened. The caller holds no lock: git (or isomorphic-git)
 * takes `index.lock` as it always does.
 */
export async function restorePathsToHead(ledger: GitLedger, paths: readonly string[]): Promise<void> {
  const blobs = await ledger.lookup(paths);
  const present = paths.filter((p) => blobs.get(p) !== undefined);
  if (hasGitBinary()) {
    // Git's plumbing: exact index entries, then a checkout through its filters (eol, smudge).
    const info = paths.map((p) => {
      const blob = blobs.get(p);
      return blob ? `${blob.mode} ${blob.oid}\t${p}\0` : `0 ${zeroOid}\t${p}\0`;
    });
    await runGitChecked(['update-index', '-z', '--index-info'], { cwd: ledger.dir, input: info.join('') });
    for (const path of paths.filter((p) => blobs.get(p) === undefined)) await removeWorktreeFile(ledger.dir, path);
    if (present.length > 0) {
      await runGitChecked(['checkout-index', '-f', '-z', '--stdin'], { cwd: ledger.dir, input: present.map((p) => `${p}\0`).join('') });
    }
    await runGitChecked(['update-index', '-q', '--refresh'], { cwd: ledger.dir }).catch(() => undefined);
    return;
  }
  for (const path of paths) {
    const blob = blobs.get(path);
    if (blob) await writeWorktreeFile(ledger.dir, path, await ledger.readBlob(blob.oid), blob.mode as FileMode);
    else await removeWorktreeFile(ledger.dir, path);
    await git.resetIndex({ fs, dir: ledger.dir, filepath: path });
  }
}
