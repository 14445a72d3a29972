import { SkillgardenError } from '../../core/errors.js';
import { readRepoLayout } from '../../ledger/git-dir.js';
import type { Ledger, LedgerBackend } from '../../ledger/ledger.js';
import { openLedger } from '../../ledger/open-ledger.js';
import { proposalPrefix, type ProposalKind } from './branch.js';
import type { BranchProposal } from './proposal.js';
import { readRecords, writeRecords } from './records.js';
import { readProposalStates, type ProposalStatus } from './state.js';

export type ProposalOperation = 'created' | 'updated' | 'unchanged' | 'declined' | 'accepted' | 'edited' | 'withdrawn';

export interface WrittenProposal {
  branch: string;
  kind: ProposalKind;
  name: string;
  operation: ProposalOperation;
  commit?: string;
}

export interface ProposalOptions {
  now: Date;
  backend?: LedgerBackend | 'auto';
}

export interface WriteOptions extends ProposalOptions {
  /**
   * Kinds this run looked at in full: an open branch of such a kind that the
   * run no longer proposes is withdrawn (branch deleted, record dropped). A
   * withdrawal by the tool is not a person's decline: the proposal can come back.
   */
  withdraw?: readonly ProposalKind[];
}

/**
 * The shared proposal writer's commit (CLI and Action): the proposal's one
 * commit on its branch, parent `base`, written without touching the index,
 * the working tree or the current branch. `expectedTip`: `null` = the branch
 * must not exist yet, a commit id = the tip the caller saw, `undefined` =
 * replace whatever it holds.
 */
export async function commitProposal(
  ledger: Ledger,
  proposal: BranchProposal,
  options: { base: string; expectedTip?: string | null },
): Promise<string> {
  const result = await ledger.commitOnBranch({
    branch: proposal.branch,
    base: options.base,
    message: proposal.message,
    changes: proposal.changes,
    ...(options.expectedTip === undefined ? {} : { expectedTip: options.expectedTip }),
  });
  return result.commit;
}

/**
 * `commitProposal` in a repository of its own (the Action's scratch clone): its ledger opened for this commit only,
 * with isomorphic-git (no hooks, no config of the runner's git).
 */
export async function commitProposalIn(repoDir: string, proposal: BranchProposal, options: { base: string; now: Date }): Promise<string> {
  const ledger = await openLedger(repoDir, { backend: 'isomorphic-git', now: () => options.now });
  try {
    return await commitProposal(ledger, proposal, { base: options.base });
  } finally {
    await ledger.close();
  }
}

/**
 * Writes each proposal as one commit on its own branch, parent HEAD (DESIGN
 * §10), without touching the index, the working tree or the current branch.
 * A proposal a person declined (same fingerprint) is not written again; one
 * already merged, or unchanged, is left; a branch someone else committed to is
 * left as it is.
 */
