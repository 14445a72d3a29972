import { buildClusters } from './cluster.js';
import { resolveConsolidationConfig, type ConsolidationConfig } from './config.js';
import { isCuratable } from './eligible.js';
import { buildAllFeatures } from './features.js';
import { describeEvidence } from './render.js';
import type { ClusterEvidence, CuratedSkill } from './types.js';

/** Overlap among skills nobody may merge automatically (a person's, pinned, hub…): explained, never applied. */
export interface OverlapAdvice {
  names: string[];
  kind: 'near-duplicate' | 'overlap';
  reason: string;
  evidence: ClusterEvidence;
}

/**
 * `plan --advise` (#15): the same clustering as the planner, run over the
 * skills it may not touch, so maintainers of hand-written collections see
 * which of theirs overlap and why. Near-duplicates (every pair at or above
 * `similarity_threshold`) are told apart from looser overlaps.
 */
export function adviseOverlaps(skills: readonly CuratedSkill[], partial: Partial<ConsolidationConfig> = {}): OverlapAdvice[] {
  const config = resolveConsolidationConfig(partial);
  const people = skills.filter((s) => !isCuratable(s));
  if (people.length < 2) return [];
  const clusters = buildClusters(buildAllFeatures(people, config), config);
  return clusters.map((cluster) => {
    const values = cluster.evidence.similarities.map((s) => s.jaccard);
    const duplicate = values.length > 0 && Math.min(...values) >= config.similarity_threshold;
    return {
      names: cluster.members,
      kind: duplicate ? 'near-duplicate' : 'overlap',
      reason: `${duplicate ? 'near-duplicates' : 'overlapping skills'}: ${cluster.members.join(', ')} ${describeEvidence(cluster.evidence)}. Not changed: ${duplicate ? 'keep one and point the others to it' : 'consider one skill with a section each'}, by hand.`,
      evidence: cluster.evidence,
    };
  });
}
