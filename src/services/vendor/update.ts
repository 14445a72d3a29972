import { isSkillgardenError, SkillgardenError } from '../../core/errors.js';
import { lockFileName, requirePinned, serializeLock, type PinnedEntry, type SkillsLock } from '../../core/vendor/index.js';
import { commitAction, type ManageContext, type ManageResult } from '../manage/context.js';
import { openManagedLibrary } from '../manage/locate.js';
import { groupBySource, requireCommit } from './install.js';
import { writeProposals } from '../proposals/index.js';
import { planUpdate, type Planned, type SkillStatus, type UpdateResult } from './merge-skill.js';
import { buildUpdateProposal } from './update-proposal.js';
import { hasCommit, logTouching, openUpstream, readUpstreamFiles, type Upstream } from './upstream.js';
import { digestOf, readLock } from './vendored-skill.js';

export type { SkillStatus, UpdateResult } from './merge-skill.js';

export interface UpdateOptions {
  /** Only these vendored skills (default: all in the lock). */
  names: readonly string[];
  /** List the skills behind their source; write nothing. */
  check: boolean;
  now: Date;
}

/** Every vendored skill's status and, for those behind, its merge planned and checked; nothing written. */
export interface UpdatePlan {
  lock: SkillsLock;
  skills: SkillStatus[];
  plans: Planned[];
  /** Skills whose upstream change fails the check (a dangerous scan verdict, an invalid SKILL.md): never written, never proposed. */
  refused: { name: string; error: SkillgardenError }[];
}

/**
 * `skillgarden update`: each vendored skill whose folder changed upstream, merged
 * three ways (base: the pinned upstream, ours: the library at HEAD, theirs: the
 * ref's tip) and committed on its own with the lock. Every skill is planned, merged
 * and scanned before the first commit: a dangerous change anywhere writes nothing.
 * A skill whose merge conflicts writes nothing on the branch: the merge, markers and
 * all, is proposed on `skillgarden/update/<name>` for a person.
 */
export async function updateVendored(ctx: ManageContext, options: UpdateOptions): Promise<UpdateResult> {
  const plan = await planVendoredUpdates(ctx, options);
  const refused = plan.refused[0];
  if (refused) throw refused.error;
  const applied: ManageResult[] = [];
  for (const p of plan.plans.filter((x) => x.conflicts.length === 0)) applied.push(await commitUpdate(ctx, plan.lock, p, options.now));
  const conflicted = plan.plans.filter((x) => x.conflicts.length > 0);
  const proposals = conflicted.map((p) => buildUpdateProposal([p], plan.lock, { name: p.status.name, actor: ctx.actor, now: options.now }));
  const written = proposals.length > 0 ? await writeProposals(ctx.repoDir, proposals, { now: options.now }) : [];
  const proposed = written.map((w, i) => ({ ...w, conflicts: conflicted[i]?.conflicts ?? [] }));
  return { skills: plan.skills, applied, proposed };
}

/** The statuses and merges of `updateVendored`, computed and checked, with nothing written (the Action proposes them). */
export async function planVendoredUpdates(ctx: ManageContext, options: Omit<UpdateOptions, 'now'>): Promise<UpdatePlan> {
  const lock = readLock(ctx.repoDir);
  const names = requireLocked(lock, options.names);
  const library = openManagedLibrary(ctx);
  const skills: SkillStatus[] = [];
  const plans: Planned[] = [];
  const refused: UpdatePlan['refused'] = [];
  for (const group of groupBySource(names.map((n) => [n, requirePinned(n, lock.skills[n]!)] as const)).values()) {
    const upstream = await openUpstream(group[0]![1].sourceUrl, group[0]![1].ref);
    try {
      for (const [name, entry] of group) {
        const dir = library.skills.find((s) => s.name === name)?.path;
        if (dir === undefined) {
          throw new SkillgardenError(
            'vendor/missing',
            `skill "${name}" is in ${lockFileName} but not in the library; \`skillgarden install --frozen\` puts it back. Nothing was written.`,
            { data: { skill: name, exitCode: 2 } },
          );
        }
        // A rewritten history is an error, unless the person names the skill: then the new tip is what they asked for.
        const gone = !(await hasCommit(upstream, entry.commit));
        if (gone && (options.check || !options.names.includes(name))) await requireCommit(upstream, name, entry);
        const status = await statusOf(upstream, name, dir, entry, gone);
        skills.push(status);
        if (options.check || !status.behind) continue;
        try {
          plans.push(await planUpdate(ctx, upstream, status, entry));
        } catch (error) {
          if (!isSkillgardenError(error) || !refusedCodes.has(error.code)) throw error;
          refused.push({ name, error });
        }
      }
    } finally {
      upstream.close();
    }
  }
  return { lock, skills, plans, refused };
}

