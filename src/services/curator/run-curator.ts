import { recordChange, stateChanges, type StateFileChange } from '../../core/config/state-changes.js';
import type { SkillStateRecord } from '../../core/lifecycle/types.js';
import { isSkillgardenError } from '../../core/errors.js';
import { buildCommitMessage, type SkillAction } from '../../core/ledger/trailers.js';
import { checkGates } from '../../core/lifecycle/gates.js';
import { applySeeds, planLifecycle, recordAfter, type LifecycleDecision, type LifecyclePlan } from '../../core/lifecycle/index.js';
import { countsAfter, transitionReport, type RunReport, type StateCounts } from '../../core/report/run-report.js';
import type { CommitBatch, FileChange, Ledger } from '../../ledger/ledger.js';
import { openLedger } from '../../ledger/open-ledger.js';
import { metaDir } from '../../core/layout.js';
import { readLibrary, type LibrarySnapshot } from './read-library.js';
import { buildRunId, buildRunTag } from './run-id.js';
import { baseReport, finish, withPlannedTransitions } from './run-report.js';
import { noTranscriptMatch } from '../detect.js';
import { planSnapshot } from '../consolidate/index.js';
import type { ConsolidationPlan, PlanReport } from '../../core/consolidate/index.js';
import { holdBackForUmbrellas, type DeferredTransition } from '../../core/proposals/overlap.js';
import type { CurateOptions } from './curate-options.js';
import { plannedMergesOf, readRunTranscripts } from './evidence-pass.js';
import type { EvidenceReport } from '../../core/evidence/types.js';
import { buildLifecycleBranchProposal, buildTransitionMoves } from '../proposals/lifecycle.js';
import type { BranchProposal } from '../proposals/proposal.js';

export type { CurateOptions } from './curate-options.js';

export interface CurateResult {
  report: RunReport;
  snapshot: LibrarySnapshot;
  plans?: PlanReport;
  umbrellas?: ConsolidationPlan[];
  /** With `propose`: the run's lifecycle transitions as one proposal, or undefined when there are none. */
  lifecycle?: BranchProposal;
  /** Transitions held back because an umbrella proposal of this run changes the skill. */
  deferred: DeferredTransition[];
  /** The tag on the commit the run started from, when it committed (pushed with its commits). */
  tag?: string;
  /** What the run's transcripts say each skill does (when transcripts were given): misses keep a skill from going stale. */
  evidence?: EvidenceReport;
}

