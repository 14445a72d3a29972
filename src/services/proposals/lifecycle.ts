import { join } from 'node:path';
import { stringify } from 'yaml';
import type { CuratorState } from '../../core/config/state.js';
import { stateChanges } from '../../core/config/state-changes.js';
import { metaDir, skillFileName } from '../../core/layout.js';
import { buildCommitMessage, type SkillAction } from '../../core/ledger/trailers.js';
import { applyDecision, applySeeds, type LifecycleDecision } from '../../core/lifecycle/index.js';
import type { DeferredTransition } from '../../core/proposals/overlap.js';
import { codeSpan, escapeMarkdown } from '../../core/report/markdown-inert.js';
import { transitionReport, type TransitionReport } from '../../core/report/run-report.js';
import type { FileChange, Ledger } from '../../ledger/ledger.js';
import { archiveTarget, moveChanges } from '../manage/person-acts.js';
import type { LibrarySnapshot } from '../curator/read-library.js';
import { readPinned } from '../curator/read-library.js';
import { buildProposalBranch, buildProposalFingerprint } from './branch.js';
import { kindLabels, readTrailerBlock, type BranchProposal } from './proposal.js';

type Transition = LifecycleDecision & { kind: 'transition' };

/** Least consequential first: the trailer parser keeps the last `Skill-Action`, so it reads the weightiest. */
const actionOrder: { to: TransitionReport['to']; action: SkillAction; done: string }[] = [
  { to: 'active', action: 'reactivate', done: 'reactivated' },
  { to: 'stale', action: 'mark-stale', done: 'marked stale' },
  { to: 'archived', action: 'archive', done: 'archived' },
];

/** What a lifecycle proposal decides: the same transitions give the same fingerprint, whatever the run. */
export function buildLifecycleFingerprint(transitions: readonly Pick<TransitionReport, 'skill' | 'from' | 'to'>[]): string {
  return buildProposalFingerprint(
    'lifecycle',
    transitions.map((t) => `${t.skill}:${t.from}>${t.to}`),
  );
}

/** The text of a lifecycle proposal (no file changes): what the Action's pull request and the local branch's commit say. */
export type LifecycleText = Omit<BranchProposal, 'changes'>;

/**
 * The lifecycle transitions of a run as one proposal's text, or undefined when
 * there are none. Transitions held back for an umbrella proposal are named in
 * the reasons, so a reviewer sees why a stale skill is not in this one.
 */
export function buildLifecycleText(input: {
  transitions: readonly TransitionReport[];
  runId: string;
  deferred?: readonly DeferredTransition[];
}): LifecycleText | undefined {
  const { transitions, runId } = input;
  if (transitions.length === 0) return undefined;
  const kinds = actionOrder.filter((o) => transitions.some((t) => t.to === o.to));
  const summary = kinds.map((o) => `${transitions.filter((t) => t.to === o.to).length} ${o.done}`).join(', ');
  const fingerprint = buildLifecycleFingerprint(transitions);
  const deferred = input.deferred ?? [];
  const body = [
    ...transitions.map((t) => `- ${t.skill}: ${t.from} -> ${t.to} (${t.reason})`),
    ...(deferred.length > 0
      ? [
          '',
          'Left out, because an umbrella proposal changes them:',
          ...deferred.map((d) => `- ${d.skill}: ${d.from} -> ${d.to} waits for ${buildProposalBranch('umbrella', d.umbrella)}`),
        ]
      : []),
    '',
    `Proposed by curator run ${runId}; proposal ${fingerprint}.`,
  ].join('\n');
  const actions = kinds.map((o) => o.action);
  const last = actions.at(-1) as SkillAction;
  const single = buildCommitMessage({
    subject: `skill(curate): lifecycle — ${summary}`,
    body,
    trailers: { action: last, skills: transitions.map((t) => t.skill), actor: 'curator', run: runId, reverts: [] },
  });
  // One Skill-Action line per kind of transition; git keeps them all, our parser the last.
  const extra = actions
    .slice(0, -1)
    .map((a) => `Skill-Action: ${a}\n`)
    .join('');
  const message = single.replace(`\nSkill-Action: ${last}\n`, `\n${extra}Skill-Action: ${last}\n`);
  const reasons = [
    ...transitions.map(
      (t) =>
        `${codeSpan(t.skill)}: ${t.from} → **${t.to}** — ${escapeMarkdown(t.reason)} (last activity ${t.anchor.slice(0, 10)}, ${escapeMarkdown(t.anchor_source)})`,
    ),
    ...deferred.map(
      (d) =>
        `${codeSpan(d.skill)} is left out (${d.from} → ${d.to} would be due): the umbrella proposal ${codeSpan(buildProposalBranch('umbrella', d.umbrella))} changes it`,
    ),
  ];
  return {
    kind: 'lifecycle',
    name: 'lifecycle',
    branch: buildProposalBranch('lifecycle'),
    fingerprint,
    title: `skillgarden: lifecycle — ${summary}`,
    labels: ['skillgarden', kindLabels.lifecycle],
    message,
    trailerBlock: readTrailerBlock(message),
    reasons,
    structured: stringify({
      prunings: transitions.filter((t) => t.to !== 'active').map((t) => ({ name: t.skill, to: t.to, reason: t.reason })),
      reactivations: transitions.filter((t) => t.to === 'active').map((t) => ({ name: t.skill, reason: t.reason })),
      ...(deferred.length > 0 ? { deferred: deferred.map((d) => ({ name: d.skill, to: d.to, umbrella: d.umbrella })) } : {}),
    }),
    report: [
      '| Skill | From | To | Why |',
      '| --- | --- | --- | --- |',
      ...transitions.map((t) => `| ${codeSpan(t.skill)} | ${t.from} | ${t.to} | ${escapeMarkdown(t.reason)} |`),
      '',
    ].join('\n'),
    skills: transitions.map((t) => t.skill),
  };
}

