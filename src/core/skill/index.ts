export { parseSkill, parseSkillBytes, type ParseSkillOptions } from './parse.js';
export { serializeSkill, replaceBody } from './serialize.js';
export { setField, renderInline } from './edit.js';
export { splitSkill, type SkillSections } from './split.js';
export { decodeSkillBytes, looksBinary } from './decode.js';
export { readToolList } from './tool-list.js';
export { readPathGlobs, readPathList } from './path-list.js';
export { stringField, type ParsedSkill, type FieldPath, type Position } from './types.js';
