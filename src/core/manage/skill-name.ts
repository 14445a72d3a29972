import { maxNameLength, specNamePattern } from '../rules/name-rules.js';

/** Why a name cannot name a new skill (it becomes a folder and a commit trailer), or undefined. */
export function skillNameProblem(name: string): string | undefined {
  if (name === '') return 'the name is empty';
  if (name.includes('/') || name.includes('\\')) return 'a name cannot contain path separators (use --category for a category)';
  if ([...name].length > maxNameLength) return `the name is longer than ${maxNameLength} characters`;
  if (!specNamePattern.test(name)) return 'use lowercase letters, digits and single hyphens (e.g. "deploy-checklist")';
  return undefined;
}
