export * from './types.js';
export { planLifecycle, isCurated } from './plan-lifecycle.js';
export { applyDecision, applySeeds, recordAfter } from './apply-state.js';
export { resolveProvenance, type ProvenanceLists, type ResolvedProvenance } from './provenance.js';
