import { describeTool } from './describe-tools.js';

/** What any session does on the way to any task: reading, searching, editing, planning, finishing. */
const genericPurposes = new Set([
  'find files or code',
  'read files',
  'change files',
  'plan the work',
  'finish the task',
  'run shell commands',
]);

/** Shell programs that only look around or print. */
const genericPrograms = new Set([
  'cat',
  'ls',
  'grep',
  'rg',
  'find',
  'sed',
  'awk',
  'head',
  'tail',
  'echo',
  'cd',
  'pwd',
  'wc',
  'tree',
  'less',
  'nl',
  'printf',
  'true',
  'sleep',
]);

/** Whether a token says nothing about a task: a read, search, edit or plan tool, or a shell call that only looks around. */
export function isGenericToken(token: string): boolean {
  const colon = token.indexOf(':');
  if (colon >= 0) return genericPrograms.has(token.slice(colon + 1));
  if (token.startsWith('mcp__')) return false;
  return genericPurposes.has(describeTool(token)) || genericPrograms.has(token);
}

/** Read-only git sub-commands: every task looks at the tree this way. */
const genericGit = /^git (status|diff|log|show|branch|rev-parse|remote|fetch)\b/;

/** Whether a command (`git status`, `ls`, `npm publish`) only looks around: it names no procedure. */
export function isGenericCommand(command: string): boolean {
  return genericPrograms.has(command.split(' ')[0] ?? '') || genericGit.test(command);
}

/** A sequence of generic tools only (`Glob → Read`, `Read → Edit`, `str_replace_editor → finish`) is not a skill. */
export function isGenericSequence(tools: readonly string[]): boolean {
  return tools.every(isGenericToken);
}
