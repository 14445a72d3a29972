import { isInactive, usageScore } from '../usage/scores.js';
import type { UsageCounters } from '../usage/types.js';
import type { RegistryEntry } from './types.js';

/**
 * Claude Code lists skills within a character budget (about 1% of the context
 * window, 8,000 characters when it cannot tell) and truncates each entry's
 * description + when_to_use (250 characters in its listing), saying how many
 * skills it left out. We do the same with configurable numbers.
 */
export const defaultBudgetChars = 8_000;
export const defaultEntryChars = 250;

export interface ReminderOptions {
  /** Upper bound on the whole block, tags included. */
  budgetChars?: number;
  /** Upper bound on one entry's description + when_to_use. */
  entryChars?: number;
  /** How the agent loads a skill, named in the header. */
  loadHint?: string;
}

export interface IndexPlanInput {
  entries: Iterable<RegistryEntry>;
  totals: ReadonlyMap<string, Partial<UsageCounters>>;
  now: Date;
  /** Names of conditional (`paths`) skills already woken. */
  awake: ReadonlySet<string>;
}

/**
 * The Layer-1 index: skills a model may invoke and a user may see, not
 * inactive, not dormant, best usage score first (name breaks ties).
 */
export function planIndex(input: IndexPlanInput): RegistryEntry[] {
  const eligible: RegistryEntry[] = [];
  for (const entry of input.entries) {
    if (!entry.userInvocable || !entry.modelInvocable) continue;
    if (entry.paths.length > 0 && !input.awake.has(entry.name)) continue;
    if (isInactive(input.totals.get(entry.name), input.now, { pinned: entry.pinned })) continue;
    eligible.push(entry);
  }
  return rankEntries(eligible, input.totals, input.now);
}

/** Best usage score first; the name breaks ties so the order is stable. */
export function rankEntries(
  entries: Iterable<RegistryEntry>,
  totals: ReadonlyMap<string, Partial<UsageCounters>>,
  now: Date,
): RegistryEntry[] {
  const ranked: { entry: RegistryEntry; score: number }[] = [];
  for (const entry of entries) ranked.push({ entry, score: usageScore(totals.get(entry.name), now) });
  return ranked
    .sort((a, b) => b.score - a.score || (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0))
    .map((r) => r.entry);
}

/** Renders the `<system-reminder>` block; never longer than `budgetChars`. */
export function buildReminder(entries: readonly RegistryEntry[], options: ReminderOptions = {}): string {
  const budget = options.budgetChars ?? defaultBudgetChars;
  const entryChars = options.entryChars ?? defaultEntryChars;
  const open = '<system-reminder>\n';
  const header = `The following skills are available. ${options.loadHint ?? 'Load a skill with the skill_view tool before you follow it.'}\n\n`;
  const close = '</system-reminder>';
  // Room for the "Showing N of M" note, kept whether or not it is needed so the arithmetic stays simple.
  const noteRoom = `<!-- Showing ${entries.length} of ${entries.length} skills within the character budget -->\n`.length;
  let room = budget - open.length - header.length - close.length - noteRoom;
  const lines: string[] = [];
  for (const entry of entries) {
    const line = renderIndexLine(entry, entryChars);
    if (line.length > room) break;
    lines.push(line);
    room -= line.length;
  }
  const note =
    lines.length < entries.length ? `<!-- Showing ${lines.length} of ${entries.length} skills within the character budget -->\n` : '';
  const block = `${open}${header}${lines.join('')}${note}${close}`;
  return block.length <= budget ? block : block.slice(0, Math.max(0, budget));
}

/** `- name [hint]: description — when to use`, the text part truncated to `entryChars`. */
export function renderIndexLine(entry: RegistryEntry, entryChars: number): string {
  const hint = entry.argumentHint ? ` ${entry.argumentHint}` : '';
  const about = entry.whenToUse ? `${entry.description} — ${entry.whenToUse}` : entry.description;
  return `- ${entry.name}${hint}: ${truncate(about.replace(/\s+/g, ' ').trim(), entryChars)}\n`;
}

export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, Math.max(0, max - 1)).trimEnd()}…`;
}
