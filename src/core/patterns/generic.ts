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

/** A sequence of generic tools only (`Glob → Read`, `Read → Edit`, `str_replace_editor → finish`) is not a skill. */
export function isGenericSequence(tools: readonly string[]): boolean {
  return tools.every(isGenericToken);
}
