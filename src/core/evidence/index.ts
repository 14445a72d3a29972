export * from './types.js';
export { buildEvidenceReport, defaultMinSessions, EvidenceAccumulator, type EvidenceOptions } from './accumulator.js';
export { buildOutcomeFigures, readSessionOutcome, type SessionOutcome } from './outcome.js';
export { buildCommandKey, didProcedure, listProcedureCommands, listSessionCommands } from '../patterns/procedure.js';
export { buildSkillIndex, resolveLoad, type EvidenceSkillInput, type SkillIndex } from './skill-index.js';
export { askedFor, listTriggerWords, listWordKeys } from './words.js';
export { renderEvidenceText } from './render.js';
