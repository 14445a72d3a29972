import type { Baseline } from '../core/report/baseline.js';
import type { Finding } from '../core/findings.js';
import { applyBaseline, buildFindingsBaseline } from '../services/baseline.js';
import { readConfig } from '../services/curator/read-library.js';
import { toFindings } from '../core/scan/report.js';
import { runValidateAndScan } from '../services/validate-and-scan.js';
import type { ActionInputs } from './inputs.js';
import { codeSpan, escapeMarkdown } from './markdown.js';

/** How many introduced findings a PR body lists before it says how many more there are. */
const listedFindings = 20;

/** What the base branch's tree already holds: a proposal is answerable only for findings beyond these. */
export interface BaseFindings {
  branch: string;
  baseline: Baseline;
}

/** The findings of the tree checked out in `dir`, read as the validate mode reads them: validation and the scan. */
export async function readTreeFindings(dir: string, inputs: ActionInputs): Promise<{ skills: number; findings: Finding[] }> {
  const { config } = readConfig(dir);
  const { report, scan } = await runValidateAndScan({
    cwd: dir,
    skillsDir: inputs.skillsDir || config.skills_dir,
    profile: inputs.profile ?? config.profile,
    ...(config.links ? { links: config.links } : {}),
    // A proposal is checked with the scan whatever the `scan` input says: a pull request never says ✅ without it.
    scan: config.scan,
  });
  const scanned = scan ? toFindings(scan.findings.filter((f) => !f.suppressed)) : [];
  return { skills: report.skills, findings: [...report.findings, ...scanned] };
}

/** The base's findings, read from the scratch clone while it holds the base's tree; undefined when they cannot be read. */
export async function readBaseFindings(dir: string, inputs: ActionInputs, branch: string): Promise<BaseFindings | undefined> {
  try {
    return { branch, baseline: buildFindingsBaseline((await readTreeFindings(dir, inputs)).findings) };
  } catch {
    return undefined; // the proposal's own validation then names everything it finds, and says it could not compare
  }
}

/**
 * GITHUB_TOKEN's pull requests start no workflows, so the curator checks its
 * own proposal's tree and says so. Only what the proposal introduces is its
 * own (a finding is known by code, file and message, as in a validate
 * baseline); what the base already held is counted, not blamed on it.
 */
export async function validateProposal(dir: string, inputs: ActionInputs, base?: BaseFindings): Promise<string> {
  let tree: { skills: number; findings: Finding[] };
  try {
    tree = await readTreeFindings(dir, inputs);
  } catch (error) {
    return `⚠️ The curator could not validate the proposed tree: ${(error as Error).message}`;
  }
  const split = base ? applyBaseline(tree.findings, base.baseline) : { fresh: tree.findings, known: [] };
  const introduced = split.fresh.filter((f) => f.severity !== 'info');
  const errors = introduced.filter((f) => f.severity === 'error').length;
  const warnings = introduced.length - errors;
  const scope = base
    ? `compared with ${codeSpan(base.branch)}, this proposal introduces`
    : 'the base could not be read, so all are listed:';
  const lines = [
    `${errors > 0 ? '❌' : '✅'} The curator validated and scanned the proposed tree itself (pull requests opened with \`GITHUB_TOKEN\` start no workflows): ${tree.skills} skill(s); ${scope} ${errors} error(s) and ${warnings} warning(s).`,
  ];
  const ordered = [...introduced].sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1));
  for (const f of ordered.slice(0, listedFindings)) lines.push(`- ${renderFinding(f)}`);
  if (ordered.length > listedFindings)
    lines.push(`- … and ${ordered.length - listedFindings} more (run \`npx skillgarden validate\` on the branch)`);
  const known = split.known.filter((f) => f.severity !== 'info').length;
  if (base && known > 0)
    lines.push('', `${known} finding(s) already on ${codeSpan(base.branch)} are left as they were: not this proposal's.`);
  return lines.join('\n');
}

function renderFinding(f: Finding): string {
  const where = f.line > 0 ? `${f.file}:${f.line}` : f.file;
  return `${f.severity} ${codeSpan(where)} ${codeSpan(f.code)}: ${escapeMarkdown(f.message)}${f.hint ? ` — ${escapeMarkdown(f.hint)}` : ''}`;
}

/** Where the full report of this workflow run is, for a body that had to be cut. */
export function runUrl(inputs: ActionInputs): string {
  const { serverUrl, owner, repo, runId } = inputs.github;
  return runId ? `${serverUrl}/${owner}/${repo}/actions/runs/${runId}` : 'this workflow run';
}
