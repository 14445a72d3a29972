import { checkProsedUmbrella } from '../core/consolidate/prose-check.js';
import type { ConsolidationPlan, CuratedSkill } from '../core/consolidate/types.js';
import { skillFileName } from '../core/layout.js';
import { describeAddedFindings, listAddedFindings } from '../core/scan/index.js';
import { requestChatCompletion, type ChatClientOptions, type ChatMessage } from './chat-client.js';

/** What the LLM pass did to one plan, for the report. */
export interface LlmNote {
  used: boolean;
  model: string;
  /** Why the deterministic umbrella was kept. */
  reason?: string;
}

export interface ProseResult {
  plan: ConsolidationPlan;
  llm: LlmNote;
}

const system = [
  'You improve the prose of an umbrella skill: a SKILL.md (YAML frontmatter, then Markdown) that gathers several narrow skills.',
  'Rewrite the description (at most 1024 characters: what it covers and when to use it) and the introduction so an agent finds and uses it.',
  'Keep the frontmatter name. Keep every section, heading, paragraph, code block and link of the draft, word for word; you may add text and reorder sections.',
  'Answer with one JSON object and nothing else: {"skill_md": "<the whole SKILL.md>", "merged": ["<each skill name the umbrella absorbs>"]}.',
].join('\n');

export function buildProseMessages(plan: ConsolidationPlan, before: readonly CuratedSkill[]): ChatMessage[] {
  const draft = plan.changes.find((c) => c.path === `${plan.intoDir}/${skillFileName}`)?.content;
  const members = before
    .filter((s) => plan.from.includes(s.name))
    .map((s) => `- ${s.name}`)
    .join('\n');
  return [
    { role: 'system', content: system },
    {
      role: 'user',
      content: `Umbrella: ${plan.into}\nAbsorbed skills:\n${members}\n\nDraft SKILL.md:\n<<<DRAFT\n${String(draft ?? '')}\nDRAFT>>>`,
    },
  ];
}

/** The JSON object in a reply, tolerating a Markdown code fence around it. */
function parseReply(reply: string): { text: string; merged: string[] } | undefined {
  const body = reply
    .trim()
    .replace(/^```(?:json)?\s*\n/, '')
    .replace(/\n```\s*$/, '');
  try {
    const data = JSON.parse(body) as { skill_md?: unknown; merged?: unknown };
    if (typeof data.skill_md !== 'string' || !Array.isArray(data.merged)) return undefined;
    return { text: data.skill_md, merged: data.merged.filter((n): n is string => typeof n === 'string') };
  } catch {
    return undefined;
  }
}

/**
 * Asks the model for the umbrella's prose. Its SKILL.md must add nothing the
 * scan flags, be valid, keep the draft's frontmatter and every part of its
 * body, its claims must match the plan's diff, and the whole plan must pass the guard
 * again; on any failure the deterministic umbrella stays, and the note says why.
 */
export async function writeUmbrellaProse(
  plan: ConsolidationPlan,
  guard: { before: readonly CuratedSkill[]; outside: ReadonlyMap<string, string> },
  client: ChatClientOptions,
): Promise<ProseResult> {
  const keep = (reason: string): ProseResult => ({ plan, llm: { used: false, model: client.model, reason } });
  let reply: string;
  try {
    reply = await requestChatCompletion(client, buildProseMessages(plan, guard.before));
  } catch (error) {
    return keep(`the model call failed: ${(error as Error).message}`);
  }
  const parsed = parseReply(reply);
  if (!parsed) return keep('the model did not answer the JSON object asked for');
  // Model output is input: scanned as an agent's write before anything else looks at it.
  const path = `${plan.intoDir}/${skillFileName}`;
  const draft = plan.changes.find((c) => c.path === path)?.content;
  const added = listAddedFindings(typeof draft === 'string' ? draft : '', parsed.text, path);
  if (added.length > 0) return keep(`the model's umbrella was refused: ${describeAddedFindings(added)}`);
  const checked = checkProsedUmbrella(plan, { text: parsed.text, claimedMerged: parsed.merged }, guard.before, guard.outside);
  if (!checked.ok) return keep(`the model's umbrella was refused: ${checked.problems.join('; ')}`);
  return { plan: checked.plan, llm: { used: true, model: client.model } };
}
