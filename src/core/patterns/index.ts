export * from "./types.js";
export {
  buildArgShape,
  buildToolCall,
  defaultRefine,
  parseProgram,
  type BuildCallOptions,
  type RefineMap,
} from "./shape.js";
export {
  buildToken,
  buildTokenIds,
  collapseRuns,
  TokenTable,
  type TokenizeOptions,
} from "./tokens.js";
export { buildFingerprint } from "./fingerprint.js";
export {
  buildJaccard,
  minePatterns,
  minePatternsFromTokens,
  type MineInput,
  type MineOptions,
} from "./mine.js";
export type { CandidateOrder } from "./order-candidates.js";
export {
  buildDraft,
  draftPatterns,
  findCoveringSkill,
  type DraftOptions,
  type DraftProfile,
  type ExistingSkill,
} from "./draft.js";
export { buildDraftName, buildUniqueName } from "./draft-name.js";
export { buildSkillUses, parseSkillLoad, parseSlashCommand } from "./uses.js";
export { renderDetectText, renderPatternsMarkdown } from "./render.js";
