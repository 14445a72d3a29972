export { planConsolidation, buildGuardInput, type ConsolidationInput, type ConsolidationResult, type DroppedPlan } from './plan.js';
export { checkPlan, maskText, type GuardInput } from './guard.js';
export { buildClusters } from './cluster.js';
export { buildFeatures } from './features.js';
export { selectCuratable, isCuratable } from './eligible.js';
export { defaultConsolidationConfig, resolveConsolidationConfig, type ConsolidationConfig } from './config.js';
export {
  buildPlanReport,
  describeEvidence,
  describePlan,
  renderPlansMarkdown,
  renderPlansText,
  type PlanReport,
  type PlanLlmNote,
} from './render.js';
export { rewriteText } from './rewrite.js';
export { fitDescription } from './description.js';
export type * from './types.js';
export { checkProsedUmbrella, readAbsorbedFromChanges, type ProsedUmbrella, type ProseCheck } from './prose-check.js';
export { adviseOverlaps, type OverlapAdvice } from './advise.js';
