import type { BranchProposal, LifecycleText } from '../services/proposals/index.js';
import { commitOnBase } from './commit-proposal.js';
import type { Git } from './git.js';
import { codeSpan, escapeMarkdown } from './markdown.js';

/** A dry run's diff per proposal stops here: the summary stays readable and far below GitHub's 1 MiB per step. */
const maxDiffLines = 400;
const maxDiffChars = 40_000;

/** What a dry run would propose, as run.json's `proposals` lists it. */
export interface ProposalPreview {
  kind: BranchProposal['kind'];
  branch: string;
  title: string;
  fingerprint: string;
  reasons: string[];
  /** `git diff --name-status` against the base: A, M, D, R… and the path (both paths for a rename). */
  files: { status: string; path: string; from?: string }[];
  /** The unified diff against the base, cut at a whole line when long; null for the lifecycle proposal (its transitions say it). */
  diff: string | null;
  diff_truncated: boolean;
}

/** Each proposal committed in the scratch clone as it would be pushed, and its diff read back from git. */
export async function previewProposals(
  git: Git,
  jobs: readonly BranchProposal[],
  base: { sha: string; now: Date },
): Promise<ProposalPreview[]> {
  const previews: ProposalPreview[] = [];
  for (const job of jobs) {
    const commit = await commitOnBase(git, job, base);
    const status = await git.text(['diff', '--name-status', '-M', '-z', base.sha, commit]);
    const patch = await git.run(['diff', '-M', '--no-color', base.sha, commit]);
    const { text, truncated } = boundDiff(patch.stdout);
    previews.push({
      kind: job.kind,
      branch: job.branch,
      title: job.title,
      fingerprint: job.fingerprint,
      reasons: job.reasons,
      files: parseNameStatus(status),
      diff: text,
      diff_truncated: truncated,
    });
  }
  return previews;
}

/** The lifecycle proposal's preview: its transitions are the report's table, so no diff is repeated. */
export function previewLifecycle(proposal: LifecycleText): ProposalPreview {
  const { kind, branch, title, fingerprint, reasons } = proposal;
  return { kind, branch, title, fingerprint, reasons, files: [], diff: null, diff_truncated: false };
}

/** `-z` output: status, then one path (two for renames and copies), each NUL-terminated. */
function parseNameStatus(raw: string): ProposalPreview['files'] {
  const parts = raw.split('\0').filter((p) => p !== '');
  const files: ProposalPreview['files'] = [];
  for (let i = 0; i < parts.length;) {
    const status = parts[i++] as string;
    if (/^[RC]/.test(status)) {
      const from = parts[i++] as string;
      files.push({ status, path: parts[i++] as string, from });
    } else files.push({ status, path: parts[i++] as string });
  }
  return files;
}

function boundDiff(diff: string): { text: string; truncated: boolean } {
  const lines = diff.split('\n');
  let text = lines.slice(0, maxDiffLines).join('\n');
  if (text.length > maxDiffChars) text = text.slice(0, Math.max(0, text.lastIndexOf('\n', maxDiffChars)));
  const truncated = text.length < diff.trimEnd().length;
  return { text: truncated ? text : diff.trimEnd(), truncated };
}

/** The dry run's "would propose" section of REPORT.md and the job summary. */
export function renderPreviews(previews: readonly ProposalPreview[]): string[] {
  const lines = ['## Proposals (dry run: none pushed, none opened)', ''];
  if (previews.length === 0) return [...lines, 'Nothing to propose.', ''];
  for (const p of previews) {
    lines.push(`### ${escapeMarkdown(p.title)}`, '', `Branch ${codeSpan(p.branch)}, proposal ${codeSpan(p.fingerprint)}.`, '');
    lines.push(...p.reasons.map((r) => `- ${r}`), '');
    if (p.files.length > 0) {
      lines.push('Files:', '');
      for (const f of p.files) lines.push(`- ${f.status} ${f.from ? `${codeSpan(f.from)} → ` : ''}${codeSpan(f.path)}`);
      lines.push('');
    }
    if (p.diff !== null) {
      const fence = '`'.repeat(Math.max(3, ...[...p.diff.matchAll(/`{3,}/g)].map((m) => m[0].length + 1)));
      lines.push('<details><summary>Diff against the base</summary>', '', `${fence}diff`, p.diff, fence, '');
      if (p.diff_truncated) lines.push(`*Diff cut at ${maxDiffLines} lines: the full change is made by a run without \`dry-run\`.*`, '');
      lines.push('</details>', '');
    }
  }
  return lines;
}
