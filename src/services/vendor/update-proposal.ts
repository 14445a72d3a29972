import { stringify } from 'yaml';
import { buildCommitMessage, type Actor } from '../../core/ledger/trailers.js';
import { codeSpan, escapeMarkdown } from '../../core/report/markdown-inert.js';
import { lockFileName, serializeLock, type SkillsLock } from '../../core/vendor/index.js';
import { buildProposalBranch, buildProposalFingerprint, kindLabels, readTrailerBlock, type BranchProposal } from '../proposals/index.js';
import type { Planned } from './merge-skill.js';

export interface UpdateProposalOptions {
  /** What the branch is named after: the skill (one skill), or the source (every skill of one source). */
  name: string;
  actor: Actor;
  now: Date;
  run?: string;
}

/**
 * Vendored skills' updates as one proposal on `skillgarden/update/<name>`: their changes and the lock's new pins in
 * one commit, the upstream commits in its message. The fingerprint is each skill's new content (its digest), so a
 * declined update is not proposed again, while a later upstream change to the same skill is.
 */
export function buildUpdateProposal(plans: readonly Planned[], lock: SkillsLock, options: UpdateProposalOptions): BranchProposal {
  const names = plans.map((p) => p.status.name);
  const next: SkillsLock = { ...lock, skills: { ...lock.skills } };
  for (const p of plans) next.skills[p.status.name] = { ...p.entry, updatedAt: options.now.toISOString() };
  const sources = [...new Set(plans.map((p) => p.status.source))];
  const tips = [...new Set(plans.map((p) => p.status.to.slice(0, 12)))];
  const conflicts = plans.flatMap((p) => p.conflicts);
  const from = `${sources.join(', ')} at ${tips.join(', ')}`;
  const message = buildCommitMessage({
    subject: `skill(update): ${names.join(', ')} — from ${oneLine(from)}${conflicts.length > 0 ? ' (conflicts to resolve)' : ''}`,
    body: plans.map(renderCommitBody).join('\n\n'),
    trailers: { action: 'update', skills: names, actor: options.actor, ...(options.run ? { run: options.run } : {}), reverts: [] },
  });
  return {
    kind: 'update',
    name: options.name,
    branch: buildProposalBranch('update', options.name),
    fingerprint: buildProposalFingerprint(
      'update',
      plans.map((p) => `${p.status.name}:${p.entry.computedHash}`),
    ),
    title: `skillgarden: update ${names.length === 1 ? names[0] : `${names.length} skills`} from ${oneLine(from)}${conflicts.length > 0 ? ' — conflicts to resolve' : ''}`,
    labels: ['skillgarden', kindLabels.update],
    message,
    trailerBlock: readTrailerBlock(message),
    reasons: plans.flatMap(renderReasons),
    structured: stringify({ updates: plans.map(describePlan) }, { lineWidth: 0 }),
    report: plans.map(renderReport).join('\n'),
    skills: names,
    changes: [...plans.flatMap((p) => p.changes), { path: lockFileName, content: serializeLock(next) }],
  };
}

function renderCommitBody(p: Planned): string {
  const { status } = p;
  const range = `${status.from.slice(0, 12)}..${status.to.slice(0, 12)}`;
  return [
    `Upstream commits touching ${p.entry.skillPath}/ in ${status.source} (${range}):`,
    ...(status.commits.length > 0 ? status.commits.map((c) => `  ${c}`) : ['  (the pinned commit is gone: its history was rewritten)']),
    ...(p.conflicts.length > 0 ? ['Conflicts to resolve:', ...p.conflicts.map((c) => `  ${c.file}: ${c.reason}`)] : []),
  ].join('\n');
}

function renderReasons(p: Planned): string[] {
  const { status } = p;
  const commits = `${status.commits.length} upstream commit${status.commits.length === 1 ? '' : 's'}`;
  return [
    `${codeSpan(status.name)} moved upstream in ${codeSpan(status.source)}: ${codeSpan(status.from.slice(0, 12))} → ${codeSpan(status.to.slice(0, 12))}, ${commits}`,
    `scan verdict for ${codeSpan(status.name)} as it would be after the update: **${p.check.gate.verdict}**${p.check.gate.decision === 'ask' ? ' (the policy asks a person to look)' : ''}`,
    ...p.conflicts.map((c) => `conflict in ${codeSpan(c.file)}: ${escapeMarkdown(c.reason)}; resolve it on this branch before merging`),
  ];
}

/** The upstream diff in summary: each file the update writes, and how; then the upstream commits and the scan's findings. */
function renderReport(p: Planned): string {
  const { status } = p;
  const conflicted = new Set(p.conflicts.map((c) => c.file));
  const files = p.changes.map(
    (c) => `| ${codeSpan(c.path)} | ${c.content === null ? 'deleted' : 'written'}${conflicted.has(c.path) ? ' (conflict)' : ''} |`,
  );
  const scan = p.check.warnings.filter((w) => w.code.startsWith('scan/'));
  return [
    `### ${escapeMarkdown(status.name)}`,
    '',
    `${codeSpan(status.dir)} from ${codeSpan(p.entry.skillPath)} of ${codeSpan(status.source)}, ${codeSpan(status.from.slice(0, 12))} → ${codeSpan(status.to.slice(0, 12))}`,
    '',
    '| file | change |',
    '| --- | --- |',
    ...files,
    '',
    'Upstream commits:',
    '',
    ...(status.commits.length > 0
      ? status.commits.map((c) => `- ${codeSpan(c)}`)
      : ['- (the pinned commit is gone: its history was rewritten)']),
    '',
    `Scan: **${p.check.gate.verdict}**${scan.length > 0 ? '' : ', no findings'}`,
    ...scan.map((f) => `- ${codeSpan(`${f.file}:${f.line}`)} ${codeSpan(f.code)}: ${escapeMarkdown(f.message)}`),
    '',
  ].join('\n');
}

function describePlan(p: Planned) {
  return {
    name: p.status.name,
    source: p.status.source,
    path: p.entry.skillPath,
    from: p.status.from,
    to: p.status.to,
    digest: p.entry.computedHash,
    commits: p.status.commits,
    verdict: p.check.gate.verdict,
    conflicts: p.conflicts.map((c) => c.file),
  };
}

function oneLine(text: string): string {
  return text.length <= 80 ? text : `${text.slice(0, 79)}…`;
}
