import { substituteArguments, substituteVariables } from './substitute.js';
import type { RegistryEntry } from './types.js';

/** Sub-agents get at most this many steps, whatever a skill asks for: a forked skill must not run away. */
export const maxForkSteps = 10;

export interface ContentValues {
  skillDir: string;
  sessionId: string;
  /** Raw argument text (after a slash command); argument placeholders are only filled when given. */
  arguments?: string;
}

/** What a host runs for a `context: fork` skill. */
export interface ForkSpec {
  skill: string;
  systemPrompt: string;
  /** The user's request for the sub-agent: the arguments, or a plain instruction to follow the skill. */
  prompt: string;
  allowedTools: string[];
  model: string | undefined;
  agent: string | undefined;
  effort: string | undefined;
  maxSteps: number;
}

/** The body with variables (and, when given, arguments) filled in. */
export function renderSkillContent(entry: RegistryEntry, values: ContentValues): string {
  const body = substituteVariables(entry.body, values);
  return values.arguments === undefined ? body : substituteArguments(body, values.arguments);
}

/** Layer 2 for `context: inline`: where the skill lives (relative links resolve from there), its content, and the tools it allows. */
export function renderInlineLoad(entry: RegistryEntry, content: string, skillDir: string): string {
  const tools =
    entry.allowedTools.length > 0
      ? `\n\nAllowed tools while following this skill (no permission prompt needed): ${entry.allowedTools.join(', ')}`
      : '';
  return `Base directory for this skill: ${skillDir}\n\n${content.trim()}${tools}\n`;
}

export function buildForkSpec(entry: RegistryEntry, content: string, values: ContentValues): ForkSpec {
  const task = values.arguments?.trim();
  return {
    skill: entry.name,
    systemPrompt: `${renderInlineLoad(entry, content, values.skillDir).trim()}\n`,
    prompt: task ? task : `Follow the ${entry.name} skill and report the result.`,
    allowedTools: [...entry.allowedTools],
    model: entry.model,
    agent: entry.agent,
    effort: entry.effort,
    maxSteps: Math.min(maxForkSteps, entry.maxSteps ?? maxForkSteps),
  };
}

/** A `` !`command` `` span in a skill body (Claude Code's inline shell). */
export interface InlineShellSpan {
  start: number;
  end: number;
  command: string;
}

export function findInlineShell(body: string): InlineShellSpan[] {
  const spans: InlineShellSpan[] = [];
  for (const match of body.matchAll(/!`([^`\n]+)`/g)) {
    spans.push({ start: match.index, end: match.index + match[0].length, command: match[1] as string });
  }
  return spans;
}

/** Replaces each span by its output, in order. */
export function replaceInlineShell(body: string, spans: readonly InlineShellSpan[], outputs: readonly string[]): string {
  let result = '';
  let at = 0;
  spans.forEach((span, i) => {
    result += body.slice(at, span.start) + (outputs[i] ?? '');
    at = span.end;
  });
  return result + body.slice(at);
}
