export { planLibrary, planSnapshot, type PlanLibraryOptions, type PlanLibraryResult } from './plan.js';
export { applyPlan, type ApplyPlanOptions, type ApplyPlanResult } from './apply.js';
export { readPackages, type Library } from './read-packages.js';
