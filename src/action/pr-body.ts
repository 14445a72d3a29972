import type { Proposal } from './proposal.js';

/** GitHub refuses a pull request body longer than this many characters. */
export const maxBodyLength = 65_536;

const fingerprintMarker = /<!--\s*skillgarden-fingerprint:\s*([0-9a-f]+)\s*-->/;

export interface BodyInput {
  proposal: Proposal;
  runId: string;
  /** Markdown: what the curator's own validation of the proposal tree found. */
  validation: string;
  /** The run report's part for this proposal. */
  report: string;
  /** Where the full report is when the body had to be cut. */
  fullReportUrl: string;
}

/**
 * The pull request body: hidden markers first, the trailer block LAST (a
 * squash merge turns the body into the commit message, and git reads
 * trailers only from the final paragraph). Cut to GitHub's limit by
 * shortening the report, then the reasons, never the markers or trailers.
 */
export function renderProposalBody(input: BodyInput, limit = maxBodyLength): string {
  const { proposal } = input;
  const head = [
    `<!-- skillgarden-proposal: ${proposal.kind} -->`,
    `<!-- skillgarden-fingerprint: ${proposal.fingerprint} -->`,
    `The skillgarden curator (run \`${input.runId}\`) proposes this change as one commit. Merge it to apply it (merge, rebase or squash all keep the ledger); close it without merging and this exact proposal is not made again.`,
    '',
  ].join('\n');
  const tail = ['## Structured', '', '```yaml', proposal.structured.trimEnd(), '```', '', proposal.trailerBlock.trim(), ''].join('\n');
  const validation = ['## Validation', '', input.validation, ''].join('\n');
  const render = (reasons: string[], report: string) => [head, '## Why', '', ...reasons.map((r) => `- ${r}`), '', validation, '## Report', '', report, '', tail].join('\n');
  let body = render(proposal.reasons, demoteHeadings(input.report));
  if (body.length <= limit) return body;
  const pointer = `*The report was cut to fit GitHub's ${limit.toLocaleString('en')}-character limit: the full report is in the job summary and the \`skillgarden-report\` files of ${input.fullReportUrl}.*`;
  const room = limit - render(proposal.reasons, pointer).length - 2;
  if (room > 200) return render(proposal.reasons, `${cutAtLine(demoteHeadings(input.report), room)}\n\n${pointer}`);
  const reasons: string[] = [];
  let used = render([], pointer).length + 200;
  for (const r of proposal.reasons) {
    if (used + r.length + 3 > limit) break;
    reasons.push(r);
    used += r.length + 3;
  }
  reasons.push(`… and ${proposal.reasons.length - reasons.length} more (see the commit and the full report).`);
  body = render(reasons, pointer);
  return body;
}

export function readFingerprint(body: string | null): string | null {
  return fingerprintMarker.exec(body ?? '')?.[1] ?? null;
}

/** REPORT.md's headings one level down, under the body's `## Report`. */
function demoteHeadings(markdown: string): string {
  return markdown.replace(/^(#{1,5}) /gm, '#$1 ');
}

function cutAtLine(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.lastIndexOf('\n', max);
  return text.slice(0, cut > 0 ? cut : max);
}
