import { SkillgardenError } from '../../core/errors.js';
import { lockFileName, requirePinned, serializeLock, type PinnedEntry, type SkillsLock } from '../../core/vendor/index.js';
import { commitAction, type ManageContext, type ManageResult } from '../manage/context.js';
import { openManagedLibrary } from '../manage/locate.js';
import { groupBySource, requireCommit } from './install.js';
import { planUpdate, type Conflict, type Planned, type SkillStatus, type UpdateResult } from './merge-skill.js';
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

/**
 * `skillgarden update`: each vendored skill whose folder changed upstream, merged
 * three ways (base: the pinned upstream, ours: the library at HEAD, theirs: the
 * ref's tip) and committed on its own with the lock. Every skill is planned, merged
 * and scanned before the first commit: a conflict anywhere writes nothing.
 */
export async function updateVendored(ctx: ManageContext, options: UpdateOptions): Promise<UpdateResult> {
  const lock = readLock(ctx.repoDir);
  const unknown = options.names.filter((n) => lock.skills[n] === undefined);
  if (unknown.length > 0) {
    throw new SkillgardenError(
      'vendor/unknown-skill',
      `${lockFileName} has no skill ${unknown.map((n) => `"${n}"`).join(', ')}; it has: ${Object.keys(lock.skills).sort().join(', ') || 'none'}.`,
      {
        data: { skills: unknown, exitCode: 2 },
      },
    );
  }
  const names = options.names.length > 0 ? [...options.names] : Object.keys(lock.skills).sort();
  const library = openManagedLibrary(ctx);
  const statuses: SkillStatus[] = [];
  const plans: Planned[] = [];
  const conflicts: Conflict[] = [];
  for (const group of groupBySource(names.map((n) => [n, requirePinned(n, lock.skills[n]!)] as const)).values()) {
    const upstream = await openUpstream(group[0]![1].sourceUrl, group[0]![1].ref);
    try {
      for (const [name, entry] of group) {
        const dir = library.skills.find((s) => s.name === name)?.path;
        if (dir === undefined) {
          throw new SkillgardenError(
            'vendor/missing',
            `skill "${name}" is in ${lockFileName} but not in the library; \`skillgarden install --frozen\` puts it back. Nothing was written.`,
            {
              data: { skill: name, exitCode: 2 },
            },
          );
        }
        // A rewritten history is an error, unless the person names the skill: then the new tip is what they asked for.
        const gone = !(await hasCommit(upstream, entry.commit));
        if (gone && (options.check || !options.names.includes(name))) await requireCommit(upstream, name, entry);
        const status = await statusOf(upstream, name, dir, entry, gone);
        statuses.push(status);
        if (options.check || !status.behind) continue;
        const planned = await planUpdate(ctx, upstream, status, entry, conflicts);
        if (planned) plans.push(planned);
      }
    } finally {
      upstream.close();
    }
  }
  if (conflicts.length > 0) {
    throw new SkillgardenError(
      'vendor/conflict',
      `the library and the source changed the same lines (nothing was written):\n${conflicts.map((c) => `  ${c.file}: ${c.reason}`).join('\n')}\nResolve them by hand in the library (keep, or take the source's lines), commit, then run update again.`,
      { data: { conflicts, exitCode: 1 } },
    );
  }
  const applied: ManageResult[] = [];
  for (const plan of plans) applied.push(await commitUpdate(ctx, lock, plan, options.now));
  return { skills: statuses, applied };
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
