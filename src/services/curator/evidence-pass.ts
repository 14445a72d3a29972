import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { buildDescribeProposal } from '../../core/evidence/describe.js';
import type { EvidenceReport } from '../../core/evidence/types.js';
import { isCurated } from '../../core/lifecycle/plan-lifecycle.js';
import { parseSkill, stringField } from '../../core/skill/index.js';
import { runEvidence } from '../evidence/run-evidence.js';
import { buildDescribeBranchProposal } from '../proposals/describe.js';
import type { BranchProposal } from '../proposals/proposal.js';
import type { CurateOptions } from './curate-options.js';
import type { LibrarySnapshot } from './read-library.js';

/** Fewest missed sessions with a request before a description is proposed: one request is one person's words, not the task's. */
export const minDescribeRequests = 2;

/**
 * The evidence of the run's transcripts (`evidence`), read once when transcripts are given; each skill's misses are
 * set on the snapshot, so the lifecycle keeps a skill sessions needed (DESIGN §6).
 */
export async function readRunEvidence(options: CurateOptions, snapshot: LibrarySnapshot): Promise<EvidenceReport | undefined> {
  const transcripts = options.transcripts ?? snapshot.config.transcripts;
  if (transcripts.length === 0) return undefined;
  const cwd = resolve(options.transcriptsDir ?? options.repoDir);
  const report = await runEvidence({ repoDir: options.repoDir, transcripts: transcripts.map((t) => resolve(cwd, t)), now: options.now });
  const missed = new Map(report.skills.map((s) => [s.name, s.missed]));
  for (const skill of snapshot.skills) {
    const count = missed.get(skill.name) ?? 0;
    if (count > 0) skill.missed = count;
  }
  return report;
}

/**
 * A description proposal for each curated skill that sessions needed and did not load, in the words they used
 * (`buildDescribeProposal`); none where the words are already there or would not fit.
 */
export async function buildDescribeProposals(
  snapshot: LibrarySnapshot,
  evidence: EvidenceReport,
  runId: string,
): Promise<BranchProposal[]> {
  const skills = new Map(snapshot.skills.map((s) => [s.name, s]));
  const out: BranchProposal[] = [];
  for (const found of evidence.skills) {
    const skill = skills.get(found.name);
    const requests = found.missed_sessions.flatMap((s) => (s.request === undefined ? [] : [s.request]));
    if (!skill || skill.pinned || !isCurated(skill, snapshot.config) || requests.length < minDescribeRequests) continue;
    const text = await readFile(join(snapshot.repoDir, skill.dir, 'SKILL.md'), 'utf8');
    const input = readWording(text, `${skill.dir}/SKILL.md`);
    if (input === undefined) continue;
    const proposal = buildDescribeProposal({ ...input, requests });
    if (proposal) out.push(buildDescribeBranchProposal({ dir: skill.dir, text, evidence: found, proposal, runId }));
  }
  return out;
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
