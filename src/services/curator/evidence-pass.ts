import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { buildDescribeProposal, explainNoDescribe } from '../../core/evidence/describe.js';
import type { PlannedMerge } from '../../core/evidence/budget.js';
import type { EvidenceReport } from '../../core/evidence/types.js';
import type { PlanReport } from '../../core/consolidate/render.js';
import { isCurated } from '../../core/lifecycle/plan-lifecycle.js';
import { parseSkill, stringField } from '../../core/skill/index.js';
import type { DetectReport } from '../../core/patterns/types.js';
import type { FileReadResult } from '../../store/transcripts/collector.js';
import { readTranscriptFiles } from '../../store/transcripts/read-transcripts.js';
import { DetectFold, detectReadOptions, expandDetectInputs } from '../detect.js';
import { evidenceDisplayPath, evidenceSkipsOf, startEvidence } from '../evidence/run-evidence.js';
import { applyDetected, curatorDetectOptions } from './detect-patterns.js';
import { buildDescribeBranchProposal } from '../proposals/describe.js';
import type { BranchProposal } from '../proposals/proposal.js';
import type { CurateOptions } from './curate-options.js';
import type { LibrarySnapshot } from './read-library.js';

/** Fewest missed sessions with a request before a description is proposed: one request is one person's words, not the task's. */
export const minDescribeRequests = 2;

/** What a curator run learns from its transcripts: the patterns they repeat and the evidence of each skill. */
export interface RunTranscripts {
  detected?: DetectReport;
  evidence?: EvidenceReport;
}

/**
 * Reads the run's transcripts once (when there are any) and feeds each file to both passes: the patterns mined
 * (`detect`, `applyDetected`) and the evidence (`evidence`), whose misses are set on the snapshot's skills so the
 * lifecycle keeps a skill sessions needed (DESIGN §6). Each pass names the files as its command does.
 */
export async function readRunTranscripts(
  options: CurateOptions,
  snapshot: LibrarySnapshot,
  plannedMerges: readonly PlannedMerge[] = [],
): Promise<RunTranscripts> {
  const transcripts = options.transcripts ?? snapshot.config.transcripts;
  if (transcripts.length === 0) return {};
  const detectOptions = await curatorDetectOptions(options, snapshot, transcripts);
  const inputs = await expandDetectInputs(detectOptions);
  const detect = new DetectFold(detectOptions, inputs.files.length);
  detect.skipped.push(...inputs.skipped);
  const evidence = await startEvidence({ repoDir: options.repoDir, now: options.now, plannedMerges });
  // A pattern that matched nothing is named as it was given: resolved, it would put the checkout's absolute path
  // (a home folder on a runner or a laptop) into run.json and the job summary.
  for (const skip of evidenceSkipsOf(inputs.expanded)) evidence.skip(skip);
  const results = readTranscriptFiles(inputs.files, detectReadOptions(detectOptions, inputs.displayPath));
  let index = 0;
  for await (const result of results) {
    detect.add(result);
    const file = inputs.files[result.partial === true ? index : index++] as string;
    evidence.add(renamed(result, evidenceDisplayPath(file, inputs.expanded.roots.get(file))));
  }
  const report = evidence.finish();
  const missed = new Map(report.skills.map((s) => [s.name, s.missed]));
  for (const skill of snapshot.skills) {
    const count = missed.get(skill.name) ?? 0;
    if (count > 0) skill.missed = count;
  }
  return { detected: applyDetected(await detect.finish(), options, snapshot), evidence: report };
}

/** The umbrella merges a run plans, as the listing budget's advice counts them (a demotion merges nothing). */
export function plannedMergesOf(plans: PlanReport | undefined): PlannedMerge[] {
  return (plans?.plans ?? []).filter((p) => p.kind !== 'demote').map((p) => ({ umbrella: p.into, members: [p.into, ...p.from] }));
}

/** A file's sessions and skips under another name (the same objects when the name is the same). */
function renamed(result: FileReadResult, file: string): FileReadResult {
  if (result.file === file) return result;
  return {
    ...result,
    file,
    sessions: result.sessions.map((session) => ({ ...session, file })),
    skipped: result.skipped.map((skip) => ({ ...skip, file })),
  };
}

/** The description proposals of a run, and for each other skill sessions needed, why it has none. */
export interface DescribePass {
  proposals: BranchProposal[];
  /** Skill name → why no description is proposed (pinned, a person's, too few requests, the words already there). */
  none: Map<string, string>;
}

/**
 * A description proposal for each curated skill that sessions needed and did not load, in the words they used
 * (`buildDescribeProposal`); for each other needed skill, why it has none, so the report never promises one.
 */
export async function buildDescribeProposals(snapshot: LibrarySnapshot, evidence: EvidenceReport, runId: string): Promise<DescribePass> {
  const skills = new Map(snapshot.skills.map((s) => [s.name, s]));
  const proposals: BranchProposal[] = [];
  const none = new Map<string, string>();
  for (const found of evidence.skills) {
    const skill = skills.get(found.name);
    if (!skill || found.missed === 0) continue;
    const requests = found.missed_sessions.flatMap((s) => (s.request === undefined ? [] : [s.request]));
    if (skill.pinned) none.set(found.name, 'pinned: the curator leaves its wording alone');
    else if (!isCurated(skill, snapshot.config)) none.set(found.name, "not agent-created: the curator leaves a person's wording alone");
    else if (requests.length < minDescribeRequests)
      none.set(
        found.name,
        `only ${requests.length} of the sessions that missed it say what they asked: too few to word a trigger (at least ${minDescribeRequests})`,
      );
    else {
      const text = await readFile(join(snapshot.repoDir, skill.dir, 'SKILL.md'), 'utf8');
      const input = readWording(text, `${skill.dir}/SKILL.md`);
      const proposal = input && buildDescribeProposal({ ...input, requests });
      if (proposal) proposals.push(buildDescribeBranchProposal({ dir: skill.dir, text, evidence: found, proposal, runId }));
      else
        none.set(found.name, input === undefined ? 'its SKILL.md has no description to add to' : explainNoDescribe({ ...input, requests }));
    }
  }
  return { proposals, none };
}

/** A skill's description and `when_to_use` (top level, or under `metadata` as spec-profile drafts keep it). */
function readWording(text: string, file: string): { description: string; when_to_use?: string } | undefined {
  const skill = parseSkill(text, { file });
  const description = stringField(skill, 'description');
  if (description === undefined) return undefined;
  const metadata = (skill.data as { metadata?: Record<string, unknown> } | null)?.metadata;
  const whenToUse = stringField(skill, 'when_to_use') ?? (typeof metadata?.when_to_use === 'string' ? metadata.when_to_use : undefined);
  return whenToUse === undefined ? { description } : { description, when_to_use: whenToUse };
}
