export type { RegistryEntry, SkillContext } from './types.js';
export { buildEntry, type BuiltEntry, type EntryLocation, type SkillView } from './build-entry.js';
export { parseQuickSkill, parseQuickFrontmatter, type QuickSkill } from './quick-frontmatter.js';
export {
  planIndex,
  rankEntries,
  buildReminder,
  renderIndexLine,
  defaultBudgetChars,
  defaultEntryChars,
  type ReminderOptions,
} from './reminder.js';
export { buildToolDescription } from './tool-description.js';
export { substituteVariables, substituteArguments, splitArguments } from './substitute.js';
export {
  renderSkillContent,
  renderInlineLoad,
  buildForkSpec,
  findInlineShell,
  replaceInlineShell,
  maxForkSteps,
  type ForkSpec,
  type ContentValues,
  type InlineShellSpan,
} from './load-content.js';
export { parseSlashCommand, type SlashCommand } from './slash-command.js';
export { compilePathMatcher, normalizeTouchedPath, type PathMatcher } from './path-match.js';
export { findClosestNames } from './closest-names.js';
