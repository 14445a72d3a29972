import type { BranchProposal } from './proposal.js';
import { formatCount } from '../../core/format-count.js';

/** GitHub refuses a pull request body longer than this many characters. */
export const maxBodyLength = 65_536;

const fingerprintMarker = /<!--\s*skillgarden-fingerprint:\s*([0-9a-f]+)\s*-->/;

export interface BodyInput {
  proposal: Pick<BranchProposal, 'kind' | 'fingerprint' | 'reasons' | 'structured' | 'trailerBlock' | 'report'>;
  runId: string;
  /** Markdown: what the curator's own validation of the proposal tree found (the Action validates before it opens a PR). */
  validation?: string;
  /** The report part for this proposal; default the proposal's own `report`. */
  report?: string;
  /** Where the full report is when the body had to be cut. */
  fullReportUrl?: string;
}

interface Parts {
  reasons: string;
  report: string;
  structured: string;
  trailers: string;
}

/**
 * A proposal's review text (a pull request body): hidden markers first, the
 * trailer block LAST (a squash merge can turn the body into the commit
 * message, and git reads trailers only from the final paragraph). Over the
 * limit, the report, the reasons and the YAML are cut, in that order of
 * generosity, with a pointer to the full report; the markers and the trailer
 * block never are.
 */
export function renderProposalBody(input: BodyInput, limit = maxBodyLength): string {
  const full: Parts = {
    reasons: input.proposal.reasons.map((r) => `- ${r}`).join('\n'),
    report: demoteHeadings(input.report ?? input.proposal.report),
    structured: input.proposal.structured.trimEnd(),
    trailers: input.proposal.trailerBlock.trim(),
  };
  const body = render(input, full);
  if (body.length <= limit) return body;
  const where = input.fullReportUrl
    ? `the job summary and the \`skillgarden-report\` files of ${input.fullReportUrl}`
    : 'REPORT.md of the run';
  const pointer = `*Cut to fit the ${formatCount(limit)}-character limit: the full report is in ${where}; the commit holds every change.*`;
  let parts: Parts = { reasons: '', report: pointer, structured: '', trailers: full.trailers };
  if (render(input, parts).length + 600 > limit) {
    // Thousands of skills: the trailer block alone does not fit. The commit keeps it; say how to merge so the ledger survives.
    parts = {
      ...parts,
      trailers: '',
      report: `${pointer}\n\n*The trailer block (${input.proposal.trailerBlock.split('\n').length} lines) is too long for a pull request body: merge with a merge commit or rebase, which keep the commit's own trailers.*`,
    };
  }
  const budget = limit - render(input, parts).length - 100;
  const reasons = cut(full.reasons, Math.floor(budget * 0.45), '- … (more in the commit and the full report)');
  const structured = cut(full.structured, Math.floor(budget * 0.25), '# … (cut: see the full report)');
  const report = cut(full.report, budget - reasons.length - structured.length, '…');
  return render(input, { ...parts, reasons, structured, report: `${report}\n\n${parts.report}` });
}

function render(input: BodyInput, parts: Parts): string {
  const { proposal } = input;
  return [
    `<!-- skillgarden-proposal: ${proposal.kind} -->`,
    `<!-- skillgarden-fingerprint: ${proposal.fingerprint} -->`,
    `The skillgarden curator (run \`${input.runId}\`) proposes this change as one commit. Merge it to apply it (merge, rebase or squash all keep the ledger); close it without merging and this exact proposal is not made again.`,
    '',
    '## Why',
    '',
    parts.reasons,
    '',
    ...(input.validation === undefined ? [] : ['## Validation', '', input.validation, '']),
    '## Report',
    '',
    parts.report,
    '',
    '## Structured',
    '',
    '```yaml',
    parts.structured,
    '```',
    '',
    ...(parts.trailers ? [parts.trailers, ''] : []),
  ].join('\n');
}

/** The fingerprint marker of a body this writer rendered, or null. */
export function readFingerprint(body: string | null): string | null {
  return fingerprintMarker.exec(body ?? '')?.[1] ?? null;
}

/** Report headings one level down, under the body's `## Report`. */
function demoteHeadings(markdown: string): string {
  return markdown.replace(/^(#{1,5}) /gm, '#$1 ');
}

/** Whole lines only, and a note where the text was cut. */
function cut(text: string, max: number, note: string): string {
  if (text.length <= max) return text;
  const room = Math.max(0, max - note.length - 1);
  const at = text.lastIndexOf('\n', room);
  return `${at > 0 ? text.slice(0, at) : ''}\n${note}`.trimStart();
}
