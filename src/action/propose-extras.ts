import { SkillgardenError } from '../core/errors.js';
import { buildCommitMessage } from '../core/ledger/trailers.js';
import type { Ledger } from '../ledger/ledger.js';
import { openLedger } from '../ledger/open-ledger.js';
import { applyPlan, planLibrary } from '../services/consolidate/index.js';
import { readExistingSkills, runDetect } from '../services/detect.js';
import { readConfig } from '../services/config-file.js';
import { openLibrary } from '../store/layout/discover-library.js';
import { buildNewSkillProposal, buildUmbrellaProposal, type PendingProposal } from './extra-proposals.js';
import type { Git } from './git.js';
import type { GitHubApi } from './github-api.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo } from './io.js';
import { renderProposalBody } from './pr-body.js';
import {
  decideProposal,
  publishedBranch,
  publishProposal,
  readBranchState,
  withdrawProposal,
  type PullOutcome,
  type PublishContext,
  type Publishing,
} from './publish-proposal.js';
import { botBranchPrefix, checkBranchName } from './repo-ops.js';
import { runUrl, validateProposal } from './validate-proposal.js';

export interface ExtrasInput {
  inputs: ActionInputs;
  io: ActionIo;
  api: GitHubApi;
  scratch: Git;
  base: { branch: string; sha: string };
  runId: string;
  skillsDir: string;
  consolidate: boolean;
  transcripts: string[];
  publishing: Publishing;
}

interface Job extends PendingProposal {
  apply: (ledger: Ledger) => Promise<unknown>;
}

/** Umbrella plans and drafted skills, each its own branch, commit and pull request; stale ones of the same kinds withdrawn. */
export async function proposeExtras(x: ExtrasInput): Promise<PullOutcome[]> {
  const ctx: PublishContext = { api: x.api, git: x.scratch, base: x.base, publishing: x.publishing };
  await checkoutBase(x.scratch, x.base.sha);
  const jobs = [...(x.consolidate ? await planUmbrellas(x) : []), ...(x.transcripts.length > 0 ? await planNewSkills(x) : [])];
  const outcomes: PullOutcome[] = [];
  for (const job of jobs) outcomes.push(...(await proposeOne(x, ctx, job)));
  const kinds = [...(x.consolidate ? ['umbrella/'] : []), ...(x.transcripts.length > 0 ? ['new/'] : [])].map(
    (k) => `${botBranchPrefix}${k}`,
  );
  const current = new Set(jobs.map((j) => publishedBranch(ctx, j.proposal.branch)));
  for (const pull of await x.api.listOpenPulls()) {
    // Another base branch's proposals are that base's runs' to withdraw.
    if (pull.base.ref !== x.base.branch || !kinds.some((k) => pull.head.ref.startsWith(k)) || current.has(pull.head.ref)) continue;
    const state = await readBranchState(ctx, pull.head.ref, { suffixed: true });
    outcomes.push(...(await withdrawProposal(ctx, state, `The latest curator run (${x.runId}) no longer proposes this.`)));
  }
  return outcomes;
}

async function planUmbrellas(x: ExtrasInput): Promise<Job[]> {
  const { result } = await planLibrary(x.scratch.dir, { now: x.inputs.now });
  return result.plans.map((plan) => ({
    ...buildUmbrellaProposal(plan, x.inputs.extraLabels),
    apply: (ledger: Ledger) => applyPlan(ledger, plan, { runId: x.runId }),
  }));
}

async function planNewSkills(x: ExtrasInput): Promise<Job[]> {
  // Every root's skills count as existing: a pattern already a skill in another root is not drafted again.
  const library = openLibrary(x.scratch.dir, x.inputs.skillsDir || readConfig(x.scratch.dir).config.skills_dir);
  const report = await runDetect({
    transcripts: x.transcripts,
    cwd: x.inputs.workspace,
    existingSkills: await readExistingSkills(library),
  });
  const jobs: Job[] = [];
  for (const pattern of report.patterns) {
    const draft = pattern.draft;
    if (!draft) continue;
    const path = `${x.skillsDir}/${draft.name}/SKILL.md`;
    const message = buildCommitMessage({
      subject: `skill(create): ${draft.name} — drafted from a pattern in ${pattern.sessions} sessions`,
      body: `Tools: ${pattern.tools.join(' -> ')}\nPattern ${pattern.fingerprint}, confidence ${pattern.confidence.toFixed(2)}.`,
      trailers: { action: 'create', skills: [draft.name], actor: 'curator', run: x.runId, reverts: [] },
    });
    jobs.push({
      ...buildNewSkillProposal({ ...pattern, draft }, x.inputs.extraLabels),
      apply: (ledger) => ledger.commit({ message, changes: [{ path, content: draft.text, expected: null }] }),
    });
  }
  return jobs;
}

async function proposeOne(x: ExtrasInput, ctx: PublishContext, job: Job): Promise<PullOutcome[]> {
  const { proposal } = job;
  if (!(await checkBranchName(x.scratch, publishedBranch(ctx, proposal.branch)))) {
    x.io.warning(`Skipped a ${proposal.kind} proposal: git refuses the branch name ${publishedBranch(ctx, proposal.branch)}.`);
    return [];
  }
  const state = await readBranchState(ctx, proposal.branch);
  const decision = decideProposal(state, proposal.fingerprint, x.base.sha);
  if (decision.kind === 'edited')
    x.io.warning(`${state.branch} has commits by someone else: pull request #${decision.pull.number} is left as it is.`);
  if (decision.kind === 'unchanged' || decision.kind === 'edited')
    return [{ branch: state.branch, number: decision.pull.number, url: decision.pull.html_url, operation: 'unchanged' }];
  if (decision.kind === 'declined') {
    x.io.info(`Not proposing ${proposal.branch} again: it was closed without merging in #${decision.pull.number}.`);
    return withdrawProposal(ctx, state, `This proposal was declined in #${decision.pull.number}.`);
  }
  const commit = await commitJob(x, job);
  const message = await x.scratch.text(['show', '-s', '--format=%B', commit]);
  const full = { ...proposal, commitMessage: message, trailerBlock: message.trimEnd().split('\n\n').at(-1) ?? '' };
  const body = renderProposalBody({
    proposal: full,
    runId: x.runId,
    validation: validateProposal(x.scratch.dir, x.inputs),
    report: job.report,
    fullReportUrl: runUrl(x.inputs),
  });
  const outcome = await publishProposal(ctx, state, full, { commit: async () => commit, body });
  return outcome ? [outcome] : [];
}

/** The job's one commit, on top of the base and nothing else. */
async function commitJob(x: ExtrasInput, job: Job): Promise<string> {
  await checkoutBase(x.scratch, x.base.sha);
  const ledger = await openLedger(x.scratch.dir, { backend: 'isomorphic-git', now: () => x.inputs.now });
  try {
    await job.apply(ledger);
  } finally {
    await ledger.close();
  }
  const [commit = '', parent = ''] = (await x.scratch.text(['show', '-s', '--format=%H%n%P', 'HEAD'])).split('\n');
  if (parent !== x.base.sha)
    throw new SkillgardenError(
      'action/commit-mismatch',
      `The ${job.proposal.kind} proposal did not make exactly one commit on the base; nothing was pushed.`,
      { data: { commit } },
    );
  return commit;
}

async function checkoutBase(git: Git, sha: string): Promise<void> {
  await git.run(['checkout', '--quiet', '--force', '-B', 'skillgarden-proposal', sha]);
  await git.run(['clean', '--quiet', '-fd']);
}
