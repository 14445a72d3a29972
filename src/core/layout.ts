/** Where things live in a skills repository (DESIGN §2). */
export const defaultSkillsDir = 'skills';
export const archiveDirName = '.archive';
export const skillFileName = 'SKILL.md';
export const metaDir = '.skillgarden';
export const supportDirs = ['references', 'templates', 'scripts', 'assets'] as const;

/**
 * Folder names that never hold skills or categories. Other hidden folders may:
 * OpenAI's library keeps skills under `.curated/` and `.system/`.
 */
const ignoredNames = new Set([archiveDirName, metaDir, '.git', '.hub', '.github', 'node_modules', '__pycache__', ...supportDirs]);

/** True for a folder name that can be a skill or a category. */
export function isCandidateFolder(name: string): boolean {
  return !ignoredNames.has(name);
}
