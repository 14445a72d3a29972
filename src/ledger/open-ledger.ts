import { SkillgardenError } from '../core/errors.js';
import type { CommitContext } from './commit-context.js';
import { StoreWriter } from './commit-writer.js';
import { FastImportWriter } from './fast-import.js';
import { writeSignedCommit } from './git-plumbing.js';
import { readRepoLayout } from './git-dir.js';
import { GitLedger } from './git-ledger.js';
import { readEmbeddedIdentities, readSystemIdentities } from './identity.js';
import type { Identities } from './identity.js';
import type { Author, Ledger, LedgerBackend } from './ledger.js';
import { withTreeCache } from './object-store.js';
import { openIsomorphicGitStore } from './object-store-isomorphic-git.js';
import { openSystemGitStore } from './object-store-system-git.js';
import { readRepoSetup } from './repo-setup.js';
import { hasGitBinary } from './system-git.js';

export interface OpenLedgerOptions {
  /** `auto` (the default) picks `system-git` when git is on the PATH, `isomorphic-git` otherwise. */
  backend?: LedgerBackend | 'auto';
  /** How long a held `.lock` file is retried before `ledger/locked` (ms); default 10 s. */
  lockTimeoutMs?: number;
  /** The clock for default commit dates. */
  now?: () => Date;
  /** Used as author and committer when a commit names no author; default: who git says (`git var GIT_AUTHOR_IDENT`). */
  author?: Pick<Author, 'name' | 'email'>;
  /** Test seam: called at named points of every commit (the crash test kills the process there). */
  onStage?: CommitContext['onStage'];
}

export async function openLedger(dir: string, options: OpenLedgerOptions = {}): Promise<Ledger> {
  return openGitLedger(dir, options);
}

/** Same as `openLedger`, typed with the extra read helpers rollback and tests use. */
export async function openGitLedger(dir: string, options: OpenLedgerOptions = {}): Promise<GitLedger> {
  const layout = await readRepoLayout(dir);
  const backend = pickBackend(options.backend ?? 'auto');
  const setup = await readRepoSetup(layout, backend);
  const durable = setup.fsync.looseObject;
  const store = withTreeCache(
    backend === 'system-git' ? openSystemGitStore(layout.commondir, durable) : openIsomorphicGitStore(layout.commondir, durable),
  );
  let identities: Promise<Identities> | undefined;
  const readIdentities = async (): Promise<Identities> => {
    if (options.author) return { author: options.author, committer: options.author };
    return backend === 'system-git' ? readSystemIdentities(layout.dir) : readEmbeddedIdentities(setup.config, layout.dir);
  };
  const writer =
    backend === 'system-git' && !setup.sign
      ? new FastImportWriter(layout.dir, layout.commondir)
      : new StoreWriter(store, (commit) => (setup.sign ? writeSignedCommit(layout.dir, commit) : store.writeCommit(commit)));
  const ctx: CommitContext = {
    dir: layout.dir,
    gitdir: layout.gitdir,
    layout,
    backend,
    store,
    setup,
    lockTimeoutMs: options.lockTimeoutMs ?? 10_000,
    indexCache: {},
    writer,
    now: options.now ?? (() => new Date()),
    // A failed look is not kept: the user may fix the identity and retry in the same process (an MCP server).
    identities: () =>
      (identities ??= readIdentities().catch((error: unknown) => {
        identities = undefined;
        throw error;
      })),
    ...(options.onStage ? { onStage: options.onStage } : {}),
  };
  return new GitLedger(backend, ctx);
}

function pickBackend(choice: LedgerBackend | 'auto'): LedgerBackend {
  if (choice === 'isomorphic-git') return choice;
  const hasGit = hasGitBinary();
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
