import type { ConsolidationPlan } from '../../core/consolidate/index.js';
import type { DraftLimits } from '../../core/patterns/index.js';
import type { LedgerBackend } from '../../ledger/ledger.js';
import type { ChatClientOptions } from '../../llm/chat-client.js';

/** What a curator pass is asked to do (`runCurator`); its parts read it too. */
export interface CurateOptions {
  repoDir: string;
  now: Date;
  dryRun?: boolean;
  /** Obey the gates (enabled, paused, interval, first-run deferral); a run asked for by hand does not. */
  scheduled?: boolean;
  deferFirstRun?: boolean;
  idleHours?: number;
  backend?: LedgerBackend | 'auto';
  /** Plan umbrella consolidations (shown as proposals, never applied here); default: `consolidate` in the config. */
  consolidate?: boolean;
  /** Transcript globs (relative to the repository) to mine for patterns; default: `transcripts` in the config. */
  transcripts?: readonly string[];
  /** The folder transcript globs resolve against (default: the repository): the Action's checkout, not its scratch clone. */
  transcriptsDir?: string;
  /** Overrides `patterns:` in the config (the Action's `max-drafts`, `min-sessions`, `min-confidence`). */
  draftLimits?: Partial<DraftLimits>;
  /**
   * Propose the lifecycle transitions instead of committing them: nothing is
   * written (no commit, no tag); the result's `lifecycle` is the proposal for
   * `skillgarden/lifecycle`, to write with the proposal writer. No first-run
   * deferral: a person reviews the proposal.
   */
  propose?: boolean;
  /**
   * Which of the umbrella plans holding a transition back a person declined: those hold nothing back (they are not
   * proposed again). Asked only when an umbrella holds something back; default: none declined.
   */
  readDeclinedUmbrellas?: (plans: readonly ConsolidationPlan[]) => Promise<readonly ConsolidationPlan[]>;
  /** Nothing silently empty: see `ReadLibraryOptions.requireSkills`. */
  requireSkills?: { allowEmpty?: boolean };
  /** The optional LLM pass over drafts and umbrellas: their prose rewritten, checked, else kept as built. */
  llm?: ChatClientOptions;
  onProgress?: (done: number, total: number) => void;
}
