import { readConfig } from '../services/curator/read-library.js';
import { runValidate } from '../services/validate.js';
import type { ActionInputs } from './inputs.js';
import { codeSpan } from './markdown.js';

/** GITHUB_TOKEN's pull requests start no workflows, so the curator checks its own proposal's tree and says so. */
export function validateProposal(dir: string, inputs: ActionInputs): string {
  try {
    const { config } = readConfig(dir);
    const result = runValidate({
      cwd: dir,
      skillsDir: inputs.skillsDir || config.skills_dir,
      profile: inputs.profile ?? config.profile,
      links: config.links,
    });
    const verdict = result.errors > 0 ? '❌' : '✅';
    const lines = [
      `${verdict} The curator validated the proposed tree itself (pull requests opened with \`GITHUB_TOKEN\` start no workflows): ${result.skills} skill(s), ${result.errors} error(s), ${result.warnings} warning(s).`,
    ];
    for (const f of result.findings.filter((x) => x.severity === 'error').slice(0, 20))
      lines.push(`- ${codeSpan(`${f.file}:${f.line}`)} ${codeSpan(f.code)}`);
    return lines.join('\n');
  } catch (error) {
    return `⚠️ The curator could not validate the proposed tree: ${(error as Error).message}`;
  }
}

/** Where the full report of this workflow run is, for a body that had to be cut. */
export function runUrl(inputs: ActionInputs): string {
  const { serverUrl, owner, repo, runId } = inputs.github;
  return runId ? `${serverUrl}/${owner}/${repo}/actions/runs/${runId}` : 'this workflow run';
}
