import { renderPlansMarkdown, renderPlansText } from '../../core/consolidate/index.js';
import { SkillgardenError } from '../../core/errors.js';
import { llmUsage, readLlmOption } from '../llm-option.js';
import { planSnapshot } from '../../services/consolidate/index.js';
import { readLibrary } from '../../services/curator/read-library.js';
import { resolveScanConfig } from '../../core/scan/index.js';
import { buildUmbrellaBranchProposal, describeRefusal, gateProposals, writeProposals } from '../../services/proposals/index.js';
import { buildRunId } from '../../services/curator/run-id.js';
import { exitCodes, type Command } from '../context.js';
import { renderWritten } from './proposals.js';

export const planCommand: Command = {
  name: 'plan',
  summary: 'consolidation plans (umbrella skills) for the curated skills: shown, or written as proposal branches (--apply)',
  usage: `plan [--json] [--markdown] [--llm] [--advise] [--apply] [--allow-empty]   (--apply: each plan as a branch skillgarden/umbrella/<name>; ${llmUsage})`,
  options: {
    markdown: { type: 'boolean' },
    llm: { type: 'boolean' },
    apply: { type: 'boolean' },
    advise: { type: 'boolean' },
    'allow-empty': { type: 'boolean' },
  },
  async run(context) {
    if (context.positionals.length > 0)
      throw new SkillgardenError('cli/usage', `plan takes no arguments (got ${context.positionals.join(' ')})`);
    const allowEmpty = context.values['allow-empty'] === true;
    const snapshot = await readLibrary(context.global.repo, { now: context.global.now, requireSkills: { allowEmpty } });
    const llm = readLlmOption(context.values.llm, context.io.env);
    const advise = context.values.advise === true;
    const { report, result, findings, base } = await planSnapshot(snapshot, {
      now: context.global.now,
      advise,
      ...(llm ? { llm } : {}),
    });
    // What a model wrote is checked as anything else: validate and the scan, before a branch is made.
    const gate =
      context.values.apply === true
        ? gateProposals(
            result.plans.map((plan) => buildUmbrellaBranchProposal(plan, buildRunId(context.global.now, undefined))),
            { profile: snapshot.config.profile, scan: resolveScanConfig(snapshot.config.scan), base },
          )
        : undefined;
    const written =
      gate !== undefined
        ? await writeProposals(
            context.global.repo,
            gate.kept,
            // An umbrella this run no longer plans is withdrawn (not declined): it may be proposed again.
            { now: context.global.now, withdraw: ['umbrella'] },
          )
        : undefined;
    const out = context.global.json
      ? `${JSON.stringify(written ? { ...report, proposals: written } : report, null, 2)}\n`
      : `${context.values.markdown === true ? renderPlansMarkdown(report) : renderPlansText(report)}${written ? renderWritten(written) : ''}`;
    context.io.stdout.write(out);
    for (const f of findings) context.io.stderr.write(`${f.file}: ${f.message} (${f.hint})\n`);
    for (const check of gate?.refused ?? []) context.io.stderr.write(`refused: ${describeRefusal(check)}\n`);
    return gate !== undefined && gate.refused.length > 0 ? exitCodes.findings : exitCodes.ok;
  },
};
