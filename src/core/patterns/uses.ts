import type { SkillUse } from './types.js';

// Gemini CLI's `activate_skill` and OpenCode's `skill` take the skill's `name`, as the others do.
const loaderTools = new Set(['load_skill', 'skill_view', 'skill_load', 'view_skill', 'use_skill', 'activate_skill', 'skill']);

/** Claude Code built-in slash commands: not skills. */
const builtinCommands = new Set([
  'add-dir',
  'agents',
  'bashes',
  'bug',
  'clear',
  'compact',
  'config',
  'context',
  'cost',
  'doctor',
  'exit',
  'export',
  'help',
  'hooks',
  'ide',
  'init',
  'install-github-app',
  'login',
  'logout',
  'mcp',
  'memory',
  'model',
  'output-style',
  'permissions',
  'plugin',
  'pr-comments',
  'release-notes',
  'resume',
  'rewind',
  'review',
  'status',
  'statusline',
  'terminal-setup',
  'todos',
  'upgrade',
  'usage',
  'vim',
  'quit',
]);

const skillName = /^[a-z0-9][a-z0-9:_-]{0,63}$/i;

function stringField(args: unknown, keys: readonly string[]): string | undefined {
  if (typeof args !== 'object' || args === null) return undefined;
  const record = args as Record<string, unknown>;
  for (const key of keys) {
    const value = record[key];
    if (typeof value === 'string' && skillName.test(value.trim())) return value.trim();
  }
  return undefined;
}

const readingTools = /^(read|read_file|view|open|view_file|cat)$/i;
const readingPrograms = new Set(['cat', 'sed', 'head', 'less', 'more', 'bat', 'nl']);
// Any folder's SKILL.md, not only under a `skills/` folder: libraries keep skills in `document-skills/pdf/`, `plugins/x/`, a repository's root.
// Global: one command may read several (`sed -n 1,200p a/brainstorming/SKILL.md && sed -n 1,200p b/tdd/SKILL.md`).
const skillFilePath = /(?:^|[\s/'"])([a-z0-9][a-z0-9_-]{0,63})\/SKILL\.md(?=$|[\s'"])/gi;
const none: readonly string[] = Object.freeze([]);

function pathArgument(args: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const key of keys) {
    const value = args[key];
    if (typeof value === 'string') return value;
  }
  return undefined;
}

/**
 * The skills whose SKILL.md a call reads, named by their folders (`Read skills/pdf/SKILL.md`, Codex's
 * `sed -n 1,200p ~/.codex/skills/pdf/SKILL.md`): agents without a skill tool
 * load a skill by reading its file, and one command may read several. Edits and writes are not loads.
 */
function parseSkillFileReads(tool: string, args: Record<string, unknown>, program: string | undefined): readonly string[] {
  const command = program !== undefined && readingPrograms.has(program) ? pathArgument(args, ['command', 'cmd']) : undefined;
  // `sed -i` edits in place: not a read.
  const text = readingTools.test(tool)
    ? pathArgument(args, ['file_path', 'path', 'absolute_path', 'filename', 'filePath'])
    : command?.match(/\s-i\b/)
      ? undefined
      : command;
  if (text === undefined || !text.includes('SKILL.md')) return none;
  const names = [...new Set(Array.from(text.matchAll(skillFilePath), (m) => m[1] as string))];
  return names.length === 0 ? none : names;
}

const one = (name: string | undefined): readonly string[] => (name === undefined ? none : [name]);

/**
 * The skills a tool call loads, if it loads any: Claude Code's `Skill` tool
 * (`{skill}`) or `SlashCommand` tool (`{command: "/name"}`), a `load_skill` /
 * `skill_view` style tool with a name argument, or reads of `<folder>/SKILL.md`
 * files (anywhere: the folder names the skill; one command may read several).
 */
export function parseSkillLoads(tool: string, args: unknown, program?: string): readonly string[] {
  if (tool === 'Skill') return one(stringField(args, ['skill', 'command', 'name']));
  if (loaderTools.has(tool)) return one(stringField(args, ['name', 'skill', 'skill_name']));
  if (typeof args !== 'object' || args === null || Array.isArray(args)) return none;
  const record = args as Record<string, unknown>;
  // Claude Code's SlashCommand tool: the model runs `/name args` itself.
  if (tool === 'SlashCommand') return one(typeof record.command === 'string' ? parseSlashCommand(record.command) : undefined);
  return parseSkillFileReads(tool, record, program);
}

/**
 * The skill a user message invokes as a slash command: `/deploy-checklist args`
 * or Claude Code's `<command-name>/deploy-checklist</command-name>` wrapper.
 */
export function parseSlashCommand(text: string): string | undefined {
  const wrapped = /<command-name>\/?([^<\s]+)<\/command-name>/.exec(text);
  const match = wrapped ?? /^\s*\/([A-Za-z0-9][A-Za-z0-9:_-]*)(?:\s|$)/.exec(text);
  const name = match?.[1];
  if (name === undefined || !skillName.test(name) || builtinCommands.has(name)) return undefined;
  return name;
}

/** Every skill use recorded in the sessions, ordered by time (uses without a time last), then session. */
export function buildSkillUses(sessions: readonly { uses: readonly SkillUse[] }[]): SkillUse[] {
  const uses = sessions.flatMap((session) => session.uses);
  return uses.sort(
    (a, b) =>
      (a.time === undefined ? 1 : 0) - (b.time === undefined ? 1 : 0) ||
      (a.time ?? '').localeCompare(b.time ?? '') ||
      a.session.localeCompare(b.session),
  );
}
