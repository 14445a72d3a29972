import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { archiveDirName, skillFileName } from '../core/layout.js';

/**
 * The skill folders (repository-relative) that changed files belong to:
 * `<root>/<name>/…` or `<root>/<category>/<name>/…`. Archived skills and
 * skills the change deleted are left out: there is nothing to validate.
 */
export function findChangedSkills(workspace: string, skillsDir: string, changedFiles: readonly string[]): string[] {
  const root = skillsDir.replace(/\/+$/, '');
  const dirs = new Set<string>();
  for (const file of changedFiles) {
    if (!file.startsWith(`${root}/`)) continue;
    const parts = file.slice(root.length + 1).split('/');
    if (parts[0] === archiveDirName || parts.length < 2) continue;
    const one = `${root}/${parts[0]}`;
    if (existsSync(join(workspace, one, skillFileName))) dirs.add(one);
    else if (parts.length >= 3 && existsSync(join(workspace, one, parts[1] as string, skillFileName))) dirs.add(`${one}/${parts[1]}`);
  }
  return [...dirs].sort();
}
