import { SkillgardenError } from '../../core/errors.js';
import { renderEvidenceText } from '../../core/evidence/index.js';
import { requireConfig } from '../../services/config-file.js';
import { runEvidence } from '../../services/evidence/run-evidence.js';
import { exitCodes, type Command } from '../context.js';

export const evidenceCommand: Command = {
  name: 'evidence',
  summary: 'per skill, from transcripts and history: sessions that had it, loaded it, missed it, and how they went with and without it',
  usage:
    'evidence --transcripts GLOB [--transcripts GLOB…] [--since ISO] [--min-sessions N] [--context-tokens N] [--json] [--now ISO] [--repo DIR]',
  options: {
    transcripts: { type: 'string', multiple: true },
    since: { type: 'string' },
    'min-sessions': { type: 'string' },
    'context-tokens': { type: 'string' },
  },
  async run({ io, global, values }) {
    const transcripts = (values.transcripts as string[] | undefined) ?? requireConfig(global.repo, { needs: ['transcripts'] }).transcripts;
    if (transcripts.length === 0)
      throw new SkillgardenError('cli/usage', 'evidence needs --transcripts GLOB (or `transcripts:` in .skillgarden/config.yaml)');
    const since = values.since as string | undefined;
    if (since !== undefined && Number.isNaN(Date.parse(since)))
      throw new SkillgardenError(
        'cli/usage',
        `--since "${since.slice(0, 40)}" is not a time: give an ISO time such as 2026-01-31T00:00:00Z`,
      );
    const minSessions = values['min-sessions'] === undefined ? undefined : Number(values['min-sessions']);
    if (minSessions !== undefined && (!Number.isInteger(minSessions) || minSessions < 1))
      throw new SkillgardenError('cli/usage', `--min-sessions "${String(values['min-sessions'])}" must be a whole number, 1 or more`);
    const contextTokens = values['context-tokens'] === undefined ? undefined : Number(values['context-tokens']);
    if (contextTokens !== undefined && (!Number.isInteger(contextTokens) || contextTokens < 1000))
      throw new SkillgardenError(
        'cli/usage',
        `--context-tokens "${String(values['context-tokens'])}" must be a whole number, 1000 or more`,
      );
    const report = await runEvidence({
      repoDir: global.repo,
      transcripts,
      now: global.now,
      ...(since === undefined ? {} : { since }),
      ...(minSessions === undefined ? {} : { minSessions }),
      ...(contextTokens === undefined ? {} : { contextTokens }),
    });
    io.stdout.write(global.json ? `${JSON.stringify(report, null, 2)}\n` : renderEvidenceText(report));
    return exitCodes.ok;
  },
};
