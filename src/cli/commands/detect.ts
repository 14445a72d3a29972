import { SkillgardenError } from '../../core/errors.js';
import { isTranscriptFormat, resolveDraftLimits, transcriptFormats } from '../../core/patterns/index.js';
import { renderDetectText } from '../../core/patterns/index.js';
import { readLibrarySkills, runDetect } from '../../services/detect.js';
import { requireConfig } from '../../services/config-file.js';
import { exitCodes, type Command } from '../context.js';
import { llmUsage, readLlmOption } from '../llm-option.js';

export const detectCommand: Command = {
  name: 'detect',
  summary: 'pattern detection alone: repeated tool-call sequences in transcripts, with drafted skills',
  usage: `detect --transcripts GLOB [--transcripts GLOB…] [--format ${transcriptFormats.join('|')}] [--min-sessions N] [--llm]   (${llmUsage})`,
  options: {
    transcripts: { type: 'string', multiple: true },
    format: { type: 'string' },
    'min-sessions': { type: 'string' },
    llm: { type: 'boolean' },
  },
  async run({ io, global, values }) {
    const config = requireConfig(global.repo);
    const llm = readLlmOption(values.llm, io.env);
    const transcripts = (values.transcripts as string[] | undefined) ?? config.transcripts;
    if (transcripts.length === 0)
      throw new SkillgardenError('cli/usage', 'detect needs --transcripts GLOB (or `transcripts:` in .skillgarden/config.yaml)');
    const format = values.format;
    if (format !== undefined && !isTranscriptFormat(format))
      throw new SkillgardenError('cli/usage', `--format "${String(format)}" is not one of: ${transcriptFormats.join(', ')}`);
    const minSessions = values['min-sessions'] === undefined ? undefined : Number(values['min-sessions']);
    if (minSessions !== undefined && (!Number.isInteger(minSessions) || minSessions < 2))
      throw new SkillgardenError('cli/usage', '--min-sessions must be a whole number, 2 or more');
    const report = await runDetect({
      transcripts,
      cwd: global.repo,
      existingSkills: await readLibrarySkills(global.repo, config.skills_dir),
      // The config's draft limits (patterns:), --min-sessions over its min_sessions.
      limits: { ...resolveDraftLimits(config.patterns), ...(minSessions ? { min_sessions: minSessions } : {}) },
      ...(format ? { format } : {}),
      ...(minSessions ? { minSessions } : {}),
      ...(llm ? { llm } : {}),
    });
    io.stdout.write(global.json ? `${JSON.stringify(report, null, 2)}\n` : renderDetectText(report));
    return exitCodes.ok;
  },
};