/** One curator pass: read once, plan the lifecycle, commit each transition (tagged as one run), report. */
export async function runCurator(options: CurateOptions): Promise<CurateResult> {
  const started = performance.now();
  // A pass that writes nothing (a dry run, a gated one) never opens the ledger: its set-up asks git for the configuration.
  let ledger: Ledger | undefined;
  try {
    const snapshot = await readLibrary(options.repoDir, {
      now: options.now,
      ...(options.requireSkills ? { requireSkills: options.requireSkills } : {}),
    });
    // Plans are read from the tree before any transition of this run: proposals a person reviews, applied elsewhere.
    const planned =
      (options.consolidate ?? snapshot.config.consolidate)
        ? await planSnapshot(snapshot, { now: options.now, ...(options.llm ? { llm: options.llm } : {}) })
        : undefined;
    const plans = planned?.report;
    // Transcripts read once per run, for all three: the patterns they repeat, the evidence the lifecycle keeps what
    // sessions needed by and the description proposals are built from, and the report's evidence section (its
    // listing budget counting what the planned umbrellas save).
    const { detected, evidence } = await readRunTranscripts(options, snapshot, plannedMergesOf(plans));
    const runId = buildRunId(options.now, snapshot.history.head ?? undefined);
    const readMs = performance.now() - started;
    const gates = checkGates(snapshot.config, snapshot.state, options.now, {
      scheduled: options.scheduled ?? false,
      ...(options.idleHours !== undefined ? { idleHours: options.idleHours } : {}),
    });
    const { plan, deferred } = await holdBack(
      planLifecycle(snapshot.skills, snapshot.config, options.now),
      planned?.result.plans ?? [],
      options,
    );
    const extra = {
      ...(planned ? { plans: planned.report, umbrellas: planned.result.plans } : {}),
      deferred,
      ...(evidence ? { evidence } : {}),
    };
    const planMs = performance.now() - started - readMs;
    const before: StateCounts = {
      active: snapshot.skills.filter((s) => s.record?.state !== 'stale').length,
      stale: snapshot.skills.filter((s) => s.record?.state === 'stale').length,
      archived: snapshot.archived.length,
    };
    const present = new Set(snapshot.skills.map((s) => s.name));
    const forgotten = Object.keys(snapshot.state.skills)
      .filter((name) => !present.has(name))
      .sort();
    const report = baseReport({ runId, options, gates, before, plan, forgotten, snapshot });
    report.patterns = detected?.patterns ?? [];
    if (evidence) report.evidence = evidence;
    report.plans = plans?.plans ?? [];
    if (detected)
      report.warnings.push(
        ...detected.skipped.map((s) => ({
          code: s.reason === noTranscriptMatch ? 'detect/no-match' : 'detect/skipped',
          message: `${s.count} skipped: ${s.reason}`,
          file: s.file,
        })),
      );
    report.skipped.push(
      ...deferred.map((d) => ({
        skill: d.skill,
        reason: 'in-umbrella-proposal',
        detail: `${d.from} -> ${d.to} waits: the umbrella proposal skillgarden/umbrella/${d.umbrella} changes this skill`,
      })),
    );
    const firstRun = !options.propose && gates.applied && gates.first_run && (options.deferFirstRun ?? true) && gates.blocked_by === null;
    if (gates.blocked_by !== null) return { ...finish(report, 'skipped', { readMs, planMs, started }, snapshot), ...extra };
    if (options.dryRun)
      return {
        ...finish(withPlannedTransitions(report, plan), 'dry-run', { readMs, planMs, started }, snapshot),
        ...extra,
      };
    ledger = await openLedger(options.repoDir, { backend: options.backend ?? 'auto', now: () => options.now });
    if (options.propose) {
      const lifecycle = await buildLifecycleBranchProposal(ledger, {
        repoDir: options.repoDir,
        runId,
        now: options.now,
        snapshot,
        transitions: plan.decisions.filter((d): d is LifecycleDecision & { kind: 'transition' } => d.kind === 'transition'),
        seeds: plan.seeds,
        forgotten,
        deferred,
      });
      return {
        ...finish(withPlannedTransitions(report, plan), 'completed', { readMs, planMs, started }, snapshot),
        ...extra,
        ...(lifecycle ? { lifecycle } : {}),
      };
    }
    const ctx = {
      repoDir: options.repoDir,
      ledger,
      runId,
      records: new Map(Object.entries(snapshot.state.skills)),
      expected: await stateOids(ledger),
      now: options.now.toISOString(),
      snapshot,
    };
    // The run's commits are one batch: each transition its own commit, the branch moved once (write-batch.ts).
    const batch = ledger.beginBatch();
    const written: Array<LifecycleDecision & { kind: 'transition' }> = [];
    const seeds = firstRun ? [] : plan.seeds;
    const transitions = firstRun
      ? []
      : plan.decisions.filter((d): d is LifecycleDecision & { kind: 'transition' } => d.kind === 'transition');
    // A library in the one-file layout moves to a file per skill in a commit of its own, first: rolling back one
    // transition then gives back that skill's record alone, and rolling back the run the old file.
    const migrated = snapshot.state.version === 1 && (firstRun || transitions.length + seeds.length + forgotten.length > 0);
    if (migrated) await addMigration(ctx, batch);
    // The library's own error findings (twin names, a missing manifest path) are reported and the run goes on;
    // only a write of this run that fails makes it fail.
    const libraryErrors = report.errors.length;
    {
      for (const [index, decision] of transitions.entries()) {
        try {
          await addTransition(ctx, batch, decision);
          written.push(decision);
        } catch (error) {
          report.errors.push({
            code: isSkillgardenError(error) ? error.code : 'curator/failed',
            message: (error as Error).message,
            file: decision.name,
          });
        }
        options.onProgress?.(index + 1, transitions.length);
      }
    }
    // A failed run commits nothing (its report says what failed); a run with nothing to record writes no commit.
    const failed = report.errors.length > libraryErrors;
    if (failed || (!firstRun && written.length === 0 && seeds.length === 0 && forgotten.length === 0)) {
      return { ...finish(report, failed ? 'failed' : 'completed', { readMs, planMs, started }, snapshot), ...extra };
    }
    await addBookkeeping(ctx, batch, seeds, forgotten);
    // The tag marks the commit the run started from: set before the batch moves the branch.
    const tag = buildRunTag(runId);
    await ledger.tag(tag);
    const { commits } = await batch.publish();
    written.forEach((decision, i) => report.transitions.push(transitionReport(decision, commits[i + (migrated ? 1 : 0)]!)));
    for (const item of commits) report.commits.push(item);
    report.counts.after = countsAfter(report.counts.before, report.transitions);
    report.undo = `skillgarden rollback --run ${runId}`;
    return { ...finish(report, firstRun ? 'first-run' : 'completed', { readMs, planMs, started }, snapshot), ...extra, tag };
  } finally {
    await ledger?.close();
  }
}

interface RunContext {
  repoDir: string;
  ledger: Ledger;
  runId: string;
  /** The records as this run's commits leave them (updated a skill at a time). */
  records: Map<string, SkillStateRecord>;
  /**
   * The blob of each state file the run started from (`null`: absent), checked by the first write of that file only:
   * the batch's later commits build on its own tip, and a replay on a moved branch checks the first again.
   */
  expected: Map<string, string | null | undefined>;
  now: string;
  snapshot: LibrarySnapshot;
}

