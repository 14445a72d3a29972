import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ConsolidationPlan, PlanReport } from '../../core/consolidate/index.js';
import type { DetectedPattern } from '../../core/patterns/index.js';
import type { DeferredTransition } from '../../core/proposals/overlap.js';
import type { RunReport } from '../../core/report/run-report.js';
import { codeSpan } from '../../core/report/markdown-inert.js';
import { resolveScanConfig } from '../../core/scan/index.js';
import {
  buildDraftBranchProposal,
  buildProposalBranch,
  buildProposalFingerprint,
  buildUmbrellaBranchProposal,
  describeRefusal,
  gateProposals,
  listProposals,
  listUmbrellaDecisions,
  type BranchProposal,
  type CuratorProposalKind,
} from '../proposals/index.js';
import { buildDescribeProposals } from './evidence-pass.js';
import { readDraftsRoot, type LibrarySnapshot } from './read-library.js';
import { buildReportFiles, type RunReportFiles } from './report-files.js';
import { runCurator, type CurateOptions } from './run-curator.js';

/** A proposal as a person's decision on it is looked up: its branch and what it decides. */
export interface ProposalRef {
  branch: string;
  fingerprint: string;
}

export interface RunCurateOptions extends Omit<CurateOptions, 'readDeclinedUmbrellas' | 'requireSkills'> {
  /** Curate a library with no skill at all (default: fail, saying where discovery looked). */
  allowEmpty?: boolean;
  /**
   * The fingerprints of these proposals a person declined: asked for the umbrellas that hold a transition back
   * (a declined one holds nothing back). Default: the local proposal records (`skillgarden proposals`); the Action
   * asks its pull requests.
   */
  readDeclined?: (proposals: readonly ProposalRef[]) => Promise<ReadonlySet<string>>;
  /** The root drafted skills are proposed in (the Action's `skills-dir`); default: the library's first root. */
  draftsRoot?: string;
  /** Labels added to every proposal (the Action's `labels`). */
  labels?: readonly string[];
}

export interface RunCurateResult {
  report: RunReport;
  snapshot: LibrarySnapshot;
  plans?: PlanReport;
  /** Every proposal of the run, each one commit on its own branch: the lifecycle (with `propose`), umbrellas, drafts. */
  proposals: BranchProposal[];
  /** The kinds this run looked at in full: an open proposal of such a kind that it no longer makes is withdrawn. */
  withdraw: CuratorProposalKind[];
  /** Transitions held back because an umbrella proposal of this run changes the skill. */
  deferred: DeferredTransition[];
  /** The run tag to push with its commits, when it committed. */
  tag?: string;
  /** The report folder's files, without an edge's own sections. */
  files: RunReportFiles;
}

/**
 * The whole curate workflow the CLI and the Action share: one pass over one snapshot (lifecycle, detection,
 * consolidation), every proposal built with its fingerprint, declined umbrellas holding nothing back, the report's
 * files. Writing the proposals is the edge's: local branches (the CLI) or pull requests (the Action).
 */
export async function runCurate(options: RunCurateOptions): Promise<RunCurateResult> {
  const { allowEmpty, readDeclined = readLocalDeclines(options), draftsRoot, labels = [], ...pass } = options;
  const result = await runCurator({
    ...pass,
    requireSkills: { allowEmpty: allowEmpty ?? false },
    readDeclinedUmbrellas: async (plans) => {
      const refs = plans.map((plan) => ({ plan, ...umbrellaRef(plan) }));
      const declined = await readDeclined(refs.map(({ branch, fingerprint }) => ({ branch, fingerprint })));
      return refs.filter((r) => declined.has(r.fingerprint)).map((r) => r.plan);
    },
  });
  const { report, snapshot, plans, lifecycle, deferred, tag, evidence } = result;
  const umbrellas = result.umbrellas ?? [];
  const runId = report.run_id;
  const root = draftsRoot || readDraftsRoot(snapshot);
  const described = evidence ? await buildDescribeProposals(snapshot, evidence, runId) : undefined;
  const built = [
    ...(lifecycle ? [lifecycle] : []),
    ...umbrellas.map((plan) => withHeldBack(buildUmbrellaBranchProposal(plan, runId), deferred)),
    ...(report.patterns as DetectedPattern[]).flatMap((pattern) => buildDraftBranchProposal(pattern, root, runId) ?? []),
    ...(described?.proposals ?? []),
  ].map((p) => (labels.length > 0 ? { ...p, labels: [...p.labels, ...labels] } : p));
  const proposals = gateRun(built, snapshot, report);
  if (described) sayWhatWasDescribed(report, proposals, described.none);
  const mined = (options.transcripts ?? snapshot.config.transcripts).length > 0;
  const withdraw: CuratorProposalKind[] = [
    ...(options.propose ? ['lifecycle' as const] : []),
    ...(result.umbrellas ? ['umbrella' as const] : []),
    ...(mined ? (['new', 'describe'] as const) : []),
  ];
  return {
    report,
    snapshot,
    ...(plans ? { plans } : {}),
    proposals,
    withdraw,
    deferred,
    ...(tag ? { tag } : {}),
    files: buildReportFiles(report, { ...(plans ? { plans } : {}), deferred, proposed: proposals.length > 0 }),
  };
}

