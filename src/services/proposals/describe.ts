import { stringify } from 'yaml';
import type { DescribeProposal } from '../../core/evidence/describe.js';
import type { SkillEvidence } from '../../core/evidence/types.js';
import { buildCommitMessage } from '../../core/ledger/trailers.js';
import { codeSpan, escapeMarkdown } from '../../core/report/markdown-inert.js';
import { parseSkill, setField } from '../../core/skill/index.js';
import { buildProposalBranch, buildProposalFingerprint } from './branch.js';
import { kindLabels, readTrailerBlock, type BranchProposal } from './proposal.js';

export interface DescribeBranchInput {
  /** The skill's folder, repository-relative, and its SKILL.md as the base holds it. */
  dir: string;
  text: string;
  evidence: SkillEvidence;
  proposal: DescribeProposal;
  runId: string;
}

/** The SKILL.md with the new wording: only the bytes of `description` (and `when_to_use` where it lives) change. */
function rewrite(file: string, text: string, proposal: DescribeProposal): string {
  let out = setField(parseSkill(text, { file, fullParse: true }), ['description'], proposal.description);
  if (proposal.when_to_use === undefined) return out;
  const skill = parseSkill(out, { file, fullParse: true });
  const metadata = (skill.data as { metadata?: Record<string, unknown> } | null)?.metadata;
  const underMetadata = skill.fields.when_to_use === undefined && typeof metadata?.when_to_use === 'string';
  out = setField(skill, underMetadata ? ['metadata', 'when_to_use'] : ['when_to_use'], proposal.when_to_use);
  return out;
}

function misses(evidence: SkillEvidence): string {
  const by = (kind: string) => evidence.missed_sessions.filter((s) => s.by === kind).length;
  return `${evidence.missed} session(s) needed it and did not load it (of the ${evidence.missed_sessions.length} listed: ${by('procedure')} did its procedure by hand, ${by('words')} asked for it in other words); ${evidence.loaded} loaded it`;
}

/**
 * A description proposal (issue #31) as the one commit of `skillgarden/describe/<name>`: the skill's description
 * (or `when_to_use`) with the words people used in the sessions that missed it, and the trigger counts before and
 * after as its evidence. Declinable like the other kinds: the same added words give the same fingerprint.
 */
export function buildDescribeBranchProposal(input: DescribeBranchInput): BranchProposal {
  const { evidence, proposal, runId } = input;
  const name = evidence.name;
  const file = `${input.dir}/SKILL.md`;
  const counts = `the old wording's words catch ${proposal.before} of the ${proposal.requests} missed request(s); the new wording catches ${proposal.after}`;
  const message = buildCommitMessage({
    subject: `skill(describe): ${name} — the words of ${evidence.missed} session(s) that needed it`,
    body: [`${misses(evidence)}.`, `Adds: ${proposal.added}`, `Trigger counts: ${counts}.`].join('\n'),
    trailers: { action: 'describe', skills: [name], actor: 'curator', run: runId, reverts: [] },
  });
  const rate = evidence.trigger_rate === null ? 'too few sessions for a trigger rate' : `trigger rate ${evidence.trigger_rate.toFixed(2)}`;
  return {
    kind: 'describe',
    name,
    branch: buildProposalBranch('describe', name),
    fingerprint: buildProposalFingerprint('describe', [`describe:${name}`, proposal.added]),
    title: `skillgarden: describe ${name} in the words of the sessions that missed it`,
    labels: ['skillgarden', kindLabels.describe],
    message,
    trailerBlock: readTrailerBlock(message),
    reasons: [
      `${misses(evidence)} (${rate}, certainty ${evidence.certainty}): it is kept active instead of going stale for idleness`,
      `adds the trigger ${codeSpan(proposal.added)}; every word of the old description${proposal.when_to_use === undefined ? '' : ' and when_to_use'} is kept`,
      `trigger counts: ${counts}`,
      ...evidence.missed_sessions
        .filter((s) => s.request !== undefined)
        .slice(0, 3)
        .map((s) => `missed in ${codeSpan(s.file)} (${s.by}): "${escapeMarkdown(s.request ?? '')}"`),
    ],
    structured: stringify(
      {
        descriptions: [
          {
            name,
            missed: evidence.missed,
            loaded: evidence.loaded,
            trigger_rate: evidence.trigger_rate,
            added: proposal.added,
            catches: { before: proposal.before, after: proposal.after, requests: proposal.requests },
          },
        ],
      },
      { lineWidth: 0 },
    ),
    report: [
      '### New wording',
      '',
      '```text',
      proposal.description,
      ...(proposal.when_to_use ? ['', proposal.when_to_use] : []),
      '```',
      '',
    ].join('\n'),
    skills: [name],
    changes: [{ path: file, content: rewrite(file, input.text, proposal) }],
  };
}