const actionFor: Record<'stale' | 'active' | 'archived', SkillAction> = { stale: 'mark-stale', active: 'reactivate', archived: 'archive' };

/** One transition, one commit of the run's batch: the skill's record file (and, for an archive, the whole package moved). */
async function addTransition(ctx: RunContext, batch: CommitBatch, decision: LifecycleDecision & { kind: 'transition' }): Promise<void> {
  const current = ctx.records.get(decision.name);
  const record = recordAfter(current, decision, ctx.now);
  const changes: FileChange[] = await buildTransitionMoves(ctx.ledger, ctx.repoDir, ctx.snapshot, decision, new Date(ctx.now));
  // A transition that moves nothing and leaves the record as it was still writes its record (the same bytes).
  const change =
    recordChange(current, record, decision.name) ?? (changes.length === 0 ? recordChange(undefined, record, decision.name) : undefined);
  const writes = change ? [change] : [];
  const action = actionFor[decision.to];
  const message = buildCommitMessage({
    subject: `skill(${action}): ${decision.name} — ${decision.from} → ${decision.to}`,
    body: `${decision.reason}.\nAnchor: ${decision.anchor} (${decision.anchorSource}).`,
    trailers: { action, skills: [decision.name], actor: 'curator', run: ctx.runId, reverts: [] },
  });
  await batch.add({ message, changes: [...changes, ...withExpected(ctx, writes)] });
  markWritten(ctx, writes);
  if (record) ctx.records.set(decision.name, record);
  else ctx.records.delete(decision.name);
}

/** The move to a file per skill (a library whose state is version 1): `state.json` without its records, each record in its file. */
async function addMigration(ctx: RunContext, batch: CommitBatch): Promise<void> {
  const state = ctx.snapshot.state;
  const changes = stateChanges(state, { ...state, version: 2 }, [...ctx.expected.keys()]);
  const message = buildCommitMessage({
    subject: `skill(curate): run ${ctx.runId} — the curator's state moved to a file per skill (${Object.keys(state.skills).length} records)`,
    trailers: { action: 'curate', skills: [], actor: 'curator', run: ctx.runId, reverts: [] },
  });
  await batch.add({ message, changes: withExpected(ctx, changes) });
  markWritten(ctx, changes);
}

/** The run's last commit: its time (for the interval gate), seed records, and records of skills gone from the tree. */
async function addBookkeeping(ctx: RunContext, batch: CommitBatch, seeds: string[], forgotten: string[]): Promise<void> {
  const before = { ...ctx.snapshot.state, version: 2 as const, skills: Object.fromEntries(ctx.records) };
  let after = applySeeds(before, seeds, ctx.now);
  const skills = { ...after.skills };
  for (const name of forgotten) delete skills[name];
  after = { ...after, skills, last_run_at: ctx.now, last_run_id: ctx.runId };
  const message = buildCommitMessage({
    subject: `skill(curate): run ${ctx.runId} — ${seeds.length} seeded, ${forgotten.length} forgotten`,
    trailers: { action: 'curate', skills: seeds.slice(0, 100), actor: 'curator', run: ctx.runId, reverts: [] },
  });
  const changes = stateChanges(before, after);
  await batch.add({ message, changes: withExpected(ctx, changes) });
  markWritten(ctx, changes);
  ctx.records = new Map(Object.entries(after.skills));
}

/** The changes, each with the blob its file had when the run started (`null`: none) if this is the run's first write of it. */
function withExpected(ctx: RunContext, changes: readonly StateFileChange[]): FileChange[] {
  return changes.map((change) => {
    const expected = ctx.expected.has(change.path) ? ctx.expected.get(change.path) : null;
    return expected === undefined ? change : { ...change, expected };
  });
}

/** Files the batch has written: their later writes build on its tip, checked by nothing more. */
function markWritten(ctx: RunContext, changes: readonly StateFileChange[]): void {
  for (const change of changes) ctx.expected.set(change.path, undefined);
}

/** Every state file's blob as the branch holds it. */
async function stateOids(ledger: Ledger): Promise<Map<string, string | null | undefined>> {
  return new Map((await ledger.listFiles(metaDir)).map((f) => [f.path, f.oid]));
}

/** Held back by the umbrellas a person has not declined (asked only when one holds something back). */
async function holdBack(
  plan: LifecyclePlan,
  umbrellas: readonly ConsolidationPlan[],
  options: CurateOptions,
): Promise<{ plan: LifecyclePlan; deferred: DeferredTransition[] }> {
  const held = holdBackForUmbrellas(plan, umbrellas);
  if (held.deferred.length === 0 || !options.readDeclinedUmbrellas) return held;
  const declined = new Set(await options.readDeclinedUmbrellas(umbrellas.filter((u) => held.deferred.some((d) => d.umbrella === u.into))));
  return declined.size === 0
    ? held
    : holdBackForUmbrellas(
        plan,
        umbrellas.filter((u) => !declined.has(u)),
      );
}
