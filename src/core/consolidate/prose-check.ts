import { skillFileName } from '../layout.js';
import { parseSkill, setField } from '../skill/index.js';
import { checkPlan } from './guard.js';
import { checkModelRewrite } from './model-text.js';
import type { ConsolidationPlan, CuratedSkill } from './types.js';
import { checkUmbrellaTable } from './validity.js';

/** What a writer (an LLM) hands back for an umbrella: its SKILL.md and what it says it merged. */
export interface ProsedUmbrella {
  text: string;
  claimedMerged: readonly string[];
}

export type ProseCheck = { ok: true; plan: ConsolidationPlan } | { ok: false; problems: string[] };

/** The skills the plan really absorbs, read off its changes (SKILL.md removed from their folders), not its labels. */
export function readAbsorbedFromChanges(plan: ConsolidationPlan, before: readonly CuratedSkill[]): string[] {
  const removed = new Set(plan.changes.filter((c) => c.content === null).map((c) => c.path));
  return before
    .filter((s) => s.name !== plan.into && removed.has(`${s.dir}/${skillFileName}`))
    .map((s) => s.name)
    .sort();
}

/**
 * Swaps the umbrella's SKILL.md for a written one only if it is a valid skill
 * of the same name, its claims match the diff, it keeps the deterministic
 * draft's frontmatter (but the description) and every heading and paragraph
 * of it as often as the draft has them (checkModelRewrite), and the whole
 * plan still passes the guard. `metadata.absorbed` is always set from the diff.
 */
export function checkProsedUmbrella(
  plan: ConsolidationPlan,
  prosed: ProsedUmbrella,
  before: readonly CuratedSkill[],
  outside: ReadonlyMap<string, string>,
): ProseCheck {
  const actual = readAbsorbedFromChanges(plan, before);
  const claimed = [...new Set(prosed.claimedMerged)].sort();
  const problems: string[] = [];
  const extra = claimed.filter((n) => !actual.includes(n));
  const missing = actual.filter((n) => !claimed.includes(n));
  if (extra.length > 0) problems.push(`claims to have merged ${extra.join(', ')}, which the plan does not absorb`);
  if (missing.length > 0) problems.push(`does not account for ${missing.join(', ')}, which the plan absorbs`);
  const parsed = parseSkill(prosed.text, { file: `${plan.intoDir}/${skillFileName}` });
  if (parsed.sections.frontmatter !== 'ok' || !parsed.document)
    return { ok: false, problems: [...problems, 'its SKILL.md has no readable frontmatter'] };
  if (parsed.fields.name !== plan.into) problems.push(`names the umbrella ${String(parsed.fields.name)}, not ${plan.into}`);
  const path = `${plan.intoDir}/${skillFileName}`;
  const draft = plan.changes.find((c) => c.path === path)?.content;
  if (typeof draft === 'string') problems.push(...checkModelRewrite(parseSkill(draft, { file: path }), parsed));
  if (problems.length > 0) return { ok: false, problems };
  let text: string;
  try {
    text = setField(parsed, ['metadata', 'absorbed'], actual.join(', '));
  } catch (error) {
    return { ok: false, problems: [`its metadata cannot hold absorbed: ${(error as Error).message}`] };
  }
  const changes = plan.changes.map((c) => (c.path === path ? { ...c, content: text } : c));
  const candidate = { ...plan, changes };
  const table = new Map(
    changes
      .filter((c) => c.path.startsWith(`${plan.intoDir}/`) && c.content !== null)
      .map((c) => [c.path.slice(plan.intoDir.length + 1), c.content as Uint8Array | string]),
  );
  const umbrella = before.find((s) => s.name === plan.into);
  for (const file of umbrella?.files ?? []) if (!table.has(file.path)) table.set(file.path, file.content);
  const invalid = checkUmbrellaTable({ name: plan.into, dir: plan.intoDir, table, members: before });
  if (invalid) return { ok: false, problems: [invalid] };
  const guard = checkPlan({ plan: candidate, before, outside });
  return guard.length > 0 ? { ok: false, problems: guard } : { ok: true, plan: candidate };
}
