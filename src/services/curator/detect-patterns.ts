import { resolveDraftLimits, type DetectReport } from '../../core/patterns/index.js';
import { readExistingSkills, type DetectOptions } from '../detect.js';
import type { LibrarySnapshot } from './read-library.js';
import type { CurateOptions } from './curate-options.js';

/** How the curator mines its transcripts: the library's skills as the ones already covering a pattern, its draft limits. */
export async function curatorDetectOptions(
  options: CurateOptions,
  snapshot: LibrarySnapshot,
  transcripts: readonly string[],
): Promise<DetectOptions> {
  return {
    transcripts,
    cwd: options.transcriptsDir ?? options.repoDir,
    existingSkills: await readExistingSkills(snapshot.library),
    limits: { ...resolveDraftLimits(snapshot.config.patterns), ...options.draftLimits },
    ...(options.llm ? { llm: options.llm } : {}),
  };
}

/**
 * What the run's mined transcripts change: patterns become proposals (never written to the library) unless a person
 * rejected them, and skill loads seen in sessions count as uses for this pass.
 */
export function applyDetected(report: DetectReport, options: CurateOptions, snapshot: LibrarySnapshot): DetectReport {
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
