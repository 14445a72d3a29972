import { join } from 'node:path';
import { buildReportFiles, writeReportFiles } from '../services/curator/report-files.js';
import type { CuratorPass } from './curator-pass.js';
import type { ActionInputs } from './inputs.js';
import type { ActionIo, ModeResult } from './io.js';
import { codeSpan, escapeMarkdown } from './markdown.js';
import { renderPreviews, type ProposalPreview } from './preview.js';
import type { DeferredProposal, PullOutcome } from './publish-proposal.js';
import { setPullOutputs } from './pull-outputs.js';

/**
 * run.json, REPORT.md, the job summary and the step's outputs of a curate
 * run: the lifecycle, the patterns and plans behind every other proposal, the
 * pull requests touched, and in a dry run what would be proposed, with diffs.
 */
export async function finish(
  inputs: ActionInputs,
  io: ActionIo,
  pass: CuratorPass,
  outcomes: PullOutcome[],
  extra: { deferred?: DeferredProposal[]; previews?: ProposalPreview[] } = {},
): Promise<ModeResult> {
  const { deferred = [], previews } = extra;
  const report = { ...pass.report, prs: [...outcomes, ...deferred], ...(previews ? { proposals: previews } : {}) };
  const sections = [...(previews ? renderPreviews(previews) : []), ...renderPullSection(outcomes, deferred, inputs.dryRun)];
  // The same undo line and held-back transitions as the command's report: a run that opened pull requests changed
  // something a person may merge, never "nothing".
  const { markdown, files } = buildReportFiles(report, {
    ...(pass.plans ? { plans: pass.plans } : {}),
    sections,
    deferred: pass.deferred,
    proposed: pass.proposals.length > 0,
  });
  const reportPath = writeReportFiles(join(inputs.reportDir, report.run_id), files);
  await io.appendSummary(markdown);
  io.setOutput('report-path', reportPath);
  io.setOutput('run-id', report.run_id);
  io.setOutput('status', report.status);
  io.setOutput('pull-requests', JSON.stringify(outcomes));
  setPullOutputs(io, outcomes, deferred);
  io.setOutput('transitions', String(report.transitions.length));
  io.setOutput('archived', String(report.transitions.filter((t) => t.to === 'archived').length));
  io.setOutput('marked-stale', String(report.transitions.filter((t) => t.to === 'stale').length));
  io.setOutput('reactivated', String(report.transitions.filter((t) => t.to === 'active').length));
  for (const o of outcomes) io.info(`${o.operation} pull request #${o.number} (${o.branch}): ${o.url}`);
  return report.status === 'failed'
    ? { failure: `The curator run ${report.run_id} failed: ${report.errors.map((e) => e.message).join('; ')}` }
    : {};
}

function renderPullSection(outcomes: readonly PullOutcome[], deferred: readonly DeferredProposal[], dryRun: boolean): string[] {
  if (dryRun) return ['## Pull requests', '', 'Dry run: no branch was pushed and no pull request was opened.', ''];
  const waiting = deferred.map(
    (d) => `- deferred (max-pull-requests reached; the next run proposes it): ${escapeMarkdown(d.title)} on ${codeSpan(d.branch)}`,
  );
  if (outcomes.length === 0 && waiting.length === 0) return ['## Pull requests', '', 'None opened or changed.', ''];
  return [
    '## Pull requests',
    '',
    ...outcomes.map((o) => `- ${o.operation}: [#${o.number}](${o.url}) on ${codeSpan(o.branch)}`),
    ...waiting,
    '',
  ];
}
