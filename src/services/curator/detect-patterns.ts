import { resolveDraftLimits, type DetectReport } from '../../core/patterns/index.js';
import { readExistingSkills, runDetect } from '../detect.js';
import type { LibrarySnapshot } from './read-library.js';
import type { CurateOptions } from './curate-options.js';

/**
 * Mines the transcripts, if any: patterns become proposals (never written to
 * the library), and skill loads seen in sessions count as uses for this pass.
 */
export async function detectPatterns(options: CurateOptions, snapshot: LibrarySnapshot): Promise<DetectReport | undefined> {
  const transcripts = options.transcripts ?? snapshot.config.transcripts;
  if (transcripts.length === 0) return undefined;
  const existingSkills = await readExistingSkills(snapshot.library);
  const report = await runDetect({
    transcripts,
    cwd: options.transcriptsDir ?? options.repoDir,
    existingSkills,
    limits: { ...resolveDraftLimits(snapshot.config.patterns), ...options.draftLimits },
    ...(options.llm ? { llm: options.llm } : {}),
  });
  const rejected = new Set(snapshot.state.rejected_proposals);
  report.patterns = report.patterns.filter((p) => !rejected.has(p.fingerprint));
  const bySkill = new Map(snapshot.skills.map((s) => [s.name, s]));
  for (const use of report.uses) {
    const skill = bySkill.get(use.skill);
    if (!skill || !use.time || Date.parse(use.time) > options.now.getTime()) continue;
    const usage = { use_count: 0, view_count: 0, patch_count: 0, ...skill.usage };
    usage.use_count += 1;
    if (!usage.last_used_at || use.time > usage.last_used_at) usage.last_used_at = use.time;
    skill.usage = usage;
  }
  return report;
}
