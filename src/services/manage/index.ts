export { createSkill, editSkill, deleteSkill, writeSkillFile, removeSkillFile } from './skill-writes.js';
export { patchSkill, type PatchInput } from './patch.js';
export { pinSkill, unpinSkill, adoptSkill, archiveSkill, restoreSkill, adoptedFile } from './person-acts.js';
export { locateSkill, closestNames, type LocatedSkill } from './locate.js';
export type { ManageContext, ManageResult } from './context.js';
