import { SkillgardenError } from '../core/errors.js';
import { botIdentity, type Git } from './git.js';

import { proposalPrefix } from '../services/proposals/index.js';

/** A shallow checkout hides the history provenance and ages come from: fetch it, or say exactly what to set. */
export async function ensureFullHistory(git: Git): Promise<'complete' | 'fetched'> {
  if ((await git.text(['rev-parse', '--is-shallow-repository'])) !== 'true') return 'complete';
  const fetched = await git.run(['fetch', '--quiet', '--unshallow', '--no-tags', 'origin'], { allowFailure: true });
  if (fetched.code === 0) return 'fetched';
  throw new SkillgardenError(
    'action/shallow-checkout',
    `The checkout in ${git.dir} is shallow and fetching its history failed (${fetched.stderr.trim()}). Skill ages and provenance come from history: set \`fetch-depth: 0\` on actions/checkout.`,
    { data: { stderr: fetched.stderr } },
  );
}

/** The files a pull request changes: its base commit is fetched when the checkout lacks it. */
export async function readChangedFiles(git: Git, baseSha: string): Promise<string[]> {
  const present = await git.run(['cat-file', '-e', `${baseSha}^{commit}`], { allowFailure: true });
  if (present.code !== 0) {
    const fetched = await git.run(['fetch', '--quiet', '--no-tags', '--depth=1', 'origin', baseSha], { allowFailure: true });
    if (fetched.code !== 0) {
      throw new SkillgardenError(
        'action/shallow-checkout',
        `The pull request's base commit ${baseSha.slice(0, 12)} is not in the checkout and could not be fetched (${fetched.stderr.trim()}). Set \`fetch-depth: 0\` on actions/checkout, or \`changed-only: false\`.`,
        { data: { baseSha } },
      );
    }
  }
  const out = await git.run(['diff', '--name-only', '--no-renames', '-z', baseSha, 'HEAD']);
  return out.stdout.split('\0').filter(Boolean);
}

/**
 * A private clone at `sha` to run the curator in: the checkout stays as the
 * workflow left it, and the curator's commits never reach a shared branch
 * until they are verified and pushed on purpose.
 */
export async function prepareScratch(workspace: Git, scratchDir: string, sha: string, branch: string): Promise<Git> {
  const scratch = workspace.at(scratchDir);
  await scratch.run(['init', '--quiet', '-b', branch, scratchDir]);
  await scratch.run(['fetch', '--quiet', '--no-tags', workspace.dir, sha]);
  await scratch.run(['reset', '--quiet', '--hard', sha]);
  const remote = await workspace.run(['remote', 'get-url', '--push', 'origin'], { allowFailure: true });
  if (remote.code === 0) await scratch.run(['remote', 'add', 'origin', remote.stdout.trim()]);
  await scratch.run(['config', 'user.name', botIdentity.GIT_AUTHOR_NAME]);
  await scratch.run(['config', 'user.email', botIdentity.GIT_AUTHOR_EMAIL]);
  return scratch;
}

export function isBotBranch(branch: string): boolean {
  return branch.startsWith(proposalPrefix) && branch.length > proposalPrefix.length;
}

/** Force-push, but only ever to the bot's own branches: a person's branch is never overwritten. */
export async function pushBotBranch(git: Git, commit: string, branch: string): Promise<void> {
  if (!isBotBranch(branch))
    throw new SkillgardenError(
      'action/not-a-bot-branch',
      `Refusing to force-push to ${branch}: only ${proposalPrefix}* branches are the Action's.`,
    );
  await push(git, ['--force', 'origin', `${commit}:refs/heads/${branch}`]);
}

export async function deleteBotBranch(git: Git, branch: string): Promise<void> {
  if (!isBotBranch(branch))
    throw new SkillgardenError(
      'action/not-a-bot-branch',
      `Refusing to delete ${branch}: only ${proposalPrefix}* branches are the Action's.`,
    );
  await push(git, ['origin', '--delete', branch], { allowMissing: true });
}

/** A plain (never forced) push of commits and tags to the base branch: refused if someone pushed meanwhile. */
export async function pushToBase(git: Git, branch: string, tags: readonly string[]): Promise<void> {
  await push(git, ['--atomic', 'origin', `HEAD:refs/heads/${branch}`, ...tags.map((t) => `refs/tags/${t}:refs/tags/${t}`)]);
}

async function push(git: Git, args: string[], options: { allowMissing?: boolean } = {}): Promise<void> {
  const result = await git.run(['push', '--quiet', '--porcelain', ...args], { allowFailure: true });
  if (result.code === 0) return;
  if (options.allowMissing && /remote ref does not exist/i.test(result.stderr)) return;
  const permission = /\b403\b|denied|not permitted|permission/i.test(result.stderr);
  throw new SkillgardenError(
    permission ? 'action/push-forbidden' : 'action/push-failed',
    permission
      ? `git push was refused: the token cannot write to the repository. Give the job \`permissions: contents: write\` (and use a token that may push). git said: ${result.stderr.trim()}`
      : `git push ${args.join(' ')} failed: ${result.stderr.trim()}. If the branch moved while the Action ran, run it again.`,
    { data: { args, stderr: result.stderr } },
  );
}

/** The committer of every commit GitHub makes itself (web edits, merges, the git data API). */
const githubCommitter = 'noreply@github.com';

/** The commit a remote bot branch points at and its parent, or null when there is no such branch. */
export interface RemoteBranch {
  commit: string;
  parent: string;
  /** False when someone else committed on top of the bot's commit: then the branch is not overwritten. */
  byBot: boolean;
}

export async function readRemoteBranch(git: Git, branch: string): Promise<RemoteBranch | null> {
  const fetched = await git.run(['fetch', '--quiet', '--no-tags', 'origin', `+refs/heads/${branch}:refs/skillgarden-remote/${branch}`], {
    allowFailure: true,
  });
  if (fetched.code !== 0) return null;
  const [commit = '', parent = '', author = '', committer = '', run = ''] = (
    await git.text([
      'show',
      '-s',
      '--format=%H%n%P%n%ae%n%ce%n%(trailers:key=Curator-Run,valueonly,separator=%x2C)',
      `refs/skillgarden-remote/${branch}`,
    ])
  ).split('\n');
  // sign-commits: GitHub commits as the token's identity (an App's bot, a PAT's user) and is the committer itself.
  const madeByGitHub = committer === githubCommitter && run.trim() !== '';
  return { commit, parent: parent.split(' ')[0] ?? '', byBot: author === botIdentity.GIT_AUTHOR_EMAIL || madeByGitHub };
}

/** git's own rules for branch names (`git check-ref-format --branch`). */
export async function checkBranchName(git: Git, branch: string): Promise<boolean> {
  return (await git.run(['check-ref-format', '--branch', branch], { allowFailure: true })).code === 0;
}
