export * from './types.js';
export { parseUsageFile, parseHermesUsage, normalizeTime, type ParsedUsage } from './parse-usage.js';
export { mergeUsage, applyBump, lastActivity, withCommittedPatch } from './merge-usage.js';
export { usageScore, isInactive, inactiveAfterDays } from './scores.js';
export { keyUsageByClientName, type ClientKeyedUsage } from './client-keys.js';
