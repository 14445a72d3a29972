import { SkillgardenError } from '../core/errors.js';
import type { ApiCommit, GitHubApi, TreeEntry } from './github-api.js';
import type { Git } from './git.js';
import { isBotBranch } from './repo-ops.js';

/**
 * `sign-commits`: the proposal's one local commit is made again through
 * GitHub's git data API (a blob per changed file, a tree on the parent's
 * tree, a commit, the branch moved), as peter-evans/create-pull-request
 * does. A commit GitHub creates without an author is signed by GitHub and
 * shown as verified. Before the branch moves, GitHub's tree must be the
 * local tree, id for id: the branch then holds exactly what `git push`
 * would have pushed.
 */
export async function pushSignedCommit(api: GitHubApi, git: Git, commit: string, branch: string): Promise<ApiCommit> {
  if (!isBotBranch(branch))
    throw new SkillgardenError('action/not-a-bot-branch', `Refusing to move ${branch}: only skillgarden/* branches are the Action's.`);
  const [tree = '', parent = '', ...more] = (await git.text(['show', '-s', '--format=%T %P', commit])).split(' ');
  if (parent === '' || more.length > 0)
    throw mismatch(`The proposal commit ${commit} does not have exactly one parent; nothing was pushed.`, commit);
  const parentTree = await git.text(['rev-parse', `${parent}^{tree}`]);
  const entries = await uploadChanges(api, git, parentTree, tree);
  const remoteTree = entries.length === 0 ? parentTree : await api.createTree(parentTree, entries);
  if (remoteTree !== tree)
    throw mismatch(`GitHub built the tree ${remoteTree} for the proposal, not the local ${tree}; the branch was not moved.`, commit);
  const made = await api.createCommit({ message: await readMessage(git, commit), tree, parents: [parent] });
  if (made.tree.sha !== tree || made.parents.map((p) => p.sha).join(' ') !== parent)
    throw mismatch(`GitHub's commit ${made.sha} does not hold the proposal's tree on its base; the branch was not moved.`, commit);
  const exists = (await api.readBranchHead(branch)) !== null;
  // The bot's own branch, rebuilt on the current base each time: a forced move, as the push path's `--force`.
  await api.writeBranchHead(branch, made.sha, { exists, force: true });
  return made;
}

function mismatch(message: string, commit: string): SkillgardenError {
  return new SkillgardenError('action/commit-mismatch', message, { data: { commit } });
}

/** The message exactly as the local commit holds it (`%B` would trim it). */
async function readMessage(git: Git, commit: string): Promise<string> {
  const raw = (await git.run(['cat-file', 'commit', commit])).stdout;
  return raw.slice(raw.indexOf('\n\n') + 2);
}

/** Every path the commit changes, as tree entries; added and modified files uploaded as blobs first. */
async function uploadChanges(api: GitHubApi, git: Git, from: string, to: string): Promise<TreeEntry[]> {
  const raw = (await git.run(['diff-tree', '-r', '-z', '--no-renames', '--raw', from, to])).stdout;
  const fields = raw.split('\0');
  const entries: TreeEntry[] = [];
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [oldMode = '', newMode = '', , sha = '', status = ''] = (fields[i] ?? '').replace(/^:/, '').split(' ');
    const path = fields[i + 1] ?? '';
    if (status === 'D') entries.push({ path, mode: asMode(oldMode), type: oldMode === '160000' ? 'commit' : 'blob', sha: null });
    else if (newMode === '160000') entries.push({ path, mode: '160000', type: 'commit', sha });
    else entries.push({ path, mode: asMode(newMode), type: 'blob', sha: await uploadBlob(api, git, sha) });
  }
  return entries;
}

async function uploadBlob(api: GitHubApi, git: Git, sha: string): Promise<string> {
  const content = (await git.runBytes(['cat-file', 'blob', sha])).toString('base64');
  const uploaded = await api.createBlob(content);
  if (uploaded !== sha) throw mismatch(`GitHub stored the blob ${sha} as ${uploaded}; the branch was not moved.`, sha);
  return uploaded;
}

function asMode(mode: string): TreeEntry['mode'] {
  if (mode === '100644' || mode === '100755' || mode === '120000' || mode === '160000') return mode;
  throw mismatch(`git reported the file mode ${mode}, which a tree entry cannot hold; nothing was pushed.`, mode);
}