/**
 * A skill kept for being needed says what became of its wording: the branch of its description proposal, or why
 * there is none (the report would otherwise promise a proposal a reviewer cannot find).
 */
function sayWhatWasDescribed(report: RunReport, proposals: readonly BranchProposal[], none: ReadonlyMap<string, string>): void {
  const branches = new Map(proposals.filter((p) => p.kind === 'describe').map((p) => [p.name, p.branch]));
  report.skipped = report.skipped.map((skip) => {
    if (skip.reason !== 'needed') return skip;
    const branch = branches.get(skip.skill);
    const why = none.get(skip.skill) ?? 'its description proposal did not pass the checks (see the warnings)';
    return {
      ...skip,
      detail: `${skip.detail}; ${branch === undefined ? `no description proposal: ${why}` : `its description proposal: ${branch}`}`,
    };
  });
}

/**
 * Every proposal passes validate and the scan before it is proposed: one that fails is left out and named in
 * the report's warnings (so the run says so, and no pull request claims a check it did not pass).
 */
function gateRun(proposals: readonly BranchProposal[], snapshot: LibrarySnapshot, report: RunReport): BranchProposal[] {
  // A SKILL.md's text in the tree the run read is its base: an error it already had is not the proposal's.
  const base = (path: string) => {
    try {
      return readFileSync(join(snapshot.repoDir, path), 'utf8');
    } catch {
      return undefined;
    }
  };
  const { kept, refused } = gateProposals(proposals, {
    profile: snapshot.config.profile,
    scan: resolveScanConfig(snapshot.config.scan),
    base,
  });
  for (const check of refused) report.warnings.push({ code: 'proposals/refused', message: describeRefusal(check) });
  return kept;
}

/** An umbrella plan's branch and fingerprint, as its proposal (and its pull request's hidden marker) holds them. */
export function umbrellaRef(plan: ConsolidationPlan): ProposalRef {
  return {
    branch: buildProposalBranch('umbrella', plan.into),
    fingerprint: buildProposalFingerprint('umbrella', listUmbrellaDecisions(plan)),
  };
}

/** The CLI's memory of declines: the local proposal records (a dry run remembers nothing new). */
function readLocalDeclines(options: RunCurateOptions): (refs: readonly ProposalRef[]) => Promise<ReadonlySet<string>> {
  return async () => {
    const states = await listProposals(options.repoDir, { now: options.now, save: options.dryRun !== true });
    return new Set(states.flatMap((s) => (s.state === 'declined' && s.fingerprint ? [s.fingerprint] : [])));
  };
}

/** Proposals never overlap: the umbrella's body says which of its skills the lifecycle proposal leaves to it (and the lifecycle's says so too). */
function withHeldBack(proposal: BranchProposal, deferred: readonly DeferredTransition[]): BranchProposal {
  const held = deferred.filter((d) => d.umbrella === proposal.name);
  if (held.length === 0) return proposal;
  return {
    ...proposal,
    reasons: [
      ...proposal.reasons,
      ...held.map(
        (d) =>
          `${codeSpan(d.skill)} would be due ${d.from} → ${d.to}: the lifecycle proposal leaves it to this one (decided here, looked at again once this is merged or closed)`,
      ),
    ],
  };
}
