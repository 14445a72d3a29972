export { SkillRegistry, type SkillRegistryOptions, type LoadOptions } from './skill-registry.js';
export { renderLoadResult, isLoaded, type LoadResult, type ForkRunner } from './load-result.js';
export { createMemoryUsageStore, bumpCounters, type UsageStore } from './usage-store.js';
export { watchSkills, type SkillWatcher, type WatchOptions } from './watcher.js';
export type { RefreshResult } from './library-cache.js';
export type { InlineShellOptions } from './inline-shell.js';
export type { ScanFs } from './library-scan.js';
export { createRepoUsageStore, type RepoUsageOptions } from './repo-usage-store.js';
