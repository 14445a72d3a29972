export type {
  Author,
  ChangedFile,
  CommitInfo,
  CommitOptions,
  CommitResult,
  FileChange,
  FileMode,
  Ledger,
  LedgerBackend,
  LedgerFile,
  RollbackOptions,
  RollbackResult,
  RollbackTarget,
} from './ledger.js';
export { openLedger } from './open-ledger.js';
export type { OpenLedgerOptions } from './open-ledger.js';
