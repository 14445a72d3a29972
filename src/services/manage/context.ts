import type { Actor, SkillAction, Source } from '../../core/ledger/trailers.js';
import { buildCommitMessage } from '../../core/ledger/trailers.js';
import type { ProfileName } from '../../core/schema/types.js';
import type { Author, FileChange, Ledger } from '../../ledger/ledger.js';
import { buildProposalBranch } from '../proposals/branch.js';

/** Who writes, where, and how: shared by every skill_manage action and every person's act. */
export interface ManageContext {
  /** The repository's working tree. */
  repoDir: string;
  ledger: Ledger;
  /** The skills root, repository-relative (default `skills`): where new skills go when `roots` has one root. */
  skillsDir: string;
  /**
   * The `skills_dir` setting as written (a folder, a glob, a list); absent:
   * the library is `skillsDir` alone. `null`: detected from the layout.
   */
  roots?: string | readonly string[] | null;
  /** The profile a written skill must satisfy (default `portable`). */
  profile: ProfileName;
  actor: Actor;
  /** For agent writes: a person asked (`foreground`) or the agent's own review (`background`). */
  source?: Source;
  /** A line for the commit subject (why), given by the caller. */
  message?: string;
  author?: Author;
  /** The curator run id, on every commit of a run. */
  run?: string;
}

export interface ManageResult {
  action: SkillAction;
  skills: string[];
  commit: string;
  /** Repository-relative paths the commit touched. */
  files: string[];
  /** Extra facts for the caller: the matcher a patch used, how many spans it replaced, where an archive went. */
  details: Record<string, unknown>;
  /**
   * Present when the scan policy answered "ask": the commit is on this
   * branch, not the working branch, waiting for a person to merge it
   * (`skillgarden proposals`). `commit` is the staged commit.
   */
  staged?: { branch: string; verdict: string };
}

/** The scan's answer for a write (see check-content.ts): `ask` stages it on a branch of its own. */
export interface GateAnswer {
  decision: 'allow' | 'ask';
  verdict: string;
  warnings: readonly unknown[];
}

/** The branch a staged write of skill `name` waits on: one commit, replaced by the skill's next staged write. */
export function stagedBranch(name: string): string {
  return buildProposalBranch('staged', name);
}

/** Writes one ledger commit for an action and returns what it did. */
export async function commitAction(
  ctx: ManageContext,
  action: SkillAction,
  skills: string[],
  summary: string,
  changes: FileChange[],
  details: Record<string, unknown> = {},
  gate?: GateAnswer,
): Promise<ManageResult> {
  const subject = `skill(${action}): ${skills.join(', ')} — ${oneLine(ctx.message ?? summary)}`;
  const message = buildCommitMessage({
    subject,
    ...(ctx.message && ctx.message !== summary ? { body: summary } : {}),
    trailers: {
      action,
      skills,
      actor: ctx.actor,
      ...(ctx.actor === 'agent' ? { source: ctx.source ?? 'foreground' } : {}),
      ...(ctx.run ? { run: ctx.run } : {}),
      reverts: [],
    },
  });
  const files = changes.map((c) => c.path).sort();
  const withWarnings = gate && gate.warnings.length > 0 ? mergeWarnings(details, gate.warnings) : details;
  if (gate?.decision === 'ask') {
    const branch = stagedBranch(skills[0] ?? 'skill');
    const staged = await ctx.ledger.commitOnBranch({ branch, message, changes, ...(ctx.author ? { author: ctx.author } : {}) });
    return { action, skills, commit: staged.commit, files, details: withWarnings, staged: { branch, verdict: gate.verdict } };
  }
  const result = await ctx.ledger.commit({ message, changes, ...(ctx.author ? { author: ctx.author } : {}) });
  return { action, skills, commit: result.commit, files, details: withWarnings };
}

function mergeWarnings(details: Record<string, unknown>, extra: readonly unknown[]): Record<string, unknown> {
  const before = Array.isArray(details.warnings) ? (details.warnings as unknown[]) : [];
  return { ...details, warnings: [...before, ...extra] };
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 100 ? line : `${line.slice(0, 99)}…`;
}

/** Writes by an agent or the curator, foreground or not: a pin means only a person changes the skill. */
export function isAutonomous(ctx: ManageContext): boolean {
  return ctx.actor !== 'user';
}
