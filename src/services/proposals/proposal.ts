import type { FileChange } from '../../ledger/ledger.js';
import type { CuratorProposalKind } from './branch.js';

/**
 * One proposal, ready to be written: one commit on its own branch, and the
 * text a reviewer reads (a pull request's title and body, or the commit of a
 * local branch). The CLI (`writeProposals`) and the Action (`commitProposal`,
 * then a push and a pull request) write the same object.
 */
export interface BranchProposal {
  kind: CuratorProposalKind;
  /** The umbrella's or draft's name; `lifecycle` for the lifecycle proposal. */
  name: string;
  branch: string;
  /** Stable over runs that decide the same thing: how a declined proposal is recognised. */
  fingerprint: string;
  /** A pull request's title. */
  title: string;
  /** `skillgarden` and the kind's label (`lifecycle`, `umbrella`, `new-skill`, `description`); the Action adds its extra labels. */
  labels: string[];
  /** The commit's message, trailers last. */
  message: string;
  /** The message's trailer block, repeated last in a PR body so a squash merge keeps the ledger. */
  trailerBlock: string;
  /** Markdown list items: what changes and why. */
  reasons: string[];
  /** DESIGN §8 structured YAML (`prunings`, `consolidations`, `patterns`). */
  structured: string;
  /** Markdown: the report section for this proposal (the plan, the drafted SKILL.md, the transitions). */
  report: string;
  /** The skills the commit changes, for overlap checks and listings. */
  skills: string[];
  changes: FileChange[];
}

/** The last paragraph of a commit message: its trailer block. */
export function readTrailerBlock(message: string): string {
  return message.trimEnd().split('\n\n').at(-1) ?? '';
}

export const kindLabels: Record<BranchProposal['kind'], string> = {
  lifecycle: 'lifecycle',
  umbrella: 'umbrella',
  new: 'new-skill',
  update: 'vendored-update',
  describe: 'description',
};