/** What the write gate refuses in third-party content: the update of that one skill is dropped, and said why. */
const refusedCodes = new Set(['scan/blocked', 'manage/invalid']);

/** Whether each vendored skill is behind its source: one fetch per source, nothing planned or written (`list --check-upstream`). */
export async function readUpstreamStatuses(repoDir: string, dirs: ReadonlyMap<string, string>): Promise<SkillStatus[]> {
  const lock = readLock(repoDir);
  const pinned = Object.keys(lock.skills)
    .sort()
    .filter((n) => dirs.has(n) && ['commit', 'sourceUrl', 'skillPath'].every((k) => typeof lock.skills[n]?.[k] === 'string'))
    .map((n) => [n, requirePinned(n, lock.skills[n]!)] as const);
  const out: SkillStatus[] = [];
  for (const group of groupBySource(pinned).values()) {
    const upstream = await openUpstream(group[0]![1].sourceUrl, group[0]![1].ref);
    try {
      for (const [name, entry] of group) {
        const gone = !(await hasCommit(upstream, entry.commit));
        out.push(await statusOf(upstream, name, dirs.get(name)!, entry, gone));
      }
    } finally {
      upstream.close();
    }
  }
  return out;
}

function requireLocked(lock: SkillsLock, names: readonly string[]): string[] {
  const unknown = names.filter((n) => lock.skills[n] === undefined);
  if (unknown.length > 0) {
    throw new SkillgardenError(
      'vendor/unknown-skill',
      `${lockFileName} has no skill ${unknown.map((n) => `"${n}"`).join(', ')}; it has: ${Object.keys(lock.skills).sort().join(', ') || 'none'}.`,
      { data: { skills: unknown, exitCode: 2 } },
    );
  }
  return names.length > 0 ? [...names] : Object.keys(lock.skills).sort();
}

async function statusOf(upstream: Upstream, name: string, dir: string, entry: PinnedEntry, gone: boolean): Promise<SkillStatus> {
  const base = { name, dir, source: entry.source, from: entry.commit, to: upstream.tip, behind: false, commits: [] };
  if (upstream.tip === entry.commit) return base;
  const theirs = await readUpstreamFiles(upstream, upstream.tip, entry.skillPath);
  if (digestOf(theirs) === entry.computedHash) return base;
  return { ...base, behind: true, gone, commits: gone ? [] : await logTouching(upstream, entry.commit, upstream.tip, entry.skillPath) };
}

/** One commit per skill, the lock with it; a staged one carries its own copy of the lock, so the branch's lock stays as it was. */
async function commitUpdate(ctx: ManageContext, lock: SkillsLock, plan: Planned, now: Date): Promise<ManageResult> {
  const { status } = plan;
  const entry = { ...plan.entry, updatedAt: now.toISOString() };
  const staged = plan.check.gate.decision === 'ask';
  const next: SkillsLock = { ...lock, skills: { ...lock.skills, [status.name]: entry } };
  if (!staged) lock.skills[status.name] = entry;
  const range = `${status.from.slice(0, 12)}..${status.to.slice(0, 12)}`;
  const body = [
    `Upstream commits touching ${plan.entry.skillPath}/ in ${status.source} (${range}):`,
    ...status.commits.map((c) => `  ${c}`),
  ].join('\n');
  const message = `update ${status.name} to ${status.to.slice(0, 12)} from ${status.source}`;
  return commitAction(
    { ...ctx, message },
    'update',
    [status.name],
    body,
    [...plan.changes, { path: lockFileName, content: serializeLock(next) }],
    { warnings: plan.check.warnings, commits: status.commits, from: status.from, to: status.to },
    plan.check.gate,
  );
}