/**
 * The files one transition moves: an archive moves the whole package to `.archive/` (restorable);
 * other transitions move nothing. Skills named alike in other roots (shadowed: the library serves
 * the first, `library/duplicate-name`) share the name's record, use and history, so they are
 * archived with it, each into its own root's `.archive/` (two locations that would land on one
 * archive folder are refused by the ledger as a conflict, nothing moved). A twin pinned in its own
 * frontmatter stays where it is: a pin is a person's word for that folder.
 */
export async function buildTransitionMoves(
  ledger: Ledger,
  repoDir: string,
  snapshot: Pick<LibrarySnapshot, 'skills' | 'library'>,
  decision: Transition,
  now: Date,
): Promise<FileChange[]> {
  if (decision.to !== 'archived') return [];
  const skill = snapshot.skills.find((s) => s.name === decision.name);
  if (!skill) throw new Error(`skill ${decision.name} vanished during the run`);
  const twins = snapshot.library.shadowed.filter((s) => s.name === decision.name && !readPinned(join(s.dir, skillFileName)));
  const changes: FileChange[] = [];
  for (const location of [skill.location, ...twins]) {
    const target = archiveTarget(repoDir, location.root, location.category, location.name, now);
    changes.push(...moveChanges(location.path, target));
  }
  return changes;
}

export interface LifecycleProposalInput {
  repoDir: string;
  runId: string;
  now: Date;
  snapshot: Pick<LibrarySnapshot, 'skills' | 'state' | 'library'>;
  transitions: readonly Transition[];
  /** Seed records and forgotten records, written with the transitions (the run's bookkeeping). */
  seeds?: readonly string[];
  forgotten?: readonly string[];
  deferred?: readonly DeferredTransition[];
}

/**
 * All lifecycle transitions of a run as the one commit of `skillgarden/lifecycle`
 * (parent: the ledger's HEAD): the state files after every transition and the
 * run's bookkeeping, and each archived package moved. Undefined when there is
 * no transition (bookkeeping alone is no proposal).
 */
export async function buildLifecycleBranchProposal(ledger: Ledger, input: LifecycleProposalInput): Promise<BranchProposal | undefined> {
  const text = buildLifecycleText({
    transitions: input.transitions.map((t) => transitionReport(t, null)),
    runId: input.runId,
    ...(input.deferred ? { deferred: input.deferred } : {}),
  });
  if (text === undefined) return undefined;
  const at = input.now.toISOString();
  const changes: FileChange[] = [];
  let state: CuratorState = input.snapshot.state;
  for (const decision of input.transitions) {
    changes.push(...(await buildTransitionMoves(ledger, input.repoDir, input.snapshot, decision, input.now)));
    state = applyDecision(state, decision, at);
  }
  state = applySeeds(state, input.seeds ?? [], at);
  const skills = { ...state.skills };
  for (const name of input.forgotten ?? []) delete skills[name];
  state = { ...state, skills, last_run_at: at, last_run_id: input.runId };
  // Each state file it writes as the tree holds it (`null`: absent): one in the one-file layout is migrated here.
  const oids = new Map((await ledger.listFiles(metaDir)).map((f) => [f.path, f.oid]));
  for (const change of stateChanges(input.snapshot.state, state, [...oids.keys()]))
    changes.push({ ...change, expected: oids.get(change.path) ?? null });
  return { ...text, changes };
}
