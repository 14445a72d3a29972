export * from './types.js';
export { buildArgShape, buildToolCall, defaultRefine, parseProgram, type BuildCallOptions, type RefineMap } from './shape.js';
export { buildToken, buildTokenIds, collapseRuns, TokenTable, type TokenizeOptions } from './tokens.js';
export { buildFingerprint } from './fingerprint.js';
export { buildJaccard, minePatterns, minePatternsFromTokens, type MineInput, type MineOptions } from './mine.js';
export type { CandidateOrder } from './order-candidates.js';
export {
  buildDraft,
  defaultDraftLimits,
  draftPatterns,
  findCoveringSkill,
  resolveDraftLimits,
  type DraftLimits,
  type DraftOptions,
  type DraftProfile,
  type ExistingSkill,
} from './draft.js';
export { buildPatternEvidence, type EvidenceSession, type PatternEvidence } from './evidence.js';
export { isGenericSequence, isGenericToken } from './generic.js';
export { buildTaskName, buildUniqueName } from './draft-name.js';
export { buildSkillUses, parseSkillLoads, parseSlashCommand } from './uses.js';
export { renderDetectText, renderPatternsMarkdown, type RenderDetectOptions } from './render.js';
