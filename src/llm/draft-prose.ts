import { checkProsedDraft } from '../core/patterns/draft-prose-check.js';
import type { DraftSkill } from '../core/patterns/types.js';
import { describeAddedFindings, listAddedFindings } from '../core/scan/index.js';
import { requestChatCompletion, type ChatClientOptions, type ChatMessage } from './chat-client.js';
import type { LlmNote } from './umbrella-prose.js';

const system = [
  'You improve the prose of a drafted skill: a SKILL.md (YAML frontmatter, then Markdown) read from several agent sessions of one task.',
  'Rewrite the description (at most 1024 characters: what the task is, then "Use when …" with the same trigger) and the wording of the body so a person keeps it and an agent finds it.',
  'Keep the frontmatter exactly as it is except the description: the name and the metadata (the evidence) must not change.',
  'Keep every step, command and argument (each `code span`) of the draft. Do not mention files, folders or links the draft does not have: it is one SKILL.md.',
  'Answer with one JSON object and nothing else: {"skill_md": "<the whole SKILL.md>"}.',
].join('\n');

export function buildDraftProseMessages(draft: DraftSkill): ChatMessage[] {
  return [
    { role: 'system', content: system },
    { role: 'user', content: `Drafted skill: ${draft.name}\n\nDraft SKILL.md:\n<<<DRAFT\n${draft.text}\nDRAFT>>>` },
  ];
}

/** The SKILL.md in a reply, tolerating a Markdown code fence around the JSON. */
function parseReply(reply: string): string | undefined {
  const body = reply
    .trim()
    .replace(/^```(?:json)?\s*\n/, '')
    .replace(/\n```\s*$/, '');
  try {
    const data = JSON.parse(body) as { skill_md?: unknown };
    return typeof data.skill_md === 'string' ? data.skill_md : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The optional LLM pass over a draft (issue #15): the model rewrites its
 * prose, `checkProsedDraft` decides whether the rewrite may stand, and on any
 * failure — the call, the answer's shape, the check — the deterministic draft
 * stays, and the note says why.
 */
export async function writeDraftProse(draft: DraftSkill, client: ChatClientOptions): Promise<{ draft: DraftSkill; llm: LlmNote }> {
  const keep = (reason: string) => ({ draft, llm: { used: false, model: client.model, reason } });
  let reply: string;
  try {
    reply = await requestChatCompletion(client, buildDraftProseMessages(draft));
  } catch (error) {
    return keep(`the model call failed: ${(error as Error).message}`);
  }
  const text = parseReply(reply);
  if (text === undefined) return keep('the model did not answer the JSON object asked for');
  // Model output is input: scanned as an agent's write before anything else looks at it.
  const added = listAddedFindings(draft.text, text, `${draft.name}/SKILL.md`);
  if (added.length > 0) return keep(`the model's draft was refused: ${describeAddedFindings(added)}`);
  const checked = checkProsedDraft(draft.text, text, `${draft.name}/SKILL.md`);
  if (!checked.ok) return keep(`the model's draft was refused: ${checked.problems.join('; ')}`);
  return { draft: { ...draft, text: checked.text }, llm: { used: true, model: client.model } };
}