export async function writeProposals(
  repoDir: string,
  proposals: readonly BranchProposal[],
  options: WriteOptions,
): Promise<WrittenProposal[]> {
  const { commondir } = await readRepoLayout(repoDir);
  const ledger = await openLedger(repoDir, { backend: options.backend ?? 'isomorphic-git', now: () => options.now });
  try {
    const records = readRecords(commondir);
    const states = new Map((await readProposalStates(ledger, records, options.now)).map((s) => [s.branch, s]));
    const out: WrittenProposal[] = [];
    for (const proposal of proposals) {
      const state = states.get(proposal.branch);
      const record = records.proposals[proposal.branch];
      const same = record?.fingerprint === proposal.fingerprint;
      const base = { branch: proposal.branch, kind: proposal.kind, name: proposal.name };
      if (same && (state?.state === 'declined' || state?.state === 'accepted')) {
        out.push({ ...base, operation: state.state });
        continue;
      }
      if (state?.state === 'edited') {
        out.push({ ...base, operation: 'edited', ...(state.commit ? { commit: state.commit } : {}) });
        continue;
      }
      if (same && state?.state === 'open') {
        out.push({ ...base, operation: 'unchanged', ...(state.commit ? { commit: state.commit } : {}) });
        continue;
      }
      const head = await ledger.head();
      if (head === undefined)
        throw new SkillgardenError('proposals/empty-repo', `${repoDir} has no commit yet: a proposal needs a base commit.`);
      const commit = await commitProposal(ledger, proposal, { base: head, expectedTip: state?.commit ?? null });
      records.proposals[proposal.branch] = {
        kind: proposal.kind,
        name: proposal.name,
        fingerprint: proposal.fingerprint,
        commit,
        base: head,
        written_at: options.now.toISOString(),
      };
      out.push({ ...base, operation: state?.commit === undefined ? 'created' : 'updated', commit });
    }
    const current = new Set(proposals.map((p) => p.branch));
    for (const state of states.values()) {
      if (!options.withdraw?.includes(state.kind) || current.has(state.branch) || state.state !== 'open') continue;
      if (state.commit === undefined || records.proposals[state.branch] === undefined) continue;
      // Forgotten before the branch goes, as if never written: a crash in between leaves a branch the next run sees as open.
      delete records.proposals[state.branch];
      writeRecords(commondir, records);
      await ledger.deleteBranch(state.branch, state.commit);
      out.push({ branch: state.branch, kind: state.kind, name: state.name, operation: 'withdrawn' });
    }
    writeRecords(commondir, records);
    return out;
  } finally {
    await ledger.close();
  }
}

/**
 * Every proposal branch (lifecycle, umbrella, new, staged) and every remembered proposal, with its state.
 * A deleted branch is remembered as declined unless `save` is false (a dry run writes nothing).
 */
export async function listProposals(repoDir: string, options: ProposalOptions & { save?: boolean }): Promise<ProposalStatus[]> {
  const { commondir } = await readRepoLayout(repoDir);
  const ledger = await openLedger(repoDir, { backend: options.backend ?? 'isomorphic-git', now: () => options.now });
  try {
    const records = readRecords(commondir);
    const states = await readProposalStates(ledger, records, options.now);
    if (options.save !== false) writeRecords(commondir, records);
    return states;
  } finally {
    await ledger.close();
  }
}

/**
 * Declines a proposal: remembered (so the same proposal is not made again)
 * and its branch deleted. NAME is the branch, or what follows `skillgarden/`,
 * or the proposal's name when only one proposal has it.
 */
export async function declineProposal(repoDir: string, name: string, options: ProposalOptions): Promise<ProposalStatus> {
  const { commondir } = await readRepoLayout(repoDir);
  const ledger = await openLedger(repoDir, { backend: options.backend ?? 'isomorphic-git', now: () => options.now });
  try {
    const records = readRecords(commondir);
    const states = await readProposalStates(ledger, records, options.now);
    const matches = states.filter((s) => s.branch === name || s.branch === `${proposalPrefix}${name}` || s.name === name);
    if (matches.length !== 1) {
      const known = states.map((s) => s.branch).join(', ') || 'none';
      throw new SkillgardenError(
        matches.length === 0 ? 'proposals/unknown' : 'proposals/ambiguous',
        `${matches.length === 0 ? 'No' : 'More than one'} proposal named "${name.slice(0, 80)}" (proposals: ${known}). Give the branch name.`,
      );
    }
    const status = matches[0] as ProposalStatus;
    if (status.state === 'accepted')
      throw new SkillgardenError('proposals/accepted', `${status.branch} is already merged: revert the merge instead.`);
    const at = options.now.toISOString();
    const record = records.proposals[status.branch];
    records.proposals[status.branch] = record
      ? { ...record, declined_at: at }
      : { kind: status.kind, name: status.name, fingerprint: '', commit: status.commit ?? '', base: '', written_at: at, declined_at: at };
    // Remembered before the branch goes: a crash in between leaves a declined proposal, never a forgotten one.
    writeRecords(commondir, records);
    if (status.commit !== undefined) await ledger.deleteBranch(status.branch, status.commit);
    return { ...status, state: 'declined', declined_at: at };
  } finally {
    await ledger.close();
  }
}
