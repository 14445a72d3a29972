import { SkillgardenError } from '../../core/errors.js';
import type { ConsolidationPlan } from '../../core/consolidate/types.js';
import { buildCommitMessage } from '../../core/ledger/trailers.js';
import type { Author, FileChange, Ledger } from '../../ledger/ledger.js';

export interface ApplyPlanOptions {
  /** The curator run id (`Curator-Run`). */
  runId: string;
  author?: Author;
}

export interface ApplyPlanResult {
  commit: string;
  files: number;
}

/**
 * One ledger commit for the whole plan (DESIGN §8): the umbrella, the archive
 * moves and the rewritten references together, so a rejected merge is one
 * revert. Archive folders must not exist yet; the ledger refuses files with
 * uncommitted edits. Writes to the ledger's current branch.
 */
export async function applyPlan(ledger: Ledger, plan: ConsolidationPlan, options: ApplyPlanOptions): Promise<ApplyPlanResult> {
  if (plan.from.length === 0)
    throw new SkillgardenError('consolidate/empty-plan', `the plan for ${plan.into} absorbs nothing: nothing to apply`);
  const { message, changes } = buildPlanCommit(plan, options.runId);
  const result = await ledger.commit({ message, changes, ...(options.author ? { author: options.author } : {}) });
  return { commit: result.commit, files: changes.length };
}

/**
 * The one commit a plan is (DESIGN §8), wherever it is written: the current branch (`applyPlan`) or a proposal
 * branch. Archive folders must not exist yet (`expected: null`).
 */
export function buildPlanCommit(plan: ConsolidationPlan, runId: string): { message: string; changes: FileChange[] } {
  const archivePrefixes = plan.archived.map((a) => `${a.to}/`);
  const changes: FileChange[] = plan.changes.map((change) => ({
    path: change.path,
    content: change.content,
    ...(archivePrefixes.some((p) => change.path.startsWith(p)) ? { expected: null } : {}),
  }));
  const rewritten = plan.rewritten.length > 0 ? `\nReferences rewritten: ${plan.rewritten.join(', ')}` : '';
  const message = buildCommitMessage({
    subject: `skill(merge): ${plan.into} absorbs ${plan.from.join(', ')}`,
    body: `${plan.reason}\n\nArchived: ${plan.archived.map((a) => `${a.from} -> ${a.to}`).join(', ')}${rewritten}`,
    trailers: { action: 'merge', skills: [plan.into, ...plan.from], actor: 'curator', run: runId, reverts: [] },
  });
  return { message, changes };
}
