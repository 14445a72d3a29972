export { scanSkillDir, type ScanDirOptions } from './scan-skill-dir.js';
export { walkSkill, type WalkResult, type WalkedFile } from './walk-skill.js';
export { readContent, decodeContent, isNativeExecutable, type FileContent, type ContentKind } from './read-content.js';
