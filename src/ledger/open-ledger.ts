import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import git from 'isomorphic-git';
import { SkillgardenError } from '../core/errors.js';
import type { CommitContext } from './commit-context.js';
import { readGitDir } from './git-dir.js';
import { GitLedger } from './git-ledger.js';
import type { Author, Ledger, LedgerBackend } from './ledger.js';
import { withTreeCache } from './object-store.js';
import { openIsomorphicGitStore } from './object-store-isomorphic-git.js';
import { openSystemGitStore } from './object-store-system-git.js';

export interface OpenLedgerOptions {
  /** `auto` picks `system-git` when git is on the PATH; default `isomorphic-git`. */
  backend?: LedgerBackend | 'auto';
  /** How long a held `.lock` file is retried before `ledger/locked` (ms); default 10 s. */
  lockTimeoutMs?: number;
  /** The clock for default commit dates. */
  now?: () => Date;
  /** Used when a commit names no author; default: the repository's user.name/user.email, else `skillgarden`. */
  author?: Pick<Author, 'name' | 'email'>;
  /** Test seam: called at named points of every commit (the crash test kills the process there). */
  onStage?: CommitContext['onStage'];
}

export async function openLedger(dir: string, options: OpenLedgerOptions = {}): Promise<Ledger> {
  return openGitLedger(dir, options);
}

/** Same as `openLedger`, typed with the extra read helpers rollback and tests use. */
export async function openGitLedger(dir: string, options: OpenLedgerOptions = {}): Promise<GitLedger> {
  const gitdir = await readGitDir(dir);
  const backend = pickBackend(options.backend ?? 'isomorphic-git');
  let configured: Promise<Pick<Author, 'name' | 'email'>> | undefined;
  const store = withTreeCache(backend === 'system-git' ? openSystemGitStore(gitdir) : openIsomorphicGitStore(gitdir));
  const ctx: CommitContext = {
    dir,
    gitdir,
    store,
    lockTimeoutMs: options.lockTimeoutMs ?? 10_000,
    indexCache: {},
    now: options.now ?? (() => new Date()),
    defaultAuthor: async () => options.author ?? (await (configured ??= readConfiguredAuthor(gitdir))),
    ...(options.onStage ? { onStage: options.onStage } : {}),
  };
  return new GitLedger(backend, ctx);
}

function pickBackend(choice: LedgerBackend | 'auto'): LedgerBackend {
  if (choice === 'isomorphic-git') return choice;
  const hasGit = spawnSync('git', ['--version'], { stdio: 'ignore' }).status === 0;
  if (choice === 'auto') return hasGit ? 'system-git' : 'isomorphic-git';
  if (hasGit) return choice;
  throw new SkillgardenError(
    'ledger/no-git',
    'The system-git backend needs git on the PATH, and there is none. Install git, or use the isomorphic-git backend.',
    {
      data: { backend: choice },
    },
  );
}

async function readConfiguredAuthor(gitdir: string): Promise<Pick<Author, 'name' | 'email'>> {
  const read = (path: string) => git.getConfig({ fs, gitdir, path }).catch(() => undefined) as Promise<string | undefined>;
  return { name: (await read('user.name')) ?? 'skillgarden', email: (await read('user.email')) ?? 'skillgarden@localhost' };
}
