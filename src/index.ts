/**
 * skillgarden's library API: what an agent host, a CI script or another tool builds on. Everything else under src/
 * is internal and may change without notice; api/skillgarden.api.md records this surface, and CI checks it
 * (`npm run api:check`), so a change to it is deliberate.
 *
 * @packageDocumentation
 */

// ── Errors ──────────────────────────────────────────────────────────────────────────────────────────────────────
/** The one error class for operational failures: a literal `code` to branch on and a `data` payload (never the wording). */
export { SkillgardenError, isSkillgardenError } from './core/errors.js';
/** A content problem, as data: `{ code, severity, file, line, column, message, hint }`. */
export type { Finding, Severity } from './core/findings.js';

// ── The runtime registry (DESIGN §11) ───────────────────────────────────────────────────────────────────────────
/** Discovers, parses and caches skills; `buildReminder()` gives Layer 1, `load(name)` Layer 2. */
export { SkillRegistry, type SkillRegistryOptions, type LoadOptions } from './registry/skill-registry.js';
/** What `load` returns, and its rendering as the text an agent reads. */
export { renderLoadResult, isLoaded, type LoadResult, type ForkRunner } from './registry/load-result.js';
/** Usage stores for the registry: in memory (tests, hosts that keep none) or the repository's per-writer files. */
export { createMemoryUsageStore, type UsageStore } from './registry/usage-store.js';
/** The repository's usage store: committed per-writer files plus this writer's pending bumps. */
export { createRepoUsageStore, type RepoUsageOptions } from './registry/repo-usage-store.js';
/** One skill as the registry serves it. */
export type { RegistryEntry, SkillContext } from './core/registry/types.js';
/** Per-skill usage counters (DESIGN §5) and what the runtime records. */
export type { UsageCounters, ReadKind } from './core/usage/types.js';
/** The usage score that orders the Layer-1 index, and the one definition of "inactive". */
export { usageScore, isInactive } from './core/usage/scores.js';

// ── The curator (DESIGN §6–§9) ──────────────────────────────────────────────────────────────────────────────────
/** One curator run: lifecycle transitions, patterns, consolidation plans, the run report. */
export { runCurator, type CurateOptions } from './services/curator/run-curator.js';
/** The curator for embedded use: runs when its gates allow (interval, idle time), never concurrently. */
export { CuratorRunner, type CuratorRunnerOptions } from './services/curator/curator-runner.js';
/** The run report (schemas/run-report.schema.json). */
export type { RunReport } from './core/report/run-report.js';

// ── The ledger: Git (DESIGN §3) ─────────────────────────────────────────────────────────────────────────────────
/** Opens the repository's ledger: every mutation one commit with trailers; fail-closed rollback. */
export { openLedger, type OpenLedgerOptions } from './ledger/open-ledger.js';
/** The ledger's interface and the shapes it takes and returns. */
export type { Ledger, CommitOptions, CommitResult, FileChange, RollbackOptions, RollbackResult } from './ledger/ledger.js';
/** The skill_manage actions and a person's lifecycle acts, each one commit through a ledger. */
export {
  createSkill,
  editSkill,
  deleteSkill,
  writeSkillFile,
  removeSkillFile,
  patchSkill,
  pinSkill,
  unpinSkill,
  adoptSkill,
  archiveSkill,
  restoreSkill,
  type PatchInput,
  type ManageContext,
  type ManageResult,
} from './services/manage/index.js';

// ── Validation and the security scan ────────────────────────────────────────────────────────────────────────────
/** Validates skills (a folder, a SKILL.md, or every skills root): findings as data. */
export { runValidate, type ValidateOptions, type ValidateReport } from './services/validate.js';
/** Validates skills and runs the security scan on what validation read, as the CLI and the Action do. */
export { runValidateAndScan, type ValidateAndScanOptions, type ValidateAndScanResult } from './services/validate-and-scan.js';
/** Validates one SKILL.md's text without touching the disk. */
export { validateSkill, type ValidateSkillInput, type SkillValidation } from './core/validate.js';
/** The security scan of skill folders: findings and a verdict per skill. */
export { runScan, type RunScanOptions } from './services/scan.js';
/** The scan's report. */
export type { ScanReport, ReportFinding } from './core/scan/report.js';

// ── SKILL.md ────────────────────────────────────────────────────────────────────────────────────────────────────
/** Parses SKILL.md text (never throws: problems are findings) and serializes it back, preserving untouched text. */
export { parseSkill, serializeSkill, setField, type ParsedSkill } from './core/skill/index.js';

// ── Transcripts and pattern mining (DESIGN §7) ──────────────────────────────────────────────────────────────────
/** Reads transcripts in the formats agents write (Claude Code, OpenAI messages, Hermes, compact JSONL, …). */
export { readTranscriptFiles, readTranscriptFile, expandTranscriptPaths } from './store/transcripts/index.js';
/** Mines recurring tool sequences from sessions, as the curator and `detect` do. */
export { minePatterns, type MineOptions } from './core/patterns/mine.js';
/** Transcripts to patterns and drafted skills in one call (`skillgarden detect`). */
export { runDetect, type DetectOptions } from './services/detect.js';
/** Per skill: sessions that had it, loaded it, missed it, and how they went with and without it (`skillgarden evidence`). */
export { runEvidence, type EvidenceRunOptions } from './services/evidence/run-evidence.js';
export type { EvidenceReport, SkillEvidence, OutcomeFigures } from './core/evidence/types.js';

// ── Consolidation planning (DESIGN §8) ──────────────────────────────────────────────────────────────────────────
/** Umbrella plans for the curated skills of a working tree, applied to nothing. */
export { planLibrary, type PlanLibraryOptions, type PlanLibraryResult } from './services/consolidate/plan.js';
/** Applies one plan as one merge commit through a ledger. */
export { applyPlan, type ApplyPlanOptions, type ApplyPlanResult } from './services/consolidate/apply.js';
