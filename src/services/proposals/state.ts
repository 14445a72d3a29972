import type { BranchTip, Ledger } from '../../ledger/ledger.js';
import { parseProposalBranch, proposalPrefix, type ProposalKind } from './branch.js';
import type { ProposalRecords } from './records.js';

export type ProposalState = 'open' | 'accepted' | 'declined' | 'edited';

export interface ProposalStatus {
  branch: string;
  kind: ProposalKind;
  name: string;
  state: ProposalState;
  /** The branch tip, absent once the branch is gone. */
  commit?: string;
  fingerprint?: string;
  written_at?: string;
  declined_at?: string;
}

/** How far back from HEAD a merged proposal is looked for. */
const maxWalk = 20_000;

/** Commits reachable from HEAD (first `maxWalk`), for "was this branch merged". */
async function readReachable(ledger: Ledger): Promise<Set<string>> {
  const seen = new Set<string>();
  const head = await ledger.head();
  const queue = head === undefined ? [] : [head];
  while (queue.length > 0 && seen.size < maxWalk) {
    const oid = queue.pop() as string;
    if (seen.has(oid)) continue;
    seen.add(oid);
    queue.push(...(await ledger.readCommit(oid)).parents);
  }
  return seen;
}

/**
 * Every proposal branch and every remembered proposal, with its state: merged
 * into HEAD → accepted; declined by `proposals decline` or by deleting the
 * branch → declined; a branch someone else committed to → edited; else open.
 * Deleted branches are marked declined in `records` (the caller saves them).
 */
export async function readProposalStates(ledger: Ledger, records: ProposalRecords, now: Date): Promise<ProposalStatus[]> {
  const branches = await ledger.listBranches(proposalPrefix);
  const tips = new Map<string, BranchTip>(branches.map((b) => [b.branch, b]));
  const names = new Set([...tips.keys(), ...Object.keys(records.proposals)]);
  // No branch and no record: nothing to look for in the history (the walk reads up to 20,000 commits).
  if (names.size === 0) return [];
  const reachable = await readReachable(ledger);
  const out: ProposalStatus[] = [];
  for (const branch of [...names].sort()) {
    const parsed = parseProposalBranch(branch);
    if (parsed === undefined) continue;
    const tip = tips.get(branch)?.commit;
    const record = records.proposals[branch];
    let state: ProposalState;
    if ((tip !== undefined && reachable.has(tip)) || (record !== undefined && reachable.has(record.commit))) state = 'accepted';
    else if (record?.declined_at !== undefined) state = 'declined';
    else if (tip === undefined) {
      state = 'declined';
      if (record !== undefined) record.declined_at = now.toISOString();
    } else state = record !== undefined && record.commit !== tip ? 'edited' : 'open';
    out.push({
      branch,
      kind: parsed.kind,
      name: parsed.name,
      state,
      ...(tip === undefined ? {} : { commit: tip }),
      ...(record ? { fingerprint: record.fingerprint, written_at: record.written_at } : {}),
      ...(record?.declined_at ? { declined_at: record.declined_at } : {}),
    });
  }
  return out;
}
