export { computeDigest, type DigestFile } from './digest.js';
export {
  emptyLock,
  lockFileName,
  lockVersion,
  parseLock,
  requirePinned,
  serializeLock,
  type LockEntry,
  type PinnedEntry,
  type SkillsLock,
  type SourceType,
} from './lock.js';
export { planFileMerge, type FileDecision, type FileSides } from './merge-plan.js';
export { resolveSource, type ResolvedSource } from './source.js';
