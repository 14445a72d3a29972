import type { RegistryEntry } from './types.js';
import { buildReminder, type ReminderOptions } from './reminder.js';

/**
 * The load tool's description, the way Claude Code describes its Skill tool:
 * what the tool does, how to call it, then the same index the reminder shows,
 * so a host without system-reminder support still sees the skills.
 */
export function buildToolDescription(entries: readonly RegistryEntry[], options: ReminderOptions = {}): string {
  const intro = [
    'Load a skill: its full instructions, with paths and the session id filled in.',
    'Call it with the skill name from the list below (a category prefix is not needed) before doing the task the skill covers;',
    'follow the loaded instructions. Pass `arguments` when the user gave some (as after a slash command).',
    "Skills that run as a sub-agent return the sub-agent's result instead.",
    '',
  ].join('\n');
  const index = buildReminder(entries, { ...options, loadHint: 'Pass one of these names to this tool.' })
    .replace(/^<system-reminder>\n/, '')
    .replace(/<\/system-reminder>$/, '');
  return `${intro}\n${index}`.trimEnd();
}
