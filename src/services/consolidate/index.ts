export { planLibrary, type PlanLibraryOptions, type PlanLibraryResult } from './plan.js';
export { applyPlan, type ApplyPlanOptions, type ApplyPlanResult } from './apply.js';
export { readLibrary, type Library, type ReadLibraryOptions } from './read-library.js';
