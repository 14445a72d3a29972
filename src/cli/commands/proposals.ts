import { SkillgardenError } from '../../core/errors.js';
import { declineProposal, listProposals, type ProposalStatus, type WrittenProposal } from '../../services/proposals/index.js';
import { exitCodes, type Command } from '../context.js';

function renderStatus(states: readonly ProposalStatus[]): string {
  if (states.length === 0)
    return 'no proposals (curate --propose, curate --consolidate and plan --apply write them as skillgarden/* branches)\n';
  const width = Math.max(...states.map((s) => s.branch.length));
  const lines = states.map((s) => `${s.branch.padEnd(width)}  ${s.state.padEnd(8)}  ${s.commit?.slice(0, 12) ?? '-'}`);
  return `${lines.join('\n')}\n\nMerge a branch to accept it; \`skillgarden proposals decline NAME\` (or deleting the branch) declines it.\n`;
}

/** The lines `plan --apply` and `curate --consolidate` print for the branches they wrote. */
export function renderWritten(written: readonly WrittenProposal[]): string {
  if (written.length === 0) return 'no proposals to write\n';
  return `${written.map((w) => `${w.operation.padEnd(9)} ${w.branch}${w.commit ? ` (${w.commit.slice(0, 12)})` : ''}`).join('\n')}\n`;
}

export const proposalsCommand: Command = {
  name: 'proposals',
  summary: 'the proposal branches (lifecycle, umbrella, new, staged) and their state; decline one',
  usage: 'proposals [decline NAME]',
  options: {},
  async run({ io, global, positionals }) {
    const [verb, name, ...rest] = positionals;
    if (verb === undefined) {
      const states = await listProposals(global.repo, { now: global.now });
      io.stdout.write(global.json ? `${JSON.stringify({ proposals: states }, null, 2)}\n` : renderStatus(states));
      return exitCodes.ok;
    }
    if (verb !== 'decline' || name === undefined || rest.length > 0)
      throw new SkillgardenError(
        'cli/usage',
        'usage: proposals [decline NAME] (NAME: a branch such as skillgarden/umbrella/deploy, or umbrella/deploy, or deploy)',
      );
    const status = await declineProposal(global.repo, name, { now: global.now });
    io.stdout.write(global.json ? `${JSON.stringify(status, null, 2)}\n` : `declined ${status.branch}: it will not be proposed again\n`);
    return exitCodes.ok;
  },
};
