import { openLedger } from '../../ledger/open-ledger.js';
import { readPrimaryRoot } from '../../store/layout/discover-library.js';
import { readConfig } from '../config-file.js';
import type { ManageContext } from '../manage/context.js';
import type { BranchProposal } from '../proposals/index.js';
import type { Planned, SkillStatus } from './merge-skill.js';
import { planVendoredUpdates, type UpdatePlan } from './update.js';
import { buildUpdateProposal } from './update-proposal.js';

export type UpdateUnit = 'source' | 'skill';

export interface UpdateProposals {
  skills: SkillStatus[];
  /** One per source (or per skill) with a skill behind: the Action's pull requests. */
  proposals: BranchProposal[];
  /** Refused skills (dangerous upstream, invalid SKILL.md), with why: never proposed. */
  refused: { name: string; source: string; message: string }[];
}

/**
 * Every vendored skill's update in `repoDir` as proposals, grouped per source (same source and ref) or per skill,
 * written nowhere: the Action commits each on its branch and opens its pull request. The repository's own
 * profile and scan policy judge the upstream content, as `skillgarden update` judges it.
 */
export async function planUpdateProposals(repoDir: string, options: { per: UpdateUnit; now: Date }): Promise<UpdateProposals> {
  const { config } = readConfig(repoDir);
  const ledger = await openLedger(repoDir, { backend: 'isomorphic-git', now: () => options.now });
  try {
    const ctx: ManageContext = {
      repoDir,
      ledger,
      skillsDir: readPrimaryRoot(repoDir, config.skills_dir),
      roots: config.skills_dir ?? null,
      profile: config.profile,
      actor: 'curator',
    };
    const plan = await planVendoredUpdates(ctx, { names: [], check: false });
    const proposals = [...groupPlans(plan, options.per)].map(([name, plans]) =>
      buildUpdateProposal(plans, plan.lock, { name, actor: 'curator', now: options.now }),
    );
    const refused = plan.refused.map(({ name, error }) => ({
      name,
      source: plan.skills.find((s) => s.name === name)?.source ?? '',
      message: error.message,
    }));
    return { skills: plan.skills, proposals, refused };
  } finally {
    await ledger.close();
  }
}

/** The unit a pull request carries: a source and ref (named as the lock names them), or one skill. */
function groupPlans(plan: UpdatePlan, per: UpdateUnit): Map<string, Planned[]> {
  const groups = new Map<string, Planned[]>();
  for (const p of plan.plans) {
    const key = per === 'skill' ? p.status.name : `${p.entry.source}${p.entry.ref ? `@${p.entry.ref}` : ''}`;
    groups.set(key, [...(groups.get(key) ?? []), p]);
  }
  return groups;
}
