import type { ConsolidationConfig } from './config.js';
import { estimateJaccard } from './minhash.js';
import type { SkillFeatures } from './features.js';
import { chooseUmbrella } from './umbrella.js';

export interface ClusterSupport {
  /** Members the evidence carries into a plan. */
  kept: SkillFeatures[];
  /** Members left as they are, each with the reason in a reviewer's words. */
  left: Array<{ name: string; reason: string }>;
}

/** `body.split('\n').length`, counted without the list of lines. */
function bodyLines(member: SkillFeatures): number {
  const body = member.parsed.body;
  let lines = 1;
  for (let at = body.indexOf('\n'); at !== -1; at = body.indexOf('\n', at + 1)) lines++;
  return lines;
}

/**
 * Evidence before a plan (#15): two short skills of one name family merge on
 * the prefix link's content and tool overlap, but a long skill moves into a
 * sibling's `references/` only when its content is close to some member's
 * (`demote_min_similarity`): a shared prefix with different content is
 * information for the report, not a plan. The umbrella kept as it is needs
 * no such evidence: nothing of it moves.
 */
export function checkClusterSupport(
  members: readonly SkillFeatures[],
  prefix: string | null,
  taken: ReadonlySet<string>,
  config: ConsolidationConfig,
): ClusterSupport {
  const choice = chooseUmbrella(members, prefix, taken, config);
  const umbrella = choice.kind === 'existing' ? choice.umbrella : undefined;
  const kept: SkillFeatures[] = [];
  const left: ClusterSupport['left'] = [];
  for (const member of members) {
    const lines = bodyLines(member);
    if (member === umbrella || lines <= config.demote_min_lines) {
      kept.push(member);
      continue;
    }
    const closest = Math.max(0, ...members.filter((m) => m !== member).map((m) => estimateJaccard(m.signature, member.signature)));
    if (closest >= config.demote_min_similarity) kept.push(member);
    else
      left.push({
        name: member.name,
        reason: `similar names, different content: ${member.name} (${lines} lines) is closest to a sibling at content similarity ${closest.toFixed(2)}, below demote_min_similarity (${config.demote_min_similarity}) for moving a long skill into references/`,
      });
  }
  return { kept, left };
}
